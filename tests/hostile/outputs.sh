#!/bin/bash
# Hostile cases (issue 47): the results folders of tune -o and compare -o.
# rdmarun writes only into a folder it makes now, or, for --resume, one it
# made and marked; never into a folder that exists, another user's, one
# others could swap, or one a run still uses. The user's own cases run
# everywhere; the other user's (a real second account) as root.
. "${RDMARUN_SRCDIR:-.}/tests/lib.sh"
. "$RDMARUN_SRCDIR/tests/hostile/lib.sh"
cd "$TMP" || exit 1

# The benchmark: one figure; with HOLD set it says it started and stays
# until HOLD.release exists (a tune that is still running).
cat >bench <<'SH'
#!/bin/sh
if [ -n "$HOLD" ]; then
    touch "$HOLD.started"
    while [ ! -e "$HOLD.release" ]; do sleep 0.1; done
fi
echo "time_us=100"
SH
chmod +x bench
printf '[tune]\ndefaults = no\n[ucx]\nRNDV_THRESH = 1K | 64K\n' >space.ini
TUNE=(tune -p shm --launcher exec --verify off --space "$TMP/space.ini"
      --metric 'time_us=([0-9]+)' --budget 2 --no-validate)

# ---- the user's own files ----
mkdir work && printf 'mine\n' >work/tuned.ini && printf 'a,b\n' >work/summary.csv &&
    printf '{}\n' >work/plan.json
before=$(snapshot work)
run sh -c "cd work && exec '$RDMARUN' ${TUNE[*]@Q} -o . -- '$TMP/bench'"
check "tune -o . in a folder of the user's files: refused, 64" 64 \
    "tune: . exists: rdmarun writes a tune only into a folder it makes" "-o a new name"
unchanged work "$before"; ok $? "tuned.ini, summary.csv and plan.json are left as they were"
run "$RDMARUN" compare -p shm --np 1 --repeat 1 --warmup 0 -o work -- "$TMP/bench"
check "compare -o a folder that exists: refused, 64" 64 "compare: work exists"
unchanged work "$before"; ok $? "and nothing is added to it"
ln -s "$TMP/made-by-link" dangling
run "$RDMARUN" compare -p shm --np 1 --repeat 1 --warmup 0 -o dangling -- "$TMP/bench"
check "compare -o a dangling link: refused, 64" 64 "compare: dangling exists"
[ ! -e made-by-link ]; ok $? "nothing is made at the link's target"

# A run still going: its folder is locked; a --resume of it is refused with
# the running one's pid, and works once it has ended.
HOLD=$TMP/hold "$RDMARUN" "${TUNE[@]}" -o "$TMP/busy" -- "$TMP/bench" >busy.out 2>&1 &
busy=$!
within 60 test -e hold.started; ok $? "a tune is running (its first run has started)"
run "$RDMARUN" tune --resume "$TMP/busy"
check "tune --resume of a folder a tune still runs in: refused, 73, with its pid" 73 \
    "$TMP/busy is in use by rdmarun tune (pid $busy)"
run "$RDMARUN" tune --validate "$TMP/busy"
check "tune --validate of it too" 73 "in use by rdmarun tune (pid $busy)"
touch hold.release
wait $busy; ok $? "the running tune ends as ever (status 0)"
[ "$(grep -c . busy/samples.tsv)" = 4 ]; ok $? "its journal has its 2 runs, once each (after its header and identity)"
run "$RDMARUN" tune --resume "$TMP/busy"
check "a --resume after it ended is taken" 0 "2 runs already recorded"

# Folders that are not one of rdmarun's results folders of that kind.
run "$RDMARUN" compare --resume "$TMP/busy"
check "compare --resume of a tune's folder: 66" 66 "holds no results of rdmarun compare"
ln -s busy busy-link
run "$RDMARUN" tune --resume "$TMP/busy-link"
check "--resume through a symbolic link: refused, 73" 73 "is a symbolic link"
cp -a busy open && chmod 777 open
run "$RDMARUN" tune --resume "$TMP/open"
check "--resume of a folder others may write: refused, 73" 73 "others may write it"

# ---- another user (a real second account; rdmarun runs as root) ----
why=$(hostile_blocked)
if [ -z "$why" ]; then
    mkdir -m 1777 shared && chmod 1777 shared   # root's, like /tmp
    printf 'root\n' >rootfile
    as_mallory ln -s "$TMP/rootfile" shared/out
    run "$RDMARUN" "${TUNE[@]}" -o "$TMP/shared/out" -- "$TMP/bench"
    check "the other user's link where root's -o goes: refused, 64" 64 "exists"
    [ "$(cat rootfile)" = root ] && [ -L shared/out ]; ok $? "the link and its target are kept"
    # Their folder, prepared as results to resume: marker, settings, links.
    as_mallory mkdir -m 777 shared/evil
    as_mallory sh -c "printf 'rdmarun-results tune\n' >'$TMP/shared/evil/.rdmarun-results'"
    cp busy/tune.conf rootconf && chmod 644 rootconf
    as_mallory cp rootconf shared/evil/tune.conf
    as_mallory ln -s "$TMP/rootfile" shared/evil/samples.tsv
    evil=$(snapshot shared/evil)
    run "$RDMARUN" tune --resume "$TMP/shared/evil"
    check "tune --resume of the other user's folder: refused, 73" 73 "another user's"
    unchanged shared/evil "$evil" && [ "$(cat rootfile)" = root ]
    ok $? "nothing is written in it or through its links"
    # Their folder as the parent: they could swap what root makes there.
    as_mallory mkdir -m 777 shared/mal
    as_mallory chmod 777 shared/mal
    run "$RDMARUN" "${TUNE[@]}" -o "$TMP/shared/mal/new" -- "$TMP/bench"
    check "-o in a folder the other user owns and others may write: refused, 73" 73 \
        "cannot make a folder in $TMP/shared/mal: others may write it"
    as_mallory mkdir -m 1777 shared/malsticky
    as_mallory chmod 1777 shared/malsticky
    run "$RDMARUN" compare -p shm --np 1 --repeat 1 --warmup 0 -o "$TMP/shared/malsticky/new" -- "$TMP/bench"
    check "-o in the other user's sticky folder (its owner may still swap): refused, 73" 73 \
        "cannot make a folder in $TMP/shared/malsticky"
    [ -z "$(find shared/mal shared/malsticky -mindepth 1)" ]; ok $? "nothing is made in either"
    # root's own results in root's sticky folder: made, root's, closed to others.
    run "$RDMARUN" "${TUNE[@]}" -o "$TMP/shared/mine" -- "$TMP/bench"
    check "-o a new folder in root's sticky folder: the tune runs" 0 "the budget ended the search"
    [ "$(stat -c %U:%a shared/mine)" = root:755 ] && [ -f shared/mine/.rdmarun-results ] &&
        ! as_mallory touch shared/mine/x 2>/dev/null
    ok $? "the folder is root's, 0755, marked, and the other user cannot write in it"
else
    skip_all "$why" "the other user's link" "the link kept" "their folder resumed" \
        "nothing written in it" "their folder as parent" "their sticky folder" \
        "nothing made in either" "root's own in root's sticky folder" "root's folder closed"
fi
done_testing
