#!/bin/sh
# A stand-in rank for the early-stop test: writes one UCX endpoint line on TCP
# into the evidence directory (as a rank's UCX does once its log is flushed),
# then keeps running. UCX_LOG_FILE comes from rdmarun's plan through mpirun -x.
dir=${UCX_LOG_FILE%/*}
echo "[0.0] [$(hostname):$$:0] ucp_worker.c:1763 UCX  INFO    ep_cfg[1]: tag(tcp/eth0)" \
    >"$dir/ucx.$(hostname).$$.log"
exec sleep 60
