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
has "$out" "UCX"; ok $((! $?)) "UCX's transport lines went to the evidence directory, not the job's output"
dir=$(ls -d "$TMP"/rdmarun-evidence/*)
[ "$(ls "$dir"/ucx.*.log | wc -l)" = 2 ]; ok $? "one UCX log per rank in ./rdmarun-evidence/HOST.PID.TIME"
grep -q '"verdict": "local"' "$dir/verdict.json"; ok $? "verdict.json written beside the logs"
run "$RDMARUN" verify "$dir"
check "rdmarun verify gives the same verdict from the saved evidence" 81 "local only"

# TCP between ranks of one node (see ONE_NODE_TCP in lib.sh).
run "$RDMARUN" -p tcp $MPIRUN_ROOT -np 2 "$HELLO"
check "tcp on one node, UCX $UCX_VERSION: $ONE_NODE_TCP, never called shared memory" 0 \
    "rdmarun: " "$ONE_NODE_TCP_TEXT"
! has "$err" "shared memory (none)"; ok $? "no verdict names shared memory it did not see"

printf '[profile]\ninherit = tcp\nexpect = rdma\n' >"$TMP/wants-rdma.ini"
run "$RDMARUN" -p "$TMP/wants-rdma.ini" $MPIRUN_ROOT -np 2 "$HELLO"
if [ "$ONE_NODE_TCP" = fallback ]; then
    check "RDMA expected, TCP used, verify warn: a warning, the job's status" 0 \
        "rdmarun: warning: FALLBACK: process" "used tcp/" "the profile expects rdma"
    run "$RDMARUN" -p "$TMP/wants-rdma.ini" --verify strict $MPIRUN_ROOT -np 2 "$HELLO"
    check "the same with verify strict: status 80" 80 "FALLBACK" "rank 1 of 2"
else
    # UCX says no path left the node; between nodes tests/vm/guest/pair.sh
    # shows the fallback caught under strict.
    check "RDMA expected, TCP within one node: local, no warning" 0 "$ONE_NODE_TCP_TEXT"
    ! has "$err" "warning"; ok $? "a job that never left the node is not a fallback"
fi

# strict stops a running job within seconds of the first fallback line that
# reaches the evidence directory. (UCX 1.13 buffers its log file until the
# process exits, so a stand-in rank writes the line the way a flushed log
# would; NCCL flushes every line.)
start=$(date +%s)
run "$RDMARUN" -p "$TMP/wants-rdma.ini" --verify strict --evidence-dir "$EV/early" \
    $MPIRUN_ROOT -np 1 "$DATA/tcp-rank.sh"
took=$(($(date +%s) - start))
check "strict: a job on TCP is stopped early with status 80" 80 "stopping the job (verify = strict"
[ "$took" -lt 30 ]; ok $? "stopped after $took s, not 60"

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
mpirun_pid=$(pgrep -P $pid -x "$LAUNCHERS_RE")
kill -KILL $pid
wait $pid 2>/dev/null
gone $mpirun_pid $ranks
ok $? "SIGKILL to rdmarun: mpirun ($mpirun_pid) and the ranks end too, no orphans"

# mpirun killed by a signal: rdmarun exits 128+N, as a shell would report it.
"$RDMARUN" -p shm --evidence-dir "$EV/sig" $MPIRUN_ROOT -np 2 "$EXIT" sleep 60 >"$TMP/sig.out" 2>&1 &
pid=$!
wait_lines "$TMP/sig.out" sleeping 2
ranks=$(sed -n 's/.*pid \([0-9]*\) sleeping/\1/p' "$TMP/sig.out")
kill -KILL "$(pgrep -P $pid -x "$LAUNCHERS_RE")"
wait $pid
status=$?
[ "$status" = 137 ]; ok $? "mpirun killed by SIGKILL: rdmarun exits 137 (got $status)"
gone $ranks; ok $? "and no rank of it is left running (rdmarun ends what the launcher left)"

# verify off: no evidence, and rdmarun execs mpirun.
run "$RDMARUN" -p shm --verify off --evidence-dir "$EV/off" $MPIRUN_ROOT -np 2 "$HELLO"
check "verify off runs the job" 0 "rank 1 of 2"
[ ! -e "$EV/off" ]; ok $? "verify off writes no evidence"

# The user's own UCX_LOG_LEVEL is kept, and the plan says what it costs.
UCX_LOG_LEVEL=warn run "$RDMARUN" -p shm --evidence-dir "$EV/quiet" $MPIRUN_ROOT -np 2 "$HELLO"
check "a user's UCX_LOG_LEVEL=warn is kept, with a note, and no evidence is found" 0 \
    "UCX_LOG_LEVEL=warn from environment is kept" "no transport evidence"

# The evidence directory must be writable.
mkdir -p "$TMP/ro"; chmod 555 "$TMP/ro"
if [ "$(id -u)" = 0 ]; then
    run "$RDMARUN" -p shm --evidence-dir /proc/rdmarun-test $MPIRUN_ROOT -np 2 "$HELLO"
else
    run "$RDMARUN" -p shm --evidence-dir "$TMP/ro/x" $MPIRUN_ROOT -np 2 "$HELLO"
fi
check "an evidence directory that cannot be written: status 73 and a hint" 73 \
    "cannot write the evidence directory" "--verify off"

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
        "has only 0 KiB free: the ranks' transport logs may not fit" "rank 1 of 2" "rdmarun: "
    has "$err" "cannot write $TMP/full/job/verdict.json" || has "$err" "no transport evidence"
    ok $? "and it says why there is no evidence"
else
    skip "a full disk under the evidence directory" "cannot mount a tmpfs here (not root, or no mount rights)"
    skip "and it says why there is no evidence" "as above"
fi

done_testing
