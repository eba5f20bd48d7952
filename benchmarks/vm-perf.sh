#!/bin/bash
# Soft-RoCE figures (not a test): in one qemu guest, ib_write_bw/ib_write_lat
# on rxe0 next to an MPI ping-pong launched by rdmarun with each shipped
# profile that applies. Emulated figures are slow; the ratio of the MPI figure
# to perftest's on the same device in the same run is what counts.
# Exits 1 when a figure is missing ('?').
#   benchmarks/vm-perf.sh   (from a built tree; about 2 minutes; BENCH_SHORT=1: fewer iterations)
here=$(cd "$(dirname "$0")/.." && pwd)
export RDMARUN_SRCDIR=${RDMARUN_SRCDIR:-$here} RDMARUN_BUILDDIR=${RDMARUN_BUILDDIR:-$here}
export RDMARUN=${RDMARUN:-$RDMARUN_BUILDDIR/rdmarun}
export RDMARUN_PROFILE_PATH=${RDMARUN_PROFILE_PATH:-$RDMARUN_SRCDIR/profiles}
. "$RDMARUN_SRCDIR/tests/vm/lib.sh"
vm_require
share=$(vm_share perf)
echo "BENCH_SHORT=${BENCH_SHORT:-}" >>"$share/env.sh"
"$VM_DIR/boot.sh" "$share" "$VM_DIR/guest/perf.sh" >/dev/null
cat "$share/perf.txt"
[ -s "$share/perf.txt" ] && ! grep -q '?' "$share/perf.txt"
