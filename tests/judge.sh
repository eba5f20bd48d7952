#!/bin/bash
# rdmarun judge: published results (tests/data/judge, each file's first line
# its source) against the speed-of-light model of the node the source
# describes. Where the source calls a result healthy, the model's figure is
# within 15% of it and the label is normal; where it says what was wrong,
# the label is degraded or broken and the cause is that one. Then this
# machine's own outputs, and hostile inputs.
. "${RDMARUN_SRCDIR:-.}/tests/lib.sh"
J=$DATA/judge

# FILE | --node | label | the fraction's range (the healthy: 0.85-1.15) | a cause's words
TABLE=$(cat <<'ROWS'
nccl-h100-all_reduce_perf.txt|gpus=8xH100|normal|0.85-1.15|
nccl-3node-a100-4hdr-all_reduce_perf.txt|nics=4x200G kind=ib gpus=8xA100 nodes=3|normal|0.85-1.15|
osu_bw-hdr.txt|nics=1x200G kind=ib pcie=4x16|normal|0.85-1.15|
perftest-edr-write_bw.txt|nics=1x100G kind=ib|normal|0.85-1.15|
perftest-hdr-read_bw.txt|nics=1x200G kind=ib pcie=4x16|normal|0.85-1.15|
perftest-ndr-cuda-send_bw.txt|nics=1x400G kind=ib pcie=5x16|normal|0.85-1.15|
perftest-cx5-roce-write_lat.txt|nics=1x100G kind=roce pcie=3x16|normal|1.0-2.0|
perftest-cx5-gen3x8-write_bw.txt|nics=1x100G kind=roce pcie=3x16 pcie-trained=3x8|degraded|0.5-0.65|trained at 3.0 x8 of its 3.0 x16
nccl-2node-gdr-disabled-all_reduce_perf.txt|nics=8x200G kind=ib gpus=8xA100 nodes=2|broken|0.03-0.08|GPU Direct RDMA Disabled for HCA 0
nccl-2node-hdr-no-gdrdma-all_reduce_perf.txt|nics=4x200G kind=ib gpus=8xA100 nodes=2 gdr=no|degraded|0.3-0.4|GPUDirect RDMA is off
nccl-a100pcie-sys-all_reduce_perf.txt|nics=1x200G kind=ib pcie=4x16 gpus=1xA100 nvlink=none nodes=2 numa=remote|degraded|0.25-0.3|remote from the NIC
ROWS
)
while IFS='|' read -r file node label range cause; do
    head -n 1 "$J/$file" | grep -q '^# source: '
    ok $? "$file: its first line names its source"
    run "$RDMARUN" judge --json --node "$node" "$J/$file"
    printf '%s\n' "$out" | python3 -c '
import json, sys
label, lo, hi, cause = sys.argv[1], *map(float, sys.argv[2].split("-")), sys.argv[3]
r = json.load(sys.stdin)["results"]
r = [x for x in r if x["label"] != "none"][0]
best = max(s["fraction"] for s in r["sizes"] if "fraction" in s)
assert r["label"] == label, (r["label"], r["reason"])
assert lo <= best <= hi, (best, r["reason"])
assert not cause or any(cause in c for c in r["causes"]), r["causes"]
' "$label" "$range" "$cause"
    ok $? "$file ($node): $label, the best size at $range of the model's figure${cause:+, cause: $cause}"
done <<<"$TABLE"

# The model's arithmetic, written out. One EDR port (4X, 25 Gb/s a lane):
# 100 Gb/s / 8 x 4096 / (4096 + 26) = 12.421 GB/s.
run "$RDMARUN" judge --node 'nics=1x100G kind=ib' "$J/perftest-edr-write_bw.txt"
check "EDR: the wire's 12.4 GB/s (IB headers 26 B a 4096 B packet)" 0 \
    "100 Gb/s ib, MTU 4096 (12.4 GB/s)" "normal: 12.1 GB/s"
# A100 x 8, one node: 12 NVLink 3 links x 25 GB/s x 0.8 = 240 GB/s.
run "$RDMARUN" judge --node 'gpus=8xA100' "$J/nccl-3node-a100-4hdr-all_reduce_perf.txt"
check "A100 NVLink: 12 x 25 GB/s at NCCL's 80%: 240 GB/s" 84 "12 x NVLink 3 (240 GB/s)"
# 3 nodes of 4 HDR ports: 4 x 200 Gb/s / 8 x 4096 / 4122 = 99.4 GB/s.
run "$RDMARUN" judge --node 'gpus=8xA100 nics=4x200G kind=ib nodes=3' \
    "$J/nccl-3node-a100-4hdr-all_reduce_perf.txt"
check "between 3 nodes, the 4 NICs' 99.4 GB/s limit it" 0 \
    "4 NICs x 200 Gb/s ib, MTU 4096 (24.8 GB/s)" "98% of the model's 98.7 GB/s"
# H100 x 8, NVLink SHARP: 18 x 25 x 0.8 x 0.85 x 2 x 7 / 9 = 476 GB/s.
run "$RDMARUN" judge --node 'gpus=8xH100' "$J/nccl-h100-all_reduce_perf.txt"
check "H100 NVLink SHARP all_reduce: 476 GB/s" 0 "NVLink SHARP, 18 x NVLink 4 (476 GB/s)"
# PCIe 3.0 x8: 8 GT/s x 8 x 128/130 / 8 x 256/282 = 7.15 GB/s.
run "$RDMARUN" judge --node 'nics=1x100G kind=roce pcie=3x16 pcie-trained=3x8' \
    "$J/perftest-cx5-gen3x8-write_bw.txt"
check "a slot trained at 3.0 x8 carries 7.2 GB/s, and the result is 98% of it: 84" 84 \
    "it carries 7.2 GB/s; the result is 98% of that"

# Software RDMA, and this machine's own outputs.
run "$RDMARUN" judge --node 'nics=1x10G kind=soft' "$J/perftest-edr-write_bw.txt"
check "a software device: no line-rate expectation, 0" 0 "not judged: software RDMA: no line-rate expectation"
if [ -x "$BUILD/examples/mpi_pingpong" ]; then
    mpirun $MPIRUN_ROOT -np 2 "$BUILD/examples/mpi_pingpong" 20 8 65536 1048576 >"$TMP/sweep.txt" 2>&1
    run "$RDMARUN" judge --node 'nodes=1' "$TMP/sweep.txt"
    check "the built-in sweep within a node: shared memory, not judged on a line rate" 0 \
        "rdmarun mpi_pingpong bandwidth" "within a node over shared memory"
fi
if command -v ucx_perftest >/dev/null; then
    ucx_perftest -t tag_bw -s 1048576 -n 200 >"$TMP/ucx-server.txt" 2>&1 &
    srv=$!
    within 20 sh -c "ss -ltn | grep -q ':13337 '"
    ucx_perftest -t tag_bw -s 1048576 -n 200 localhost >"$TMP/ucx.txt" 2>&1
    wait $srv
    if grep -q '^Final:' "$TMP/ucx.txt"; then
        run "$RDMARUN" judge --node 'nodes=1' "$TMP/ucx.txt"
        check "ucx_perftest's table: its size from bandwidth x time, shared memory not judged" 0 \
            "ucx_perftest bandwidth" "within a node over shared memory"
        # with the memory's bandwidth (the firmware's HMAT, or mem=): a share
        # of the copy ceiling, mem / 2, shown and not labeled
        run "$RDMARUN" judge --json --node 'nodes=1 mem=205' "$TMP/ucx.txt"
        python3 -c 'import json, sys
r = json.loads(sys.stdin.read())["results"][0]
big = [x for x in r["sizes"] if x["bytes"] > 1e6][0]   # its size: bandwidth x time
assert big["ceiling"] is True and big["label"] == "none", big
assert abs(big["expected"] - 102.5) < 0.1, big   # 205 / 2, less 80 ns over 16 in flight
assert abs(big["fraction"] - big["measured"] / big["expected"]) < 1e-9, big
assert r["label"] == "none", r
assert "copy ceiling: 205.0 GB/s / 2" in r["reason"] and r["reason"].endswith("core, not by the memory: not labeled"), r
print("%.1f GB/s: %.1f%% of the copy ceiling" % (big["measured"], big["fraction"] * 100))
' <<<"$out"
        ok $? "ucx_perftest over shared memory against mem=205 GB/s: a share of its 102.5 GB/s copy ceiling, not labeled"
    else
        skip "ucx_perftest's table" "its pair did not run here: $(head -c 200 "$TMP/ucx.txt" | tr -cd '[:print:]')"
    fi
fi

# Hostile inputs: nothing raw reaches the terminal, reads are bounded.
printf 'pingpong size=8 iters=1 latency_us=1.0 bandwidth_MBps=8\n' >"$TMP/$(printf 'x\033[2Jy')"
run "$RDMARUN" judge --node 'nodes=1' "$TMP/$(printf 'x\033[2Jy')"
[ "$rc" = 0 ] && ! has "$out$err" "$(printf '\033')"
ok $? "a file name with an escape sequence is shown escaped"
run "$RDMARUN" judge --node "$(printf 'nics=1x\033[2J')" "$J/osu_bw-hdr.txt"
check "--node with control bytes: 64, named escaped" 64 "--node: 'nics=1x\\x1b[2J'"
for bad in 'nics=0x100G' 'kind=fast' 'pcie=9x16' 'gpus=8xZ99' 'nodes=-1' 'mtu=1' 'gdr=maybe' 'oops'; do
    run "$RDMARUN" judge --node "$bad" "$J/osu_bw-hdr.txt"
    check "--node '$bad': 64, the word named" 64 "--node: '${bad:0:10}"
done
head -c 100000 /dev/urandom >"$TMP/random.bin"
run "$RDMARUN" judge --node nodes=2 "$TMP/random.bin"
check "random bytes: 65, no benchmark output named" 65 "no benchmark output found"
run timeout 20 "$RDMARUN" judge --node nodes=2 /dev/zero
check "/dev/zero: refused, not read forever" 65 "/dev/zero: cannot read it"
mkfifo "$TMP/fifo"
run timeout 20 "$RDMARUN" judge --node nodes=2 "$TMP/fifo"
check "a FIFO with no writer: refused at once" 65 "cannot read it"
run "$RDMARUN" judge --node nodes=2 "$TMP/none.txt"
check "a missing file: 66" 66 "none.txt: cannot read it"
run "$RDMARUN" judge
check "no file: 64, with a hint" 64 "'judge' needs benchmark outputs"
python3 - "$TMP/long.txt" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("#OSU MPI Bandwidth Test v5.7\n")
    for i in range(100000):
        f.write("%d %d.00\n" % (i + 1, i))
    f.write("9" * 100000 + " 5\n")
PY
run "$RDMARUN" judge --json --node 'nics=1x200G kind=ib' "$TMP/long.txt"
[ "$rc" = 0 ] || [ "$rc" = 84 ] || [ "$rc" = 85 ]
ok $? "100,000 rows and a 100 KB line: read, rows kept bounded"
run "$RDMARUN" judge --node 'nics=1x200G kind=ib pcie=4x16' - <"$J/osu_bw-hdr.txt"
check "- reads standard input" 0 "normal: 21.3 GB/s"
done_testing
