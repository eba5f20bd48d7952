#!/bin/sh
# Fleet health (issues 38, 49), from recorded nodes (tests/data/sysfs,
# tests/data/fabrics/sysfs): every
# fault of the matrix caught, each with its own code; 100 consecutive checks
# of healthy nodes with the history rules on (counters and flaps kept
# between runs) and no false positive; the prolog's wall time on a node with
# 8 HCAs (the sysfs parts; the verbs parts run in the Soft-RoCE VM). Prints
# each figure beside its target; exits 1 when one is missing.
#   benchmarks/health.sh      (from a built tree; BENCH_SHORT=1: 5 timed runs)
set -u
cd "$(dirname "$0")/.."
rdmarun=${RDMARUN:-./rdmarun}
. benchmarks/lib.sh
data=tests/data/sysfs
work=$(mktemp -d)   # 0700, this user's: root mode reads configurations only so kept
trap 'rm -rf "$work"' EXIT
runs=${BENCH_SHORT:+5}
runs=${runs:-21}

conf() {  # conf FILE LINES...
    f=$1
    shift
    printf '[check]\ntimeout = 60\n' >"$f"
    for l in "$@"; do printf '%s\n' "$l" >>"$f"; done
}
codes() {  # codes SYSFS CONF: the codes of check --json, sorted, one line
    "$rdmarun" check --json --config "$2" --sysfs "$1" 2>/dev/null |
        python3 -c 'import json, sys; print(" ".join(sorted(json.load(sys.stdin)["codes"])))' 2>/dev/null
}

# The fault matrix: each fault with the code it must get, alone: the
# recorded nodes' (tests/data/health/fault-matrix.txt), then faults made
# here in copies of them (history, baseline, manifest).
cp -r "$data/ib-mlx5" "$work/flap"
cp -r "$data/ib-mlx5" "$work/grow"
now=$(date +%s)
# kernel_log TREE WORDS: a copy of roce-lossless whose kmsg holds the records
# of tests/data/kmsg/mlx5-events.kmsg whose text has WORDS (with their
# KEY=VALUE lines), and its last record (the recording's "now").
kernel_log() {
    cp -r "$data/roce-lossless" "$work/$1"
    awk -v w="$2" '/^[^ ]/ { keep = index($0, w) || /crng reseeded/ } keep' \
        tests/data/kmsg/mlx5-events.kmsg >"$work/$1/kmsg"
}
kernel_log kmsg-pcie "available PCIe bandwidth"
kernel_log kmsg-fw "op_mod(0x0) failed"
kernel_log kmsg-temp "High Temperature"
kernel_log kmsg-flap "Link down"
# The healthy one: the records that must not count (a probe line, link ups,
# a health record a process wrote, another device's).
kernel_log kmsg-benign "firmware version"
awk '/^[^ ]/ { keep = /Link up|reached miss count/ } keep' tests/data/kmsg/mlx5-events.kmsg \
    >>"$work/kmsg-benign/kmsg"
caught=0 total=0 missed=
while read -r tree want args; do
    total=$((total + 1))
    case $tree in
        flap) printf 'downed mlx5_0 1 %s 0\n' $((now - 600)) >"$work/state"
              echo 4 >"$work/flap/class/infiniband/mlx5_0/ports/1/counters/link_downed" ;;
        drop) printf 'down mlx5_0 2 %s\n' $((now - 600)) >"$work/state"; tree=ib-mlx5 ;;
        firmware) "$rdmarun" probe --json --sysfs "$data/ib-mlx5" >"$work/manifest.json"
              cp -r "$data/ib-mlx5" "$work/firmware"
              echo 16.35.4030 >"$work/firmware/class/infiniband/mlx5_0/fw_ver" ;;
        grow) printf 'mlx5_0 1 symbol_error 0\n' >"$work/baseline"
              echo 9 >"$work/grow/class/infiniband/mlx5_0/ports/1/counters/symbol_error" ;;
    esac
    want=$(printf '%s' "$want" | tr '+' ' ')
    case $tree in   # BASE>TREE: the baseline from BASE, then the check on TREE
        *'>'*) base=${tree%%>*} tree=${tree#*>} ;;
        *) base= ;;
    esac
    [ -d "$work/$tree" ] && sysfs=$work/$tree || sysfs=$data/$tree
    args=$(printf '%s' "$args" | sed "s|MANIFEST|$work/manifest.json|")
    # shellcheck disable=SC2086
    conf "$work/c.ini" "state = $work/state" "baseline = $work/baseline" $args
    [ -z "$base" ] || "$rdmarun" check --config "$work/c.ini" --sysfs "$data/$base" >/dev/null 2>&1
    got=$(codes "$sysfs" "$work/c.ini")
    if [ "$got" = "$want" ]; then caught=$((caught + 1)); else missed="$missed $want(got:${got:-none})"; fi
    rm -f "$work/state" "$work/baseline"
done <<MATRIX
$(grep -v '^#' tests/data/health/fault-matrix.txt)
flap RDMARUN-FLAP devices=mlx5_0:1 flaps=yes
drop RDMARUN-PORT-DROPPED devices=mlx5_0 port-state=any flaps=yes
grow RDMARUN-COUNTERS-LINK devices=mlx5_0:1 counters=yes
firmware RDMARUN-MANIFEST-FIRMWARE devices=mlx5_0:1 manifest=MANIFEST
kmsg-pcie RDMARUN-KMSG-PCIE devices=mlx5_0:1 kmsg=yes kmsg-window=100000
kmsg-fw RDMARUN-KMSG-FIRMWARE devices=mlx5_0:1 kmsg=yes
kmsg-temp RDMARUN-KMSG-TEMPERATURE devices=mlx5_0:1 kmsg=yes
kmsg-flap RDMARUN-KMSG-LINK-FLAP devices=mlx5_0:1 kmsg=yes
MATRIX
[ -z "$missed" ] || echo "missed:$missed"
figure "fault matrix (recorded nodes): caught $caught/$total, each with its own code" "$caught" "" ">=" "$total"

# 100 consecutive checks of healthy nodes, the history rules on, their
# state and baseline kept from run to run.
fp=0
"$rdmarun" probe --json --sysfs "$data/roce-lossless" >"$work/manifest-roce.json"
for i in $(seq 100); do
    case $((i % 5)) in
        0) tree=rxe args="devices=rxe0:1" ;;
        1) tree=ib-8hca args="pcie-at-capability=yes min-rate=200" ;;
        3) tree=../fabrics/sysfs/efa-8x400 args="pcie-at-capability=yes min-rate=400" ;;
        4) tree=../fabrics/sysfs/cxi-4nic args="pcie-at-capability=yes min-rate=200" ;;
        2) tree=roce-lossless args="lossless=yes irq-affinity=yes governor=performance max-idle-latency=20
                                    manifest=$work/manifest-roce.json kmsg=yes" ;;
    esac
    # shellcheck disable=SC2086
    conf "$work/h.ini" "state = $work/hstate-${tree##*/}" "baseline = $work/hbase-${tree##*/}" counters=yes flaps=yes $args
    [ "$tree" = roce-lossless ] && sysfs=$work/kmsg-benign || sysfs=$data/$tree
    "$rdmarun" check --config "$work/h.ini" --sysfs "$sysfs" >"$work/out" 2>&1 || {
        fp=$((fp + 1)); sed 's/^/  /' "$work/out" | head -3; }
done
figure "healthy nodes (rxe, 8 HCAs, lossless RoCE with a benign kernel log, 8 EFA, 4 Slingshot NICs), counters, flaps, kmsg and a manifest on: false positives $fp/100" "$fp" "" "<=" 0

# The prolog on 8 HCAs (ib-8hca: every port, rate, PCIe, counters, flaps).
conf "$work/p.ini" "state = $work/pstate" "baseline = $work/pbase" counters=yes flaps=yes \
    pcie-at-capability=yes min-rate=200
t=$(for i in $(seq "$runs"); do
        s=$(date +%s%N)
        "$rdmarun" check --config "$work/p.ini" --sysfs "$data/ib-8hca" >/dev/null 2>&1
        e=$(date +%s%N)
        echo $(((e - s) / 1000))
    done | sort -n | awk '{a[NR] = $1} END {if (NR) printf "%.3f", a[int((NR + 1) / 2)] / 1e6}')
figure "prolog on 8 HCAs (recorded sysfs, no loopback test), median of $runs" "$t" s "<=" 2
bench_end
