#!/bin/bash
# The path test's wall time between two nodes (not a test): two qemu guests
# with Soft-RoCE joined by a socket link, `rdmarun check --path-test` from
# node a, launch included, several runs. Under TCG the figures are the
# method's cost, not a fabric's. The median beside its target (the path
# test's own deadline, 30 s), met or missed; exits 1 when a figure is missing.
#   benchmarks/path-test.sh   (from a built tree; about 2 minutes; BENCH_SHORT=1: 3 runs)
here=$(cd "$(dirname "$0")/.." && pwd)
export RDMARUN_SRCDIR=${RDMARUN_SRCDIR:-$here} RDMARUN_BUILDDIR=${RDMARUN_BUILDDIR:-$here}
export RDMARUN=${RDMARUN:-$RDMARUN_BUILDDIR/rdmarun}
export RDMARUN_PROFILE_PATH=${RDMARUN_PROFILE_PATH:-$RDMARUN_SRCDIR/profiles}
. "$RDMARUN_SRCDIR/benchmarks/lib.sh"
. "$RDMARUN_SRCDIR/tests/vm/lib.sh"
bench_from_check_vm pair bench.txt "path-bench.sh: done" && bench_end
bench_vm_require
share=$(vm_share path-bench)
vm_pair "$share" "$VM_DIR/guest/path-bench.sh" >/dev/null
bench_file "$share/bench.txt" "path-bench.sh: done"
bench_end
