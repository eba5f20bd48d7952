#!/bin/bash
# For benchmarks/path-test.sh, inside each of two guests: node a runs the
# path test between the two nodes (rdmarun check --path-test, launch
# included) several times and writes its wall times to $RR_SHARE/bench.txt;
# node b serves. Argument: a or b.
. "$RR_SHARE/env.sh"
. "$RDMARUN_SRCDIR/tests/vm/guest/nodes.sh"
. "$RDMARUN_SRCDIR/benchmarks/lib.sh"
if [ "$role" = b ]; then
    serve
    exit 0
fi
reach_b
runs=5
[ -n "${BENCH_SHORT:-}" ] && runs=3
times= last=
for i in $(seq 1 $runs); do
    t0=$(date +%s.%N)
    # shellcheck disable=SC2086
    "$RDMARUN" check --path-test --allow-run-as-root -H "$hosts" $oob >"$TMP/path" 2>&1 && t=$(
        awk -v a="$(date +%s.%N)" -v b="$t0" 'BEGIN { printf "%.2f", a - b }') || t=?
    times="$times $t"
    last=$(sed -n 's/^rdmarun: path test passed: //p' "$TMP/path")
done
median=$(printf '%s\n' $times | sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2] }')
case $times in *'?'*) median= ;; esac
{
    figure "path test, 2 guests (ring, mpirun over ssh, launch included): median of $runs runs (${times# })" \
        "$median" s "<" 30
    echo "  last run: ${last:-?}"
    echo "path-bench.sh: done"
} >"$RR_SHARE/bench.txt"
touch "$S/a-done"
done_testing
