#!/bin/sh
# rdmarun probe: this machine, recorded nodes, saved facts read back, and
# every way a facts or topology file can be wrong.
. "${RDMARUN_SRCDIR:-.}/tests/lib.sh"
TOPO=$DATA/topology/2pkg-2numa.xml

run "$RDMARUN" probe
check "probe on this machine succeeds" 0 "host " "NUMA " "limits: memlock"
if [ -z "$(ls /sys/class/infiniband 2>/dev/null)" ]; then
    has "$out" "no RDMA devices (nothing in /sys/class/infiniband)"
    ok $? "no RDMA device here: said plainly, status 0"
else
    skip "no-device report" "this machine has RDMA devices"
fi
ncores=$(lstopo-no-graphics --only core 2>/dev/null | wc -l)
[ "$ncores" -gt 0 ] && has "$out" ", $ncores cores," ; ok $? "core count agrees with lstopo ($ncores)"

run "$RDMARUN" probe --json
check "probe --json on this machine" 0 '"rdmarun_facts": 1'
printf '%s' "$out" >"$TMP/here.json"
python3 - "$TMP/here.json" <<'PY'
import json, resource, sys
f = json.load(open(sys.argv[1]))
soft = resource.getrlimit(resource.RLIMIT_MEMLOCK)[0]
want = "unlimited" if soft == resource.RLIM_INFINITY else soft
assert f["limits"]["memlock_soft"] == want, (f["limits"]["memlock_soft"], want)
for key in ("hostname", "ucx_version", "host", "devices", "gpus", "netifs", "limits", "warnings"):
    assert key in f, key
PY
ok $? "probe --json has the stable fields, and memlock agrees with getrlimit"

# Saved facts read back give the same facts.
run "$RDMARUN" probe --json --topology "$TOPO" --sysfs "$DATA/sysfs/ib-mlx5"
printf '%s\n' "$out" >"$TMP/ib.json"
run "$RDMARUN" probe --json --facts "$TMP/ib.json"
check "probe --facts reads saved facts" 0
printf '%s\n' "$out" >"$TMP/ib2.json"
python3 - "$TMP/ib.json" "$TMP/ib2.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
a.pop("source"); b.pop("source")
assert a == b, "facts differ after a round trip"
PY
ok $? "probe --json, then --facts, round-trips every field"
run "$RDMARUN" --dry-run --mpirun mpirun --evidence-dir /EV --facts "$TMP/ib.json" -np 1 ./prog
check "a plan from saved facts" 0 "UCX_NET_DEVICES=mlx5_0:1 " "nearest to NUMA 0"
run "$RDMARUN" --dry-run --mpirun mpirun --evidence-dir /EV --topology "$TOPO" --sysfs "$DATA/sysfs/ib-mlx5" -np 1 ./prog
first=$(printf '%s\n' "$out" | head -n 1)
run "$RDMARUN" --dry-run --mpirun mpirun --evidence-dir /EV --facts "$TMP/ib.json" -np 1 ./prog
[ "$first" = "$(printf '%s\n' "$out" | head -n 1)" ]; ok $? "the same command from live sources and from saved facts"

# Saved facts whose fields hold what no probe writes: refused with the
# field's JSON path, never planned as unknown. Each case edits the probe's
# own output ($TMP/ib.json) in one field.
bad_facts() {   # bad_facts NAME PYTHON-STATEMENT-ON-f
    python3 - "$TMP/ib.json" "$TMP/$1.json" "$2" <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))
exec(sys.argv[3])
json.dump(f, open(sys.argv[2], "w"))
PY
}
bad_facts cores-text 'f["host"]["cores"] = "two"'
bad_facts cores-negative 'f["host"]["cores"] = -5'
bad_facts pus-huge 'f["host"]["pus"] = 1e300'
bad_facts hostname-long 'f["hostname"] = "n" * 100000'
bad_facts hostname-escape 'f["hostname"] = "node\u001b[31m"'
bad_facts port-zero 'f["devices"][0]["ports"][0]["port"] = 0'
bad_facts numa-text 'f["devices"][0]["numa_node"] = "zero"'
while IFS='|' read -r name path want; do
    run "$RDMARUN" --dry-run --facts "$TMP/$name.json" -np 1 ./prog
    check "facts with $name: refused with the field's path" 65 "$name.json: $path: expected" "$want"
done <<'CASES'
cores-text|host.cores|a whole number from 0
cores-negative|host.cores|-5
pus-huge|host.pus|a whole number
hostname-long|hostname|text of at most 256 bytes
hostname-escape|hostname|without control characters
port-zero|devices[0].ports[0].port|from 1 to 255
numa-text|devices[0].numa_node|"zero"
CASES

# Bad facts and topology files.
run "$RDMARUN" probe --facts "$TMP/missing.json"
check "missing facts file" 66 "cannot read facts"
printf '{"rdmarun_facts": 1, "devices": [' >"$TMP/cut.json"
run "$RDMARUN" probe --facts "$TMP/cut.json"
check "truncated facts file" 65 "is not valid facts JSON"
sed 's/"rdmarun_facts": 1/"rdmarun_facts": 99/' "$TMP/ib.json" >"$TMP/new.json"
run "$RDMARUN" probe --facts "$TMP/new.json"
check "facts from a newer rdmarun" 65 "facts format 99" "saved by a newer rdmarun"
echo '[1, 2]' >"$TMP/array.json"
run "$RDMARUN" probe --facts "$TMP/array.json"
check "facts that are not an object" 65 "not valid facts JSON"
head -c 4096 /dev/urandom >"$TMP/binary.json"
run "$RDMARUN" probe --facts "$TMP/binary.json"
check "binary garbage as facts" 65 "not valid facts JSON"
# A NUMA node number placement could not hold as a bit (make fuzz found one
# that cost 512 MB a rank): refused in facts and in hwloc XML alike.
printf '{"rdmarun_facts": 1, "host": {"numa_nodes": [{"os_index": 0}, {"os_index": 4096}]}}' \
    >"$TMP/numa-4096.json"
run "$RDMARUN" --dry-run --facts "$TMP/numa-4096.json" --bind-policy numa -N 2 ./app
check "facts with NUMA node 4096: 65, named, before any placement" 65 \
    "numa-4096.json: host.numa_nodes[1].os_index: expected a whole number from 0 to 1023, not 4096"
ns="0x00000100$(printf ',0x00000000%.0s' $(seq 156))"   # bit 5000, hwloc's 32-bit words
sed -e 's/os_index="1" cpuset="0x0000ff00"/os_index="5000" cpuset="0x0000ff00"/' \
    -e "s/nodeset=\"0x00000002\"/nodeset=\"$ns\"/g" -e "s/nodeset=\"0x00000003\"/nodeset=\"${ns%,*},0x00000001\"/g" \
    "$TOPO" >"$TMP/numa-5000.xml"
run "$RDMARUN" --dry-run --topology "$TMP/numa-5000.xml" --bind-policy numa -N 2 ./app
check "a topology with NUMA node P#5000: 65, named" 65 "numa-5000.xml has NUMA node P#5000, not a NUMA node number (0-1023)"
# HBM in flat mode (and MCDRAM, CXL memory): hwloc gives the memory-only
# NUMA node the cpuset of the cores beside it. Written by hwloc's own lstopo.
lstopo-no-graphics --input "pack:2 [numa] [numa] core:4 pu:2" --of xml "$TMP/hbm.xml"
run "$RDMARUN" probe --topology "$TMP/hbm.xml"
check "a memory-only NUMA node is shown without cores" 0 "NUMA 0: PUs 0-7 (4 cores)" \
    "NUMA 1: memory near PUs 0-7, no cores of its own" "NUMA 3: memory near PUs 8-15, no cores"
# numa_pus JSON: each rank's NUMA nodes and PUs, a line each
numa_pus() {
    python3 -c 'import json, sys
for r in json.load(sys.stdin)["placement"]["ranks"]:
    print(",".join(map(str, r["numa"])), r["pus"])'
}
run "$RDMARUN" --dry-run --json --topology "$TMP/hbm.xml" --bind-policy numa -N 4 ./app
[ "$rc" = 0 ] && [ "$(printf '%s' "$out" | numa_pus | tr '\n' ' ')" = "0 0-3 0 4-7 2 8-11 2 12-15 " ]
ok $? "4 ranks on 2 packages with HBM: 2 a package, each core once (got: $(printf '%s' "$out" | numa_pus 2>&1 | tr '\n' ' '))"
run "$RDMARUN" probe --json --topology "$TMP/hbm.xml"
printf '%s\n' "$out" >"$TMP/hbm.json"
run "$RDMARUN" --dry-run --json --facts "$TMP/hbm.json" --bind-policy numa -N 4 ./app
[ "$rc" = 0 ] && [ "$(printf '%s' "$out" | numa_pus | tr '\n' ' ')" = "0 0-3 0 4-7 2 8-11 2 12-15 " ]
ok $? "the same placement from the saved facts"
# Facts saved before rdmarun told these nodes apart list the cores twice;
# a core listed by two nodes is the first one's.
python3 - "$TMP/hbm.json" "$TMP/hbm-old.json" <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))
n = f["host"]["numa_nodes"]
n[1]["core_pus"], n[3]["core_pus"] = n[0]["core_pus"], n[2]["core_pus"]
json.dump(f, open(sys.argv[2], "w"))
PY
run "$RDMARUN" --dry-run --json --facts "$TMP/hbm-old.json" --bind-policy numa -N 4 ./app
[ "$rc" = 0 ] && [ "$(printf '%s' "$out" | numa_pus | tr '\n' ' ')" = "0 0-3 0 4-7 2 8-11 2 12-15 " ]
ok $? "older facts that list the cores under both nodes: the same placement"
# What no machine has: a core that holds part of another, a NUMA number twice.
python3 - "$TMP/hbm.json" "$TMP/part.json" "$TMP/twice.json" <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))
f["host"]["numa_nodes"][1]["core_pus"] = ["1-2"]
json.dump(f, open(sys.argv[2], "w"))
f["host"]["numa_nodes"][1]["core_pus"] = []
f["host"]["numa_nodes"][2]["os_index"] = 1
json.dump(f, open(sys.argv[3], "w"))
PY
run "$RDMARUN" --dry-run --facts "$TMP/part.json" --bind-policy numa -N 4 ./app
check "a core with part of another's PUs: 65, named" 65 \
    "part.json: host.numa_nodes[1].core_pus[0] \"1-2\" is not a core of its own"
run "$RDMARUN" probe --facts "$TMP/twice.json"
check "a NUMA number twice: 65, named" 65 "twice.json: host.numa_nodes[2] is NUMA node 1 again"
run "$RDMARUN" probe --topology "$TMP/missing.xml"
check "missing topology file" 66 "cannot read topology"
echo "not xml" >"$TMP/bad.xml"
run "$RDMARUN" probe --topology "$TMP/bad.xml"
check "a topology that is not hwloc XML" 65 "is not an hwloc XML topology"

# Warnings a recorded node deserves.
run "$RDMARUN" probe --topology "$TOPO" --sysfs "$DATA/sysfs/ib-mlx5"
check "warnings: DOWN port and PCIe below capability" 0 \
    "mlx5_0 port 2 is DOWN, physical state Polling" \
    "mlx5_1 PCIe link trained at 8.0 GT/s x8, below its capability 16.0 GT/s x16"
run "$RDMARUN" probe --facts "$DATA/facts/memlock-64k.json"
check "warnings: memlock, /dev/infiniband, GPU without nvidia_peermem" 0 \
    "memlock limit is 64 KiB, not unlimited" "no uverbs device" "nvidia_peermem is not loaded" \
    "mlx5_1 port 1 has MTU 4096 but mlx5_0 has 1024"

# A recorded tree's values are input like any other: control characters,
# bytes past ASCII, impossible rates and numbers never reach the terminal or
# the facts as data (the kernel writes these attributes in printable ASCII,
# and prints no rate above 12 lanes of XDR, 2400 Gb/s).
HOSTILE=$TMP/hostile
cp -r "$DATA/sysfs/ib-mlx5" "$HOSTILE"
dev=$HOSTILE/class/infiniband/mlx5_0
printf '\001\002garbage\377\n' >"$dev/fw_ver"
printf 'Infini\033[2JBand\n' >"$dev/ports/1/link_layer"
printf '999999999999 Gb/sec (4X EDR)\n' >"$dev/ports/1/rate"
printf '18446744073709551615\n' >"$dev/ports/1/counters/symbol_error"
printf '0x1a junk\n' >"$dev/ports/1/lid"
printf '255\n' >"$dev/ports/1/counters/link_downed"
run "$RDMARUN" probe --sysfs "$HOSTILE"
check "hostile sysfs values: probe still reads the node" 0 "mlx5_0: driver mlx5_core, node GUID" \
    "port 1: ACTIVE (LinkUp), Unspecified" \
    "link_downed 255 (saturated: counts no more until reset, perfquery -R)"
! printf '%s\n' "$out" | sed -n '/port 1: ACTIVE (LinkUp), Unspecified/,/port 2:/p' | grep -q symbol_error
ok $? "a counter past 64 bits is no count: left out of its port"
for junk in garbage 99999 18446744073709551615 9223372036854775807 "LID 0x1a" "mlx5_0: driver mlx5_core, firmware"; do
    check_without "hostile sysfs values: '$junk' is not shown as data" 0 "$junk" "port 1: ACTIVE"
done
printf '%s' "$out" | LC_ALL=C grep -q "$(printf '[\001-\010\016-\037\177]')"
[ $? = 1 ]; ok $? "hostile sysfs values: no control character reaches the terminal"
printf '254\n' >"$dev/ports/1/counters/link_downed"
run "$RDMARUN" probe --sysfs "$HOSTILE"
check_without "an 8-bit counter below its top is a count" 0 "saturated" "link_downed 254,"

# Every counter, in probe's text and JSON and through saved facts (issue
# 38): the recorded mlx5 RoCE node's counters/ and hw_counters/ files, each
# read here with cat, against what probe says (lifespan is hw_counters'
# refresh period, not a count).
LL=$DATA/sysfs/roce-lossless
pdir=$LL/class/infiniband/mlx5_0/ports/1
run "$RDMARUN" probe --sysfs "$LL"
text=$out
"$RDMARUN" probe --json --sysfs "$LL" >"$TMP/ll.json"
missing=
n=0
for f in "$pdir"/counters/* "$pdir"/hw_counters/*; do
    [ -f "$f" ] || continue
    name=${f##*/} value=$(cat "$f")
    [ "$name" = lifespan ] && continue
    n=$((n + 1))
    printf '%s\n' "$text" | tr '\n' ' ' | tr -s ' ' | grep -q "[ :]$name $value[,)]\{0,1\}\( \|$\)" ||
        missing="$missing $name"
    python3 -c 'import json, sys
c = json.load(open(sys.argv[1]))["devices"][0]["ports"][0]["counters"]
sys.exit(0 if c.get(sys.argv[2]) == int(sys.argv[3]) else 1)' "$TMP/ll.json" "$name" "$value" ||
        missing="$missing json:$name"
done
[ "$n" -ge 29 ] && [ -z "$missing" ]
ok $? "probe shows all $n of mlx5_0's counters with their values, in text and JSON${missing:+ (not:$missing)}"
has "$text" "congestion counters: np_cnp_sent 39, np_ecn_marked_roce_packets 3400"
ok $? "probe groups them by what they count (congestion: np_ecn_marked_roce_packets)"
run "$RDMARUN" probe --facts "$TMP/ll.json"
[ "$(printf '%s\n' "$out" | grep -A30 '^mlx5_0:' | grep counters -A3)" = \
  "$(printf '%s\n' "$text" | grep -A30 '^mlx5_0:' | grep counters -A3)" ] && has "$out" "out_of_sequence 12"
ok $? "saved facts keep every counter: probe --facts says the same"
python3 - "$TMP/ll.json" "$TMP/bad.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
c = d["devices"][0]["ports"][0]["counters"]
c["esc\u001b[2Jname"] = 1
c["out_of_sequence"] = -3
json.dump(d, open(sys.argv[2], "w"))
PY
run "$RDMARUN" probe --facts "$TMP/bad.json"
check "saved counters that are no counts are refused (65), each named, no escape shown" 65 \
    "devices[0].ports[0].counters.esc\\x1b[2Jname: expected a counter named by printable UTF-8 text" \
    "devices[0].ports[0].counters.out_of_sequence: expected a whole number from 0, not -3"

done_testing
