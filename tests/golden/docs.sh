#!/bin/sh
# docs: the examples in README.md and man/pdlc.1 print what pdlc prints. An example is a command
# line "$ pdlc ..." or "$ build/compiler/pdlc ..." (continued by lines ending in a backslash)
# followed by its output, standard output and standard error together: a ```console block of the
# README, a .nf/.fi block of the man page (its escapes \- and \e undone). The output must match
# byte for byte; in a block whose lines end in " ..." (columns cut to fit a page) each line must
# begin with the text before the dots. Commands run in a scratch directory where pdl-examples
# is the source tree's, so files they write (plots) land there. This keeps the documentation
# true; the values themselves are checked elsewhere (table3, the golden and robustness tests).
# usage: docs.sh PDLC SOURCE_DIR
set -u
pdlc=$1
src=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pdldocs.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/run" && ln -s "$src/pdl-examples" "$tmp/run/pdl-examples" || exit 1

# Writes example N's command to $tmp/D-N.cmd and its output to $tmp/D-N.want (D: the document).
extract() { # FILE TAG OPEN CLOSE UNESCAPE
    awk -v dir="$tmp" -v tag="$2" -v open="$3" -v close_="$4" -v unesc="$5" '
        function flush() { if (n) { close(cmd); close(want) } }
        $0 == open { inblock = 1; started = 0; next }
        inblock && $0 == close_ { inblock = 0; next }
        !inblock { next }
        { if (unesc) { gsub(/\\-/, "-"); gsub(/\\e/, "\\") } }
        !started && /^\$ / {
            flush(); n++; started = 1; incmd = 1
            cmd = dir "/" tag "-" n ".cmd"; want = dir "/" tag "-" n ".want"
            printf "" > want; $0 = substr($0, 3)
        }
        !started { inblock = 0; next }  # a block of commands only: not an example
        incmd { cont = sub(/\\$/, ""); printf "%s", $0 > cmd
                if (!cont) { printf "\n" > cmd; incmd = 0 }
                next }
        { print > want }
        END { flush() }
    ' "$1"
}
extract "$src/README.md" readme '```console' '```' 0
extract "$src/man/pdlc.1" man '.nf' '.fi' 1

count=0
status=0
for c in "$tmp"/*.cmd; do
    [ -e "$c" ] || break
    n=$(basename "$c" .cmd)
    count=$((count + 1))
    args=$(sed -e 's|^build/compiler/pdlc ||' -e 's|^pdlc ||' "$c")
    # The examples' arguments are plain words: split them as the shell does.
    (cd "$tmp/run" && eval "set -- $args" && "$pdlc" "$@") >"$tmp/$n.got" 2>&1
    if grep -q ' \.\.\.$' "$tmp/$n.want"; then
        # columns cut: compare each line's text before the dots with the start of pdlc's line
        ok=$(awk 'NR == FNR { got[FNR] = $0; ng = FNR; next }
                  { w = $0; cut = sub(/ \.\.\.$/, "", w)
                    if (cut ? substr(got[FNR], 1, length(w)) != w : got[FNR] != w) bad = 1 }
                  END { print (bad || FNR != ng) ? "no" : "yes" }' "$tmp/$n.got" "$tmp/$n.want")
    else
        ok=no
        cmp -s "$tmp/$n.want" "$tmp/$n.got" && ok=yes
    fi
    if [ "$ok" != yes ]; then
        echo "FAIL: example $n: pdlc $args"
        diff "$tmp/$n.want" "$tmp/$n.got" | head -20
        status=1
    fi
done
# README: the Jacobi run, its losses table, the diagnostic; man: SUPRENUM, losses, --optimize.
if [ "$count" -lt 6 ]; then
    echo "FAIL: found $count examples with output in README.md and man/pdlc.1, expected 6"
    status=1
fi
[ "$status" -eq 0 ] && echo "docs: $count examples print what pdlc prints"
exit $status
