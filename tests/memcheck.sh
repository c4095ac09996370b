#!/bin/sh
# memcheck: runs pdlc under valgrind; any memory error or leak fails. Blocks still reachable at
# exit are not leaks, nor is the thread-local storage libgomp's pool keeps (valgrind.supp).
# usage: memcheck.sh PDLC EXAMPLES_DIR [PDLC-OPTION...]
#          every example, each with the options it names on a line "// pdlc-args: ..."
#        memcheck.sh --golden GOLDEN PDLC FILE.test...
#          golden cases (tests/golden/golden.c runs pdlc through $GOLDEN_WRAPPER); a memory
#          error shows up there as stderr that differs and exit status 99
set -u
here=$(cd "$(dirname "$0")" && pwd)
vg="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect,possible --suppressions=$here/solver/valgrind.supp"

if [ "${1:-}" = "--golden" ]; then
    golden=$2
    pdlc=$3
    shift 3
    GOLDEN_WRAPPER=$vg
    export GOLDEN_WRAPPER
    exec "$golden" "$pdlc" "$@"
fi

pdlc=$1
dir=$2
shift 2
status=0
for f in "$dir"/*.pdl; do
    args=$(sed -n 's|^// pdlc-args: *||p' "$f" | head -n 1)
    # shellcheck disable=SC2086 # args and vg are words by design
    if ! $vg "$pdlc" "$f" $args "$@" >/dev/null 2>"${TMPDIR:-/tmp}/memcheck.$$"; then
        echo "FAIL $f"
        cat "${TMPDIR:-/tmp}/memcheck.$$"
        status=1
    else
        echo "ok   $f"
    fi
done
rm -f "${TMPDIR:-/tmp}/memcheck.$$"
exit $status
