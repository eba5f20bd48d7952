#!/bin/bash
# Inside the guest: perftest on rxe0 against MPI ping-pong through rdmarun,
# same device, same run. Figures into $RR_SHARE/perf.txt.
. "$RR_SHARE/env.sh"
exec >"$RR_SHARE/perf.txt" 2>&1
ok() { :; }
. "$RDMARUN_SRCDIR/tests/vm/guest/setup.sh"
PP=$RDMARUN_BUILDDIR/examples/mpi_pingpong
ip=${GUEST_IP%/*}
# / is read-only in the guest: the jobs' evidence goes under a tmpfs.
cd "$(mktemp -d)"
n=200
[ -n "${BENCH_SHORT:-}" ] && n=20

# perftest, loopback on rxe0: 1 MiB writes (bandwidth), 8-byte writes (latency)
ib_write_bw -d rxe0 -x "$RXE_GID" -F -s 1048576 -n 200 --report_gbits >/tmp/bw-s 2>&1 &
sleep 1
ib_write_bw -d rxe0 -x "$RXE_GID" -F -s 1048576 -n 200 --report_gbits "$ip" >/tmp/bw-c 2>&1
wait
ib_write_lat -d rxe0 -x "$RXE_GID" -F -s 8 -n 1000 >/tmp/lat-s 2>&1 &
sleep 1
ib_write_lat -d rxe0 -x "$RXE_GID" -F -s 8 -n 1000 "$ip" >/tmp/lat-c 2>&1
wait
# perftest's result rows: bytes iterations peak avg ... (Gb/s), and latency t_avg column
bw=$(awk '$1 == 1048576 {print $4 * 1000 / 8}' /tmp/bw-c)          # MB/s
lat=$(awk '$1 == 8 && NF >= 6 {print $6}' /tmp/lat-c)               # t_avg, us
echo "perftest rxe0: ib_write_bw 1 MiB ${bw:-?} MB/s, ib_write_lat 8 B ${lat:-?} us"

mpi() {  # label, rdmarun options
    label=$1
    shift
    "$RDMARUN" "$@" --allow-run-as-root -np 2 "$PP" $n 8 1048576 >/tmp/pp 2>/dev/null
    l=$(sed -n 's/.*size=8 .*latency_us=\([0-9.]*\).*/\1/p' /tmp/pp)
    b=$(sed -n 's/.*size=1048576 .*bandwidth_MBps=\([0-9.]*\).*/\1/p' /tmp/pp)
    printf '%-34s 8 B %9s us (x%s of ib_write_lat)   1 MiB %9s MB/s (%s of ib_write_bw)\n' \
        "$label" "${l:-?}" "$(awk -v a="$l" -v b="$lat" 'BEGIN {if (b > 0) printf "%.2f", a / b; else print "?"}')" \
        "${b:-?}" "$(awk -v a="$b" -v b="$bw" 'BEGIN {if (b > 0) printf "%.0f%%", 100 * a / b; else print "?"}')"
}
mpi "roce (rc_verbs, -x UCX_TLS=rc,self)" -p roce -x UCX_TLS=rc,self
mpi "auto (chooses roce; rc,self)" -x UCX_TLS=rc,self
mpi "tcp" -p tcp
mpi "shm (shared memory, no NIC)" -p shm

# The path test on this one node (mpirun, PMIx, the node's QP pair to itself):
# its wall time, launch included, and its own figures beside perftest's.
t0=$(date +%s.%N)
"$RDMARUN" check --path-test --allow-run-as-root >/tmp/path 2>&1
t1=$(date +%s.%N)
pl=$(sed -n 's/.*passed: .*latency \([0-9.]*\)-.*/\1/p' /tmp/path)
pb=$(sed -n 's/.*passed: .*bandwidth \([0-9.]*\)-.*/\1/p' /tmp/path)
printf 'path test, 1 node (mpirun + PMIx)   %s s wall; 8 B %s us, 32 KiB writes %s MB/s\n' \
    "$(awk -v a="$t1" -v b="$t0" 'BEGIN { printf "%.2f", a - b }')" "${pl:-?}" "${pb:-?}"
