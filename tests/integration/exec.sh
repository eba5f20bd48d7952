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
sleep 0.5
ucx_perftest $PERFTEST_P -p "$1" -t tag_lat -n 200 127.0.0.1 || exit 1
wait $server
SH
chmod +x "$TMP/pair.sh"
port=$((20000 + $$ % 20000))

# The plan: env VAR=VALUE... COMMAND; nothing of mpirun's.
run "$RDMARUN" --dry-run -p roce --sysfs "$RX" --launcher exec -- ucx_perftest -t tag_lat host2
first=$(head -1 <<<"$out")
case $first in "/usr/bin/env UCX_TLS=rc,sm,self UCX_NET_DEVICES=rxe0:1 UCX_IB_GID_INDEX=1 "*"UCX_LOG_LEVEL=info "*" ucx_perftest -t tag_lat host2") s=0 ;; *) s=1 ;; esac
ok $s "the command is env with the plan's variables, then COMMAND as given ($first)"
! grep -qE -- "--mca|^mca|--bind-to|-x " <<<"$out"
ok $? "no MCA parameter, mpirun option or -x is in the plan"
check "the plan names the launcher and leaves MPI to COMMAND" 0 "launcher: exec (--launcher)" \
    "stack: UCX $UCX_VERSION (COMMAND's MPI, if any, is its own)"
run "$RDMARUN" --dry-run -p roce --sysfs "$RX" --launcher exec --hostfile /dev/null -- true
check "an mpirun option with --launcher exec is refused" 64 \
    "--launcher exec: --hostfile is an mpirun option, and COMMAND starts the processes itself"
run "$RDMARUN" --dry-run -p roce --sysfs "$RX" --launcher exec -x MY_VAR=1 -np 4 -- true
check "-x VAR=VALUE joins COMMAND's environment, -np is taken" 0 " MY_VAR=1 true"
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
sleeps=$(pgrep -f "^sleep 60$" | tr '\n' ' ')
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
run "$RDMARUN" --launcher exec -p shm -- sh -c "'$TMP/pair.sh' $((port + 1)) & '$TMP/pair.sh' $((port + 2)); wait"
desc="two pairs, four workers two levels below COMMAND: all four counted"
if has "$out$err" "local only: 4 processes on shared memory"; then
    ok 0 "$desc"
elif [ "$ONE_NODE_TCP" = local ]; then
    # Known defect (issue 21 stays open): UCX 1.14+ writes a log line in
    # several write()s, so workers sharing COMMAND's stderr can interleave
    # their lines and one report may be lost; mpirun's ranks do not share one.
    show_run
    _n=$((_n + 1))
    echo "not ok $_n - $desc # TODO UCX $UCX_VERSION's log lines interleave on a shared pipe"
else
    check "$desc" 0 "local only: 4 processes on shared memory"
fi
dir=$(ls -td "$TMP"/rdmarun-evidence/*/ | head -1)
grep -q '"verdict": "local"' "$dir/verdict.json"
ok $? "verdict.json is written for an exec job too"
run "$RDMARUN" --launcher exec -p shm -- true
check "a COMMAND that reports no transport: said so" 0 \
    "no verdict: no process of COMMAND reported a transport"

# NCCL's side (NCCL cannot run here: no GPUs): a worker that says on stdout
# what NCCL says (the fixtures in tests/data/logs, from NCCL's format
# strings), planned with nccl-ib on the recorded Soft-RoCE node without its
# QP test. Its lines are taken live from COMMAND's output.
nccl_worker() {  # FIXTURE: a script printing it as this process, then waiting
    printf '#!/bin/sh\nsed "s/^[a-z0-9]*:[0-9]*:\\([0-9]*\\)/$(hostname):$$:\\1/" %s\nsleep 30\n' \
        "$DATA/logs/$1" >"$TMP/nccl-worker.sh"
    chmod +x "$TMP/nccl-worker.sh"
}
NCCL_JOB=("$RDMARUN" --launcher exec -p nccl-ib --sysfs "$RX" --set check.qp-test=no
          --set check.memlock=1K)
nccl_worker nccl-no-device.log
t0=$(date +%s)
run "${NCCL_JOB[@]}" --verify strict -- "$TMP/nccl-worker.sh"
check "NCCL on sockets where RDMA is expected, strict: stopped at once, 80" 80 \
    "FALLBACK: process" "used network Socket NET/Socket/0" "stopping the job"
[ $(($(date +%s) - t0)) -lt 10 ]; ok $? "and its worker, sleeping below COMMAND, did not hold it up"
has "$out" "NCCL INFO"; ok $((! $?)) "NCCL's INFO lines rdmarun asked for are not in the job's output"
nccl_worker nccl-roce.log
sed -i 's/^sleep 30$//' "$TMP/nccl-worker.sh"
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
sleep 1
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
done_testing
