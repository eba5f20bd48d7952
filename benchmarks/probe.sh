#!/bin/sh
# Probe cost against hwloc's own full topology export, on this machine and on
# the largest recorded topology. Prints median wall times and their ratio
# (target: rdmarun probe <= 1.5 x lstopo). Not a test: figures only; exits 1
# when a figure is missing.
#   benchmarks/probe.sh [RUNS]      (from a built tree; BENCH_SHORT=1: 3 runs)
set -eu
cd "$(dirname "$0")/.."
runs=${1:-${BENCH_SHORT:+3}}
runs=${runs:-21}
rdmarun=${RDMARUN:-./rdmarun}
topologies=tests/data/topologies

median_ms() {  # command... -> median wall time in ms over $runs runs
    for i in $(seq "$runs"); do
        s=$(date +%s%N)
        "$@" >/dev/null 2>&1 || { echo "probe.sh: $* failed" >&2; return 1; }
        e=$(date +%s%N)
        echo $(((e - s) / 1000))
    done | sort -n | awk '{a[NR] = $1} END {printf "%.2f", a[int((NR + 1) / 2)] / 1000}'
}

compare() {  # label, rdmarun args, lstopo args
    label=$1 ours=$2 theirs=$3
    a=$(median_ms $rdmarun probe --json $ours) && [ -n "$a" ] || exit 1
    b=$(median_ms lstopo-no-graphics $theirs --of xml -) && [ -n "$b" ] || exit 1
    printf '%-40s rdmarun probe %7s ms   lstopo --of xml %7s ms   ratio %s\n' "$label" "$a" "$b" \
        "$(awk -v a="$a" -v b="$b" 'BEGIN {printf "%.2f", a / b}')"
}

echo "median of $runs runs each"
compare "this machine" "" ""
if [ -d "$topologies" ]; then
    largest=$(ls -S "$topologies"/*.xml | head -n 1)
    compare "$(basename "$largest") (largest file)" "--topology $largest" "-i $largest"
fi
