#!/bin/bash
# rdmarun on a real one-node Slurm (munged, slurmctld, slurmd on localhost;
# tests/slurm/lib.sh): an sbatch job through rdmarun with the srun launcher
# and the SPANK plugin's --rdma-profile; a prolog forced unhealthy drains the
# node with an "rdmarun:" reason and the job is requeued; a healthy check
# resumes the node and the job runs; an admin's drain is never undone; a
# check that hangs is cut at its time limit. `make check-slurm`.
. "${RDMARUN_SRCDIR:-.}/tests/lib.sh"
. "$SRC/tests/slurm/lib.sh"
slurm_require
trap 'slurm_stop; rm -rf "$TMP"' EXIT
HELLO=$BUILD/examples/mpi_hello
SCONTROL=$(command -v scontrol)
SPANK=$BUILD/src/slurm/rdmarun_spank.so

# The site's check configuration (root's, in a folder only root writes) and
# the prolog: the node's RDMA devices are the recorded Soft-RoCE node.
SITE=$TMP/site
mkdir -p "$SITE"
# The node's port has a symbol_error counter, which jobs leave alone
# (section 7 makes one rise during a job).
NODE=$TMP/sys-node
cp -r "$DATA/sysfs/rxe" "$NODE"
SYMERR=$NODE/class/infiniband/rxe0/ports/1/counters/symbol_error
mkdir -p "${SYMERR%/*}" && echo 0 >"$SYMERR"
healthy() { printf '[check]\ndevices = rxe0:1\ncounters = yes\nbaseline = %s\ntimeout = 20\n' \
    "$SITE/state/counters" >"$SITE/check.ini"; }
unhealthy() { printf '[check]\ndevices = mlx5_0\ntimeout = 20\n' >"$SITE/check.ini"; }
healthy
HEALTH=("$RDMARUN" check --drain --config "$SITE/check.ini" --sysfs "$NODE" --scontrol "$SCONTROL")
# Prolog and Epilog: the shipped wrapper (wrappers/slurm/check.sh, as
# rdmarun-slurm(7) installs it), with this build, the site's file and the
# recorded node.
sed -e "s|^CONFIG=.*|CONFIG=$SITE/check.ini SCONTROL=$SCONTROL|" \
    -e "s|^exec [^ ]*/rdmarun check |exec $RDMARUN check --sysfs $NODE |" \
    "$BUILD/wrappers/slurm/check.sh" >"$SITE/prolog.sh"
chmod 755 "$SITE/prolog.sh"
[ "$(grep -c "^CONFIG=$SITE/check.ini\|^exec $RDMARUN check --sysfs $NODE --drain \$EPILOG" "$SITE/prolog.sh")" = 2 ]
ok $? "the shipped Prolog/Epilog wrapper runs this build's check ($(grep '^exec' "$SITE/prolog.sh"))"
conf=("Prolog=$SITE/prolog.sh" "Epilog=$SITE/prolog.sh")
if [ -f "$SPANK" ]; then
    echo "required $SPANK" >"$SITE/plugstack.conf"
    conf+=("PlugStackConfig=$SITE/plugstack.conf")
fi
slurm_start "${conf[@]}"
ok $? "a one-node Slurm is up, node $HOST idle"

if [ -f "$SPANK" ]; then
    srun --help 2>&1 | grep -q -- "--rdma-profile"; ok $? "the SPANK plugin adds --rdma-profile to srun"
else
    skip "the SPANK plugin adds --rdma-profile" "not built (libslurm-dev missing)"
fi

# 1. A batch job: rdmarun with the srun launcher, the profile from --rdma-profile.
cat >"$TMP/job.sh" <<SH
#!/bin/sh
export RDMARUN_PROFILE_PATH='$RDMARUN_PROFILE_PATH' HOME='$HOME'
cd '$TMP'
exec '$RDMARUN' --launcher srun -n 2 '$HELLO'
SH
profile_opt=
[ -f "$SPANK" ] && profile_opt=--rdma-profile=shm
submit() { sbatch --parsable -n 2 -o "$TMP/$1.out" $profile_opt "$TMP/job.sh"; }
id=$(submit job1)
slurm_wait_job "$id" 90
[ -z "$(slurm_job_state "$id")" ]; ok $? "the batch job ran and left the queue"
out=$(cat "$TMP/job1.out")
has "$out" "rank 0 of 2" && has "$out" "rank 1 of 2"; ok $? "both ranks ran under srun"
[ -z "$profile_opt" ] || { has "$out" "rdmarun: profile shm"; ok $? "--rdma-profile=shm reached rdmarun in the batch script"; }
has "$out" "rdmarun: local only: 2 processes"; ok $? "rdmarun verified the job's transports (local, as shm intends)"
[ $? = 0 ] || sed 's/^/#   /' "$TMP/job1.out"
state=$(scontrol show job "$id" | sed -n 's/.*ExitCode=\([0-9:]*\).*/\1/p')
[ "$state" = 0:0 ]; ok $? "the job's exit code is 0:0 ($state)"

# 1b. An MPICH program under srun (issue 37): Slurm's pmi2 plugin carries
# MPICH's PMI (--mpi=pmi2), one job of 2 ranks, not 2 singletons.
if [ -x "$BUILD/examples/mpich/mpi_hello" ]; then
    cat >"$TMP/mpich.sh" <<SH
#!/bin/sh
export RDMARUN_PROFILE_PATH='$RDMARUN_PROFILE_PATH' HOME='$HOME'
cd '$TMP'
exec '$RDMARUN' -p shm --launcher srun -n 2 '$BUILD/examples/mpich/mpi_hello'
SH
    id=$(sbatch --parsable -n 2 -o "$TMP/mpich.out" "$TMP/mpich.sh")
    slurm_wait_job "$id" 90
    out=$(cat "$TMP/mpich.out")
    has "$out" "rank 0 of 2" && has "$out" "rank 1 of 2" && has "$out" "local only: 2 processes"
    s=$?
    ok $s "an MPICH program under srun --mpi=pmi2: one job of 2 ranks, verified"
    [ $s = 0 ] || sed 's/^/#   /' "$TMP/mpich.out"
else
    skip "an MPICH program under srun" "MPICH's examples not built (libmpich-dev)"
fi

# 1e. rdmarun tune inside an allocation (issue 36): every run a job step
# started by srun, verified like any other.
printf '[tune]\ndefaults = no\n[ucx]\nRNDV_THRESH = 8K | 1M\n' >"$TMP/stune.ini"
cat >"$TMP/tune.sh" <<SH
#!/bin/sh
export RDMARUN_PROFILE_PATH='$RDMARUN_PROFILE_PATH' HOME='$HOME'
cd '$TMP'
exec '$RDMARUN' tune -p shm --launcher srun -n 2 --space '$TMP/stune.ini' --budget 8 \
    --no-validate -o '$TMP/stune'
SH
id=$(sbatch --parsable -n 2 -o "$TMP/tune.out" "$TMP/tune.sh")
slurm_wait_job "$id" 180
state=$(scontrol show job "$id" | sed -n 's/.*ExitCode=\([0-9:]*\).*/\1/p')
[ "$state" = 0:0 ] && grep -q "every run verified as 'local'" "$TMP/tune.out" &&
    [ "$(awk -F'\t' 'NR > 1 && $3 == 0 {print $4 "/" $5}' "$TMP/stune/samples.tsv" | sort -u)" = local/1 ]
ok $? "tune under srun: the job ended 0:0 ($state), every run verified as local and counted"
[ $? = 0 ] || sed 's/^/#   /' "$TMP/tune.out"

# 1a. The path test inside an allocation: srun starts one peer per node
# (--mpi=pmix), which meets the others through Slurm's PMIx server. This
# node has no RDMA device, so the peer says so, and says it through PMIx.
cat >"$TMP/path.sh" <<SH
#!/bin/sh
cd '$TMP'
exec '$RDMARUN' check --path-test
SH
id=$(sbatch --parsable -N 1 -o "$TMP/path.out" "$TMP/path.sh")
slurm_wait_job "$id" 90
out=$(cat "$TMP/path.out")
has "$out" "--ntasks-per-node=1 --mpi=pmix" && has "$out" "path-peer" &&
    has "$out" ": port: no RDMA device on this node" &&
    has "$out" "path test failed: 1 node, 0 of 1 path good"
ok $? "check --path-test in an allocation: srun started the peer, PMIx carried its report"
[ $? = 0 ] || sed 's/^/#   /' "$TMP/path.out"
state=$(scontrol show job "$id" | sed -n 's/.*ExitCode=\([0-9:]*\).*/\1/p')
[ "$state" = 83:0 ]; ok $? "and the batch script's exit code is 83 ($state)"

# 1c. The shipped example job script, submitted exactly as its comment
# says (rdmarun-slurm(7), EXAMPLE): the command under its "with:" line, run
# at the top of a built tree (rdmarun, rdmarun-tree and profiles, as a tree
# built where it was cloned has them; examples/ with mpi_hello and the
# script); the job finds rdmarun through the PATH the command sets, and the
# copy's profiles through its rdmarun-tree.
submit_line=$(sed -n '/with:$/{n;s/^#   //p;q}' "$SRC/examples/slurm-job.sbatch")
[ -n "$submit_line" ]; ok $? "examples/slurm-job.sbatch says how to submit it: $submit_line"
CLONE=$TMP/clone
mkdir -p "$CLONE/examples"
cp "$RDMARUN" "$CLONE/rdmarun" && echo . >"$CLONE/rdmarun-tree" && cp -r "$SRC/profiles" "$CLONE/"
cp "$HELLO" "$SRC/examples/slurm-job.sbatch" "$CLONE/examples/"
id=$(cd "$CLONE" && env -u RDMARUN_PROFILE_PATH bash -c "${submit_line/sbatch /sbatch --parsable }")
slurm_wait_job "$id" 90
out=$(cat "$CLONE/rdmarun-example.$id.out" 2>&1)
has "$out" "rank 0 of 2" && has "$out" "rank 1 of 2" && has "$out" "rdmarun: local only: 2 processes"
s=$?
ok $s "examples/slurm-job.sbatch as its comment says ($submit_line): 2 ranks under srun, verified"
[ $s = 0 ] || printf '%s\n' "$out" | sed 's/^/#   /'
state=$(scontrol show job "$id" | sed -n 's/.*ExitCode=\([0-9:]*\).*/\1/p')
[ "$state" = 0:0 ]; ok $? "and its exit code is 0:0 ($state)"

# 1d. srun rdmarun --launcher exec (issue 21): one rdmarun per node in the
# step, its COMMAND's UCX pair (ucx_perftest) verified, its node named.
if command -v ucx_perftest >/dev/null; then
    cat >"$TMP/exec.sh" <<SH
#!/bin/sh
export RDMARUN_PROFILE_PATH='$RDMARUN_PROFILE_PATH' HOME='$HOME'
cd '$TMP'
exec srun -n 1 '$RDMARUN' --launcher exec -p shm -- sh -c \
    'ucx_perftest $PERFTEST_P -p 13600 -t tag_lat -n 200 & $SRC/tests/listening.sh 13600 && ucx_perftest $PERFTEST_P -p 13600 -t tag_lat -n 200 127.0.0.1 && wait'
SH
    id=$(sbatch --parsable -n 1 -o "$TMP/exec.out" "$TMP/exec.sh")
    slurm_wait_job "$id" 90
    out=$(cat "$TMP/exec.out" 2>&1)
    has "$out" "rdmarun: $(hostname): local only: 2 processes on shared memory" && has "$out" "Final:"
    s=$?
    ok $s "srun rdmarun --launcher exec: the step's UCX pair verified on its node"
    [ $s = 0 ] || printf '%s\n' "$out" | sed 's/^/#   /' | tail -20
else
    skip "srun rdmarun --launcher exec" "ucx_perftest not installed (ucx-utils)"
fi

# 1b. Placement under srun: the helper reads SLURM_LOCALID and binds each task.
cat >"$TMP/placed.sh" <<SH
#!/bin/sh
export RDMARUN_PROFILE_PATH='$RDMARUN_PROFILE_PATH' HOME='$HOME'
cd '$TMP'
exec '$RDMARUN' -p shm --launcher srun --bind-policy numa --report -n 2 '$BUILD/examples/mpi_placement'
SH
id=$(sbatch --parsable -n 2 -o "$TMP/placed.out" "$TMP/placed.sh")
slurm_wait_job "$id" 90
out=$(cat "$TMP/placed.out")
placed=0
for r in 0 1; do
    line=$(printf '%s\n' "$out" | grep "^placement rank=$r ")
    reported=$(printf '%s\n' "$out" | sed -n "s/.*rank $r (local $r of 2) on [^:]*: PUs \([^ ]*\) .*/\1/p")
    has "$line" "cpus=$reported " && [ -n "$reported" ]
    ok $? "under srun, task $r runs where rdmarun rank placed it (PUs $reported; $line)" || placed=1
done
[ $placed = 0 ] || sed 's/^/#   /' "$TMP/placed.out"

# 1c. One placement whatever starts the ranks (issue 37; mpirun, Hydra and
# exec in integration/equivalence.sh): 2 tasks on a recorded node (Lassen's
# topology, a recorded mlx5 tree) get from srun what 2 ranks get from mpirun.
# (2, the node's cores, without overcommit: 4 tasks with -O gave no output
# under Slurm 24.11 in the Debian 13 root, though they ran under 22.05.)
if have_topology coral-lassen; then
    xml=$TOPOLOGIES/coral-lassen.xml SYSFS=$DATA/sysfs/pascal-noacs
    equivalence_profile "$TMP/place.ini"
    run env -u HWLOC_COMPONENTS "$RDMARUN" -p "$TMP/place.ini" --verify off --sysfs "$SYSFS" \
        --bind-policy numa --report $MPIRUN_ROOT --oversubscribe --bind-to none \
        -x HWLOC_XMLFILE="$xml" -x HWLOC_THISSYSTEM=0 -np 2 "$BUILD/examples/mpi_placement"
    equivalence_lines >"$TMP/equal.mpirun"
    cat >"$TMP/equal.sh" <<SH
#!/bin/sh
export RDMARUN_PROFILE_PATH='$RDMARUN_PROFILE_PATH' HOME='$HOME'
unset HWLOC_COMPONENTS
cd '$TMP'
exec '$RDMARUN' -p '$TMP/place.ini' --verify off --sysfs '$SYSFS' --bind-policy numa --report \
    --launcher srun --bind-to none -x HWLOC_XMLFILE='$xml' -x HWLOC_THISSYSTEM=0 -n 2 \
    '$BUILD/examples/mpi_placement'
SH
    # --exclusive: the allocation's cpuset is the whole node, as mpirun's ranks have it.
    id=$(sbatch --parsable -n 2 --exclusive -o "$TMP/equal.out" "$TMP/equal.sh" 2>"$TMP/equal.err")
    slurm_wait_job "$id" 90
    out=$(cat "$TMP/equal.out") err=
    equivalence_lines >"$TMP/equal.srun"
    [ "$(grep -c '^rank [01] (local [01] of 2)' "$TMP/equal.srun")" = 2 ] &&
        cmp -s "$TMP/equal.mpirun" "$TMP/equal.srun"
    ok $? "srun's 2 tasks are placed as mpirun's 2 ranks, byte for byte (Lassen, numa)" ||
        { diff "$TMP/equal.mpirun" "$TMP/equal.srun"; cat "$TMP/equal.err"; tail -20 "$TMP/equal.out"
          squeue -h -j "$id" -o '%T %r'; } 2>&1 | sed 's/^/#   /'
fi

# 2. Unhealthy prolog: the node is drained with rdmarun's reason, the job requeued.
unhealthy
id=$(submit job2)
slurm_wait_state drain 30 || slurm_wait_state drng 5
reason=$(slurm_reason)
case $reason in "rdmarun: RDMARUN-DEVICE-ABSENT: mlx5_0 is absent"*) r=0 ;; *) r=1 ;; esac
ok $r "the failing prolog drained the node with rdmarun's reason ($reason)"
held() { squeue -h -j "$id" -o %r | grep -qi held; }
within 30 held
squeue -h -j "$id" -o '%T %r' | grep -qi 'pending.*held'
ok $? "the job was requeued and held ($(squeue -h -j "$id" -o '%T %r'))"

# 3. Healthy again: the health check resumes the node, the job runs.
healthy
run "${HEALTH[@]}"
check "the health check, healthy again, resumes the node" 0 "resumed node $HOST (it was drained by rdmarun:"
slurm_wait_state idle 10; ok $? "the node is idle"
scontrol release "$id" && scontrol update JobId="$id" StartTime=now
slurm_wait_job "$id" 90
[ -z "$(slurm_job_state "$id")" ] && grep -q "rank 1 of 2" "$TMP/job2.out"
ok $? "the requeued job ran once the node was back"

# 4. An admin's drain is never undone, nor its reason replaced.
scontrol update NodeName="$HOST" State=DRAIN Reason="admin: new firmware"
run "${HEALTH[@]}"
check "a healthy check on a node an admin drained" 0 "is healthy"
check_without "it does not resume it" 0 "resumed" "is healthy"
unhealthy
run "${HEALTH[@]}"
check "an unhealthy check on a node an admin drained" 69 "already drained (Reason=admin: new firmware"
case $(slurm_reason) in "admin: new firmware"*) r=0 ;; *) r=1 ;; esac
ok $r "the admin's reason stays ($(slurm_reason))"
scontrol update NodeName="$HOST" State=RESUME
slurm_wait_state idle 10

# 4b. No check configuration, or a bad one: a configuration mistake, not a
# sick node: said (66, 78), and no node is drained for it.
run "$RDMARUN" check --drain --config "$SITE/none.ini" --sysfs "$DATA/sysfs/rxe" --scontrol "$SCONTROL"
check "a missing check configuration: 66, said" 66 "cannot read the site check configuration"
printf '[check]\ntimeout = 0\n' >"$SITE/zero.ini"
run "$RDMARUN" check --drain --config "$SITE/zero.ini" --sysfs "$DATA/sysfs/rxe" --scontrol "$SCONTROL"
check "timeout = 0: a configuration error with its line" 78 "zero.ini:2" "at least 1"
case $(slurm_state) in *drain*) r=1 ;; *) r=0 ;; esac
[ $r = 0 ] && [ -z "$(slurm_reason)" ]
ok $? "and the node was not drained for either ($(slurm_state), reason '$(slurm_reason)')"

# 5. A check that would hang (its process stopped as it opens the port's
# state, as a stuck driver holds it) is cut at its time limit, and drains the node.
cp -r "$DATA/sysfs/rxe" "$TMP/sys-hang"
printf '[check]\ndevices = rxe0\ncheck-timeout = 2\ntimeout = 10\n' >"$SITE/hang.ini"
if can_stop_at_open; then
    t0=$(date +%s)
    run stop_at_open "$TMP/sys-hang/class/infiniband/rxe0/ports/1/state" \
        "$RDMARUN" check --drain --config "$SITE/hang.ini" --sysfs "$TMP/sys-hang" --scontrol "$SCONTROL"
    t=$(($(date +%s) - t0))
    check "a hanging check is stopped at 2 s and the node drained" 69 "did not finish within 2 s" \
        "drained node $HOST: rdmarun: RDMARUN-TIMEOUT: did not finish"
    [ "$rc" = 69 ] && [ "$t" -le "$(scaled 8)" ]; ok $? "the whole check took ${t} s"
    healthy
    run "${HEALTH[@]}"
    check "and the next healthy check resumes it" 0 "resumed node $HOST"
else
    for d in "a hanging check is stopped and the node drained" "the whole check took" \
        "and the next healthy check resumes it"; do
        skip "$d" "strace cannot stop a process here (it needs ptrace)"
    done
fi

# 6. --node is one node: a hostlist or ALL never reaches scontrol.
for n in "n[1-4]" "$HOST,$HOST" ALL; do
    run "$RDMARUN" check --drain --node "$n" --config "$SITE/hang.ini" --sysfs "$NODE" --scontrol "$SCONTROL"
    check "--node '$n' is refused before any scontrol call" 64 "--node takes one node's name"
done
case $(slurm_state) in *drain*) r=1 ;; *) r=0 ;; esac   # ("idle*": slurmd slow to answer)
ok $r "and the node was not drained ($(slurm_state))"

# 7. The Epilog (the same wrapper; slurmd sets SLURM_SCRIPT_CONTEXT=
# epilog_slurmd) judges what the port's counters grew during the job
# against what its prolog kept: a job during which symbol errors rose
# drains the node, by name, with the job in the reason.
cat >"$TMP/errors.sh" <<SH
#!/bin/sh
echo \$((\$(cat '$SYMERR') + 3)) >'$SYMERR'
SH
id=$(sbatch --parsable -n 1 -o "$TMP/errors.out" "$TMP/errors.sh")
slurm_wait_state drain 60 || slurm_wait_state drng 5
reason=$(slurm_reason)
case $reason in "rdmarun: RDMARUN-COUNTERS-LINK: rxe0 port 1 symbol_error grew by 3 during job $id"*) r=0 ;; *) r=1 ;; esac
ok $r "the Epilog drained node $HOST: symbol errors rose during job $id ($reason)"
[ ! -e "$SITE/state/counters.job-$id" ]; ok $? "the Epilog removed the job's counters"
run "${HEALTH[@]}"
check "the next health check (nothing grew since) resumes the node" 0 "resumed node $HOST"
slurm_wait_state idle 10; ok $? "the node is idle"

done_testing
