#!/bin/sh
# Probe cost against hwloc's own full topology export, on this machine and on
# the largest recorded topology. Prints median wall times and their ratio
# beside its target (rdmarun probe <= 1.5 x lstopo). Not a test: a missed
# target is reported; exits 1 when a figure is missing.
#   benchmarks/probe.sh [RUNS]      (from a built tree; BENCH_SHORT=1: 3 runs)
set -eu
cd "$(dirname "$0")/.."
runs=${1:-${BENCH_SHORT:+3}}
runs=${runs:-21}
rdmarun=${RDMARUN:-./rdmarun}
. benchmarks/lib.sh
topologies=tests/data/topologies

median_ms() {  # command... -> median wall time in ms over $runs runs
    for i in $(seq "$runs"); do
        s=$(date +%s%N)
        "$@" >/dev/null 2>&1 || { echo "probe.sh: $* failed" >&2; return 1; }
        e=$(date +%s%N)
        echo $(((e - s) / 1000))
    done | sort -n | awk '{a[NR] = $1} END {if (NR) printf "%.2f", a[int((NR + 1) / 2)] / 1000}'
}

compare() {  # label, rdmarun args, lstopo args
    label=$1 ours=$2 theirs=$3
    a=$(median_ms $rdmarun probe --json $ours) || a=
    b=$(median_ms lstopo-no-graphics $theirs --of xml -) || b=
    figure "$label: rdmarun probe" "$a" ms
    figure "$label: lstopo --of xml" "$b" ms
    figure "$label: ratio" "$(awk -v a="$a" -v b="$b" 'BEGIN {if (a > 0 && b > 0) printf "%.2f", a / b}')" "" "<=" 1.5
}

echo "median of $runs runs each"
compare "this machine" "" ""
largest=$(ls -S "$topologies"/*.xml 2>/dev/null | head -n 1)
if [ -n "$largest" ]; then
    compare "$(basename "$largest") (largest file)" "--topology $largest" "-i $largest"
else
    figure "the largest recorded topology (none in $topologies)" "" ms
fi
bench_end
