#!/bin/bash
# The dry run exits with the status the real run would have before launching
# (rdmarun(1), --dry-run): every refusal before launch, each case run with
# and without --dry-run. The real run's launcher is a stand-in that leaves a
# mark, so a refused job is seen not to start; the dry run still prints the
# plan. (The path test between nodes is the one refusal the dry run cannot
# predict: it starts the launcher on every node; tests/integration/path_test.sh.)
. "${RDMARUN_SRCDIR:-.}/tests/lib.sh"
cd "$TMP" || exit 1
RX=$DATA/sysfs/rxe
# Asked for its options (mpirun --help all), it answers as Open MPI 4.1.4 did.
cat >"$TMP/mpirun" <<SH
#!/bin/sh
case " \$* " in *" --help "*) exec cat "$DATA/launcher-help/openmpi-4.1.4-mpirun-help-all.txt" ;; esac
touch "\$STARTED"
SH
chmod +x "$TMP/mpirun"
export STARTED=$TMP/started
printf '[profile]\ninherit = shm\n[ucx]\nTLS = sm,self\nbogus line\n' >"$TMP/broken.ini"
printf -- '-np 1 ./a\n-np 1\n' >"$TMP/bad.app"
printf -- '-np 1 ./a\n' >"$TMP/good.app"
mkdir -p "$TMP/nobin"

# status|description|environment (VAR=VALUE ...)|rdmarun's arguments|text in the output|
# plan: whether a plan is made (refusals before it: profile, options, inputs)
cases=(
"66|a hostfile that cannot be read||--sysfs $RX --hostfile $TMP/nosuch -np 2 ./app|hostfile $TMP/nosuch cannot be read|plan"
"66|a profile that does not exist||-p nosuch -np 2 ./app|nosuch|-"
"78|a malformed profile||-p $TMP/broken.ini -np 2 ./app|broken.ini:5|-"
"78|-x with a value UCX rejects||-p shm -x UCX_RNDV_THRESH=eight -np 2 ./app|RNDV_THRESH = eight|-"
"64|a process count that is not a number||-p shm -np x ./app|-np|-"
"65|an appfile line without a program||-p shm --app $TMP/bad.app|bad.app:2|-"
"65|a --facts file that is not facts||--facts $TMP/broken.ini -np 2 ./app|broken.ini|-"
"69|an RDMA profile without its port on the node||-p ib --sysfs $RX -np 2 ./app|no ACTIVE|plan"
"69|strict, a [check] key the node fails||--facts $DATA/facts/memlock-64k.json --verify strict --set check.memlock=unlimited --set check.qp-test=no -np 2 ./app|the memlock limit is 64 KiB|plan"
"69|strict, a QP test that fails||-p roce --sysfs $RX --verify strict -np 2 ./app|preflight QP test failed|plan"
"127|no mpirun on PATH|PATH=$TMP/nobin RDMARUN_MPIRUN=|-p shm -np 2 ./app|mpirun not found on PATH|plan"
"127|a --mpirun path that does not exist||--mpirun $TMP/nosuch/mpirun -p shm -np 2 ./app|cannot run $TMP/nosuch/mpirun: No such file or directory (hint: apt-get install openmpi-bin, or give its path with --mpirun or RDMARUN_MPIRUN)|plan"
"127|an RDMARUN_SRUN that does not exist: srun's own hint|RDMARUN_SRUN=$TMP/nosuch/srun|--launcher srun -p shm -np 2 ./app|cannot run $TMP/nosuch/srun: No such file or directory (hint: apt-get install slurm-client, or give its path with --mpirun or RDMARUN_SRUN)|plan"
"73|an appfile that cannot be written|TMPDIR=$TMP/nosuch|-p shm --app $TMP/good.app|cannot write the appfile $TMP/nosuch/|plan"
)
for c in "${cases[@]}"; do
    IFS='|' read -r want desc envs args text plan <<<"$c"
    for mode in real dry; do
        rm -f "$STARTED"
        dry=
        [ $mode = dry ] && dry=--dry-run
        # shellcheck disable=SC2086
        run env RDMARUN_MPIRUN="$TMP/mpirun" $envs "$RDMARUN" $dry $MPIRUN_ROOT $args
        check "$desc: $want ($mode run)" "$want" "$text"
        if [ $mode = real ]; then
            [ ! -e "$STARTED" ]; ok $? "$desc: the real run starts no job"
        elif [ "$plan" = plan ]; then
            has "$out" "launcher: " || has "$out" "\"argv\""
            ok $? "$desc: the dry run prints the plan" || show_run
        fi
    done
done

# And a plan that runs: 0 both ways, the job started in the real run only.
for mode in real dry; do
    rm -f "$STARTED"
    dry=
    [ $mode = dry ] && dry=--dry-run
    run env RDMARUN_MPIRUN="$TMP/mpirun" "$RDMARUN" $dry -p shm --verify off -np 2 ./app
    check "a plan that runs: 0 ($mode run)" 0
    [ $mode = real ] && { [ -e "$STARTED" ]; ok $? "and the real run started the job"; }
done

# --mpirun NAME without a slash is looked up on PATH by the run, with or
# without supervision (verify off used to execv the bare name: 127).
mkdir -p "$TMP/bin" && cp "$TMP/mpirun" "$TMP/bin/mpirun"
for v in off warn; do
    rm -f "$STARTED"
    run env PATH="$TMP/bin:$PATH" "$RDMARUN" --mpirun mpirun -p shm --verify $v -np 2 ./app
    [ -e "$STARTED" ]; ok $? "--mpirun mpirun, verify $v: found on PATH and started ($rc)" || show_run
done

# A [check] key the plan does not apply is named, in the dry run and in the
# real run's summary: memlock in a profile of shared memory under strict.
printf '[profile]\ninherit = shm\n[check]\nmemlock = unlimited\n' >"$TMP/shm-memlock.ini"
run env RDMARUN_MPIRUN="$TMP/mpirun" "$RDMARUN" --dry-run -p "$TMP/shm-memlock.ini" --verify strict -np 2 ./app
check "shm, strict, [check] memlock: the dry run names it as not checked" 0 \
    "note: [check] memlock = unlimited (shm-memlock.ini:4): not checked before this job: the job has no RDMA ports (fabric shm)"
rm -f "$STARTED"
run env RDMARUN_MPIRUN="$TMP/mpirun" "$RDMARUN" -p "$TMP/shm-memlock.ini" --verify strict -np 2 ./app
check "and the run says it before the job starts" 0 \
    "rdmarun: [check] memlock = unlimited (shm-memlock.ini:4): not checked before this job"
[ -e "$STARTED" ]; ok $? "and the job ran"
done_testing
