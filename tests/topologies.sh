#!/bin/sh
# Facts and plans from hwloc XML topologies recorded on real machines
# (tests/data/topologies): NUMA locality of every RDMA
# device and GPU must agree with hwloc-calc on the same file, each GPU's PCIe
# path class to each RDMA device with hwloc-info's ancestors, and the probe
# report and the plan for 1, 2, 4 and 8 ranks are golden-tested.
. "${RDMARUN_SRCDIR:-.}/tests/lib.sh"
require_hwloc_tools
EXP=$SRC/tests/golden/expected/topologies

for xml in "$TOPOLOGIES"/*.xml; do
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
    # Every recorded machine has RDMA devices: the probe's are hwloc's
    # OpenFabrics devices, none missing, and each GPU has a path class to
    # each of them (a list left empty would check nothing below).
    ofa=$(lstopo-no-graphics -i "$xml" --only os | sed -n 's/^ *OpenFabrics[^"]*"\([^"]*\)".*/\1/p' | sort | xargs)
    devs=$(awk '$1 == "dev" {print $2}' "$TMP/objs" | sort | xargs)
    [ -n "$ofa" ] && [ "$devs" = "$ofa" ]
    ok $? "$name: the probe's RDMA devices ($devs) are hwloc's OpenFabrics devices (${ofa:-none})"
    ngpus=$(grep -c '^gpu ' "$TMP/objs") ndevs=$(grep -c '^dev ' "$TMP/objs")
    [ "$(wc -l <"$TMP/paths")" = $((ngpus * ndevs)) ]
    ok $? "$name: a path class from each of $ngpus GPUs to each of $ndevs RDMA devices ($(wc -l <"$TMP/paths"))"
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
            [ "$(expand_list "$cpus")" = "$wantpu" ]; ok $? "$name: $obj's local PUs agree with hwloc-calc"
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
    } | sed -e "s|$TOPOLOGIES|@TOPOLOGIES@|g" -e 's|UCX [0-9][0-9.]* (|UCX @UCX@ (|' >"$TMP/got"
    golden "$EXP/$name.txt" "$TMP/got" "$name: golden probe and plans"
done

# GPUDirect's PCIe bridges: cts1-pascal's mlx5_0 and P100s behind one switch,
# with recorded config spaces (tests/data/sysfs/make-trees.py): ACS redirect
# on cuda0's switch port, none, and the 64 bytes a user reads.
xml=$TOPOLOGIES/cts1-pascal.xml
if have_topology cts1-pascal; then
    for t in pascal-acs pascal-noacs pascal-user; do
        run "$RDMARUN" probe --sysfs "$DATA/sysfs/$t" --topology "$xml"
        case $t in
        pascal-acs) check "$t: ACS redirect named on the path, BAR1 read" 0 \
            "cuda0 (NUMA 0, 0000:04:00.0, mlx5_0 PIX, BAR1 16384 MiB, ACS redirects on the path to mlx5_0 (0000:03:04.0))" \
            "ACS redirects peer-to-peer traffic on the PCIe path from cuda0 to mlx5_0 (bridges 0000:03:04.0)" ;;
        pascal-noacs) check "$t: no ACS redirect, nothing warned" 0 "cuda0 (NUMA 0, 0000:04:00.0, mlx5_0 PIX, BAR1 16384 MiB)"
            check_without "$t: no ACS warning" 0 "ACS redirects" "cuda0 (NUMA 0, 0000:04:00.0, mlx5_0 PIX, BAR1 16384 MiB)" ;;
        pascal-user) check "$t: config space past 64 bytes unreadable: unknown" 0 "ACS unknown (root reads the bridges)" ;;
        esac
        "$RDMARUN" probe --json --sysfs "$DATA/sysfs/$t" --topology "$xml" >"$TMP/$t.json"
        "$RDMARUN" probe --sysfs "$DATA/sysfs/$t" --topology "$xml" | grep '^GPUs' >"$TMP/direct"
        "$RDMARUN" probe --facts "$TMP/$t.json" | grep '^GPUs' | sed 's/, ACS unknown (root reads the bridges)//g' >"$TMP/loaded"
        sed 's/, ACS unknown (root reads the bridges)//g' "$TMP/direct" >"$TMP/direct2"
        cmp -s "$TMP/direct2" "$TMP/loaded"; ok $? "$t: ACS and BAR1 survive a --facts round trip"
    done
    run "$RDMARUN" --dry-run -p nccl-ib --sysfs "$DATA/sysfs/pascal-acs" --topology "$xml" -np 2 ./app
    check "NCCL_NET_GDR_LEVEL = auto: LOC where ACS redirects the GPU's path" 0 \
        "-x NCCL_NET_GDR_LEVEL=LOC" "ACS redirects peer-to-peer traffic between cuda0 and mlx5_0 (bridges 0000:03:04.0)"
    run "$RDMARUN" --dry-run -p nccl-ib --sysfs "$DATA/sysfs/pascal-noacs" --topology "$xml" -np 2 ./app
    check "NCCL_NET_GDR_LEVEL = auto: PIX when every GPU shares a switch with the NIC" 0 \
        "-x NCCL_NET_GDR_LEVEL=PIX" "every GPU reaches a job NIC within PIX (farthest: cuda0 to mlx5_0)"
fi
xml=$TOPOLOGIES/coral-lassen.xml
if have_topology coral-lassen; then
    run "$RDMARUN" --dry-run -p nccl-ib --topology "$xml" -np 4 ./app
    check "NCCL_NET_GDR_LEVEL = auto: PHB where the GPUs' nearest NICs are NODE away (lassen)" 0 \
        "-x NCCL_NET_GDR_LEVEL=PHB" "is NODE away: GPUDirect RDMA up to a host bridge (PHB)"
    # examples/torchrun-job.sbatch's rdmarun, as one node of the job runs it
    # (srun's task on lassen: the Slurm variables as Slurm sets them).
    args=$(sed -n '/^exec srun \(-[^ ]* \)*rdmarun /,/train.py$/p' "$SRC/examples/torchrun-job.sbatch" |
        sed 's/\\$//' | tr -s ' \n' ' ' | sed 's/^exec srun \(-[^ ]* \)*rdmarun //')
    (
        SLURM_NNODES=2 SLURM_JOB_ID=4242 head=lassen28
        eval "set -- $args"
        "$RDMARUN" --dry-run --report --evidence-dir /EVIDENCE --topology "$xml" "$@" 2>&1
    ) | sed -e "s|$TOPOLOGIES|@TOPOLOGIES@|g" -e "s|$SRC|@SRC@|g" -e 's|UCX [0-9][0-9.]* (|UCX @UCX@ (|' \
        >"$TMP/got"
    golden "$EXP/coral-lassen-torchrun.txt" "$TMP/got" \
        "coral-lassen: examples/torchrun-job.sbatch's plan (launcher exec, gpu-local, NCCL per worker)"
    grep -q "^/usr/bin/env .*NCCL_IB_HCA==mlx5_0:1,mlx5_1:1,mlx5_2:1,mlx5_3:1 .* torchrun --nnodes=2 " "$TMP/got" &&
        grep -qE "^  [0-3] +[08] +10 .* mlx5_[0-3]:1 +local +cuda[0-3] +local" "$TMP/got" &&
        ! grep -q -- "--mca" "$TMP/got"
    ok $? "coral-lassen torchrun: NCCL's NICs in COMMAND's environment, each worker its local GPU and NIC, no MCA"
fi

done_testing
