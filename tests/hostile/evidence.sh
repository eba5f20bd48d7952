#!/bin/bash
# Hostile cases (issue 47): evidence folders shared by jobs and users. Each
# job's run folder is locked for the job's life: rotation never removes the
# folder of a job still running, and a second job given the same
# --evidence-dir gets a run folder of its own instead of clearing the
# first's. A folder of another user's (sticky or not) is never one root
# makes its run folder in. rdmarun writes into its run folder through the
# folder's fd, so a folder swapped for a link is never written through.
# Real jobs: --launcher exec, and Open MPI.
. "${RDMARUN_SRCDIR:-.}/tests/lib.sh"
. "$RDMARUN_SRCDIR/tests/hostile/lib.sh"
HELLO=$BUILD/examples/mpi_hello
cd "$TMP" || exit 1
evidence_in() { evidence_path <"$1"; }
# A job that runs until HOLD.release exists, saying when it started.
cat >long <<SH
#!/bin/sh
touch "\$HOLD.up"
while [ ! -e "\$HOLD.release" ]; do sleep 0.1; done
SH
chmod +x long
short() { "$RDMARUN" -p shm "$@" $MPIRUN_ROOT -np 2 "$HELLO" >/dev/null 2>&1; }

# Rotation beside a running job.
HOLD=$TMP/a RDMARUN_EVIDENCE_DIR=$TMP/ev "$RDMARUN" -p shm --launcher exec -- "$TMP/long" >a.out 2>&1 &
a=$!
within 60 test -e a.up
longdir=$(evidence_in a.out)
[ -d "$longdir" ]; ok $? "a long job runs, its run folder made ($longdir)"
for i in 1 2 3 4 5; do RDMARUN_EVIDENCE_DIR=$TMP/ev RDMARUN_EVIDENCE_KEEP=2 short; done
[ -d "$longdir" ] && [ -e "$longdir/.rdmarun-evidence" ]
ok $? "5 short jobs with RDMARUN_EVIDENCE_KEEP=2: the running job's folder is kept"
[ "$(ls ev | wc -l)" -le 3 ]; ok $? "and the ended ones are rotated ($(ls ev | wc -l) left)"
touch a.release
wait $a; ok $? "the long job ends as ever"
[ -s "$longdir/verdict.json" ]; ok $? "its verdict is written into its own folder"

# Two jobs given one --evidence-dir: the second gets its own run folder.
HOLD=$TMP/b "$RDMARUN" -p shm --evidence-dir "$TMP/shared-ev" --launcher exec -- "$TMP/long" >b.out 2>&1 &
b=$!
within 60 test -e b.up
[ "$(evidence_in b.out)" = "$TMP/shared-ev" ]; ok $? "a first job takes --evidence-dir as it is"
echo "first job's line" >>shared-ev/ucx.log
"$RDMARUN" -p shm --evidence-dir "$TMP/shared-ev" $MPIRUN_ROOT -np 2 "$HELLO" >c.out 2>&1
second=$(evidence_in c.out)
[ "${second%/*}" = "$TMP/shared-ev" ] && [ -s "$second/verdict.json" ]
ok $? "a second job while it runs: a run folder of its own inside ($second)"
grep -q "first job's line" shared-ev/ucx.log; ok $? "the first job's log is not cleared"
touch b.release
wait $b; ok $? "the first job ends as ever"

# The run folder swapped for a link while the job runs: rdmarun writes its
# logs and verdict.json through the folder it opened (its fd), never at the
# link's target. The job moves the folder away, plants the link, then
# prints UCX's endpoint line, so ucx.log is made after the swap.
mkdir target
cat >swap <<SH
#!/bin/sh
mv "$TMP/swapped" "$TMP/swapped.moved" && ln -s "$TMP/target" "$TMP/swapped" || exit 1
echo "[1796449791.040785] [\$(hostname):\$\$ :0]      ucp_worker.c:1903 UCX  INFO    ucp_context_0 intra-node cfg#0 tag(posix/memory)  rma(posix/memory)  am(posix/memory)"
SH
chmod +x swap
run "$RDMARUN" -p shm --evidence-dir "$TMP/swapped" --launcher exec -- "$TMP/swap"
check "a job that swaps its run folder for a link runs, its verdict read" 0 "local only"
[ -z "$(ls -A target)" ]; ok $? "nothing is written at the link's target"
[ -s swapped.moved/ucx.log ] && [ -s swapped.moved/verdict.json ]
ok $? "ucx.log and verdict.json are in the folder rdmarun made, wherever it moved"

# Another user's folders (a real second user; rdmarun as root).
why=$(hostile_blocked)
if [ -z "$why" ]; then
    mkdir -m 1777 shared && chmod 1777 shared
    as_mallory mkdir -m 1777 shared/theirs
    as_mallory chmod 1777 shared/theirs
    run "$RDMARUN" -p shm --evidence-dir "$TMP/shared/theirs/ev" $MPIRUN_ROOT -np 2 "$HELLO"
    check "--evidence-dir in the other user's sticky folder: refused, the job runs" 0 \
        "cannot write the evidence directory" "local only: 2 processes"
    [ -z "$(ls -A shared/theirs)" ]; ok $? "nothing is made in their folder"
    run "$RDMARUN" -p shm --evidence-dir "$TMP/shared/theirs" $MPIRUN_ROOT -np 2 "$HELLO"
    check "--evidence-dir their sticky folder itself: refused" 0 "cannot write the evidence directory"
    [ -z "$(ls -A shared/theirs)" ]; ok $? "and nothing is made in it"
    run env RDMARUN_EVIDENCE_DIR="$TMP/shared/theirs" "$RDMARUN" -p shm $MPIRUN_ROOT -np 2 "$HELLO"
    check "RDMARUN_EVIDENCE_DIR their sticky folder: refused" 0 "cannot write the evidence directory"
    [ -z "$(ls -A shared/theirs)" ]; ok $? "nor a run folder made in it"
else
    skip_all "$why" "their sticky folder's subfolder" "nothing made" "their folder itself" \
        "nothing made in it" "RDMARUN_EVIDENCE_DIR theirs" "no run folder in it"
fi
done_testing
