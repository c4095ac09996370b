#!/bin/sh
# bench_model: wall-clock time of the main job. Prints numbers; asserts nothing.
#   usage: tests/bench/bench_model.sh build/compiler/pdlc [pdl-examples]
# 1. --max-procs 1024 on a NEIGHBOR program with 100000 columns and 1000 iterations (the model's
#    cost must not grow with columns or iterations beyond log factors: m-fold sums by squaring).
# 2. p = 1..64 on every example, with the options its "// pdlc-args:" line gives.
set -u
pdlc=${1:?usage: bench_model.sh PDLC [EXAMPLES_DIR]}
dir=${2:-$(dirname "$0")/../../pdl-examples}
tmp=${TMPDIR:-/tmp}/bench_model.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT

now() { date +%s.%N; }
elapsed() { echo "$2 - $1" | awk '{ printf "%.3f", $1 - $3 }'; }

cat > "$tmp/big.pdl" <<'PDL'
PROGRAM NAME IS 'big';
PARAMETER columns = 100000;
PARAMETER iterations = 1000;
EXECUTION PATTERN IS sweep ^ iterations;
WORK PHASE sweep IS:
    PARALLELIZATION SCHEME IS NEIGHBOR;
    SUBTASK RUNTIME IS ERLANG(8, 0.125);
    PROBLEM SIZE IS GRID U(1000, columns);
    COMMUNICATION VOLUME IS 8000;
END;
CONCATENATION IS: sweep, sweep : NEIGHBOR; END;
PDL
printf 'MACHINE NAME IS %s;\nLOGGP(L = 9, o = 2, g = 14, G = 0.03);\n' "'meiko'" > "$tmp/m.mdl"

echo "# NEIGHBOR, 100000 columns x 1000 iterations"
printf '%-28s %10s %12s\n' "run" "seconds" "mean(p=max)"
for p in 64 1024; do
    t0=$(now)
    last=$("$pdlc" "$tmp/big.pdl" --machine "$tmp/m.mdl" --max-procs "$p" | tail -n 1 | cut -d, -f2)
    t1=$(now)
    printf '%-28s %10s %12s\n' "--max-procs $p" "$(elapsed "$t0" "$t1")" "$last"
done

echo
echo "# every example, p = 1..64"
printf '%-20s %10s %12s\n' "example" "seconds" "speedup(64)"
for f in "$dir"/*.pdl; do
    args=$(sed -n 's|^// pdlc-args: *||p' "$f" | head -n 1)
    t0=$(now)
    # shellcheck disable=SC2086 # args are words by design
    last=$("$pdlc" "$f" $args --max-procs 64 | tail -n 1 | cut -d, -f3)
    t1=$(now)
    printf '%-20s %10s %12s\n' "$(basename "$f")" "$(elapsed "$t0" "$t1")" "$last"
done
