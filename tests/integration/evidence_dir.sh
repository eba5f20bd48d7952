#!/bin/bash
# The evidence directory on a shared cluster (issue 34): a run directory no
# one else could have made or named, nothing written through a symlink or
# over a user's file, a working directory that does not fill up, and
# another user's folders left alone. Real jobs (Open MPI, shm).
. "$RDMARUN_SRCDIR/tests/lib.sh"
HELLO=$BUILD/examples/mpi_hello
job() { run "$RDMARUN" -p shm "$@" $MPIRUN_ROOT -np 2 "$HELLO"; }
evidence_in() { evidence_path <<<"$err"; }

# The default: ./rdmarun-evidence/HOST.PID.TIME.XXXXXX, 0700, marked.
mkdir "$TMP/w" && cd "$TMP/w"
job
dir=$(evidence_in)
check "a job keeps its evidence by default" 0 "rank 1 of 2" "local only: 2 processes"
[[ $dir == "$TMP/w/rdmarun-evidence/$(hostname).$!"* || $dir =~ /rdmarun-evidence/[^/]+\.[0-9]+\.[0-9]+\.[A-Za-z0-9]{6}$ ]]
ok $? "its directory is HOST.PID.TIME with a random suffix ($dir)"
# (the setgid bit of ./rdmarun-evidence passes to it: the group is kept)
perms() { printf '%o' $((0$(stat -c %a "$1") & 0777)); }
[ "$(perms "$dir")" = 700 ] && [ "$(perms "$dir/ucx.log")" = 600 ] && [ "$(perms "$dir/verdict.json")" = 600 ]
ok $? "the directory is 0700 and its files 0600"
[ "$(stat -c %a "$TMP/w/rdmarun-evidence")" = 3775 ]
ok $? "./rdmarun-evidence is group-writable and sticky: a teammate's job makes its own there"

# --evidence-dir . in a folder of the user's files: a run directory inside,
# and the user's ucx.log and placement.txt untouched.
mkdir "$TMP/mine" && cd "$TMP/mine"
echo "my notes" >ucx.log && echo "my placement" >placement.txt
job --evidence-dir .
dir=$(evidence_in)
check "--evidence-dir . with the user's own files: the job runs" 0 "local only: 2 processes"
[ "$(cat ucx.log)" = "my notes" ] && [ "$(cat placement.txt)" = "my placement" ]
ok $? "the user's ucx.log and placement.txt are untouched"
[ "${dir%/*}" = "$TMP/mine" ] && [ -s "$dir/ucx.log" ]
ok $? "the evidence went to a fresh run directory inside ($dir)"

# An earlier job's directory given again: reused, its files replaced.
cd "$TMP"
job --evidence-dir "$TMP/again"
job --evidence-dir "$TMP/again"
[ "$(evidence_in)" = "$TMP/again" ] && [ "$(ls -A "$TMP/again" | sort | tr '\n' ' ')" = ".rdmarun-evidence ucx.log verdict.json " ]
ok $? "an earlier rdmarun job's directory is reused, holding only the latest job's files"

# A symlink planted in an earlier job's directory: never written through;
# the directory is no longer only rdmarun's, so a run directory goes inside.
echo precious >"$TMP/victim"
rm "$TMP/again/verdict.json" && ln -s "$TMP/victim" "$TMP/again/verdict.json"
job --evidence-dir "$TMP/again"
dir=$(evidence_in)
check "a planted symlink in the directory: the job runs" 0 "local only: 2 processes"
[ "$(cat "$TMP/victim")" = precious ] && [ -L "$TMP/again/verdict.json" ] && [ "${dir%/*}" = "$TMP/again" ]
ok $? "its target is untouched, the link stays, the evidence goes to a fresh directory inside"

# A folder anyone may write, without the sticky bit: refused (another user
# could swap what rdmarun makes there); the job runs, the verdict comes.
mkdir -m 777 "$TMP/open" && chmod 777 "$TMP/open" && echo x >"$TMP/open/other"
job --evidence-dir "$TMP/open"
check "a folder others may write without the sticky bit is refused, the job runs" 0 \
    "cannot write the evidence directory $TMP/open" "others may write it without the sticky bit" \
    "local only: 2 processes"
[ "$(ls -A "$TMP/open")" = other ]
ok $? "and nothing is made in it"

# Old runs do not pile up: the newest RDMARUN_EVIDENCE_KEEP of this user's
# run directories stay; a folder that only looks like one (a user's file in
# it) is never removed.
mkdir "$TMP/keep" && cd "$TMP/keep"
mkdir -p rdmarun-evidence/mine.1.2 && echo "keep me" >rdmarun-evidence/mine.1.2/notes
for i in 1 2 3 4 5; do RDMARUN_EVIDENCE_KEEP=3 job; done
runs=$(ls rdmarun-evidence | grep -c '\.[A-Za-z0-9]\{6\}$')
[ "$runs" = 3 ] && [ "$(cat rdmarun-evidence/mine.1.2/notes)" = "keep me" ]
ok $? "RDMARUN_EVIDENCE_KEEP=3 after 5 jobs: 3 run directories left (got $runs), the user's folder kept"
[ -d "$(evidence_in)" ]
ok $? "the newest is among them"
cd "$TMP"

# Another user: root makes the folders, an unprivileged user runs the jobs.
# (as_user: nobody, when root; env HOME: nobody's is /nonexistent)
if [ "$(id -u)" = 0 ] && [ -z "$(as_user_blocked)" ]; then
    as_nobody() { as_user env HOME=/tmp "$@"; }
    mkdir -m 755 "$TMP/roots"
    # A sticky folder open to all (/tmp-like): the user's run directory inside.
    mkdir -m 1777 "$TMP/sticky" && chmod 1777 "$TMP/sticky"
    run as_nobody env RDMARUN_EVIDENCE_DIR="$TMP/sticky" "$RDMARUN" -p shm -np 2 "$HELLO"
    dir=$(evidence_in)
    check "an unprivileged user, RDMARUN_EVIDENCE_DIR a sticky folder: the job runs" 0 "local only: 2 processes"
    [ "$(stat -c %U:%a "$dir")" = nobody:700 ]
    ok $? "its run directory there is its own, 0700 ($(stat -c %U:%a "$dir" 2>&1))"
    # root's run directory beside it is never pruned by that user.
    rootrun=$TMP/sticky/host.1.1.AAAAAA
    mkdir -m 700 "$rootrun" && touch "$rootrun/.rdmarun-evidence" "$rootrun/ucx.log"
    run as_nobody env RDMARUN_EVIDENCE_KEEP=1 RDMARUN_EVIDENCE_DIR="$TMP/sticky" "$RDMARUN" -p shm -np 2 "$HELLO"
    [ "$rc" = 0 ] && [ -e "$rootrun/ucx.log" ]
    ok $? "another user's run directory is never pruned"
    # root's own folder given as --evidence-dir: not the user's; nothing written.
    mkdir -m 755 "$TMP/roots/ev"
    run as_nobody "$RDMARUN" -p shm --evidence-dir "$TMP/roots/ev" -np 2 "$HELLO"
    check "another user's folder as --evidence-dir: refused, the job runs" 0 \
        "cannot write the evidence directory" "local only: 2 processes"
    [ -z "$(ls -A "$TMP/roots/ev")" ]
    ok $? "and nothing is written into it"
    chmod 700 "$TMP"
else
    for t in "an unprivileged user in a sticky folder" "its run directory is its own" \
        "another user's run directory is never pruned" "another user's folder refused" \
        "and nothing is written into it"; do
        skip "$t" "needs root (to make another user's folders) and nobody able to run $RDMARUN"
    done
fi
done_testing
