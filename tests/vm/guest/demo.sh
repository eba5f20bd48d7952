#!/bin/bash
# Inside the guest, for people: set up rxe, show what rdmarun plans, run the
# example ping-pong through it, and show the kernel's view of the job's QPs.
. "$RR_SHARE/env.sh"
ok() { echo "[demo] $2"; }
. "$RDMARUN_SRCDIR/tests/vm/guest/setup.sh"
set -x
rdma link
"$RDMARUN" probe
"$RDMARUN" --dry-run --allow-run-as-root -np 2 "$RDMARUN_BUILDDIR/examples/mpi_pingpong"
( sleep 6; rdma res show qp | grep -E 'RC.*mpi_pingpong' | head -4 ) &
"$RDMARUN" --allow-run-as-root -np 2 -x UCX_TLS=rc,self -x UCX_LOG_LEVEL=info \
    "$RDMARUN_BUILDDIR/examples/mpi_pingpong" 200 8 1048576 2>&1 | grep -E 'rdmarun|ep_cfg\[1\]|(intra|inter)-node cfg#|pingpong'
wait
