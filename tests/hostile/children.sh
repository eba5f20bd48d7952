#!/bin/bash
# Hostile cases (issue 47): what rdmarun starts ends with it, and a job a
# signal ended has status 128+N. A tune or a comparison killed outright
# (kill -9), or check --path-test ended by SIGTERM or Ctrl-C, leaves no
# process of its runs behind, however deep; the launcher's exit status
# after rdmarun passed it SIGTERM (0, 15, a rank's) is 143 every time.
. "${RDMARUN_SRCDIR:-.}/tests/lib.sh"
HELLO=$BUILD/examples/mpi_hello
cd "$TMP" || exit 1

# spawner NAME: a program that starts a grandchild (sleep) that ignores
# SIGHUP, records its pid in NAME.pid, says it started, and waits for it.
spawner() {
    cat >"$1" <<SH
#!/bin/sh
sleep 1000 &
echo \$! >"$TMP/$1.pid"
wait
echo time_us=1
SH
    chmod +x "$1"
}
# gone NAME: NAME's grandchild has ended (within 20 s)
alive() { kill -0 "$(cat "$TMP/$1.pid")" 2>/dev/null; }
gone() { within 20 sh -c "! kill -0 $(cat "$TMP/$1.pid") 2>/dev/null"; }
started() { within 60 test -s "$TMP/$1.pid"; }

spawner tb
printf '[tune]\ndefaults = no\n[ucx]\nRNDV_THRESH = 1K | 64K\n' >space.ini
"$RDMARUN" tune -p shm --launcher exec --verify off --space "$TMP/space.ini" \
    --metric 'time_us=([0-9]+)' -o "$TMP/t9" -- "$TMP/tb" >t9.out 2>&1 &
t=$!
started tb && alive tb; ok $? "a tune's run has started a grandchild"
kill -9 $t
gone tb; ok $? "kill -9 of the tune (--launcher exec --verify off): the run's grandchild ends too"

spawner cb
if command -v mpirun >/dev/null; then
    "$RDMARUN" compare -p shm --np 1 --repeat 1 --warmup 0 -o "$TMP/c9" $MPIRUN_ROOT -- "$TMP/cb" \
        >c9.out 2>&1 &
    c=$!
    started cb && alive cb; ok $? "a comparison's run (mpirun) has started a grandchild"
    kill -9 $c
    gone cb; ok $? "kill -9 of the comparison: the rank's child ends too"
else
    skip "a comparison's run has started a grandchild" "mpirun not installed"
    skip "kill -9 of the comparison" "mpirun not installed"
fi

# (a background job of a script starts with SIGINT ignored: env restores it)
spawner tc
env --default-signal=INT "$RDMARUN" tune -p shm --launcher exec --verify off \
    --space "$TMP/space.ini" --metric 'time_us=([0-9]+)' -o "$TMP/tc-out" -- "$TMP/tc" >tc.out 2>&1 &
t=$!
started tc
kill -INT $t
wait $t; st=$?
[ "$st" = 130 ] && gone tc; ok $? "Ctrl-C (SIGINT) to a tune: status 130 ($st), the run's grandchild ends"

# --budget TIME is a hard deadline: a run that never ends is stopped at it,
# its whole tree with it, and the tune ends (the base's own run: nothing to
# tune, 65; a later run: the results of the runs before).
cat >hang <<SH
#!/bin/sh
n=\$(cat "$TMP/hang.n" 2>/dev/null || echo 0); echo \$((n + 1)) >"$TMP/hang.n"
if [ "\$n" -ge "\${HANG_FROM:-0}" ]; then
    sleep 1000 &
    echo \$! >"$TMP/hang.pid"
    wait
fi
echo time_us=100
SH
chmod +x hang
for from in 0 1; do
    rm -f hang.n hang.pid
    t0=$(date +%s)
    run env HANG_FROM=$from "$RDMARUN" tune -p shm --launcher exec --verify off --space "$TMP/space.ini" \
        --metric 'time_us=([0-9]+)' --budget 4s --no-validate -o "$TMP/hang$from" -- "$TMP/hang"
    t1=$(date +%s)
    if [ $from = 0 ]; then
        check "--budget 4s, the base's run never ends: stopped at the budget, 65" 65 \
            "the budget (4 s) ended during run 0: it was stopped" "nothing to tune"
    else
        check "--budget 4s, the second run never ends: stopped, the tune ends with the first" 0 \
            "the budget (4 s) ended during run 1: it was stopped"
    fi
    [ $((t1 - t0)) -le $((4 + 2 + $(scaled 10))) ] && gone hang
    ok $? "within the budget and the grace ($((t1 - t0)) s), the run's grandchild ended"
done

# check --path-test: its launcher (here a stand-in that starts a grandchild
# and waits, either when rdmarun asks it its options, or only when it runs
# the test) in its own process group, so that the terminal's Ctrl-C reaches
# only rdmarun; SIGTERM or SIGINT to check ends the launcher's whole tree.
spawner pl
cat >pr <<SH
#!/bin/sh
case "\$*" in *--help*|*--version*|*-V*) exit 0 ;; esac
exec "$TMP/pl" "\$@"
SH
chmod +x pr
for launcher in pl pr; do
    for sig in TERM INT; do
        rm -f "$TMP/pl.pid"
        env --default-signal=INT "$RDMARUN" check --path-test --mpirun "$TMP/$launcher" \
            -H localhost,localhost --path-timeout 600 >pl.out 2>&1 &
        c=$!
        started pl
        kill -$sig $c
        wait $c
        gone pl
        ok $? "SIG$sig to check --path-test (a launcher that $([ $launcher = pl ] &&
            echo "hangs when asked its options" || echo "runs the test")): its child ends too"
    done
done

# Orphans the supervisor adopts (it is their reaper) are reaped as they
# end, not left as zombies until the job ends: a job that leaves 20.
cat >orphans <<SH
#!/bin/sh
for i in \$(seq 20); do (true &) ; done
touch "$TMP/orphans.up"
while [ ! -e "$TMP/orphans.release" ]; do sleep 0.1; done
SH
chmod +x orphans
"$RDMARUN" -p shm --launcher exec -- "$TMP/orphans" >orphans.out 2>&1 &
r=$!
within 30 test -e orphans.up
zombies() { ps -o stat= --ppid "$r" | grep -c '^Z'; }
no_zombies() { [ "$(zombies)" = 0 ]; }
within 10 no_zombies; ok $? "20 orphans of a running job: none left a zombie ($(zombies) now)"
touch orphans.release
wait $r; ok $? "and the job ends as ever"

# 128+N: a launcher that makes SIGTERM an exit of 0, of 15, or of 3 (a
# rank's), four times each: the job's status is 143 every time.
for code in 0 15 3; do
    cat >"l$code" <<SH
#!/bin/sh
trap 'kill \$! 2>/dev/null; exit $code' TERM
touch "$TMP/l$code.up"
sleep $(scaled 120) & wait   # until SIGTERM (no polling); a lost one ends it, failing
SH
    chmod +x "l$code"
    got=
    for i in 1 2 3 4; do
        rm -f "l$code.up"
        "$RDMARUN" -p shm --launcher exec -- "$TMP/l$code" >l.out 2>&1 &
        r=$!
        within 30 test -e "l$code.up"
        kill -TERM $r
        wait $r
        got="$got $?"
    done
    [ "$got" = " 143 143 143 143" ]
    ok $? "a launcher that exits $code on SIGTERM: status 143 four times of four (got$got)"
done
if command -v mpiexec.hydra >/dev/null || command -v mpiexec.mpich >/dev/null; then
    HYDRA=$(command -v mpiexec.hydra || command -v mpiexec.mpich)
    cat >spin <<SH
#!/bin/sh
touch "$TMP/spin.up"
exec sleep $(scaled 120)   # until Hydra passes SIGTERM on (a lost one: status 0, failing)
SH
    chmod +x spin
    got=
    for i in 1 2 3 4; do
        rm -f spin.up
        "$RDMARUN" -p shm --launcher hydra --mpi mpich --mpirun "$HYDRA" -np 2 -- "$TMP/spin" >h.out 2>&1 &
        r=$!
        within 60 test -e spin.up
        kill -TERM $r
        wait $r
        got="$got $?"
    done
    [ "$got" = " 143 143 143 143" ]
    ok $? "SIGTERM to an MPICH (Hydra) job: status 143 four times of four (got$got)"
else
    skip "SIGTERM to an MPICH (Hydra) job: 143 every time" "MPICH's mpiexec not installed"
fi
done_testing
