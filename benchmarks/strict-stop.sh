#!/bin/sh
# How soon strict stops a job that fell back to TCP (figures, not a test): a
# 2-rank ping-pong that would run for minutes, under a profile that expects
# RDMA but runs on TCP, with --verify strict; prints the time from the first
# rank's first endpoint on TCP (UCX's own timestamp) to rdmarun's exit.
# Needs UCX that calls TCP between ranks of one node a path that may leave
# it (1.13); with 1.14+ see the figures of tests/vm/guest/pair.sh (two
# guests). Exits 1 when a figure is missing.
#   benchmarks/strict-stop.sh [RUNS]   (from a built tree; BENCH_SHORT=1: 2 runs)
set -eu
cd "$(dirname "$0")/.."
runs=${1:-${BENCH_SHORT:+2}}
runs=${runs:-5}
rdmarun=${RDMARUN:-$PWD/rdmarun}
pp=$PWD/examples/mpi_pingpong
export RDMARUN_PROFILE_PATH=${RDMARUN_PROFILE_PATH:-$PWD/profiles}
root=
[ "$(id -u)" = 0 ] && root=--allow-run-as-root
ucx=$(ucx_info -v 2>/dev/null | sed -nE 's/^# (Library version:|Version) ([0-9.]+).*/\2/p' | head -1)
if [ "$(printf '%s\n' 1.14 "${ucx:-0}" | sort -V | head -1)" = 1.14 ]; then
    echo "strict-stop: UCX $ucx reports TCP within one node as intra-node: no fallback on one node"
    echo "strict-stop: the two-guest figure is in tests/vm/share-pair/tap.txt (figures: line)"
    exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '[profile]\ninherit = tcp\nexpect = rdma\n' >"$tmp/wants-rdma.ini"
for i in $(seq "$runs"); do
    "$rdmarun" -p "$tmp/wants-rdma.ini" --verify strict --evidence-dir "$tmp/ev$i" $root -np 2 \
        "$pp" 100000 8 1048576 >/dev/null 2>&1 && { echo "strict-stop: the job was not stopped" >&2; exit 1; }
    end=$(date +%s.%N)
    first=$(sed -n 's/^\[\([0-9.]*\)\] .*cfg.*tcp\/.*/\1/p' "$tmp/ev$i/ucx.log" | head -1)
    [ -n "$first" ] || { echo "strict-stop: no endpoint on TCP was reported" >&2; exit 1; }
    awk -v a="$end" -v b="$first" 'BEGIN { printf "%.3f\n", a - b }'
done | sort -n >"$tmp/took"
[ "$(wc -l <"$tmp/took")" = "$runs" ] || exit 1
echo "strict stop, 2 ranks on TCP where RDMA is expected (UCX $ucx), $runs runs"
awk '{a[NR] = $1} END {printf "first endpoint on TCP to rdmarun exit: median %.2f s, max %.2f s (target < 5)\n", a[int((NR + 1) / 2)], a[NR]}' "$tmp/took"
