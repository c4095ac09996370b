/* replay: runs fuzz_pdl's entry point on files (a saved corpus) without libFuzzer, so CI can
 * check that every input found while fuzzing still passes, under the sanitizers too. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
    int n = 0;
    for (int k = 1; k < argc; k++) {
        FILE *f = fopen(argv[k], "rb");
        if (!f) {
            fprintf(stderr, "replay: cannot open %s\n", argv[k]);
            return 2;
        }
        size_t cap = 1 << 16, len = 0;
        unsigned char *buf = malloc(cap);
        size_t r;
        while (buf && (r = fread(buf + len, 1, cap - len, f)) > 0) {
            len += r;
            if (len == cap) {
                unsigned char *nb = realloc(buf, cap *= 2);
                if (!nb)
                    free(buf);
                buf = nb;
            }
        }
        fclose(f);
        if (!buf)
            return 2;
        LLVMFuzzerTestOneInput(buf, len);
        free(buf);
        n++;
    }
    printf("replayed %d inputs\n", n);
    return 0;
}
