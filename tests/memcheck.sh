#!/bin/sh
# memcheck: runs pdlc on every example under valgrind; any memory error or leak fails. Blocks
# still reachable at exit are not leaks (libgomp keeps one from its initialisation).
# usage: memcheck.sh PDLC EXAMPLES_DIR [PDLC-OPTION...]
# Each example may name the options it needs on a line "// pdlc-args: ...".
set -u
pdlc=$1
dir=$2
shift 2
status=0
for f in "$dir"/*.pdl; do
    args=$(sed -n 's|^// pdlc-args: *||p' "$f" | head -n 1)
    # shellcheck disable=SC2086 # args are words by design
    if ! valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect,possible \
        "$pdlc" "$f" $args "$@" >/dev/null 2>"${TMPDIR:-/tmp}/memcheck.$$"; then
        echo "FAIL $f"
        cat "${TMPDIR:-/tmp}/memcheck.$$"
        status=1
    else
        echo "ok   $f"
    fi
done
rm -f "${TMPDIR:-/tmp}/memcheck.$$"
exit $status
