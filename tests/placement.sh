#!/bin/sh
# Placement from hwloc XML topologies recorded on real machines
# (../shared/topologies, or $RDMARUN_TOPOLOGIES), for 1, 2, 4, 8 and "all
# cores" ranks per node: every rank's PUs, core count, NUMA node and the
# locality of its NIC and GPU must agree with hwloc-calc on the same file;
# the tables are golden files.
. "${RDMARUN_SRCDIR:-.}/tests/lib.sh"
require_topologies
EXP=$SRC/tests/golden/expected/placement

# rank lines from a dry run's JSON: local numa pus cores nic nic_local gpu gpu_local shared
ranks() {
    python3 -c '
import json, sys
p = json.load(sys.stdin).get("placement")
for r in p["ranks"] if p else []:
    print(r["local_rank"], r["numa"], r["pus"], r["cores"], r["nic"] or "-",
          int(r["nic_local"]), r["gpu"] or "-", int(r["gpu_local"]), int(r["cores_shared"]))
'
}

# NUMA nodes (physical) an object or PU list is local to, per hwloc-calc.
numa_of() { hwloc-calc -i "$xml" "$@" --intersect NUMAnode --physical-output 2>/dev/null; }

for xml in "$DIR"/*.xml; do
    name=$(basename "$xml" .xml)
    cores=$(hwloc-calc -i "$xml" --number-of core all)
    policies=nic-local
    hwloc-ls -i "$xml" 2>/dev/null | grep -Eq '"(cuda|nvml|rsmi|opencl|ze)[0-9]' && policies="$policies gpu-local"
    : >"$TMP/got"
    for policy in $policies; do
        for n in 1 2 4 8 "$cores"; do
            args="--dry-run --mpirun mpirun --evidence-dir /EVIDENCE --topology $xml --bind-policy $policy -N $n"
            "$RDMARUN" $args --json ./app 2>/dev/null | ranks >"$TMP/ranks"
            [ "$(wc -l <"$TMP/ranks")" = "$n" ]
            ok $? "$name: $policy, $n ranks: a placement for every local rank"
            bad=0 sum=0 shared=0 all=
            [ -s "$TMP/ranks" ] || bad=1
            while read local numa pus nc nic nlocal gpu glocal sh; do
                locs="pu:$(printf '%s' "$pus" | sed 's/,/ pu:/g')"   # hwloc-calc: one range per location
                want=$(numa_of --physical-input $locs)
                [ "$want" = "$numa" ] || { bad=1; echo "# rank $local: PUs $pus are on NUMA $want, not $numa"; }
                got=$(hwloc-calc -i "$xml" --physical-input $locs --number-of core)
                [ "$got" = "$nc" ] || { bad=1; echo "# rank $local: PUs $pus hold $got cores, not $nc"; }
                for o in "$nic:$nlocal" "$gpu:$glocal"; do
                    dev=${o%%:*} loc=${o##*:}
                    [ "$dev" = - ] && continue
                    case ",$(numa_of "os=$dev")," in *",$numa,"*) l=1 ;; *) l=0 ;; esac
                    [ "$l" = "$loc" ] || { bad=1; echo "# rank $local: $dev local=$loc, hwloc-calc says $l"; }
                done
                sum=$((sum + nc)) shared=$((shared + sh)) all="$all $locs"
            done <"$TMP/ranks"
            ok $bad "$name: $policy, $n ranks: PUs, cores, NUMA node, NIC and GPU locality agree with hwloc-calc"
            if [ "$shared" = 0 ] && [ -n "$all" ]; then
                # Ranks that do not share cores hold disjoint sets.
                union=$(hwloc-calc -i "$xml" --physical-input $all --number-of core)
                [ "$union" = "$sum" ]
                ok $? "$name: $policy, $n ranks: no two ranks share a core ($sum cores, union $union)"
            fi
            { echo "== $policy -N $n"
              "$RDMARUN" $args --report ./app 2>&1 | sed -n '/^placement:/,$p'
            } >>"$TMP/got"
        done
    done
    sed -i "s|$DIR|@TOPOLOGIES@|g" "$TMP/got"
    golden "$EXP/$name.txt" "$TMP/got" "$name: golden placement tables"
done

# Each GPU's vendor gets its own visible-devices variable, counted in PCI
# order among that vendor's GPUs: epyc-corona's GPUs are seen by OpenCL only
# (AMD), the 32em64t node has an NVIDIA GPU (CUDA) and an AMD one (OpenCL).
env_of() {  # TOPOLOGY N: each rank's variables, a line each
    "$RDMARUN" --dry-run --json --topology "$DIR/$1.xml" --bind-policy gpu-local -N "$2" ./app |
        python3 -c 'import json, sys
for r in json.load(sys.stdin)["placement"]["ranks"]: print(" ".join(r["env"]))'
}
if [ -f "$DIR/epyc-corona.xml" ]; then
    [ "$(env_of epyc-corona 4 | sed -n 's/.*ROCR_VISIBLE_DEVICES=\([0-9]\).*/\1/p' | tr -d '\n')" = 0123 ]
    ok $? "epyc-corona, 4 ranks: OpenCL-only AMD GPUs, ROCR_VISIBLE_DEVICES 0 to 3"
fi
if [ -f "$DIR/32em64t-2n8c2t-pci-normalio.xml" ]; then
    e=$(env_of 32em64t-2n8c2t-pci-normalio 2)
    has "$e" "CUDA_VISIBLE_DEVICES=0" && has "$e" "ROCR_VISIBLE_DEVICES=0" &&
        [ "$(printf '%s\n' "$e" | grep -c VISIBLE_DEVICES)" = 2 ]
    ok $? "32em64t, 2 ranks: one on the NVIDIA GPU (CUDA), one on the AMD GPU (ROCR)"
fi

done_testing
