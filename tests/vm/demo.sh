#!/bin/bash
# Watch rdmarun drive real RDMA without hardware: boots the Soft-RoCE guest,
# runs the example ping-pong through rdmarun over rxe0, prints it all here.
# From a built tree: tests/vm/demo.sh   (about a minute; qemu TCG)
here=$(cd "$(dirname "$0")" && pwd)
RDMARUN_SRCDIR=${RDMARUN_SRCDIR:-$(cd "$here/../.." && pwd)}
RDMARUN_BUILDDIR=${RDMARUN_BUILDDIR:-$RDMARUN_SRCDIR}
RDMARUN=${RDMARUN:-$RDMARUN_BUILDDIR/rdmarun}
RDMARUN_PROFILE_PATH=${RDMARUN_PROFILE_PATH:-$RDMARUN_SRCDIR/profiles}
export RDMARUN RDMARUN_SRCDIR RDMARUN_BUILDDIR RDMARUN_PROFILE_PATH
. "$here/lib.sh"
vm_require
share=$(vm_share demo)
RDMARUN_VM_CONSOLE=stdio "$here/boot.sh" "$share" "$here/guest/demo.sh"
