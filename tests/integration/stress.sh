#!/bin/bash
# Many short rdmarun jobs, concurrently and one after another: every job must
# get its own verdict (in its own evidence directory) and its own exit status,
# and nothing may be left behind: no process, no file descriptor leaked into
# the ranks. make check runs a small load; for the full one:
#   STRESS_JOBS=300 STRESS_PARALLEL=8 sh tests/integration/stress.sh
. "${RDMARUN_SRCDIR:-.}/tests/lib.sh"
command -v mpirun >/dev/null || { echo "1..0 # SKIP mpirun not installed"; exit 0; }
HELLO=$BUILD/examples/mpi_hello
EXIT=$BUILD/examples/mpi_exit
JOBS=${STRESS_JOBS:-24}
PAR=${STRESS_PARALLEL:-4}

# Job i: its profile, program and expected status and verdict line.
job() {
    i=$1
    case $((i % 3)) in
    0) set -- -p shm "$HELLO"; want=0 verdict="local only" ;;
    1) set -- -p tcp "$HELLO"; want=0 verdict=$ONE_NODE_TCP_TEXT ;;
    2) want=$((i % 7 + 1)); set -- -p shm "$EXIT" $want; verdict= ;;
    esac
    "$RDMARUN" --evidence-dir "$TMP/ev/$i" "${@:1:2}" $MPIRUN_ROOT -np 2 "${@:3}" \
        >"$TMP/out/$i" 2>&1
    echo "$? $want" >"$TMP/status/$i"
    echo "$verdict" >"$TMP/want/$i"
}
mkdir -p "$TMP/ev" "$TMP/out" "$TMP/status" "$TMP/want"
fds_before=$(ls /proc/$$/fd | wc -l)
fd_list_before=$(ls -l /proc/$$/fd | sed 's/^.* \([0-9]* -> \)/\1/' | sed 1d)
t0=$(date +%s%N)
for ((i = 0; i < JOBS; i++)); do
    job $i &
    (( (i + 1) % PAR == 0 )) && wait
done
wait
t_conc=$((($(date +%s%N) - t0) / 1000000))
bad_status=0 bad_verdict=0 mixed=0
for ((i = 0; i < JOBS; i++)); do
    read -r got want <"$TMP/status/$i"
    [ "$got" = "$want" ] || { bad_status=$((bad_status + 1)); echo "# job $i: status $got, expected $want"; }
    v=$(cat "$TMP/want/$i")
    if [ -n "$v" ]; then
        grep -q "rdmarun: .*$v" "$TMP/out/$i" || { bad_verdict=$((bad_verdict + 1)); echo "# job $i: no '$v'"; }
        [ -s "$TMP/ev/$i/verdict.json" ] || bad_verdict=$((bad_verdict + 1))
        # Its evidence is its own: the reports of two processes, no more.
        n=$(sed -n 's/^\[[0-9.]*\] \[[^:]*:\([0-9]*\).*/\1/p' "$TMP/ev/$i/ucx.log" 2>/dev/null | sort -u | wc -l)
        [ "$n" = 2 ] || mixed=$((mixed + 1))
    fi
done
ok $bad_status "$JOBS jobs, $PAR at a time: every exit status is the job's own ($bad_status wrong)"
ok $bad_verdict "every job's verdict is its profile's, in its own evidence directory ($bad_verdict wrong)"
ok $mixed "no evidence directory holds another job's reports ($mixed mixed)"

t0=$(date +%s%N)
seq_bad=0
for ((i = 0; i < JOBS / 2; i++)); do
    "$RDMARUN" -p shm --evidence-dir "$TMP/seq-$i" $MPIRUN_ROOT -np 2 "$EXIT" $((i % 5)) >/dev/null 2>&1
    [ $? = $((i % 5)) ] || seq_bad=$((seq_bad + 1))
done
t_seq=$((($(date +%s%N) - t0) / 1000000))
ok $seq_bad "$((JOBS / 2)) jobs one after another: every status right ($seq_bad wrong)"

# Ranks end with their launcher; give the kernel a moment to reap them.
no_rank_left() { left=$(ours -f "$BUILD/examples/mpi_(hello|exit)" | wc -l); [ "$left" = 0 ]; }
within 5 no_rank_left
[ "$left" = 0 ] || ps -o pid,ppid,stat,etime,args -p "$(ours -f "$BUILD/examples/mpi_(hello|exit)" | paste -sd,)" | sed 's/^/# /'
ok $left "no rank left running ($left)"
left=$(ours -x "$LAUNCHERS_RE" | wc -l)
[ "$left" = 0 ]; ok $? "no mpirun left running ($left)"
[ "$(ls /proc/$$/fd | wc -l)" = "$fds_before" ]
r=$?
[ $r = 0 ] || { printf '# before:\n%s\n# now:\n' "$fd_list_before"; ls -l /proc/$$/fd | sed 1d | sed 's/^/# /'; }
ok $r "the test shell's descriptors are unchanged"
# The ranks see the same descriptors through rdmarun as through mpirun alone.
# (No pipeline inside the rank: a shell holds a pipe's ends while it forks.)
fds='ls /proc/$$/fd'
direct=$(mpirun $MPIRUN_ROOT -np 1 sh -c "$fds" | tr '\n' ' ')
through=$("$RDMARUN" -p shm --evidence-dir "$TMP/fd" $MPIRUN_ROOT -np 1 sh -c "$fds" 2>/dev/null | tr '\n' ' ')
[ -n "$direct" ] && [ "$direct" = "$through" ]
ok $? "a rank has descriptors $through through rdmarun, $direct under mpirun alone: none leaked"
echo "# figures: $JOBS concurrent jobs ($PAR at a time) in $t_conc ms; $((JOBS / 2)) sequential in $t_seq ms"
done_testing
