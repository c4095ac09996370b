#include "test_util.h"
static const tu_case cases[] = {{NULL, NULL}};
int main(void)
{
    return tu_run("oracle", cases);
}
