#!/bin/sh
# Facts and plans from hwloc XML topologies recorded on real machines
# (../shared/topologies, or $RDMARUN_TOPOLOGIES): NUMA locality of every RDMA
# device and GPU must agree with hwloc-calc on the same file, each GPU's PCIe
# path class to each RDMA device with hwloc-info's ancestors, and the probe
# report and the plan for 1, 2, 4 and 8 ranks are golden-tested.
. "${RDMARUN_SRCDIR:-.}/tests/lib.sh"
require_topologies
EXP=$SRC/tests/golden/expected/topologies

# PU list "0-2,5" -> "0,1,2,5" (hwloc-calc's --physical-output form)
expand() {
    printf '%s\n' "$1" | tr ',' '\n' | while IFS=- read a b; do
        [ -n "$a" ] && seq "$a" "${b:-$a}"
    done | paste -sd, -
}

for xml in "$DIR"/*.xml; do
    name=$(basename "$xml" .xml)
    run "$RDMARUN" probe --json --topology "$xml"
    [ "$rc" = 0 ]; ok $? "$name: probe reads the topology"
    printf '%s\n' "$out" >"$TMP/f.json"
    python3 -c '
import json, sys
f = json.load(open(sys.argv[1]))
for d in f["devices"]:
    print("dev", d["name"], d["local_numa"] or "-", d["local_cpus"] or "-")
for g in f["gpus"]:
    print("gpu", g["name"], g["numa_node"] if g["numa_node"] is not None else "-")
' "$TMP/f.json" >"$TMP/objs"
    python3 -c '
import json, sys
f = json.load(open(sys.argv[1]))
bus = {d["name"]: d["pci_busid"] for d in f["devices"]}
for g in f["gpus"]:
    for p in g.get("nic_paths", []):
        dev, cls = p.split("=")
        print(g["pci_busid"], bus[dev], g["name"], dev, cls)
' "$TMP/f.json" >"$TMP/paths"
    # The class from hwloc-info's own ancestor lists: the first ancestor both
    # share, and the PCI bridges below it on each side.
    while read gbus nbus gname dev cls; do
        hwloc-info -i "$xml" --ancestors -s "pci=$gbus" >"$TMP/ga"
        hwloc-info -i "$xml" --ancestors -s "pci=$nbus" >"$TMP/na"
        common=$(grep -Fx -f "$TMP/ga" "$TMP/na" | head -n 1)
        below() { sed "/^$common\$/,\$d" "$1" | grep -c '^PCIBridge'; }
        nodes=$(hwloc-calc -i "$xml" "$common" --intersect NUMAnode 2>/dev/null | tr ',' '\n' | grep -c .)
        case $common in
            PCI:*) want=PIX ;;
            HostBridge:*) want=PHB ;;
            PCIBridge:*) [ "$(below "$TMP/ga")" -le 1 ] && [ "$(below "$TMP/na")" -le 1 ] && want=PIX || want=PXB ;;
            *) [ "$nodes" = 1 ] && want=NODE || want=SYS ;;
        esac
        [ "$cls" = "$want" ]
        ok $? "$name: $gname to $dev is $cls (hwloc-info: common ancestor $common, so $want)"
    done <"$TMP/paths"
    while read kind obj numa cpus; do
        want=$(hwloc-calc -i "$xml" "os=$obj" --intersect NUMAnode --physical-output 2>/dev/null)
        if [ "$kind" = gpu ] && [ "$numa" = - ]; then
            case "$want" in *,*) numa=$want ;; esac   # a GPU local to several NUMA nodes
        fi
        [ "$numa" = "$want" ]; ok $? "$name: $obj is local to NUMA $numa (hwloc-calc: $want)"
        if [ "$kind" = dev ]; then
            wantpu=$(hwloc-calc -i "$xml" "os=$obj" --intersect PU --physical-output 2>/dev/null |
                tr ',' '\n' | sort -n | paste -sd, -)
            [ "$(expand "$cpus")" = "$wantpu" ]; ok $? "$name: $obj's local PUs agree with hwloc-calc"
        fi
    done <"$TMP/objs"

    # Golden report and plans.
    {
        "$RDMARUN" probe --topology "$xml" 2>&1
        for np in 1 2 4 8; do
            echo "== -np $np"
            "$RDMARUN" --dry-run --mpirun mpirun --evidence-dir /EVIDENCE --topology "$xml" -np $np ./app 2>&1 |
                grep -E '^mpirun|why:|^note:|^error:'
        done
    } | sed -e "s|$DIR|@TOPOLOGIES@|g" -e 's|UCX [0-9][0-9.]* (|UCX @UCX@ (|' >"$TMP/got"
    golden "$EXP/$name.txt" "$TMP/got" "$name: golden probe and plans"
done

done_testing
