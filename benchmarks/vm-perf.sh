#!/bin/bash
# Soft-RoCE figures (not a test): in one qemu guest, ib_write_bw/ib_write_lat
# on rxe0 next to an MPI ping-pong launched by rdmarun with each shipped
# profile that applies. Emulated figures are slow; the ratio of the MPI figure
# to perftest's on the same device in the same run is what counts.
# Each figure beside its target, met or missed; exits 1 when a figure is
# missing ('?') or the guest stopped before its last.
#   benchmarks/vm-perf.sh   (from a built tree; about 2 minutes; BENCH_SHORT=1: fewer iterations)
# In full mode, run by hand, every MPI figure was '?': the guest runs
# examples/mpi_pingpong, which 'make' does not build ('make bench' and 'make
# check' do, so CI's short mode had it), and the guest dropped rdmarun's
# stderr, which said so. The program is built here now, and a job without a
# figure shows its last lines.
here=$(cd "$(dirname "$0")/.." && pwd)
export RDMARUN_SRCDIR=${RDMARUN_SRCDIR:-$here} RDMARUN_BUILDDIR=${RDMARUN_BUILDDIR:-$here}
export RDMARUN=${RDMARUN:-$RDMARUN_BUILDDIR/rdmarun}
export RDMARUN_PROFILE_PATH=${RDMARUN_PROFILE_PATH:-$RDMARUN_SRCDIR/profiles}
. "$RDMARUN_SRCDIR/benchmarks/lib.sh"
. "$RDMARUN_SRCDIR/tests/vm/lib.sh"
bench_examples
bench_from_check_vm single perf.txt "perf.sh: done" && bench_end
bench_vm_require
share=$(vm_share perf)
"$VM_DIR/boot.sh" "$share" "$VM_DIR/guest/perf.sh" >/dev/null
bench_file "$share/perf.txt" "perf.sh: done"
bench_end
