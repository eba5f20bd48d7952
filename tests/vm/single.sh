#!/bin/bash
# The Soft-RoCE VM suite, single guest: probe against ibv_devinfo and rdma
# link, MPI jobs over rc_verbs (roce and auto profiles) and TCP, the UCX UD
# defect rule, placement over the guest's two NUMA nodes. See tests/vm/README.md.
. "$RDMARUN_SRCDIR/tests/vm/lib.sh"
vm_require
share=$(vm_share single)
# Its guest took 901 s under TCG on Debian 13 (kernel 6.12, 2 vCPUs on 2
# host cores), past boot.sh's default 600 s; the limit only ends a hung one.
RDMARUN_VM_TIMEOUT=${RDMARUN_VM_TIMEOUT:-1500} RDMARUN_VM_NUMA=2 vm_run "$share" "$RDMARUN_SRCDIR/tests/vm/guest/single.sh"
