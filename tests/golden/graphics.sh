#!/bin/sh
# graphics: pdlc's own --plot and --emit dot, end to end: the SVG gnuplot draws for pdlc parses as
# XML (xmllint) and names both machines; the DOT pdlc writes is accepted by Graphviz; without
# gnuplot --plot fails at once with the hint, writes nothing, and status 1.
# usage: graphics.sh PDLC EXAMPLES_DIR. gnuplot, xmllint and dot are required (CI installs them).
set -u
pdlc=$1
ex=$2
status=0
for tool in gnuplot:gnuplot-nox xmllint:libxml2-utils dot:graphviz; do
    if ! command -v "${tool%%:*}" >/dev/null 2>&1; then
        echo "FAIL: '${tool%%:*}' is not installed; install ${tool#*:} (apt-get install ${tool#*:})"
        exit 1
    fi
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pdlgfx.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() {
    printf 'FAIL %s\n' "$*"
    status=1
}

# The speedup of two machines with bounds: an SVG that parses, with each machine in the legend.
if ! "$pdlc" "$ex/suprenum.pdl" --set iters=2 --procs 1-4 --method bounds \
    --machine "$ex/meiko-cs2.mdl" --machine "$ex/parsytec.mdl" \
    --plot "$tmp/s.svg" -o "$tmp/s.csv" 2>"$tmp/err"; then
    fail "pdlc --plot failed:"
    cat "$tmp/err"
fi
if ! xmllint --noout "$tmp/s.svg" 2>"$tmp/xml.err"; then
    fail "the plot is not well-formed XML:"
    cat "$tmp/xml.err"
fi
for m in meiko-cs2 parsytec; do
    grep -q "machine=$m" "$tmp/s.svg" || fail "the plot's legend does not name $m"
done
grep -q '^machine,procs,mean,speedup,efficiency,lower,upper' "$tmp/s.csv" ||
    fail "the CSV beside the plot lost its columns"
ls "$tmp" | grep -q '\.tmp\.' && fail "a temporary file was left behind"

# Without gnuplot: the hint, status 1, and neither the plot nor the CSV written.
PDLC_GNUPLOT=/nonexistent/gnuplot "$pdlc" "$ex/suprenum.pdl" --set iters=2 --procs 1-2 \
    --plot "$tmp/n.svg" -o "$tmp/n.csv" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 1 ] || fail "without gnuplot pdlc exited $rc, not 1"
grep -q "gnuplot" "$tmp/err" || fail "without gnuplot the error does not say so: $(cat "$tmp/err")"
[ -e "$tmp/n.svg" ] && fail "without gnuplot a plot was written"
[ -e "$tmp/n.csv" ] && fail "without gnuplot the CSV was written"

# --emit dot of both models through Graphviz.
for method in approx bounds; do
    if ! "$pdlc" "$ex/jacobi.pdl" --set n=16 --procs 4 --emit dot --method "$method" \
        >"$tmp/g.dot" 2>"$tmp/err"; then
        fail "pdlc --emit dot --method $method failed:"
        cat "$tmp/err"
        continue
    fi
    dot -Tsvg "$tmp/g.dot" >"$tmp/g.svg" 2>"$tmp/dot.err" || {
        fail "dot rejected pdlc's $method graph:"
        cat "$tmp/dot.err"
    }
    xmllint --noout "$tmp/g.svg" 2>/dev/null || fail "dot's SVG of the $method graph is not XML"
done
[ "$status" -eq 0 ] && echo "graphics: plot and DOT through pdlc are valid"
exit "$status"
