#!/bin/bash
# The Soft-RoCE VM suite, single guest: probe against ibv_devinfo and rdma
# link, MPI jobs over rc_verbs (roce and auto profiles) and TCP, the UCX UD
# defect rule, placement over the guest's two NUMA nodes. See tests/vm/README.md.
. "$RDMARUN_SRCDIR/tests/vm/lib.sh"
vm_require
share=$(vm_share single)
# Intel MPI's ping-pong (impi-rt and impi-devel from PyPI, in a virtual
# environment: scripts/setup-debian.sh), built here: the guest has no
# writable copy of the tree. None there: the guest says skip.
IMPI=${RDMARUN_IMPI:-/opt/rdmarun-impi}
if [ -x "$IMPI/bin/mpicc" ]; then
    I_MPI_ROOT=$IMPI "$IMPI/bin/mpicc" -O2 -o "$share/impi_pingpong" \
        "$RDMARUN_SRCDIR/examples/mpi_pingpong.c" || echo "# Intel's mpicc failed"
fi
# Its guest took 901 s under TCG on Debian 13 (kernel 6.12, 2 vCPUs on 2
# host cores), past boot.sh's default 600 s; the limit only ends a hung one.
RDMARUN_VM_TIMEOUT=${RDMARUN_VM_TIMEOUT:-1500} RDMARUN_VM_NUMA=2 vm_run "$share" "$RDMARUN_SRCDIR/tests/vm/guest/single.sh"
