#!/bin/bash
# --launcher exec on this host: COMMAND starts the processes itself (a
# shell's workers, torchrun's), the plan's variables are in its environment,
# and the verdict counts every process below it. Real ucx_perftest workers
# (UCP tag tests) and, when installed, a real torchrun.
. "${RDMARUN_SRCDIR:-.}/tests/lib.sh"
command -v ucx_perftest >/dev/null || { echo "1..0 # SKIP ucx_perftest not installed (ucx-utils)"; exit 0; }
cd "$TMP"
RX=$DATA/sysfs/rxe
# perftest_pair PORT: a UCP tag-latency pair on this host, server then client.
cat >"$TMP/pair.sh" <<'SH'
#!/bin/sh
ucx_perftest $PERFTEST_P -p "$1" -t tag_lat -n 200 & server=$!
"$RDMARUN_SRCDIR/tests/listening.sh" "$1" || exit 1
ucx_perftest $PERFTEST_P -p "$1" -t tag_lat -n 200 127.0.0.1 || exit 1
wait $server
SH
chmod +x "$TMP/pair.sh"
# Below the kernel's ephemeral ports (32768 and up by default), where the
# many connections of the jobs before would collide with a server's bind().
port=$((10000 + $$ % 20000))

# The plan: env VAR=VALUE... COMMAND; nothing of mpirun's.
run "$RDMARUN" --dry-run -p roce --sysfs "$RX" --launcher exec -- ucx_perftest -t tag_lat host2
first=$(head -1 <<<"$out")
case $first in "/usr/bin/env UCX_TLS=rc,sm,self UCX_NET_DEVICES=rxe0:1 UCX_IB_GID_INDEX=1 "*"UCX_LOG_LEVEL=info UCX_LOG_FILE=stdout "*" /usr/bin/stdbuf -oL ucx_perftest -t tag_lat host2") s=0 ;; *) s=1 ;; esac
ok $s "the command is env with the plan's variables (UCX's log on stdout), then COMMAND as given, its stdout line-buffered ($first)"
UCX_LOG_FILE=stderr run "$RDMARUN" --dry-run -p roce --sysfs "$RX" --launcher exec -- ucx_perftest
check "UCX_LOG_FILE=stderr from the environment is kept, with what it risks" 0 " UCX_LOG_FILE=stderr " \
    "note: UCX_LOG_FILE=stderr from environment is kept: with glibc 2.37+ a long UCX line leaves stderr in pieces, which interleave on the stderr COMMAND's processes share"
run "$RDMARUN" --dry-run -p roce --sysfs "$RX" --launcher exec --verify off -- ucx_perftest
first=$(head -1 <<<"$out")
! has "$first" stdbuf && has "$first" "=n ucx_perftest"
ok $? "with --verify off COMMAND's output is left as it is: no stdbuf ($first)"
[ "$rc" = 0 ] && has "$out" "ucx_perftest" && ! grep -qE -- "--mca|^mca|--bind-to|-x " <<<"$out"
ok $? "no MCA parameter, mpirun option or -x is in the plan, which runs COMMAND (status $rc)"
check "the plan names the launcher and leaves MPI to COMMAND" 0 "launcher: exec (--launcher)" \
    "stack: UCX $UCX_VERSION (COMMAND's MPI, if any, is its own)"
run "$RDMARUN" --dry-run -p roce --sysfs "$RX" --launcher exec --hostfile /dev/null -- true
check "an mpirun option with --launcher exec is refused" 64 \
    "--launcher exec: --hostfile is an mpirun option, and COMMAND starts the processes itself"
run "$RDMARUN" --dry-run -p roce --sysfs "$RX" --launcher exec -x MY_VAR=1 -np 4 -- true
check "-x VAR=VALUE joins COMMAND's environment, -np is taken" 0 " MY_VAR=1 /usr/bin/stdbuf -oL true"
printf '[profile]\ninherit = shm\nlauncher = exec\n' >"$TMP/exec.ini"
run "$RDMARUN" --dry-run -p "$TMP/exec.ini" -- ucx_perftest
check "launcher = exec in a profile" 0 "launcher: exec (exec.ini:3)" "/usr/bin/env UCX_TLS=sm,self"

# Exit status and signals, as with mpirun.
run "$RDMARUN" --launcher exec -p shm -- sh -c 'exit 7'
check "COMMAND's exit status is rdmarun's" 7
run "$RDMARUN" --launcher exec -p shm --verify off -- sh -c 'exit 9'
check "with --verify off rdmarun execs env and COMMAND: its status" 9
"$RDMARUN" --launcher exec -p shm -- sh -c 'sleep 60 & sleep 60 & echo started; wait' \
    >"$TMP/sig.out" 2>&1 &
pid=$!
wait_lines "$TMP/sig.out" started 1
sleeps=$(ours -f "^sleep 60$" | tr '\n' ' ')
kill -TERM $pid
wait $pid
status=$?
gone $sleeps && ! grep -q "outlived" "$TMP/sig.out"
s=$?
ok $s "SIGTERM reaches every process below COMMAND, not only COMMAND (sleeps: $sleeps; status $status)"
[ $s = 0 ] || sed 's/^/#   /' "$TMP/sig.out"

# A program that forks workers: every worker counted, none of mpirun's.
run "$RDMARUN" --launcher exec -p shm -- "$TMP/pair.sh" $port
check "one UCX pair forked by a script: the verdict counts both workers" 0 \
    "rdmarun: $(hostname): local only: 2 processes on shared memory"
# Workers that log at once share COMMAND's output: on stderr, unbuffered,
# glibc 2.37+ (Debian 13) writes a long UCX line in 128-byte pieces that
# interleave (3 of 4 workers counted, seen in CI); so UCX reports on stdout,
# line-buffered. Four pairs, eight workers two levels below COMMAND, every
# one counted, and no UCX line broken.
pairs=
for p in 11 12 13 14; do pairs="$pairs'$TMP/pair.sh' $((port + p)) & "; done
run "$RDMARUN" --launcher exec -p shm -- sh -c "${pairs}wait"
check "four pairs, eight workers two levels below COMMAND: all eight counted" 0 \
    "local only: 8 processes on shared memory"
dir=$(ls -td "$TMP"/rdmarun-evidence/*/ | head -1)
bad=$(broken_ucx_lines "$dir/ucx.log" | wc -l)
ok "$bad" "every UCX line kept in ucx.log is one process's whole line ($bad broken)"
[ "$bad" = 0 ] || broken_ucx_lines "$dir/ucx.log" | head -5 | sed 's/^/#   /'
# Each write of a worker's UCX lines is whole lines, whatever this libc
# does unbuffered (strace sees every write of every worker).
if command -v strace >/dev/null; then
    run "$RDMARUN" --launcher exec -p shm -- strace -ff -qq -e trace=write -e signal=none \
        -s 100000 -o "$TMP/writes" "$TMP/pair.sh" $((port + 15))
    cat "$TMP"/writes.* >"$TMP/writes"   # one file a process: no call is cut in two
    n=$(grep -c 'write(1, ".*UCX  ' "$TMP/writes")
    split=$(grep 'write(1, ".*UCX  ' "$TMP/writes" |
            grep -vcE 'write\(1, "\[[0-9]+\.[0-9]+\] .*\\n", [0-9]+\) = [0-9]+$')
    [ "$rc" = 0 ] && [ "${n:-0}" -gt 0 ] && [ "$split" = 0 ]
    s=$?
    ok $s "under COMMAND each worker writes its UCX lines whole ($n writes, $split not whole lines)"
    [ $s = 0 ] || { show_run; grep 'write(1, ".*UCX  ' "$TMP/writes" | head -5 | sed 's/^/#   /'; }
else
    skip "each worker writes its UCX lines whole" "strace not installed"
fi
grep -q '"verdict": "local"' "$dir/verdict.json"
ok $? "verdict.json is written for an exec job too"
run "$RDMARUN" --launcher exec -p shm -- true
check "a COMMAND that reports no transport: said so" 0 \
    "no verdict: no process of COMMAND reported a transport"

# UCX ending a process itself, live: a real ucx_perftest server, sent
# SIGSEGV while it waits, prints UCX's "[host:pid:0:tid] Caught signal 11"
# and its backtrace (UCX_HANDLE_ERRORS=bt). The job's lines stay the job's,
# its status passes through, and the verdict names the process that crashed
# (UCX's handler prints "Caught signal" for any crash).
cat >"$TMP/crash.sh" <<'SH'
#!/bin/sh
ucx_perftest $PERFTEST_P -p "$1" -t tag_lat & server=$!
"$RDMARUN_SRCDIR/tests/listening.sh" "$1" || exit 1
kill -SEGV $server
wait $server
SH
chmod +x "$TMP/crash.sh"
run "$RDMARUN" --launcher exec -p shm -- "$TMP/crash.sh" $((port + 7))
pid=$(printf '%s\n' "$err" | sed -n 's/^\[[^:]*:\([0-9]*\) *:[^]]*\] Caught signal 11.*/\1/p' | head -1)
check "UCX's own end of a process: its lines passed, the status passed, the process named" 139 \
    "] Caught signal 11 (Segmentation fault" "==== backtrace" \
    "no verdict: the job ended (status 139) before any process reported a transport (process ${pid:-?} on $(hostname) crashed: signal 11 (Segmentation fault"

# NCCL's side (NCCL cannot run here: no GPUs): a worker that says on stdout
# what NCCL says (the fixtures in tests/data/logs, from NCCL's format
# strings), planned with nccl-ib on the recorded Soft-RoCE node without its
# QP test. Its lines are taken live from COMMAND's output.
# The worker writes as libnccl does (src/debug.cc): one fwrite() of C's
# stdout a line, never an fflush; to a pipe that holds every line until
# 4 KiB or the process's end, so only a stdout made line-buffered by
# stdbuf -oL lets the verdict see NCCL's choice while the job runs.
# (PYTHONUNBUFFERED would make Python set C's stdout unbuffered itself.)
cat >"$TMP/nccl-worker.py" <<'PY'
import ctypes, os, re, socket, sys, time
libc = ctypes.CDLL(None)
libc.fwrite.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_size_t, ctypes.c_void_p]
stdout = ctypes.c_void_p.in_dll(libc, "stdout")
me = ("%s:%d:" % (socket.gethostname(), os.getpid())).encode()
for line in open(sys.argv[1], "rb"):
    line = re.sub(rb"^[a-z0-9]*:[0-9]*:", lambda m: me, line)
    libc.fwrite(line, 1, len(line), stdout)
time.sleep(float(sys.argv[2]))
PY
nccl_worker() {  # FIXTURE SECONDS: a worker printing it as this process, then waiting
    printf '#!/bin/sh\nexec env -u PYTHONUNBUFFERED python3 %s %s %s\n' "$TMP/nccl-worker.py" \
        "$DATA/logs/$1" "$2" \
        >"$TMP/nccl-worker.sh"
    chmod +x "$TMP/nccl-worker.sh"
}
NCCL_JOB=("$RDMARUN" --launcher exec -p nccl-ib --sysfs "$RX" --set check.qp-test=no
          --set check.memlock=1K)
nccl_worker nccl-no-device.log 30
t0=$(date +%s)
run "${NCCL_JOB[@]}" --verify strict -- "$TMP/nccl-worker.sh"
# Strict stops at NCCL's first word of it, as the lines came in reads: "No
# device found" alone, "Using network Socket" (NCCL's choice), or the channel
# via NET/Socket (a path); each names the process.
socket="used NET/Socket/0"
has "$err" "$socket" || socket="nccl selected network Socket for traffic between nodes (process"
has "$err" "$socket" || socket=": NCCL found no RDMA device (NET/IB : No device found) and uses sockets"
check "NCCL on sockets where RDMA is expected, strict: stopped at once, 80" 80 \
    "FALLBACK: " "$socket" " on $(hostname)" "stopping the job"
[ "$(printf '%s\n' "$err" | grep -c "FALLBACK: ")" = 1 ]
ok $? "the fallback is reported once, as the error that stopped the job" || show_run
[ $(($(date +%s) - t0)) -lt "$(scaled 10)" ]; ok $? "and its worker, its lines unflushed in C's stdout and sleeping below COMMAND, did not hold it up"
check_without "NCCL's INFO lines rdmarun asked for are not in the job's output" 80 "NCCL INFO" "stopping the job"
nccl_worker nccl-roce.log 0
run "${NCCL_JOB[@]}" -- "$TMP/nccl-worker.sh"
check "NCCL over IB verbs (RoCE): the verdict is RDMA, from NCCL's lines" 0 "RDMA verified: 1 process"

# The helper under torchrun's variables: LOCAL_RANK wins over the Slurm task's.
run env LOCAL_RANK=1 LOCAL_WORLD_SIZE=2 RANK=5 SLURM_LOCALID=0 SLURM_NODEID=0 \
    SLURM_STEP_TASKS_PER_NODE=1 "$RDMARUN" rank --bind-policy numa --report -- true
check "rdmarun rank takes torchrun's LOCAL_RANK over SLURM_LOCALID" 0 "rank 5 (local 1 of 2)"
run env LOCAL_RANK=0 LOCAL_WORLD_SIZE=1 RDMARUN_RANK_OPTIONS="--bind-policy numa --no-such" \
    "$RDMARUN" rank -- true
check "RDMARUN_RANK_OPTIONS with a word the helper does not know is refused" 64 \
    "RDMARUN_RANK_OPTIONS: '--no-such' is not an option of 'rdmarun rank'"
run "$RDMARUN" check --path-test --launcher exec
check "check --path-test --launcher exec is refused" 64 "only mpirun or srun can do"

# A real torchrun (torch.distributed.run) starting two UCX workers, each
# placed by the helper from its LOCAL_RANK. (Debian 12's torch 1.13 under
# Python 3.11 fails on the default -r/-t 0, an enum change, so they are 1.)
if command -v torchrun >/dev/null; then
    cat >"$TMP/worker.sh" <<SH
#!/bin/sh
echo "worker \$LOCAL_RANK: \$(sed -n 's/^Cpus_allowed_list:\t*//p' /proc/self/status)" >&2
[ "\$LOCAL_RANK" = 0 ] && exec ucx_perftest $PERFTEST_P -p $((port + 3)) -t tag_lat -n 200
'$SRC/tests/listening.sh' $((port + 3)) || exit 1
exec ucx_perftest $PERFTEST_P -p $((port + 3)) -t tag_lat -n 200 127.0.0.1
SH
    chmod +x "$TMP/worker.sh"
    run "$RDMARUN" --launcher exec -p shm --bind-policy numa -- torchrun --standalone \
        --nproc_per_node 2 -r 1 -t 1 --no_python "$RDMARUN" rank -- "$TMP/worker.sh"
    check "torchrun's two workers through the helper: both counted" 0 \
        "local only: 2 processes on shared memory" "RDMARUN_RANK_OPTIONS=--bind-policy numa"
    dir=$(ls -td "$TMP"/rdmarun-evidence/*/ | head -1)
    s=0
    for r in 0 1; do
        want=$(sed -n "s/^rank $r (local $r of 2) on [^:]*: PUs \([^ ]*\) .*/\1/p" "$dir/placement.txt")
        got=$(sed -n "s/^worker $r: //p" <<<"$err")
        [ -n "$want" ] && [ "$want" = "$got" ] || { s=1; echo "# worker $r: placed on '$want', runs on '$got'"; }
    done
    ok $s "each torchrun worker runs on the PUs its LOCAL_RANK was given (placement.txt)"
else
    skip "torchrun's workers through the helper" "torchrun not installed (python3-torch)"
    skip "each torchrun worker runs on its PUs" "torchrun not installed (python3-torch)"
fi
# UCX 1.22, the newest (RAPIDS' libucx wheel from PyPI, put in a virtual
# environment by scripts/setup-debian.sh; built without verbs): its own
# ucx_perftest pair, its report lines read as 1.13's and 1.18's are. Shared
# memory, then TCP, which 1.22 says stays within the node.
U=$(ls -d "${RDMARUN_UCX122:-/opt/rdmarun-ucx122}"/lib/python3*/site-packages/libucx 2>/dev/null | head -1)
if [ -n "$U" ] && [ -x "$U/bin/ucx_perftest" ]; then
    cat >"$TMP/pair122.sh" <<SH
#!/bin/sh
export LD_LIBRARY_PATH='$U/lib'
'$U/bin/ucx_perftest' -p \$1 -t tag_lat -n 200 & server=\$!
'$SRC/tests/listening.sh' \$1 || exit 1
'$U/bin/ucx_perftest' -p \$1 -t tag_lat -n 200 127.0.0.1 || exit 1
wait \$server
SH
    chmod +x "$TMP/pair122.sh"
    run "$RDMARUN" --launcher exec -p shm --evidence-dir "$TMP/ev122" -- "$TMP/pair122.sh" $((port + 7))
    check "UCX 1.22: its ucx_perftest pair through rdmarun, on shared memory from 1.22's own lines" 0 \
        "Final:" "local only: 2 processes on shared memory (sysv/memory cma/memory)"
    grep -q "UCX  INFO  Version 1.22.0" "$TMP/ev122/ucx.log"
    ok $? "UCX 1.22: the report lines in ucx.log are 1.22's (its Version line)"
    run "$RDMARUN" --launcher exec -p tcp -- "$TMP/pair122.sh" $((port + 8))
    check "UCX 1.22 over TCP: local, within the node (1.22's intra-node line), not a fallback" 0 \
        "Final:" "local only: 2 processes within one node, over TCP (tcp/"
elif [ "${RDMARUN_REQUIRE_PYPI:-}" = 1 ]; then
    ok 1 "UCX 1.22's report lines: libucx-cu12 is missing where PyPI is reachable (RDMARUN_REQUIRE_PYPI=1)"
else
    skip "UCX 1.22's report lines" "UCX 1.22 is not installed (scripts/setup-debian.sh check: libucx-cu12 from PyPI; PyPI may be out of reach)"
fi
done_testing
