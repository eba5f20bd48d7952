#!/bin/bash
# Inside the guest: perftest on rxe0 against MPI ping-pong through rdmarun,
# same device, same run. Figures into $RR_SHARE/perf.txt.
. "$RR_SHARE/env.sh"
exec >"$RR_SHARE/perf.txt" 2>&1
ok() { :; }
. "$RDMARUN_SRCDIR/tests/vm/guest/setup.sh"
. "$RDMARUN_SRCDIR/benchmarks/lib.sh"
PP=$RDMARUN_BUILDDIR/examples/mpi_pingpong
ip=${GUEST_IP%/*}
# / is read-only in the guest: the jobs' evidence goes under a tmpfs.
cd "$(mktemp -d)"
n=200
[ -n "${BENCH_SHORT:-}" ] && n=20

# perftest, loopback on rxe0: 1 MiB writes (bandwidth), 8-byte writes (latency)
# (the client once its server listens: perftest's port, 18515)
ib_write_bw -d rxe0 -x "$RXE_GID" -F -s 1048576 -n 200 --report_gbits >/tmp/bw-s 2>&1 &
"$RDMARUN_SRCDIR/tests/listening.sh" 18515
ib_write_bw -d rxe0 -x "$RXE_GID" -F -s 1048576 -n 200 --report_gbits "$ip" >/tmp/bw-c 2>&1
wait
ib_write_lat -d rxe0 -x "$RXE_GID" -F -s 8 -n 1000 >/tmp/lat-s 2>&1 &
"$RDMARUN_SRCDIR/tests/listening.sh" 18515
ib_write_lat -d rxe0 -x "$RXE_GID" -F -s 8 -n 1000 "$ip" >/tmp/lat-c 2>&1
wait
# perftest's result rows: bytes iterations peak avg ... (Gb/s), and latency t_avg column
bw=$(awk '$1 == 1048576 {print $4 * 1000 / 8}' /tmp/bw-c)          # MB/s
lat=$(awk '$1 == 8 && NF >= 6 {print $6}' /tmp/lat-c)               # t_avg, us
figure "perftest rxe0: ib_write_bw 1 MiB" "$bw" MB/s
figure "perftest rxe0: ib_write_lat 8 B" "$lat" us

# rdmarun check's own loopback test (issue 38) beside ib_write_bw's, and the
# prolog's wall time with it (one port here; the target is 8 HCAs').
mkdir -p /tmp/site
printf '[check]\nloopback = yes\n' >/tmp/site/lb.ini
t0=$(date +%s.%N)
"$RDMARUN" check --json --config /tmp/site/lb.ini >/tmp/lb.json 2>/dev/null
t1=$(date +%s.%N)
lbw=$(python3 -c 'import json, re, sys
d = json.load(open("/tmp/lb.json"))
m = [x for c in d["checks"] for x in c.get("measured", [])]
r = re.search(r"at ([0-9.]+) Gb/s", m[0]) if m else None
print(r.group(1) if r else "")' 2>/dev/null)
figure "rdmarun check loopback rxe0 (64 KiB writes, 64 in flight, 2 s)" "$lbw" Gb/s
figure "rdmarun check loopback, % of ib_write_bw's" \
    "$(awk -v a="$lbw" -v b="$bw" 'BEGIN {if (a > 0 && b > 0) printf "%.0f", 100 * a * 1000 / 8 / b}')" % ">=" 50
figure "prolog with the loopback test (rxe0): wall time" \
    "$(awk -v a="$t1" -v b="$t0" 'BEGIN { printf "%.2f", a - b }')" s "<=" 15

# The prolog with the loopback test on 8 ports at once (issue 38's target
# is for 8 HCAs): rxe1..rxe8 on 8 dummy interfaces beside rxe0, each with
# its own address, every port's test run in parallel from its NUMA node.
for i in 1 2 3 4 5 6 7 8; do
    ip link add "hca$i" type dummy && ip addr add "10.9.$i.1/24" dev "hca$i" &&
        ip link set "hca$i" up && rdma link add "rxe$i" type rxe netdev "hca$i"
done
all_active() {
    for i in 0 1 2 3 4 5 6 7 8; do
        grep -q ACTIVE "/sys/class/infiniband/rxe$i/ports/1/state" 2>/dev/null || return 1
    done
}
if within 30 all_active; then
    printf '[check]\nloopback = yes\n' >/tmp/site/lb9.ini
    t0=$(date +%s.%N)
    "$RDMARUN" check --json --config /tmp/site/lb9.ini >/tmp/lb9.json 2>/dev/null
    t1=$(date +%s.%N)
    ports=$(python3 -c 'import json; d = json.load(open("/tmp/lb9.json"))
print(sum(len(c.get("measured", [])) for c in d["checks"]))' 2>/dev/null)
    figure "prolog with the loopback test on 9 rxe ports at once: ports measured" "${ports:-}" "" ">=" 9
    figure "prolog with the loopback test on 9 rxe ports at once: wall time" \
        "$(awk -v a="$t1" -v b="$t0" 'BEGIN { printf "%.2f", a - b }')" s "<=" 15
else
    figure "prolog with the loopback test on 9 rxe ports at once: wall time" "" s "<=" 15
fi
for i in 1 2 3 4 5 6 7 8; do rdma link delete "rxe$i"; ip link delete "hca$i"; done 2>/dev/null

# mpi LABEL TARGETS OPTIONS...: a 2-rank ping-pong through rdmarun; its 8 B
# latency and 1 MiB bandwidth beside perftest's (targets: "rdma" for the
# profiles that use rxe0, none for tcp and shm). A job that gives no figure
# shows why (its last lines).
mpi() {
    label=$1 targets=$2
    shift 2
    "$RDMARUN" "$@" --allow-run-as-root -np 2 "$PP" $n 8 1048576 >/tmp/pp 2>/tmp/pp.err
    l=$(sed -n 's/.*size=8 .*latency_us=\([0-9.]*\).*/\1/p' /tmp/pp)
    b=$(sed -n 's/.*size=1048576 .*bandwidth_MBps=\([0-9.]*\).*/\1/p' /tmp/pp)
    figure "$label: 8 B" "$l" us
    figure "$label: 1 MiB" "$b" MB/s
    lr=$(awk -v a="$l" -v b="$lat" 'BEGIN {if (a > 0 && b > 0) printf "%.2f", a / b}')
    br=$(awk -v a="$b" -v b="$bw" 'BEGIN {if (a > 0 && b > 0) printf "%.0f", 100 * a / b}')
    if [ "$targets" = rdma ]; then
        figure "$label: 8 B latency over ib_write_lat's" "$lr" x "<=" 1.5
        figure "$label: 1 MiB bandwidth, % of ib_write_bw's" "$br" % ">=" 80
    else
        figure "$label: 8 B latency over ib_write_lat's" "$lr" x
        figure "$label: 1 MiB bandwidth, % of ib_write_bw's" "$br" %
    fi
    [ -n "$l" ] && [ -n "$b" ] || tail -n 5 /tmp/pp /tmp/pp.err 2>/dev/null | sed 's/^/#   /'
}
mpi "roce (rc_verbs, -x UCX_TLS=rc,self)" rdma -p roce -x UCX_TLS=rc,self
mpi "auto (chooses roce; rc,self)" rdma -x UCX_TLS=rc,self
mpi "tcp" - -p tcp
mpi "shm (shared memory, no NIC)" - -p shm

# The path test on this one node (mpirun, PMIx, the node's QP pair to itself):
# its wall time, launch included, and its own figures beside perftest's.
t0=$(date +%s.%N)
"$RDMARUN" check --path-test --allow-run-as-root >/tmp/path 2>&1
t1=$(date +%s.%N)
pl=$(sed -n 's/.*passed: .*latency \([0-9.]*\)-.*/\1/p' /tmp/path)
pb=$(sed -n 's/.*passed: .*bandwidth \([0-9.]*\)-.*/\1/p' /tmp/path)
# within its own deadline (--path-timeout, 30 s)
figure "path test, 1 node (mpirun + PMIx): wall time" "$(awk -v a="$t1" -v b="$t0" 'BEGIN { printf "%.2f", a - b }')" s "<" 30
figure "path test, 1 node: 8 B" "$pl" us
figure "path test, 1 node: 32 KiB writes" "$pb" MB/s
[ -n "$pl" ] && [ -n "$pb" ] || tail -n 5 /tmp/path | sed 's/^/#   /'
# The last line: without it the host knows the guest was cut short.
echo "perf.sh: done"
