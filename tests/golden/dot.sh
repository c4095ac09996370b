#!/bin/sh
# dot: the DOT graphs of pdl_dot_write (pdlc --emit dot), driven through tests/golden/dotgen.
#   1. every example (with the --set values of its "// pdlc-args:" line) and hand-written programs
#      covering every scheme and pattern form, both models, on the ideal machine and on the two
#      example machines: Graphviz's dot must accept the graph and draw a non-empty SVG;
#   2. structural checks: node labels, counts and edges whose values are derived by hand next to
#      each assertion (not taken from pdlc's output);
#   3. the size guard (no graph is written past PDL_DOT_MAX_NODES) and byte-identical reruns.
# usage: dot.sh DOTGEN EXAMPLES_DIR
# Graphviz is required: without `dot` the test fails (CI installs it), it does not skip.
set -u
gen=$1
ex=$2
status=0
if ! command -v dot >/dev/null 2>&1; then
    echo "FAIL: Graphviz's 'dot' is not installed; install graphviz (apt-get install graphviz)"
    exit 1
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pdldot.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

fail() {
    printf 'FAIL %s\n' "$*"
    status=1
}

# dotgen ARGS... into $tmp/g.dot; then dot -Tsvg must succeed with a non-empty SVG.
render() {
    if ! "$gen" "$@" >"$tmp/g.dot" 2>"$tmp/err"; then
        fail "dotgen $* exited with an error:"
        cat "$tmp/err"
        return 1
    fi
    if ! dot -Tsvg "$tmp/g.dot" >"$tmp/g.svg" 2>"$tmp/dot.err"; then
        fail "dot -Tsvg rejected the graph of dotgen $*:"
        cat "$tmp/dot.err"
        return 1
    fi
    if ! [ -s "$tmp/g.svg" ] || ! grep -q '<svg' "$tmp/g.svg"; then
        fail "dot drew no SVG for dotgen $*"
        return 1
    fi
    return 0
}

# expect N TEXT WHY: TEXT (a fixed string) is on exactly N lines of the last graph.
expect() {
    n=$(grep -cF -- "$2" "$tmp/g.dot")
    [ "$n" -eq "$1" ] || fail "$case: expected $1 line(s) with '$2' ($3), found $n"
}

# end_mean VALUE WHY: the end node's mean (the scaled model's mean) within 1e-6 relative.
end_mean() {
    got=$(sed -n 's/.*label="end\\nmean \([^"]*\)".*/\1/p' "$tmp/g.dot")
    if ! awk -v a="$got" -v b="$1" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != "" && d <= 1e-6 * b) }'; then
        fail "$case: end mean '$got', expected $1 ($2)"
    fi
}

# ---- 1. every example, both models, three machines ----
for f in "$ex"/*.pdl; do
    sets=$(sed -n 's|^// pdlc-args: *||p' "$f" | head -n 1 | grep -o -- '--set [^ ]*' | tr '\n' ' ')
    # loop.pdl's 2000 iterations are a generic graph of 4000 nodes that dot lays out in minutes;
    # 60 iterations draw the same structure (its full size is a size-guard case below).
    [ "$(basename "$f")" = loop.pdl ] && sets="--set n=60"
    for model in "" --generic; do
        for m in "" "--machine $ex/meiko-cs2.mdl" "--machine $ex/parsytec.mdl"; do
            # shellcheck disable=SC2086 # options are words by design
            render $model $m $sets 3 "$f" && echo "ok   $(basename "$f") ${model:---scaled} ${m:-ideal}"
        done
    done
done

# ---- hand-written programs ----
cat >"$tmp/two.pdl" <<'EOF'
PROGRAM NAME IS 'two';
PARAMETER n = 8;
EXECUTION PATTERN IS w1 -> w2;
WORK PHASE w1 IS:
    PARALLELIZATION SCHEME IS INDEPENDENT;
    SUBTASK RUNTIME IS DETERMINISTIC(1);
    PROBLEM SIZE IS VECTOR A(n);
END;
WORK PHASE w2 IS:
    PARALLELIZATION SCHEME IS INDEPENDENT;
    SUBTASK RUNTIME IS DETERMINISTIC(1);
    PROBLEM SIZE IS VECTOR A(n);
END;
CONCATENATION IS:
    w1, w2 : BARRIER;
END;
EOF
sed 's/w1, w2 : BARRIER/w1, w2 : SERIAL/' "$tmp/two.pdl" >"$tmp/serial.pdl"

cat >"$tmp/groups.pdl" <<'EOF'
PROGRAM NAME IS 'groups';
EXECUTION PATTERN IS w;
WORK PHASE w IS:
    PARALLELIZATION SCHEME IS INDEPENDENT;
    SUBTASK RUNTIME IS DETERMINISTIC(1 + i % 2);
    PROBLEM SIZE IS VECTOR A(8);
END;
EOF

cat >"$tmp/test.mdl" <<'EOF'
MACHINE NAME IS 'test';
RTFACTOR IS 1.0;
COMMUNICATION IS MESSAGE PASSING;
LOGGP(L = 10, o = 1, g = 5, G = 0);
TOPOLOGY IS FULL;
BARRIER TIME IS DETERMINISTIC(3);
EOF
cat >"$tmp/nb.pdl" <<'EOF'
PROGRAM NAME IS 'nb';
EXECUTION PATTERN IS init -> sync -> w;
SEQUENTIAL PHASE init IS:
    RUNTIME IS DETERMINISTIC(5);
END;
WORK PHASE w IS:
    PARALLELIZATION SCHEME IS NEIGHBOR;
    SUBTASK RUNTIME IS DETERMINISTIC(1);
    PROBLEM SIZE IS VECTOR A(10);
    COMMUNICATION VOLUME IS 8;
END;
EOF

cat >"$tmp/pat.pdl" <<'EOF'
PROGRAM NAME IS 'pat';
EXECUTION PATTERN IS (a [0.25] | b [0.75]) -> c ^ 3 -> d *[0.75] -> e +[0.5];
WORK PHASE a IS: PARALLELIZATION SCHEME IS INDEPENDENT; SUBTASK RUNTIME IS DETERMINISTIC(1);
    PROBLEM SIZE IS VECTOR A(4); END;
WORK PHASE b IS: PARALLELIZATION SCHEME IS INDEPENDENT; SUBTASK RUNTIME IS DETERMINISTIC(1);
    PROBLEM SIZE IS VECTOR A(4); END;
WORK PHASE c IS: PARALLELIZATION SCHEME IS INDEPENDENT; SUBTASK RUNTIME IS DETERMINISTIC(1);
    PROBLEM SIZE IS VECTOR A(4); END;
WORK PHASE d IS: PARALLELIZATION SCHEME IS INDEPENDENT; SUBTASK RUNTIME IS DETERMINISTIC(1);
    PROBLEM SIZE IS VECTOR A(4); END;
WORK PHASE e IS: PARALLELIZATION SCHEME IS INDEPENDENT; SUBTASK RUNTIME IS DETERMINISTIC(1);
    PROBLEM SIZE IS VECTOR A(4); END;
CONCATENATION IS:
    a, c : BARRIER;  b, c : BARRIER;  c, c : SERIAL;  c, d : BARRIER;
    d, d : BARRIER;  d, e : BARRIER;  e, e : BARRIER;
END;
EOF

cat >"$tmp/arb.pdl" <<'EOF'
PROGRAM NAME IS 'arb';
EXECUTION PATTERN IS g;
WORK PHASE g IS:
    PARALLELIZATION SCHEME IS ARBITRARY;
    TASK x RUNTIME IS DETERMINISTIC(1);
    TASK y RUNTIME IS DETERMINISTIC(2);
    TASK z RUNTIME IS DETERMINISTIC(3);
    TASK w RUNTIME IS DETERMINISTIC(4);
    ARC x -> y -> z;
END;
EOF

cat >"$tmp/fjmp.pdl" <<'EOF'
PROGRAM NAME IS 'fjmp';
EXECUTION PATTERN IS f -> m;
WORK PHASE f IS:
    PARALLELIZATION SCHEME IS FORK-JOIN;
    JOBS IS 2;
    TASKS PER JOB IS 3;
    SUBTASK RUNTIME IS DETERMINISTIC(1);
END;
WORK PHASE m IS:
    PARALLELIZATION SCHEME IS MACROPIPELINE;
    STAGES IS 4;
    JOBS IS 3;
    SUBTASK RUNTIME IS DETERMINISTIC(1);
    INTERARRIVAL TIME IS DETERMINISTIC(1);
END;
CONCATENATION IS:
    f, m : BARRIER;
END;
EOF

# the remaining schemes and joins, and a name that needs escaping in DOT
cat >"$tmp/rest.pdl" <<'EOF'
PROGRAM NAME IS 'rest "quoted" \ name';
EXECUTION PATTERN IS setup -> t ^ 2 -> pr -> red -> (t -> sync | pr) *[0.5];
SEQUENTIAL PHASE setup IS:
    RUNTIME IS EXPONENTIAL(4);
END;
SYNCHRONIZATION PHASE red IS:
    RUNTIME IS DETERMINISTIC(2);
END;
WORK PHASE t IS:
    PARALLELIZATION SCHEME IS NEIGHBOR-TORUS;
    SUBTASK RUNTIME IS ERLANG(4, 1);
    PROBLEM SIZE IS GRID G(16, 12);
    COMMUNICATION VOLUME IS 64;
END;
WORK PHASE pr IS:
    PARALLELIZATION SCHEME IS PAIRED;
    DEPENDENCY IS 1, 3;
    INDEPENDENT SUBTASK IS:
        RUNTIME IS EXPONENTIAL(2);
    END;
    DEPENDENT SUBTASK IS:
        RUNTIME IS UNIFORM(0.5, 1.5);
        COMMUNICATION VOLUME IS 8;
    END;
    PROBLEM SIZE IS VECTOR A(12);
END;
CONCATENATION IS:
    t, t : NEIGHBOR-TORUS;
    t, pr : SERIAL;
    pr, t : BARRIER;
    pr, pr : BARRIER;
END;
EOF

for f in two serial groups nb pat arb fjmp rest; do
    for model in "" --generic; do
        for m in "" "--machine $ex/meiko-cs2.mdl" "--machine $ex/parsytec.mdl" "--machine $tmp/test.mdl"; do
            # shellcheck disable=SC2086
            render $model $m 4 "$tmp/$f.pdl" && echo "ok   $f.pdl ${model:---scaled} ${m:-ideal}"
        done
    done
done

# ---- 2. structural checks ----
# Node ids are numbered in drawing order: start first, then the pattern left to right.

case=two-scaled
render 4 "$tmp/two.pdl"
# 8 units BLOCK on 4 processors: 2 each, DETERMINISTIC(1): share 2; all processors alike, so one
# group per phase.
expect 2 'label="P0-P3 (4)\nmean 2"' "one group per phase, 2 units x 1"
expect 2 'label="P' "no other processor groups"
expect 2 'label="phase w' "a cluster per work phase"
# BARRIER join: one barrier node with the ideal machine's barrier time, 0.
expect 1 'label="barrier\nmean 0"' "the BARRIER join"
end_mean 4 "2 + barrier 0 + 2"

case=two-generic
render --generic 4 "$tmp/two.pdl"
# The generic model collapses each processor's chain of 2 units into one node of mean 2: one node
# per (processor, phase) = 4 x 2, each processor twice.
expect 8 'work, P' "4 per-processor chains in each of 2 phases"
expect 1 'label="w1\nwork, P0\nmean 2"' "processor 0's chain in w1"
expect 1 'label="w2\nwork, P0\nmean 2"' "and in w2"
expect 2 'work, P3\nmean 2' "processor 3 has a chain in each phase"
# A BARRIER ends a task graph: two segments, each run once.
expect 2 'label="segment ' "BARRIER closes the segment"
expect 1 'label="segment 2: w2\nexpected runs 1"' "w2's task graph, run once"

case=serial-scaled
render --set n=6 4 "$tmp/serial.pdl"
# 6 units BLOCK on 4: the first 6 mod 4 = 2 processors get 2 units, the other two 1.
expect 2 'label="P0-P1 (2)\nmean 2"' "P0 and P1 run 2 units in each phase"
expect 2 'label="P2-P3 (2)\nmean 1"' "P2 and P3 run 1 unit in each phase"
# SERIAL: no synchronisation, an edge from each group of w1 to the group of w2 on the same
# processors: n1 (P0-P1 of w1) -> n3 (P0-P1 of w2), n2 -> n4, and nothing across.
expect 0 'barrier' "SERIAL has no barrier"
expect 0 'shape=point' "nor a synchronisation point"
expect 1 'n1 -> n3;' "P0-P1 continue into P0-P1"
expect 1 'n2 -> n4;' "P2-P3 continue into P2-P3"
expect 0 'n1 -> n4;' "no edge between different processors"
expect 0 'n2 -> n3;' "no edge between different processors"
end_mean 4 "max over processors of 2 + 2 and 1 + 1"

case=serial-generic
render --generic --set n=6 4 "$tmp/serial.pdl"
# SERIAL joins keep both phases in one task graph: one segment with 4 + 4 chains.
expect 1 'label="segment 1: w1, w2\nexpected runs 1"' "one task graph for both phases"
expect 8 'work, P' "a chain per processor and phase"
expect 2 'work, P2\nmean 1' "P2's single unit in each phase"

case=groups
render 8 "$tmp/groups.pdl"
# 8 units on 8 processors: processor k runs unit k, of cost 1 + k mod 2; processors with the same
# unit form a group, of 4 ranges each, of which three are shown.
expect 1 'label="P0,P2,P4,... (4)\nmean 1"' "even processors"
expect 1 'label="P1,P3,P5,... (4)\nmean 2"' "odd processors"
end_mean 2 "the slowest unit"

case=nb-scaled
render --machine "$tmp/test.mdl" 5 "$tmp/nb.pdl"
# 10 columns on 5 processors: 2 units each = 2. LogGP: one 8-byte message takes
# L + 2o + (8-1)G = 12; a second one leaves a gap max(g, o + (8-1)G) = 5 later: 17 for the
# three inner processors (two neighbours), 12 for P0 and P4 (one).
expect 1 'label="P0,P4 (2)\nmean 14"' "the two end processors: 2 + 12"
expect 1 'label="P1-P3 (3)\nmean 19"' "the inner processors: 2 + 17"
expect 1 'label="SYNC\nmean 3"' "the machine's BARRIER TIME"
expect 1 'label="init\nsequential\nmean 5"' "the sequential phase"
end_mean 27 "5 + 3 + 19"

case=nb-generic
render --generic --machine "$tmp/test.mdl" 5 "$tmp/nb.pdl"
expect 1 'label="init\nsequential\nmean 5\nexpected runs 1"' "a closed part"
expect 1 'label="barrier\nmean 3\nexpected runs 1"' "SYNC costs the barrier time"

case=pat-scaled
render 2 "$tmp/pat.pdl"
# 4 units on 2 processors: share 2 for every phase.
expect 1 'label="branch"' "one branch node"
expect 1 'label="merge"' "and its merge"
expect 1 '[label="0.25"]' "the weight of a"
expect 1 '[label="0.75"]' "the weight of b"
expect 1 'label="phase c (INDEPENDENT)"' "c ^ 3 drawn once"
expect 1 'label="× 3, copies joined SERIAL per processor"' "c, c : SERIAL"
expect 1 'label="*[0.75]"' "the *[q] cluster"
expect 2 'label="q = 0.75"' "into the body and back"
expect 1 'label="1 - q = 0.25"' "the bypass of *[q]"
expect 1 'label="+[0.5]"' "the +[q] cluster"
expect 1 'label="q = 0.5"' "its back edge"
# a|b: 2; c^3 per processor: 6; d*[0.75] runs q/(1-q) = 3 times on average: 6;
# e+[0.5] runs 1/(1-q) = 2 times: 4; barriers cost 0 on the ideal machine.
end_mean 18 "2 + 6 + 6 + 4"

case=pat-generic
render --generic 2 "$tmp/pat.pdl"
# Each part once, with its expected runs: the branch weights, c's 3 SERIAL copies in one task
# graph, q/(1-q) = 3 runs of d, 1/(1-q) = 2 runs of e.
expect 1 'label="segment 1: a\nexpected runs 0.25"' "branch a"
expect 1 'label="segment 2: b\nexpected runs 0.75"' "branch b"
expect 1 'label="segment 3: c\nexpected runs 1"' "c ^ 3 as one task graph"
expect 6 'label="c\nwork, P' "3 copies x 2 processors"
expect 1 'label="segment 4: d\nexpected runs 3"' "d *[0.75]"
expect 1 'label="segment 5: e\nexpected runs 2"' "e +[0.5]"

case=pow-join
# w ^ 2 with a barrier between the copies is synchronised (pdl_gen.c keeps x ^ n per processor
# only for x joined to itself SERIAL), so the SERIAL join to v meets in a synchronisation point
# instead of continuing per processor.
sed 's/w1 -> w2;/w1 ^ 2 -> w2;/; s/w1, w2 : BARRIER;/w1, w1 : BARRIER; w1, w2 : SERIAL;/' \
    "$tmp/two.pdl" >"$tmp/pow.pdl"
render --set n=6 4 "$tmp/pow.pdl"
expect 1 'label="× 2, copies joined BARRIER (mean 0)"' "the copies' join"
expect 1 'shape=point' "w1 ^ 2 ends synchronised"
end_mean 6 "(2 + 0 + 2) then 2 on P0, P1"

case=arb
render 2 "$tmp/arb.pdl"
# The chain x -> y -> z (6) on one processor, w (4) on the other: the schedule's makespan is 6.
expect 1 'label="P0-P1 (2), synchronised\nmean 6"' "ARBITRARY as one delay"
end_mean 6 "the chain x, y, z"
render --generic 2 "$tmp/arb.pdl"
for task in x y z w; do
    expect 1 "\\ntask $task\\n" "each task is one node"
done
expect 4 'work, P' "four tasks, all work"

case=fjmp
render --generic 3 "$tmp/fjmp.pdl"
# FORK-JOIN: each of 2 jobs has a fork and a join (sync nodes of f) and 3 tasks, one per processor.
expect 6 'label="f\nwork, P' "2 jobs x 3 tasks"
expect 4 'label="f\nsync' "a fork and a join per job"
# MACROPIPELINE: 4 stages in blocks on 3 processors (2, 1, 1 stages), one node per (processor,
# job): 3 x 3; job j > 0 arrives one interarrival time after job j - 1: 2 arrival nodes.
expect 9 'label="m\nwork, P' "3 processors x 3 jobs"
expect 3 'label="m\nwork, P0\nmean 2"' "P0's two stages"
expect 2 'label="m\narrival' "jobs 1 and 2 arrive"
expect 2 'label="segment ' "the BARRIER between f and m"

case=escape
render 3 "$tmp/rest.pdl"
expect 1 'label="rest \"quoted\" \\ name: scaled model' "quotes and backslash escaped"

# ---- 3. size guard and determinism ----
case=guard-generic
# 12000 units on 6000 processors: the generic model has a node per processor (6000 > 5000);
# the scaled model is one group.
if "$gen" --generic --set n=12000 6000 "$tmp/two.pdl" >"$tmp/g.dot" 2>"$tmp/err"; then
    fail "$case: a generic graph of 6000 nodes was written"
fi
[ -s "$tmp/g.dot" ] && fail "$case: a partial graph was written"
grep -qF 'error: the generic model on 6000 processors has more than 5000 nodes to draw' "$tmp/err" ||
    fail "$case: no size error: $(cat "$tmp/err")"
grep -qF 'note: use fewer processors or a smaller problem' "$tmp/err" || fail "$case: no note"
"$gen" --set n=12000 6000 "$tmp/two.pdl" >"$tmp/g.dot" 2>"$tmp/err" || fail "$case: scaled failed"
expect 2 'label="P0-P5999 (6000)\nmean 2"' "12000 units on 6000 processors, one group per phase"

case=guard-scaled
# 6000 units of 6000 different costs on 6000 processors: 6000 groups.
sed 's/DETERMINISTIC(1 + i % 2)/DETERMINISTIC(1 + i)/; s/A(8)/A(6000)/' "$tmp/groups.pdl" >"$tmp/many.pdl"
if "$gen" 6000 "$tmp/many.pdl" >"$tmp/g.dot" 2>"$tmp/err"; then
    fail "$case: a scaled graph of 6000 groups was written"
fi
[ -s "$tmp/g.dot" ] && fail "$case: a partial graph was written"
grep -qF 'error: the scaled model on 6000 processors has more than 5000 nodes to draw' "$tmp/err" ||
    fail "$case: no size error: $(cat "$tmp/err")"

case=guard-loop
# loop.pdl's 2000 iterations: 4000 independent and dependent parts, plus the messages of the
# dependencies that cross processors on a machine where messages cost something.
if "$gen" --generic --machine "$ex/meiko-cs2.mdl" 3 "$ex/loop.pdl" >"$tmp/g.dot" 2>"$tmp/err"; then
    fail "$case: loop.pdl's generic graph was written"
fi
grep -qF 'more than 5000 nodes to draw' "$tmp/err" || fail "$case: no size error: $(cat "$tmp/err")"

case=determinism
for model in "" --generic; do
    # shellcheck disable=SC2086
    "$gen" $model --set height=100 --set width=10 --machine "$ex/parsytec.mdl" 4 "$ex/prgA.pdl" \
        >"$tmp/a.dot" 2>/dev/null
    # shellcheck disable=SC2086
    "$gen" $model --set height=100 --set width=10 --machine "$ex/parsytec.mdl" 4 "$ex/prgA.pdl" \
        >"$tmp/b.dot" 2>/dev/null
    cmp -s "$tmp/a.dot" "$tmp/b.dot" || fail "$case: two runs ${model:---scaled} differ"
    [ -s "$tmp/a.dot" ] || fail "$case: no graph"
done

[ $status -eq 0 ] && echo "all DOT checks passed"
exit $status
