#!/bin/bash
# One placement whatever starts the ranks (issue 37): the same profile and
# recorded node give each of 4 ranks the same environment, PUs, NUMA node,
# memory policy, NIC and GPU, byte for byte after sorting by rank, under
# Open MPI's mpirun, MPICH's Hydra (mpiexec.mpich), and --launcher exec
# with mpirun starting each rank through the helper. srun's run is in the
# Slurm suite (tests/slurm/slurm.sh), compared with mpirun's there; the real
# CPU binding on this host's own topology in integration/mpich.sh.
. "${RDMARUN_SRCDIR:-.}/tests/lib.sh"
cd "$TMP"
OMPI_APP=$BUILD/examples/mpi_placement MPICH_APP=$BUILD/examples/mpich/mpi_placement
command -v mpirun >/dev/null && [ -x "$OMPI_APP" ] ||
    { echo "1..0 # SKIP Open MPI's mpirun or examples/mpi_placement missing"; exit 0; }
equivalence_profile "$TMP/place.ini"
SYSFS=$DATA/sysfs/pascal-noacs
# (hwloc ignores HWLOC_XMLFILE while HWLOC_COMPONENTS is set: the sanitizer build's.)
unset HWLOC_COMPONENTS

# Each recorded node with the policy that shows most of it: LLNL's Pascal
# (2 GPUs on socket 0, one mlx5) by GPU, Lassen (2 POWER9, 4 threads a core)
# and Corona (8 NUMA nodes) by NUMA node.
for case in "cts1-pascal gpu-local" "coral-lassen numa" "epyc-corona numa"; do
    topo=${case% *} policy=${case#* }
    have_topology "$topo" || continue
    xml=$TOPOLOGIES/$topo.xml
    common=(-p "$TMP/place.ini" --verify off --sysfs "$SYSFS" --bind-policy "$policy" --report)
    run "$RDMARUN" "${common[@]}" $MPIRUN_ROOT --oversubscribe --bind-to none \
        -x HWLOC_XMLFILE="$xml" -x HWLOC_THISSYSTEM=0 -np 4 "$OMPI_APP"
    equivalence_lines >"$TMP/$topo.mpirun"
    # Every rank's two lines, each with its own local rank, before any comparison.
    n=$(grep -c "^placement rank=[0-3] local=[0-3] " "$TMP/$topo.mpirun")
    h=$(grep -c "^rank [0-3] (local [0-3] of 4) on .*: PUs " "$TMP/$topo.mpirun")
    [ "$rc" = 0 ] && [ "$n" = 4 ] && [ "$h" = 4 ]
    ok $? "$topo, $policy: mpirun's 4 ranks, each placed by the helper ($n program lines, $h helper lines)" ||
        show_run
    if [ -x "$MPICH_APP" ]; then
        run "$RDMARUN" "${common[@]}" --bind-to none -x HWLOC_XMLFILE="$xml" -x HWLOC_THISSYSTEM=0 \
            -np 4 "$MPICH_APP"
        equivalence_lines >"$TMP/$topo.hydra"
        cmp -s "$TMP/$topo.mpirun" "$TMP/$topo.hydra"
        ok $? "$topo, $policy: Hydra's ranks are placed as mpirun's, byte for byte" ||
            diff "$TMP/$topo.mpirun" "$TMP/$topo.hydra" | sed 's/^/#   /'
    else
        skip "$topo: Hydra" "examples/mpich/mpi_placement is not built (MPICH missing)"
    fi
    # exec: COMMAND is mpirun, which starts each rank through the helper
    # (RDMARUN_RANK_OPTIONS carries the plan's options).
    HWLOC_XMLFILE=$xml HWLOC_THISSYSTEM=0 run "$RDMARUN" "${common[@]}" --launcher exec -- \
        mpirun $MPIRUN_ROOT --oversubscribe --bind-to none -np 4 "$RDMARUN" rank --keep-cpus -- "$OMPI_APP"
    equivalence_lines >"$TMP/$topo.exec"
    cmp -s "$TMP/$topo.mpirun" "$TMP/$topo.exec"
    ok $? "$topo, $policy: --launcher exec's ranks are placed as mpirun's, byte for byte" ||
        diff "$TMP/$topo.mpirun" "$TMP/$topo.exec" | sed 's/^/#   /'
    sed 's/^/# /' "$TMP/$topo.mpirun" | cut -c1-200
done
done_testing
