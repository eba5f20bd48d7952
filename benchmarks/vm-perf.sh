#!/bin/bash
# Soft-RoCE figures (not a test): in one qemu guest, ib_write_bw/ib_write_lat
# on rxe0 next to an MPI ping-pong launched by rdmarun with each shipped
# profile that applies. Emulated figures are slow; the ratio of the MPI figure
# to perftest's on the same device in the same run is what counts.
#   benchmarks/vm-perf.sh   (from a built tree; about 2 minutes)
here=$(cd "$(dirname "$0")/.." && pwd)
export RDMARUN_SRCDIR=${RDMARUN_SRCDIR:-$here} RDMARUN_BUILDDIR=${RDMARUN_BUILDDIR:-$here}
export RDMARUN=${RDMARUN:-$RDMARUN_BUILDDIR/rdmarun}
export RDMARUN_PROFILE_PATH=${RDMARUN_PROFILE_PATH:-$RDMARUN_SRCDIR/profiles}
. "$RDMARUN_SRCDIR/tests/vm/lib.sh"
vm_require
share=$(vm_share perf)
"$VM_DIR/boot.sh" "$share" "$VM_DIR/guest/perf.sh" >/dev/null
cat "$share/perf.txt"
