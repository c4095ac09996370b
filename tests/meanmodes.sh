#!/bin/sh
# meanmodes: without --quantiles pdlc carries closed parts of a model as points at their means
# (pdl_gen_set_mean_only); with quantiles it keeps whole distributions. The means printed must
# be the same, digit for digit, on every example and several processor counts.
#   usage: meanmodes.sh PDLC EXAMPLES_DIR
set -u
pdlc=$1
dir=$2
status=0
for f in "$dir"/*.pdl; do
    args=$(sed -n 's|^// pdlc-args: *||p' "$f" | head -n 1)
    # shellcheck disable=SC2086 # args are words by design
    a=$("$pdlc" "$f" $args --procs 1,2,3,5,8 | cut -d, -f1,2) || status=1
    # shellcheck disable=SC2086
    b=$("$pdlc" "$f" $args --procs 1,2,3,5,8 --quantiles 0.5 | cut -d, -f1,2) || status=1
    if [ "$a" != "$b" ]; then
        echo "FAIL $f: means differ between the two modes"
        echo "mean only:"; echo "$a"
        echo "whole distributions:"; echo "$b"
        status=1
    else
        echo "ok   $f"
    fi
done
exit $status
