#!/bin/sh
# How soon strict stops a job that fell back to TCP (figures, not a test):
# the time from a rank's first endpoint on TCP (UCX's own timestamp) to
# rdmarun's exit, under a profile that expects RDMA, with --verify strict.
# Target: median < 5 s; a missed target is reported, a missing figure exits 1.
#  - a real job: a 2-rank ping-pong on TCP that would run for minutes. Only
#    where UCX calls TCP between ranks of one node a path that may leave it
#    (1.13): 1.14+ labels that endpoint intra-node (it compares the peer's
#    TCP address with its own), a local path and no fallback; the two-guest
#    figure is tests/vm/guest/pair.sh's.
#  - on every UCX: a launcher that writes the line a rank on another node
#    writes when its endpoint opens over TCP, in this UCX's own form (1.13's
#    ep_cfg, 1.14+'s inter-node cfg#), stamped now, then keeps running as a
#    job does: the same path through rdmarun (read live, verdict, stop the
#    launcher and what it started) without a second node. Without mpirun's
#    own teardown it is the shorter of the two.
#   benchmarks/strict-stop.sh [RUNS]   (from a built tree; BENCH_SHORT=1: 2 runs)
set -eu
cd "$(dirname "$0")/.."
runs=${1:-${BENCH_SHORT:+2}}
runs=${runs:-5}
rdmarun=${RDMARUN:-$PWD/rdmarun}
. benchmarks/lib.sh
RDMARUN_BUILDDIR=${RDMARUN_BUILDDIR:-$PWD} bench_examples
pp=${RDMARUN_BUILDDIR:-$PWD}/examples/mpi_pingpong
export RDMARUN_PROFILE_PATH=${RDMARUN_PROFILE_PATH:-$PWD/profiles}
root=
[ "$(id -u)" = 0 ] && root=--allow-run-as-root
ucx=$(ucx_info -v 2>/dev/null | sed -nE 's/^# (Library version:|Version) ([0-9.]+).*/\2/p' | head -1)
new_ucx=
[ "$(printf '%s\n' 1.14 "${ucx:-0}" | sort -V | head -1)" = 1.14 ] && new_ucx=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '[profile]\ninherit = tcp\nexpect = rdma\n' >"$tmp/wants-rdma.ini"

# stopped EVIDENCE-DIR: seconds from the first endpoint on TCP its ucx.log
# shows to now (rdmarun has just exited); nothing when there is none.
stopped() {
    end=$(date +%s.%N)
    first=$(sed -n 's/^\[\([0-9.]*\)\] .*cfg.*tcp\/.*/\1/p' "$1/ucx.log" 2>/dev/null | head -1)
    [ -z "$first" ] || awk -v a="$end" -v b="$first" 'BEGIN { printf "%.3f\n", a - b }'
}
# summary LABEL FILE: the median and the maximum of the times in FILE, if
# there is one for every run.
summary() {
    sort -n "$2" >"$2.sorted"
    med= max=
    if [ "$(wc -l <"$2.sorted")" = "$runs" ]; then
        med=$(awk '{a[NR] = $1} END {printf "%.2f", a[int((NR + 1) / 2)]}' "$2.sorted")
        max=$(tail -n 1 "$2.sorted")
    fi
    figure "$1, median of $runs" "$med" s "<" 5
    figure "$1, maximum" "$max" s
}

: >"$tmp/real"
if [ -z "$new_ucx" ]; then
    for i in $(seq "$runs"); do
        if "$rdmarun" -p "$tmp/wants-rdma.ini" --verify strict --evidence-dir "$tmp/ev$i" $root -np 2 \
            "$pp" 100000 8 1048576 >/dev/null 2>&1; then
            echo "strict-stop: the job was not stopped" >&2
        else
            stopped "$tmp/ev$i" >>"$tmp/real"
        fi
    done
    summary "real 2-rank job on TCP (UCX $ucx): first endpoint on TCP to rdmarun exit" "$tmp/real"
else
    echo "real 2-rank job: not on one node with UCX $ucx (TCP within a node is intra-node there; see tests/vm/guest/pair.sh)"
fi

# The replayed endpoint, in the form this UCX writes.
if [ -n "$new_ucx" ]; then
    line='ucp_worker.c:1873 UCX  INFO  ucp_context_0 inter-node cfg#1  tag(tcp/eth0)  am(tcp/eth0)  ka(tcp/eth0)'
else
    line='ucp_worker.c:1888 UCX  INFO  ep_cfg[1]: tag(tcp/eth0) am(tcp/eth0);'
fi
cat >"$tmp/launcher" <<LAUNCHER
#!/bin/sh
# a rank on node02 starts, opens its endpoint to node01 over TCP, runs on
sleep 0.5
printf '[%s] [node02:4242:0]     %s\n' "\$(date +%s.%N | cut -c1-17)" '$line'
exec sleep 600
LAUNCHER
chmod +x "$tmp/launcher"
: >"$tmp/replay"
for i in $(seq "$runs"); do
    if "$rdmarun" -p "$tmp/wants-rdma.ini" --verify strict --mpirun "$tmp/launcher" \
        --evidence-dir "$tmp/rp$i" -np 2 ./app >/dev/null 2>&1; then
        echo "strict-stop: the replayed job was not stopped" >&2
    else
        stopped "$tmp/rp$i" >>"$tmp/replay"
    fi
done
summary "a rank on another node on TCP (UCX $ucx's line, replayed): its endpoint to rdmarun exit" "$tmp/replay"
bench_end
