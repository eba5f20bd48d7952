#!/bin/bash
# The fabrics beyond verbs (issue 49): EFA, Slingshot, Omni-Path and
# GPUDirect-TCPX on their recorded nodes (tests/data/fabrics), and for real
# here: the named refusal of a node without the fabric, libfabric's
# providers and variables as libfabric itself answers, NCCL's plugins and
# their ABIs as dlopen finds them (stub plugins built here, NCCL from the
# CUDA toolkit).
. "${RDMARUN_SRCDIR:-.}/tests/lib.sh"
require_hwloc_tools
FAB=$DATA/fabrics
export RDMARUN_PROFILE_PATH=$SRC/profiles

# ---- the recorded nodes: hwloc loads each XML, and puts each NIC where the
# tree's own numa_node says ----
for node in efa-8x400:rdmap18s0,rdmap130s0 cxi-4nic:cxi0,cxi3; do
    name=${node%%:*}
    bad=
    for nic in $(echo "${node#*:}" | tr ',' ' '); do
        want=$(cat "$FAB/sysfs/$name/class/"*"/$nic/device/numa_node")
        got=$(hwloc-calc --input "$FAB/$name.xml" --po "os=$nic" --intersect numa 2>/dev/null)
        [ "$got" = "$want" ] || bad="$bad $nic(tree $want, xml $got)"
    done
    [ -z "$bad" ]; ok $? "$name: hwloc loads the XML and its NICs are on the tree's NUMA nodes${bad:+:$bad}"
done

# ---- probe: what the trees' own files say (read here, not by rdmarun) ----
probe_json() {  # TREE XML: probe --json of the recorded node
    "$RDMARUN" probe --json --sysfs "$FAB/sysfs/$1" --topology "$2" >"$TMP/$1.json" 2>"$TMP/err"
}
tree_check() {  # TREE: each device of the JSON against the tree's files
    python3 - "$FAB/sysfs/$1" "$TMP/$1.json" <<'PY'
import json, os, sys
root, facts = sys.argv[1], json.load(open(sys.argv[2]))
def rd(*p):
    with open(os.path.join(root, *p)) as f:
        return f.read().strip()
devs = {d['name']: d for d in facts['devices']}
want = {}
ib = os.path.join(root, 'class/infiniband')
for n in (os.listdir(ib) if os.path.isdir(ib) else []):
    st = rd('class/infiniband', n, 'ports/1/state').split(': ')[1]
    want[n] = (rd('class/infiniband', n, 'device/uevent').split('\n')[0][7:], st,
               rd('class/infiniband', n, 'ports/1/rate'), rd('class/infiniband', n, 'ports/1/link_layer'))
cxi = os.path.join(root, 'class/cxi')
for n in (os.listdir(cxi) if os.path.isdir(cxi) else []):
    link = rd('class/cxi', n, 'device/properties/link')
    mbps = int(rd('class/cxi', n, 'device/properties/speed'))
    rate = '%g Gb/sec (%s)' % (mbps / 1000, rd('class/cxi', n, 'device/port/speed')) if mbps > 0 else None
    want[n] = ('cxi_ss1', 'ACTIVE' if link == '1' else 'DOWN', rate, 'Slingshot')
bad = []
for n, (drv, st, rate, ll) in sorted(want.items()):
    d = devs.get(n)
    if not d:
        bad.append(n + ' missing'); continue
    p = d['ports'][0]
    kind = 'infiniband' if os.path.isdir(os.path.join(ib, n)) else 'cxi'
    vid = rd('class', kind, n, 'device/vendor')[2:] + ':' + rd('class', kind, n, 'device/device')[2:]
    numa = int(rd('class', kind, n, 'device/numa_node'))
    got = (d['driver'], p['state'], p.get('rate'), p['link_layer'], d.get('pci_id'), d['numa_node'])
    if got != (drv, st, rate, ll, vid, numa):
        bad.append('%s: %s != %s' % (n, got, (drv, st, rate, ll, vid, numa)))
if set(devs) != set(want):
    bad.append('devices %s != %s' % (sorted(devs), sorted(want)))
print('; '.join(bad) if bad else 'ok %d devices' % len(want))
sys.exit(1 if bad else 0)
PY
}
for pair in efa-8x400:$FAB/efa-8x400.xml efa-g4dn:$DATA/topologies/g4dnmetal.xml \
            cxi-4nic:$FAB/cxi-4nic.xml opa-hfi1:$DATA/topologies/cts1-quartz-smt1.xml; do
    tree=${pair%%:*}
    probe_json "$tree" "${pair#*:}"
    got=$(tree_check "$tree")
    ok $? "probe $tree: driver, port state, rate, link layer, PCI id and NUMA node as the tree's files say ($got)"
done
"$RDMARUN" probe --sysfs "$FAB/sysfs/cxi-4nic" --topology "$FAB/cxi-4nic.xml" >"$TMP/cxi.txt" 2>&1
grep -q "port 1: ACTIVE (up), Slingshot, 200 Gb/sec (BS_200G)" "$TMP/cxi.txt" && ! grep -q "^warnings" "$TMP/cxi.txt"
ok $? "probe: a Cassini NIC whose link is up is ACTIVE, 200 Gb/s, no warning"
run "$RDMARUN" probe --sysfs "$FAB/sysfs/cxi-4nic-down" --topology "$FAB/cxi-4nic.xml"
check "probe: a Cassini NIC whose link is down is said, with its link word" 0 "cxi2 port 1 is DOWN, physical state down"

# ---- plans and placement on the recorded nodes ----
plan_json() {  # PROFILE TREE XML RANKS POLICY [ARGS]: the dry run's JSON
    pj_prof=$1 pj_tree=$2 pj_xml=$3 pj_ranks=$4 pj_policy=$5
    shift 5
    "$RDMARUN" --dry-run --json --mpirun mpirun --evidence-dir /EVIDENCE -p "$pj_prof" \
        --sysfs "$FAB/sysfs/$pj_tree" --topology "$pj_xml" --bind-policy "$pj_policy" -N "$pj_ranks" \
        "$@" ./app >"$TMP/plan.json" 2>"$TMP/err"
}
rank_env() {  # VAR: each rank's "GPU NIC" from the plan's placement, a line a rank
    python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
for r in d["placement"]["ranks"]:
    env = dict(e.split("=", 1) for e in r.get("env", []))
    print(",".join(r.get("gpus") or ["-"]), env.get(sys.argv[2], "-"), r.get("numa", ["-"])[0] if isinstance(r.get("numa"), list) else r.get("numa"))' "$TMP/plan.json" "$1"
}
# Which NIC shares each GPU's PCIe switch, read from the XML here.
switch_pairs() {
    python3 - "$1" <<'PY'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
for sw in root.iter('object'):
    if sw.get('type') != 'Bridge':
        continue
    gpus, nics = [], []
    for dev in sw.findall('object'):
        for os_ in dev.findall('object'):
            n = os_.get('name', '')
            if n.startswith('cuda'):
                gpus.append(n)
            elif os_.get('osdev_type') == '3':
                nics.append(n)
    for g in gpus:
        for n in nics:
            print(g, n)
PY
}
switch_pairs "$FAB/efa-8x400.xml" | sort >"$TMP/pairs"
plan_json efa efa-8x400 "$FAB/efa-8x400.xml" 8 gpu-local
rank_env FI_EFA_IFACE | awk '{print $1, $2}' | sort >"$TMP/got"
[ "$(wc -l <"$TMP/pairs")" = 8 ] && diff "$TMP/pairs" "$TMP/got" >/dev/null
ok $? "efa-8x400, gpu-local, 8 ranks: each rank's FI_EFA_IFACE is the EFA device under its GPU's PCIe switch" ||
    diff "$TMP/pairs" "$TMP/got" | sed 's/^/#   /'
plan_json efa efa-8x400 "$FAB/efa-8x400.xml" 16 gpu-local
[ "$(rank_env FI_EFA_IFACE | awk '{print $1, $2}' | sort -u | diff - "$TMP/pairs" && echo same)" = same ]
ok $? "efa-8x400, gpu-local, 16 ranks: two ranks a GPU, each with that GPU's own EFA device"
plan_json slingshot cxi-4nic "$FAB/cxi-4nic.xml" 4 nic-local
bad=0
while read -r gpu nic numa; do
    want=$(hwloc-calc --input "$FAB/cxi-4nic.xml" --po "os=$nic" --intersect numa 2>/dev/null)
    [ "$want" = "$numa" ] || { bad=1; echo "# $nic on NUMA $want, its rank on $numa"; }
done < <(rank_env FI_CXI_DEVICE_NAME)
[ "$(rank_env FI_CXI_DEVICE_NAME | awk '$2 != "-"' | wc -l)" = 4 ]; ok $((bad | $?)) "cxi-4nic, nic-local: each rank's FI_CXI_DEVICE_NAME is the Cassini NIC on its NUMA node (hwloc-calc)"
# Cray MPICH picks its NIC itself: an MPICH job gets intro_mpi(3)'s USER
# mapping instead, the same placement (each rank's NIC on its NUMA node,
# hwloc-calc), its NIC by index (cxiN is N) and no FI_CXI_DEVICE_NAME.
plan_json slingshot cxi-4nic "$FAB/cxi-4nic.xml" 8 nic-local --mpi mpich
map=$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
for r in d["placement"]["ranks"]:
    print(dict(e.split("=", 1) for e in r.get("env", [])).get("MPICH_OFI_NIC_MAPPING", "-"))' "$TMP/plan.json" | sort -u)
bad=0
while read -r _ numa; do
    r=$((${r:--1} + 1))
    nic=$(printf '%s\n' "$map" | tr ';' '\n' | python3 -c 'import sys
r = int(sys.argv[1])
for part in sys.stdin.read().split("\n"):
    nic, ranks = part.strip().split(":")
    for span in ranks.split(","):
        a, _, b = span.partition("-")
        if int(a) <= r <= int(b or a): print("cxi" + nic)' "$r")
    want=$(hwloc-calc --input "$FAB/cxi-4nic.xml" --po "os=$nic" --intersect numa 2>/dev/null)
    [ -n "$nic" ] && [ "$want" = "$numa" ] || { bad=1; echo "# rank $r: $nic on NUMA $want, the rank on $numa"; }
done < <(rank_env MPICH_OFI_NIC_POLICY | awk '$2 == "USER" {print $2, $3}')
unset r
[ "$(rank_env MPICH_OFI_NIC_POLICY | awk '$2 == "USER"' | wc -l)" = 8 ] && [ "$(printf '%s\n' "$map" | wc -l)" = 1 ] &&
    [ "$(rank_env FI_CXI_DEVICE_NAME | awk '$2 != "-"' | wc -l)" = 0 ]
ok $((bad | $?)) "cxi-4nic, nic-local, MPICH: MPICH_OFI_NIC_POLICY=USER, one MPICH_OFI_NIC_MAPPING ($map) naming each rank's NUMA-local NIC, no FI_CXI_DEVICE_NAME"
plan_json opx opa-hfi1 "$DATA/topologies/cts1-quartz-smt1.xml" 2 nic-local
[ "$(rank_env FI_OPX_HFI_SELECT | awk '{print $2}' | sort -u)" = 0 ]
ok $? "opa-hfi1, nic-local: FI_OPX_HFI_SELECT=0 (hfi1_0's unit) for every rank"
python3 -c 'import json, sys
d = json.load(open(sys.argv[1])); m = {i["name"]: i["value"] for i in d["items"]}
sys.exit(0 if m.get("pml") == "cm" and m.get("mtl") == "ofi" and m.get("mtl_ofi_provider_include") == "opx" else 1)' "$TMP/plan.json"
ok $? "opx: Open MPI through pml cm and mtl ofi, provider opx"

# verify = strict: the libraries' fail-closed switches, from the node's facts.
strict_items() {  # the plan's NAME=VALUE items set by verify strict
    python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(" ".join(sorted("%s=%s" % (i["name"], i["value"]) for i in d["items"] if i["origin"] == "verify strict")))' "$TMP/plan.json"
}
plan_json efa efa-8x400 "$FAB/efa-8x400.xml" 8 numa --verify strict -H a,b
[ "$(strict_items)" = "FI_EFA_USE_DEVICE_RDMA=1 FI_PROVIDER=efa NCCL_NET=AWS Libfabric" ]
ok $? "strict on 8 efa3 devices between two nodes: FI_PROVIDER=efa, NCCL_NET, FI_EFA_USE_DEVICE_RDMA=1 ($(strict_items))"
plan_json efa efa-g4dn "$DATA/topologies/g4dnmetal.xml" 2 numa --verify strict
[ "$(strict_items)" = "FI_PROVIDER=efa" ]
ok $? "strict on g4dn's efa0 (no RDMA read), one node: FI_PROVIDER only ($(strict_items))"
plan_json slingshot cxi-4nic "$FAB/cxi-4nic.xml" 4 numa --verify strict -H a,b
[ "$(strict_items)" = "FI_PROVIDER=cxi NCCL_NET=AWS Libfabric" ]
ok $? "strict on Slingshot between nodes: FI_PROVIDER=cxi, NCCL_NET ($(strict_items))"

# Azure ND H100 v5 (issue 49): the hypervisor's flat PCI tree hides which NIC
# is near which GPU; NCCL needs the VM family's topology file, which Azure's
# image names in /etc/nccl.conf and a container lacks (azhpc-images
# customizations/ndv5.sh). The VM from its DMI and its GPUs' PCI ids.
AZ=$FAB/azure-ndv5.xml
ids=$(python3 -c 'import sys, xml.etree.ElementTree as ET
print(" ".join(sorted({o.get("pci_type").split("[")[1].split("]")[0] for o in ET.parse(sys.argv[1]).iter("object") if (o.get("pci_type") or "").startswith("0302")})))' "$AZ")
probe_json azure-ndv5-mounted "$AZ"
got=$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1])); c = d["cloud"]
print(" ".join(sorted({g["pci_id"] for g in d["gpus"]})), c["vendor"], c["vm_family"], c["topo_file"])' "$TMP/azure-ndv5-mounted.json")
[ "$got" = "$ids Microsoft Corporation ND H100 v5 /opt/microsoft/ndv5-topo.xml" ]
ok $? "probe, a container with the file mounted: the GPUs' PCI ids as the XML's ($ids), DMI's vendor, the family, its file ($got)"
azure_plan() {  # TREE [ENV...]: the dry run's NCCL_TOPO_FILE item, "NAME=VALUE ORIGIN", or "none"
    az_tree=$1
    shift
    env "$@" "$RDMARUN" --dry-run --json --mpirun mpirun -p ib --sysfs "$FAB/sysfs/$az_tree" \
        --topology "$AZ" -np 8 ./app >"$TMP/plan.json" 2>"$TMP/err"
    python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(" ".join("%s=%s %s" % (i["name"], i["value"], i["origin"]) for i in d["items"] if i["name"] == "NCCL_TOPO_FILE") or "none")' "$TMP/plan.json"
}
[ "$(azure_plan azure-ndv5-mounted)" = "NCCL_TOPO_FILE=/opt/microsoft/ndv5-topo.xml rule:nccl-vm-topology-file" ]
ok $? "the plan sets NCCL_TOPO_FILE to the mounted file, by its rule ($(azure_plan azure-ndv5-mounted))"
[ "$(azure_plan azure-ndv5-mounted NCCL_TOPO_FILE=/site/topo.xml)" = "NCCL_TOPO_FILE=/site/topo.xml environment" ]
ok $? "NCCL_TOPO_FILE in the environment: the user's value is kept"
[ "$(azure_plan azure-ndv5-image)" = none ]
run "$RDMARUN" probe --sysfs "$FAB/sysfs/azure-ndv5-image" --topology "$AZ"
check "Azure's image: /etc/nccl.conf names it, NCCL takes that, the plan sets nothing" 0 \
    "ND H100 v5 VM (Microsoft Corporation Virtual Machine): its NCCL topology file /opt/microsoft/ndv5-topo.xml" \
    "NCCL_TOPO_FILE=/opt/microsoft/ndv5/topo.xml in /etc/nccl.conf"
[ "$(azure_plan azure-ndv5-bare)" = none ] && python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(not [n for n in d["notes"] if "ND H100 v5 VM (Microsoft Corporation, its GPUs'"'"' PCI ids) without its NCCL topology file" in n and "/opt/microsoft/ndv5/topo.xml" in n])' "$TMP/plan.json"
ok $? "a container without it: nothing to set, and the plan says what NCCL will miss and where Azure keeps it"
run "$RDMARUN" probe --sysfs "$FAB/sysfs/azure-ndv5-bare" --topology "$AZ"
check "and probe says it too" 0 "its NCCL topology file is not on this node" "/opt/microsoft/ndv5/topo.xml and name it in /etc/nccl.conf"
run "$RDMARUN" probe --sysfs "$FAB/sysfs/cxi-4nic" --topology "$FAB/cxi-4nic.xml"
check_without "A100s on a node that is no Azure VM (no DMI vendor): no VM family" 0 "VM (" "GPUs:"
# Hostile nccl.conf files: control bytes, a file past 64 KiB, a FIFO, a
# link to a device: each ignored, nothing hangs or reaches the terminal.
cp -r "$FAB/sysfs/azure-ndv5-bare" "$TMP/az"
for bad in esc big fifo dev; do
    rm -f "$TMP/az/recorded/etc/nccl.conf"
    mkdir -p "$TMP/az/recorded/etc"
    case $bad in
    esc) printf 'NCCL_TOPO_FILE=/x\033[2J\n' >"$TMP/az/recorded/etc/nccl.conf" ;;
    big) { head -c 70000 /dev/zero | tr '\0' '#'; printf '\nNCCL_TOPO_FILE=/late\n'; } >"$TMP/az/recorded/etc/nccl.conf" ;;
    fifo) mkfifo "$TMP/az/recorded/etc/nccl.conf" ;;
    dev) ln -s /dev/zero "$TMP/az/recorded/etc/nccl.conf" ;;
    esac
    run timeout 20 "$RDMARUN" probe --sysfs "$TMP/az" --topology "$AZ"
    check_without "nccl.conf as $bad: ignored (no NCCL_TOPO_FILE taken), in bounded time" 0 "NCCL_TOPO_FILE=" "ND H100 v5 VM"
    check_without "and no raw control byte reaches the terminal" 0 "$(printf '\033')" "ND H100 v5 VM"
done
# This node, live: NCCL's own order, NCCL_CONF_FILE over ~/.nccl.conf.
mkdir -p "$TMP/home"
printf '# site\nNCCL_TOPO_FILE=/home-topo.xml\n' >"$TMP/home/.nccl.conf"
printf 'NCCL_TOPO_FILE=/conf-topo.xml # chosen\n' >"$TMP/other.conf"
run env HOME="$TMP/home" "$RDMARUN" probe
check "live: ~/.nccl.conf's NCCL_TOPO_FILE is shown with its file" 0 "NCCL_TOPO_FILE=/home-topo.xml in $TMP/home/.nccl.conf"
run env HOME="$TMP/home" NCCL_CONF_FILE="$TMP/other.conf" "$RDMARUN" probe
check "live: NCCL_CONF_FILE is read instead of ~/.nccl.conf, as NCCL does" 0 "NCCL_TOPO_FILE=/conf-topo.xml in $TMP/other.conf"

# Harmful settings: strict stops the job, warn says so.
RDMAV_FORK_SAFE=1 run "$RDMARUN" --dry-run -p efa --sysfs "$FAB/sysfs/efa-g4dn" \
    --topology "$DATA/topologies/g4dnmetal.xml" --verify strict -np 2 ./app
check "RDMAV_FORK_SAFE=1 on EFA under strict: refused, 78" 78 "RDMAV_FORK_SAFE=1 is harmful on AWS EFA"
FI_EFA_USE_DEVICE_RDMA=1 run "$RDMARUN" --dry-run -p efa --sysfs "$FAB/sysfs/efa-g4dn" \
    --topology "$DATA/topologies/g4dnmetal.xml" -np 2 ./app
check "FI_EFA_USE_DEVICE_RDMA=1 on efa0 under warn: a warning, the plan stands" 0 \
    "warning: FI_EFA_USE_DEVICE_RDMA=1 is harmful on AWS EFA: this node's first-generation EFA"
run "$RDMARUN" --dry-run -p slingshot --sysfs "$FAB/sysfs/cxi-4nic" --topology "$FAB/cxi-4nic.xml" \
    --set libfabric.CXI_DEFAULT_TX_SIZE=32768 --verify strict -np 2 ./app
check "FI_CXI_DEFAULT_TX_SIZE=32768 on Slingshot: refused" 78 "silently resets it to 1024"
NCCL_NET_PLUGIN=ofi NCCL_NET=Libfabric run "$RDMARUN" --dry-run -p tcp --verify strict -np 2 ./app
check "NCCL_NET_PLUGIN with NCCL_NET on any fabric: refused" 78 "NCCL_NET_PLUGIN=ofi is harmful on any fabric"

# ---- for real here: a node without the fabric gets the named refusal,
# fast, before anything starts ----
for p in efa:"no ACTIVE AWS EFA port":"no 'efa' provider" slingshot:"no ACTIVE HPE Slingshot (CXI) port":"no 'cxi' provider" \
         opx:"no ACTIVE Omni-Path port":"no 'opx' provider" tcpx:"no NCCL net plugin named GPUDirectTCPX":"no receive-data-path manager"; do
    IFS=: read -r prof why1 why2 <<<"$p"
    t0=$(date +%s%N)
    run "$RDMARUN" -p "$prof" --verify strict -np 2 "$SRC/examples/mpi_hello"
    ms=$(( ($(date +%s%N) - t0) / 1000000 ))
    [ "$ms" -lt 10000 ]; ok $? "-p $prof --verify strict here: refused within 10 s ($ms ms)"
    check "-p $prof --verify strict here: status 69, naming what is missing" 69 "$why1" "$why2"
done

# The pair test before a job on a libfabric fabric: saved facts of an EFA
# node whose libraries offer efa, run here, where libfabric has none.
run "$RDMARUN" -p efa --facts "$DATA/facts/efa-8x400-libs.json" --verify strict --evidence-dir "$TMP/ev-pair" \
    -np 2 "$SRC/examples/mpi_hello"
check_without "strict on EFA's facts, here: the preflight pair test of efa fails, the job does not start" 69 \
    "rank 0 of 2" "preflight libfabric pair test failed: efa: fi_getinfo: no 'efa' provider"
# Without the test the job starts, and Open MPI's OFI MTL finds no efa
# provider itself (its own status, 1): the test only says it first.
run "$RDMARUN" -p efa --facts "$DATA/facts/efa-8x400-libs.json" --set check.qp-test=no --verify strict \
    --evidence-dir "$TMP/ev-nopair" -np 2 "$SRC/examples/mpi_hello"
check_without "[check] qp-test = no: no pair test; the job starts and fails on its own" 1 "pair test" \
    "no verdict: the job ended (status 1)"

# ---- libfabric answers for its own variables and providers ----
run "$RDMARUN" --dry-run -p tcp --set libfabric.EFA_USE_DEVICE_RDAM=1 -np 2 ./app
check "[libfabric] typo: did you mean, from the providers' own names" 78 \
    "unknown libfabric variable FI_EFA_USE_DEVICE_RDAM in [libfabric] (did you mean FI_EFA_USE_DEVICE_RDMA?)"
fi_info -e 2>/dev/null | sed -n 's/^# \(FI_[A-Z0-9_]*\):.*/\1/p' | sort -u >"$TMP/fi-e"
"$RDMARUN" profiles --keys | sed -n 's/^libfabric\./FI_/p' | sort -u >"$TMP/keys"
missing=$(comm -23 "$TMP/fi-e" "$TMP/keys" | tr '\n' ' ')
[ -s "$TMP/fi-e" ] && [ -z "$missing" ]
ok $? "every variable 'fi_info -e' lists is a [libfabric] key ($(wc -l <"$TMP/fi-e") of them)${missing:+; missing: $missing}"
FI_PROVIDER=tcp run "$RDMARUN" --dry-run -p tcp -np 2 ./app
check "FI_PROVIDER from the environment is the plan's, with its origin" 0 "FI_PROVIDER" "environment"
"$RDMARUN" probe --json >"$TMP/here.json"
python3 - "$TMP/here.json" <<'PY' >"$TMP/provs"
import json, sys
print("\n".join(sorted({p.split(" ")[0] for p in json.load(open(sys.argv[1]))["fabric_libraries"]["libfabric_providers"]})))
PY
fi_info 2>/dev/null | sed -n 's/^ *provider: //p' | sort -u >"$TMP/fi-l"
diff "$TMP/provs" "$TMP/fi-l" >/dev/null
ok $? "probe's libfabric providers are fi_info's ($(tr '\n' ' ' <"$TMP/provs"))" || diff "$TMP/provs" "$TMP/fi-l" | sed 's/^/#   /'

# ---- NCCL's plugins: stubs that export chosen ABIs, one that cannot load,
# against the CUDA toolkit's NCCL ----
cc_ok=0
mkdir -p "$TMP/plugins" "$TMP/dep"
cat >"$TMP/net.c" <<'C'
struct plugin { const char *name; void *fns[32]; };
__attribute__((visibility("default"))) struct plugin ncclNetPlugin_v7 = {STUB_NAME};
__attribute__((visibility("default"))) struct plugin ncclNetPlugin_v12 = {STUB_NAME};
C
printf 'int stub_dep(void) { return 1; }\n' >"$TMP/dep.c"
printf 'int stub_dep(void);\nint use(void) { return stub_dep(); }\nstruct p { const char *n; } ncclNetPlugin_v8 = {"Broken"};\n' >"$TMP/broken.c"
printf 'struct p { const char *n; } ncclTunerPlugin_v3 = {"StubTuner"};\n' >"$TMP/tuner.c"
cc -shared -fPIC -DSTUB_NAME='"GPUDirectTCPX_v7"' -o "$TMP/plugins/libnccl-net-stub.so" "$TMP/net.c" &&
    cc -shared -fPIC -o "$TMP/dep/libstubdep.so" "$TMP/dep.c" &&
    cc -shared -fPIC -o "$TMP/plugins/libnccl-net-broken.so" "$TMP/broken.c" -L"$TMP/dep" -lstubdep &&
    cc -shared -fPIC -o "$TMP/plugins/libnccl-tuner-stub.so" "$TMP/tuner.c" || cc_ok=1
ok $cc_ok "stub plugins build (ncclNetPlugin_v7 and _v12; one needing a library that is not there; ncclTunerPlugin_v3)"
LD_LIBRARY_PATH=$TMP/plugins "$RDMARUN" probe --json >"$TMP/plugins.json" 2>/dev/null
LD_LIBRARY_PATH=$TMP/plugins "$RDMARUN" probe >"$TMP/plugins.txt" 2>/dev/null
nccl_here=$(strings /usr/local/cuda/lib64/libnccl.so.2 2>/dev/null | sed -n 's/^NCCL version \([0-9.]*\).*/\1/p' | head -1)
if [ -n "$nccl_here" ]; then
    python3 - "$TMP/plugins.json" "$TMP/plugins" "$nccl_here" <<'PY'
import json, subprocess, sys
d = json.load(open(sys.argv[1]))["fabric_libraries"]
ps = {p["path"].rsplit("/", 1)[1] + ":" + p["kind"]: p for p in d["nccl_plugins"]}
def exported(f):   # the plugin symbols nm finds, newest first
    out = subprocess.run(["nm", "-D", "--defined-only", sys.argv[2] + "/" + f], capture_output=True, text=True).stdout
    vs = sorted((int(l.split("_v")[-1]) for l in out.split() if l.startswith(("ncclNetPlugin_v", "ncclTunerPlugin_v"))), reverse=True)
    return ",".join("v%d" % v for v in vs)
net, tuner, broken = ps.get("libnccl-net-stub.so:net"), ps.get("libnccl-tuner-stub.so:tuner"), ps.get("libnccl-net-broken.so:net")
ok = (d["nccl_version"] == sys.argv[3] and net and net["name"] == "GPUDirectTCPX_v7" and
      net["abi"] == exported("libnccl-net-stub.so") and tuner and tuner["abi"] == exported("libnccl-tuner-stub.so") and
      tuner["name"] == "StubTuner" and broken and "libstubdep.so" in (broken["error"] or "") and not broken["abi"])
print("nccl %s; net %s; tuner %s; broken %s" % (d["nccl_version"], net, tuner, broken and broken["error"]))
sys.exit(0 if ok else 1)
PY
    ok $? "probe: NCCL $nccl_here (the library's own ncclGetVersion, as 'strings' reads it), each plugin's name and ABIs as nm lists them, and why one does not load"
    grep -q "net plugin $TMP/plugins/libnccl-net-stub.so: \"GPUDirectTCPX_v7\", exports v12,v7; NCCL $nccl_here takes v7" "$TMP/plugins.txt"
    ok $? "probe's text: the ABI NCCL $nccl_here takes of v12 and v7 (it asks v11-v6: v7)"
    grep -q "libnccl-net-broken.so: does not load (libstubdep.so: cannot open shared object file" "$TMP/plugins.txt"
    ok $? "probe's text: a plugin that does not load says why, and that NCCL goes on without it"
    # TCPX with its plugin and a listening RxDM socket: the job may start.
    mkdir -p "$TMP/rxdm"
    python3 -c 'import socket, sys; s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1])' "$TMP/rxdm/rxdm_uds"
    LD_LIBRARY_PATH=$TMP/plugins run "$RDMARUN" --dry-run -p tcpx --verify strict \
        --set "env.NCCL_GPUDIRECTTCPX_UNIX_CLIENT_PREFIX=$TMP/rxdm" -np 2 ./app
    check_without "tcpx with its plugin (name GPUDirectTCPX_v7, an ABI NCCL takes) and RxDM's socket: planned" 0 \
        "no receive-data-path manager" "NCCL_GPUDIRECTTCPX_UNIX_CLIENT_PREFIX"
else
    skip "probe: NCCL's plugins against the CUDA toolkit's NCCL" "no libnccl.so.2 in /usr/local/cuda/lib64"
fi
# Hostile names on the library path: a plugin file whose name holds an
# escape sequence, and a harmful setting's value with one, never reach the
# terminal raw.
mkdir -p "$TMP/evil"
cp "$TMP/plugins/libnccl-net-stub.so" "$TMP/evil/libnccl-net-$(printf '\033[31m')x.so" 2>/dev/null
LD_LIBRARY_PATH=$TMP/evil "$RDMARUN" probe >"$TMP/evil.txt" 2>&1
LD_LIBRARY_PATH=$TMP/evil "$RDMARUN" probe --json >>"$TMP/evil.txt" 2>&1
RDMAV_FORK_SAFE=$(printf '1\033[2J') "$RDMARUN" --dry-run -p efa --sysfs "$FAB/sysfs/efa-g4dn" \
    --topology "$DATA/topologies/g4dnmetal.xml" -np 2 ./app >>"$TMP/evil.txt" 2>&1
! grep -q "$(printf '\033')" "$TMP/evil.txt" && grep -q "RDMAV_FORK_SAFE=(a value not shown" "$TMP/evil.txt"
ok $? "an escape sequence in a plugin's file name or a harmful setting's value is never printed raw"
done_testing
