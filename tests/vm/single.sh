#!/bin/bash
# The Soft-RoCE VM suite, single guest: probe against ibv_devinfo and rdma
# link, MPI jobs over rc_verbs (roce and auto profiles) and TCP, the UCX UD
# defect rule, placement over the guest's two NUMA nodes. See tests/vm/README.md.
. "$RDMARUN_SRCDIR/tests/vm/lib.sh"
vm_require
share=$(vm_share single)
RDMARUN_VM_NUMA=2 vm_run "$share" "$RDMARUN_SRCDIR/tests/vm/guest/single.sh"
