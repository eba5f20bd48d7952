#!/bin/sh
# Real Open MPI jobs on this host, launched through rdmarun: output, the
# transports UCX reports, exit status and signals.
. "${RDMARUN_SRCDIR:-.}/tests/lib.sh"
HELLO=$BUILD/examples/mpi_hello
EXIT=$BUILD/examples/mpi_exit
command -v mpirun >/dev/null || { echo "1..0 # SKIP mpirun not installed"; exit 0; }

run "$RDMARUN" $MPIRUN_ROOT -np 2 "$HELLO"
check "a 2-rank job through rdmarun with the default profile" 0 \
    "rank 0 of 2" "rank 1 of 2" "rdmarun: profile auto" "no ACTIVE RDMA port on this node"
[ "$(printf '%s\n' "$out" | grep -c 'token 42')" = 2 ]; ok $? "both ranks passed the token"

# The profile's transports are the ones UCX uses (its own report, per endpoint).
run "$RDMARUN" -p tcp --verify off $MPIRUN_ROOT -np 2 -x UCX_LOG_LEVEL=info "$HELLO"
check "tcp profile job" 0 "rank 0 of 2"
ucx_peer_eps "$out$err" | grep -q 'tcp/' && ! ucx_peer_eps "$out$err" | grep -Eq 'sysv|posix|cma'
ok $? "with tcp, UCX's endpoint to the other rank uses TCP and no shared memory"
has "$out$err" "UCX_TLS=tcp,self"; ok $? "UCX reports UCX_TLS=tcp,self from the plan"

run "$RDMARUN" -p shm --verify off $MPIRUN_ROOT -np 2 -x UCX_LOG_LEVEL=info "$HELLO"
check "shm profile job" 0 "rank 1 of 2"
ucx_peer_eps "$out$err" | grep -Eq 'sysv|posix' && ! ucx_peer_eps "$out$err" | grep -q 'tcp/'
ok $? "with shm, UCX's endpoint to the other rank uses shared memory and no TCP"

# Exit status and signals are mpirun's own: rdmarun execs it.
run "$RDMARUN" -p shm --verify off $MPIRUN_ROOT -np 2 "$EXIT" 7
check "the program exits 7, rdmarun exits 7" 7
# The program's own crash (rank 0 writes through NULL after the ranks
# talked): UCX's handler prints "Caught signal 11" for it, as for any
# crash; the verdict says the process crashed, not that UCX ended it.
run "$RDMARUN" -p shm $MPIRUN_ROOT -np 2 "$EXIT" crash
pid=$(printf '%s\n' "$err" | sed -n 's/^\[[^:]*:\([0-9]*\) *:[^]]*\] Caught signal 11.*/\1/p' | head -1)
[ "$rc" != 0 ] && has "$err" "local only: 2 processes" &&
    has "$err" "; then process ${pid:-?} on $(hostname) crashed: signal 11 (Segmentation fault" &&
    has "$err" "UCX's handler printed the backtrace" && ! has "$err" "UCX ended"
s=$?
ok $s "a NULL write in the program: status $rc, 'process ${pid:-?} crashed', not blamed on UCX"
[ $s = 0 ] || show_run

"$RDMARUN" -p shm --verify off $MPIRUN_ROOT -np 2 "$EXIT" sleep 60 >"$TMP/sleep.out" 2>&1 &
pid=$!
wait_lines "$TMP/sleep.out" sleeping 2
ranks=$(sed -n 's/.*pid \([0-9]*\) sleeping/\1/p' "$TMP/sleep.out")
[ "$(echo $ranks | wc -w)" = 2 ]; ok $? "both ranks started and reported their pids"
comm=$(cat /proc/$pid/comm 2>/dev/null)
is_launcher "$comm"; ok $? "rdmarun became mpirun (exec, no process left between: $comm)"
kill -TERM $pid
wait $pid
status=$?
[ "$status" -ne 0 ]; ok $? "SIGTERM to rdmarun ends the job with a failure status ($status)"
gone $ranks
ok $? "SIGTERM reached the ranks: none is left running"

# mpirun's own options pass through, with the profile's, on Open MPI 4.1 and 5.
run "$RDMARUN" -p shm $MPIRUN_ROOT --oversubscribe -npernode 3 -np 3 --tag-output "$HELLO"
check "--oversubscribe -npernode 3 --tag-output: 3 ranks, each line tagged" 0 "rank 2 of 3"
[ "$(printf '%s\n' "$out" | grep -Ec '^\[1,[0-2]\]<stdout>: ?rank [0-2] of 3')" = 3 ]
ok $? "Open MPI tagged every rank's line ([1,R]<stdout>:)"
# (A name in a folder: Open MPI 4.1 makes NAME/1/rank.R/stdout, 5 NAME.JOB.R.out;
# 5.0.7 refuses a bare folder that does not exist, with or without rdmarun.)
run "$RDMARUN" -p shm $MPIRUN_ROOT -np 2 --output-filename "$TMP/outfiles/job" "$HELLO"
check "--output-filename: the job runs" 0
# Any rank's output: the PMIx of Debian 13 (before openpmix/openpmix#3651)
# races creating the directory and loses the other ranks' output, with plain
# mpirun as well.
grep -rqsE "rank [01] of 2" "$TMP/outfiles"; ok $? "Open MPI wrote the ranks' output under --output-filename"
has "$err" "local only: 2 processes"
ok $? "with the output in files, the ranks' reports go to the evidence directory and are read at the end"

# MPMD: every app context gets the plan's variables, MCA settings and the
# per-rank helper, and the verdict counts every process. (Debian 13's Open
# MPI 5.0.7 with its external PMIx segfaults on any ':' job, plain mpirun
# too: open-mpi/ompi#13303; its appfile works.)
eps_by_tcp() { grep 'cfg.*tcp/' "$1" | sed -n 's/^\[[0-9.]*\] \[[^:]*:\([0-9]*\).*/\1/p' | sort -u | wc -l; }
mpirun $MPIRUN_ROOT -np 1 true : -np 1 true >/dev/null 2>&1
mpmd=$?
if [ $mpmd -lt 128 ]; then
    for n in 2 3; do
        set -- -np 1 "$HELLO"
        for _ in $(seq 2 $n); do set -- "$@" : -np 1 "$HELLO"; done
        run "$RDMARUN" -p tcp --bind-policy numa --report --evidence-dir "$TMP/mpmd$n" \
            $MPIRUN_ROOT --oversubscribe "$@"
        check "$n app contexts: every rank runs, the verdict counts $n processes" 0 \
            "rank $((n - 1)) of $n" "$n processes" "$ONE_NODE_TCP_TEXT"
        [ "$(eps_by_tcp "$TMP/mpmd$n/ucx.log")" = $n ]
        ok $? "$n app contexts: each rank's UCX used the profile's UCX_TLS=tcp,self"
        [ "$(grep -c '^rank ' "$TMP/mpmd$n/placement.txt")" = $n ]
        ok $? "$n app contexts: the per-rank helper placed every rank"
    done
else
    for n in 2 3; do
        for what in "every rank runs" "each rank used the profile's UCX_TLS" "the helper placed every rank"; do
            skip "$n app contexts: $what" "plain mpirun segfaults on ':' here (Open MPI $OMPI_MAJOR, open-mpi/ompi#13303)"
        done
    done
fi
# (Where ':' fails, an appfile of two lines does too: one line of 3 ranks.)
if [ $mpmd -lt 128 ]; then
    printf -- '-np 1 %s\n# a comment\n\n-np 2 %s\n' "$HELLO" "$HELLO" >"$TMP/appfile"
else
    printf -- '# a comment\n\n-np 3 %s\n' "$HELLO" >"$TMP/appfile"
fi
mkdir -p "$TMP/apptmp"   # where rdmarun writes the completed appfile: ours to look at
TMPDIR=$TMP/apptmp run "$RDMARUN" -p tcp --bind-policy numa --evidence-dir "$TMP/app" $MPIRUN_ROOT \
    --oversubscribe --app "$TMP/appfile"
check "--app FILE: a 3-rank job, the verdict counts 3 processes" 0 "rank 2 of 3" \
    "3 processes" "$ONE_NODE_TCP_TEXT"
[ "$(eps_by_tcp "$TMP/app/ucx.log")" = 3 ]; ok $? "--app: each rank's UCX used the profile's UCX_TLS"
[ "$(grep -c '^rank ' "$TMP/app/placement.txt")" = 3 ]; ok $? "--app: the helper placed every rank"
[ -z "$(ls "$TMP/apptmp")" ]; ok $? "the completed appfile is removed after the job"
run "$RDMARUN" -p tcp --dry-run --app "$TMP/appfile"
check "the dry run shows the appfile's lines as mpirun gets them" 0 "with the appfile:" \
    " -x UCX_TLS=tcp,self"
printf -- '-np 1\n' >"$TMP/badapp"
run "$RDMARUN" -p tcp --app "$TMP/badapp"
check "an appfile line without a program: its file:line, status 65" 65 "$TMP/badapp:1:"

# Process counts are checked as mpirun would, the dry run included.
for bad in "-np abc" "-np -5" "-n 0" "-N x"; do
    run "$RDMARUN" -p shm --dry-run $bad "$HELLO"
    check "--dry-run $bad: status 64 with the reason" 64 "needs a number of processes"
done

# Launcher problems.
run "$RDMARUN" --mpirun /nonexistent/mpirun -p shm -np 1 "$HELLO"
check "a missing --mpirun is status 127 with a hint" 127 "cannot run /nonexistent/mpirun" "hint:"
run env PATH=/nonexistent "$RDMARUN" -p shm -np 1 "$HELLO"
check "no mpirun on PATH is status 127" 127 "mpirun not found on PATH"
run "$RDMARUN" -p roce $MPIRUN_ROOT -np 2 "$HELLO"
check "an RDMA profile on a node without RDMA refuses to start (69)" 69 \
    "profile 'roce' is for RoCE but this node has no ACTIVE RoCE port"

# Eight ranks reporting at once: every UCX line reaches rdmarun whole, so
# every rank is counted. (With UCX on stderr, glibc 2.37+ writes a long line
# in 128-byte pieces and Open MPI 5's IOF glued ranks' pieces together: 1 to
# 3 broken lines in every 8-rank run on Debian 13.)
run "$RDMARUN" -p shm --evidence-dir "$TMP/eight" $MPIRUN_ROOT --oversubscribe -np 8 "$HELLO"
check "8 ranks: the verdict counts 8 processes" 0 "local only: 8 processes"
broken=$(broken_ucx_lines "$TMP/eight/ucx.log" | wc -l)
ok "$broken" "8 ranks: every UCX line in ucx.log is one rank's whole line ($broken broken)"
[ "$broken" = 0 ] || broken_ucx_lines "$TMP/eight/ucx.log" | head -5 | sed 's/^/#   /'
check_without "no carriage return from the ranks' terminal reaches the output" 0 "$(printf '\r')" \
    "local only: 8 processes"
done_testing
