#!/bin/sh
# Golden plans and probes: every shipped profile on every recorded node
# (sysfs trees in tests/data/sysfs with a two-NUMA topology), text and JSON,
# compared with tests/golden/expected.
# After an intended change: RDMARUN_REGEN=1 make check TESTS=tests/golden/dry_run.sh
. "${RDMARUN_SRCDIR:-.}/tests/lib.sh"
EXP=$SRC/tests/golden/expected
TOPO=$DATA/topology/2pkg-2numa.xml

golden_run() {  # NAME, then the rdmarun arguments
    name=$1
    shift
    "$RDMARUN" "$@" >"$TMP/got" 2>&1
    echo "exit status: $?" >>"$TMP/got"
    sed -i -e "s|$SRC|@SRCDIR@|g" -e 's|"ucx_version": "[^"]*"|"ucx_version": "@UCX@"|' \
        -e 's|UCX [0-9][0-9.]* (|UCX @UCX@ (|' \
        -e 's|^stack: .*|stack: @MPI@, UCX @UCX@|' \
        -e 's|"mpi": "[^"]*"|"mpi": "@MPI@"|' -e 's|"ucx": "[0-9][0-9.]*"|"ucx": "@UCX@"|' \
        "$TMP/got"
    golden "$EXP/$name" "$TMP/got" "golden $name"
}

for tree in "$DATA"/sysfs/*/; do
    tree=${tree%/}
    node=${tree##*/}
    for profile in auto ib roce pvrdma nccl-ib tcp shm; do
        golden_run "$profile@$node.txt" --dry-run --mpirun mpirun --evidence-dir /EVIDENCE --topology "$TOPO" \
            --sysfs "$tree" -p "$profile" -np 2 ./mpi_hello
    done
    golden_run "auto@$node.json" --dry-run --json --mpirun mpirun --evidence-dir /EVIDENCE --topology "$TOPO" \
        --sysfs "$tree" -np 4 ./mpi_hello
    golden_run "probe@$node.txt" probe --topology "$TOPO" --sysfs "$tree"
    golden_run "probe@$node.json" probe --json --topology "$TOPO" --sysfs "$tree"
done

done_testing
