#!/bin/sh
# Verification while a real Open MPI job runs on this host: the evidence
# directory, the verdict, the policy, and signals and exit statuses through
# the supervising rdmarun.
. "${RDMARUN_SRCDIR:-.}/tests/lib.sh"
command -v mpirun >/dev/null || { echo "1..0 # SKIP mpirun not installed"; exit 0; }
HELLO=$BUILD/examples/mpi_hello
EXIT=$BUILD/examples/mpi_exit
EV=$TMP/evidence
cd "$TMP"

run "$RDMARUN" -p shm $MPIRUN_ROOT -np 2 "$HELLO"
check "shm: the verdict is local, the job's output untouched" 0 \
    "rdmarun: local only: 2 processes on shared memory" "rank 0 of 2" "rank 1 of 2"
check_without "the UCX INFO lines rdmarun asked for are not in the job's output" 0 "UCX  INFO" "rank 1 of 2"
dir=$(ls -d "$TMP"/rdmarun-evidence/*)
# The reports' own host:pid prefix: "[1795.4] [vm:3251 :0] ...".
pids() { sed -n 's/^\[[0-9.]*\] \[[^:]*:\([0-9]*\).*/\1/p' "$1" | sort -u | wc -l; }
[ "$(pids "$dir/ucx.log")" = 2 ]; ok $? "both ranks' UCX reports are kept in ./rdmarun-evidence/HOST.PID.TIME/ucx.log"
[ "$(stat -c %a "$TMP/rdmarun-evidence")" = 3775 ]
ok $? "./rdmarun-evidence is group-writable and sticky: a teammate's job makes its own directory there"
grep -q '"verdict": "local"' "$dir/verdict.json"; ok $? "verdict.json written beside the logs"
run "$RDMARUN" verify "$dir"
# (status 0: the run recorded what it expected, local under -p shm, and
# verify of its directory judges it by that)
check "rdmarun verify gives the same verdict from the saved evidence, counting the ranks only" 0 \
    "local only: 2 processes"

# TCP between ranks of one node (see ONE_NODE_TCP in lib.sh).
run "$RDMARUN" -p tcp $MPIRUN_ROOT -np 2 "$HELLO"
check "tcp on one node, UCX $UCX_VERSION: $ONE_NODE_TCP, never called shared memory" 0 \
    "rdmarun: " "$ONE_NODE_TCP_TEXT"
check_without "no verdict names shared memory it did not see" 0 "shared memory (none)" "$ONE_NODE_TCP_TEXT"

printf '[profile]\ninherit = tcp\nexpect = rdma\n' >"$TMP/wants-rdma.ini"
run "$RDMARUN" -p "$TMP/wants-rdma.ini" $MPIRUN_ROOT -np 2 "$HELLO"
if [ "$ONE_NODE_TCP" = fallback ]; then
    check "RDMA expected, TCP used, verify warn: a warning, the job's status" 0 \
        "rdmarun: FALLBACK: process" "used tcp/" "the profile expects rdma"
    run "$RDMARUN" -p "$TMP/wants-rdma.ini" --verify strict $MPIRUN_ROOT -np 2 "$HELLO"
    check "the same with verify strict: status 80" 80 "FALLBACK" "rank 1 of 2"
    [ "$(printf '%s\n' "$err" | grep -c "FALLBACK: ")" = 1 ] && ! has "$err" "error: FALLBACK"
    ok $? "strict: the fallback line appears exactly once" || show_run
else
    # UCX says no path left the node; between nodes tests/vm/guest/pair.sh
    # shows the fallback caught under strict.
    check "RDMA expected, TCP within one node: local, no warning" 0 "$ONE_NODE_TCP_TEXT"
    check_without "a job that never left the node is not a fallback" 0 "warning" "$ONE_NODE_TCP_TEXT"
fi

# strict stops a real UCX job within seconds of its first endpoint on TCP:
# the report reaches rdmarun through mpirun's stderr as the rank writes it.
# (UCX 1.14+ calls TCP between ranks of one node intra-node, no fallback:
# the two-guest VM suite, tests/vm/guest/pair.sh, tests it between nodes.)
if [ "$ONE_NODE_TCP" = fallback ]; then
    start=$(date +%s)
    run "$RDMARUN" -p "$TMP/wants-rdma.ini" --verify strict --evidence-dir "$EV/early" \
        $MPIRUN_ROOT -np 2 "$BUILD/examples/mpi_pingpong" 20000 1048576
    end=$(date +%s.%N)
    check "strict: a real UCX job on TCP is stopped, status 80, naming process, host and lane" 80 \
        "stopping the job (verify = strict" "FALLBACK: process " " on $(hostname) used tcp/"
    [ "$(printf '%s\n' "$err" | grep -c "FALLBACK: ")" = 1 ]
    ok $? "the fallback is reported once, as the error that stopped the job (no closing warning; FALLBACK its own label, no error: before it)" ||
        show_run
    check_without "the closing line says the job was stopped, not the fallback again" 80 \
        "warning: FALLBACK" "rdmarun: the job was stopped on the fallback reported above"
    first=$(sed -n 's/^\[\([0-9.]*\)\] .*ep_cfg.*tcp.*/\1/p' "$EV/early/ucx.log" | head -1)
    took=$(awk -v a="$end" -v b="${first:-0}" 'BEGIN { printf "%.2f", a - b }')
    [ -n "$first" ] && awk -v t="$took" -v max="$(scaled 5)" 'BEGIN { exit !(t < max) }'
    ok $? "stopped $took s after the first endpoint on TCP (under $(scaled 5) s; the job takes ~100 s)"
    check_without "the rdma-res sampler's complaints stay out of the job's output" 80 "NETLINK" \
        "FALLBACK: process "
else
    skip "strict: a real UCX job on TCP is stopped" "UCX $UCX_VERSION reports TCP within one node as intra-node (tests/vm/guest/pair.sh: between nodes)"
    skip "stopped within 5 s of the first endpoint on TCP" "as above"
    skip "the rdma-res sampler's complaints stay out of the job's output" "as above"
fi

# Exit statuses and signals pass through the supervising rdmarun.
run "$RDMARUN" -p shm --evidence-dir "$EV/exit7" $MPIRUN_ROOT -np 2 "$EXIT" 7
check "the program exits 7, the supervised rdmarun exits 7" 7 "local only"
"$RDMARUN" -p shm --evidence-dir "$EV/term" $MPIRUN_ROOT -np 2 "$EXIT" sleep 60 >"$TMP/term.out" 2>&1 &
pid=$!
wait_lines "$TMP/term.out" sleeping 2
ranks=$(sed -n 's/.*pid \([0-9]*\) sleeping/\1/p' "$TMP/term.out")
[ "$(cat /proc/$pid/comm 2>/dev/null)" = rdmarun ]; ok $? "rdmarun supervises (stays the parent of mpirun)"
kill -TERM $pid
wait $pid
status=$?
[ "$status" -ne 0 ]; ok $? "SIGTERM to the supervising rdmarun ends the job (status $status)"
gone $ranks
ok $? "the forwarded SIGTERM reached the ranks"

# rdmarun killed outright: mpirun and the ranks must not run on without it.
"$RDMARUN" -p shm --evidence-dir "$EV/kill" $MPIRUN_ROOT -np 2 "$EXIT" sleep 60 >"$TMP/kill.out" 2>&1 &
pid=$!
wait_lines "$TMP/kill.out" sleeping 2
ranks=$(sed -n 's/.*pid \([0-9]*\) sleeping/\1/p' "$TMP/kill.out")
mpirun_pid=$(launcher_of $pid)
kill -KILL $pid
wait $pid 2>/dev/null
gone $mpirun_pid $ranks
ok $? "SIGKILL to rdmarun: mpirun ($mpirun_pid) and the ranks end too, no orphans"

# mpirun killed by a signal: rdmarun exits 128+N, as a shell would report it.
"$RDMARUN" -p shm --evidence-dir "$EV/sig" $MPIRUN_ROOT -np 2 "$EXIT" sleep 60 >"$TMP/sig.out" 2>&1 &
pid=$!
wait_lines "$TMP/sig.out" sleeping 2
ranks=$(sed -n 's/.*pid \([0-9]*\) sleeping/\1/p' "$TMP/sig.out")
launcher=$(launcher_of $pid)
kill -KILL $launcher
wait $pid
status=$?
[ "$status" = 137 ]; ok $? "mpirun ($launcher) killed by SIGKILL: rdmarun exits 137 (got $status)"
gone $ranks; ok $? "and no rank of it is left running (rdmarun ends what the launcher left)"

# verify off: no evidence, and rdmarun execs mpirun.
run "$RDMARUN" -p shm --verify off --evidence-dir "$EV/off" $MPIRUN_ROOT -np 2 "$HELLO"
check "verify off runs the job" 0 "rank 1 of 2"
[ ! -e "$EV/off" ]; ok $? "verify off writes no evidence"

# The user's own UCX_LOG_LEVEL is kept, and the plan says what it costs.
UCX_LOG_LEVEL=warn run "$RDMARUN" -p shm --evidence-dir "$EV/quiet" $MPIRUN_ROOT -np 2 "$HELLO"
check "a user's UCX_LOG_LEVEL=warn is kept, with a note, and no evidence is found" 0 \
    "UCX_LOG_LEVEL=warn from environment is kept" "no transport evidence"

# An evidence directory that cannot be written never stops the job: the
# verdict still comes (from the job's output), and the dry run says the same.
mkdir -p "$TMP/ro"; chmod 555 "$TMP/ro"
unwritable=$TMP/ro/x
[ "$(id -u)" = 0 ] && unwritable=/proc/rdmarun-test
run "$RDMARUN" -p shm --evidence-dir "$unwritable" $MPIRUN_ROOT -np 2 "$HELLO"
check "an evidence directory that cannot be written: the job runs, one warning, the verdict" 0 \
    "cannot write the evidence directory" "rank 1 of 2" "local only: 2 processes"
[ "$(printf '%s\n' "$err" | grep -c "warning")" = 1 ]; ok $? "one warning, not one per rank"
run "$RDMARUN" -p shm --dry-run --evidence-dir "$unwritable" $MPIRUN_ROOT -np 2 "$HELLO"
check "the dry run predicts it: the same warning and status 0" 0 "cannot write the evidence directory"

# A reused --evidence-dir holds only the latest job's evidence.
run "$RDMARUN" -p tcp --evidence-dir "$EV/reused" $MPIRUN_ROOT -np 2 "$HELLO"
run "$RDMARUN" -p shm --verify strict --evidence-dir "$EV/reused" $MPIRUN_ROOT -np 2 "$HELLO"
check "a strict shm job in the directory of an earlier tcp job: local, 2 processes" 0 \
    "local only: 2 processes on shared memory"
run "$RDMARUN" verify "$EV/reused"
check "and verify reads only its logs (the strict shm run met its own expectation: 0)" 0 \
    "local only: 2 processes on shared memory"

# A relative evidence directory, and --wdir elsewhere: the ranks need none.
mkdir -p "$TMP/rel" "$TMP/elsewhere"
cd "$TMP/rel"
run "$RDMARUN" -p shm --evidence-dir ev --wdir "$TMP/elsewhere" $MPIRUN_ROOT -np 2 "$HELLO"
check "a relative --evidence-dir with --wdir: the job runs" 0 "rank 1 of 2" "local only: 2 processes"
cd "$TMP"
[ -s "$TMP/rel/ev/verdict.json" ]; ok $? "its evidence is where it was named, from the launch directory"

# The job's own output: UCX's warnings and errors reach it as without rdmarun.
run "$RDMARUN" -p shm -x UCX_TLS=rc $MPIRUN_ROOT -np 2 "$HELLO"
check "UCX's error reaches the job's stderr, and rdmarun says the job ended first" 1 \
    "UCX  ERROR no usable transports/devices" "no verdict: the job ended (status 1) before any rank reported a transport"
check_without "no hint about log levels rdmarun set itself" 1 "UCX_LOG_LEVEL=info" \
    "UCX  ERROR no usable transports/devices"
run "$RDMARUN" -p shm $MPIRUN_ROOT -np 2 /bin/true
check "a program that is not an MPI program: said so" 0 "no verdict: no rank reported a transport (not an MPI program"
# The user's own pml (not ucx): an MPI program all the same, on that pml,
# which reports no transport. Three ways to choose it.
run "$RDMARUN" -p shm -mca pml ob1 $MPIRUN_ROOT -np 2 "$HELLO"
check_without "-mca pml ob1: an MPI program on the pml the user chose" 0 "not an MPI program" \
    "rank 1 of 2" "no verdict: an MPI program on the pml you chose (-mca pml ob1), which reports no transport"
run "$RDMARUN" -p shm -x OMPI_MCA_pml=ob1 $MPIRUN_ROOT -np 2 "$HELLO"
check_without "-x OMPI_MCA_pml=ob1: the same" 0 "not an MPI program" \
    "rank 1 of 2" "no verdict: an MPI program on the pml you chose (-x OMPI_MCA_pml=ob1)"
run env OMPI_MCA_pml=ob1 "$RDMARUN" -p shm $MPIRUN_ROOT -np 2 "$HELLO"
check_without "OMPI_MCA_pml=ob1 in the environment: the same" 0 "not an MPI program" \
    "rank 1 of 2" "no verdict: an MPI program on the pml you chose (OMPI_MCA_pml=ob1 in the environment)"

# mpirun as PATH names it: Open MPI derives no prefix from an absolute path.
if [ -x /bin/mpirun ]; then
    run env PATH=/bin:/usr/bin "$RDMARUN" -p shm $MPIRUN_ROOT -np 2 "$HELLO"
    check "PATH=/bin:/usr/bin: the job runs as plain mpirun does" 0 "rank 1 of 2"
else
    skip "PATH=/bin:/usr/bin: the job runs as plain mpirun does" "no /bin/mpirun here"
fi

# Two jobs at once in one directory keep their evidence apart.
"$RDMARUN" -p shm $MPIRUN_ROOT -np 2 "$HELLO" >"$TMP/a.out" 2>&1 &
a=$!
"$RDMARUN" -p tcp $MPIRUN_ROOT -np 2 "$HELLO" >"$TMP/b.out" 2>&1 &
b=$!
wait $a; wait $b
grep -q "local only: 2 processes on shared memory" "$TMP/a.out" && grep -q "$ONE_NODE_TCP_TEXT" "$TMP/b.out"
ok $? "two simultaneous jobs: each got its own verdict"

# A full disk under the evidence directory: said before the job, and the
# verdict still comes (a 64 KiB tmpfs, filled; needs root and mount rights).
mkdir -p "$TMP/full"
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=64k tmpfs "$TMP/full" 2>/dev/null; then
    dd if=/dev/zero of="$TMP/full/filler" bs=4k 2>/dev/null
    run "$RDMARUN" -p shm --evidence-dir "$TMP/full/job" $MPIRUN_ROOT -np 2 "$HELLO"
    umount "$TMP/full"
    check "a full disk: the job runs, with a warning first and the verdict after" 0 \
        "has only 0 KiB free: the ranks' transport reports may not fit" "rank 1 of 2" \
        "local only: 2 processes"
    has "$err" "cannot write $TMP/full/job/"
    ok $? "and it says what it could not keep"
else
    skip "a full disk under the evidence directory" "cannot mount a tmpfs here (not root, or no mount rights)"
    skip "and it says what it could not keep" "as above"
fi

# The ports' counters are read before and after the job in a child given
# 5 s: a read that hangs (a wedged HCA's firmware; here strace stops the
# reader as it opens a counter) costs the verdict its counters, never the
# job its start. With --sysfs the counters are the recorded tree's.
TREE=$TMP/sys-counters
cp -r "$DATA/sysfs/ib-mlx5" "$TREE"
hw=$TREE/class/infiniband/mlx5_0/ports/1/hw_counters
mkdir -p "$hw"
echo 7 >"$hw/out_of_sequence"
run "$RDMARUN" -p shm --sysfs "$TREE" $MPIRUN_ROOT -np 1 "$HELLO"
check "the counters of a recorded tree's ports are read around the job" 0 \
    "no loss, error or congestion counter grew" "rank 0 of 1"
if can_stop_at_open; then
    t0=$(date +%s)
    run stop_at_open "$hw/out_of_sequence" "$RDMARUN" -p shm --sysfs "$TREE" $MPIRUN_ROOT -np 1 "$HELLO"
    t=$(($(date +%s) - t0))
    check "a counter read that hangs: the job runs, the verdict goes without counters" 0 \
        "reading the ports' counters did not finish within 5 s" "rank 0 of 1" "rdmarun: no verdict: no peer"
    [ "$(printf '%s\n' "$err" | grep -c "did not finish within")" = 1 ]
    ok $? "said once: the counters are not read again after the job"
    [ "$t" -lt "$(scaled 30)" ]; ok $? "and the run is not held by it (${t} s, one read of 5 s at most)"
else
    skip "a counter read that hangs" "strace cannot stop a process here"
    skip "and the run is not held by it" "strace cannot stop a process here"
fi

done_testing
