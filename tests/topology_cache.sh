#!/bin/sh
# The per-boot topology cache (src/facts/topology_cache.c): a hit gives the
# facts a live discovery gives, in any cgroup; a stale, broken or planted
# cache is never trusted, never written through, never waited on.
. "$RDMARUN_SRCDIR/tests/lib.sh"
unset XDG_RUNTIME_DIR
C=$TMP/cache
probe() { RDMARUN_TOPOLOGY_CACHE=$1 "$RDMARUN" probe --json; }
inode() { stat -c %i "$C/topology.xml" 2>/dev/null; }

# The oracle: hwloc discovering the node with no cache at all.
probe off >"$TMP/live.json" 2>"$TMP/live.err"
ok $? "probe with the cache off"

run probe "$C"
printf '%s\n' "$out" >"$TMP/miss.json"
cmp -s "$TMP/live.json" "$TMP/miss.json"
ok $? "a miss gives the live facts"
[ "$(stat -c %a "$C")" = 700 ] && [ "$(stat -c %a "$C/topology.xml")" = 600 ]
ok $? "the cache folder is 0700 and its file 0600 (got $(stat -c %a "$C" "$C/topology.xml" 2>&1 | tr '\n' ' '))"
grep -q "boot-$(cat /proc/sys/kernel/random/boot_id) " "$C/topology.xml"
ok $? "the cache names this boot (/proc/sys/kernel/random/boot_id)"

before=$(inode)
run probe "$C"
printf '%s\n' "$out" >"$TMP/hit.json"
cmp -s "$TMP/live.json" "$TMP/hit.json" && [ "$rc" = 0 ] && [ -z "$err" ]
ok $? "a hit gives the live facts, and says nothing"
[ -n "$before" ] && [ "$(inode)" = "$before" ]
ok $? "a hit reads the cache, never rewrites it"

# Another boot's cache: made again, for this boot.
sed -i 's/boot-[0-9a-f-]* /boot-00000000-0000-0000-0000-000000000000 /' "$C/topology.xml"
before=$(inode)
run probe "$C"
[ "$rc" = 0 ] && [ "$(inode)" != "$before" ] &&
    grep -q "boot-$(cat /proc/sys/kernel/random/boot_id) " "$C/topology.xml"
ok $? "another boot's cache is replaced"

# A cache cut short (a full disk) with this boot's key: discovered again.
at=$(grep -bo 'RdmarunTopologyCacheKey' "$C/topology.xml" | head -1 | cut -d: -f1)
head -c $((at + 200)) "$C/topology.xml" >"$TMP/cut" && cat "$TMP/cut" >"$C/topology.xml"
grep -q "boot-$(cat /proc/sys/kernel/random/boot_id) " "$C/topology.xml" &&
    ! grep -q '</topology>' "$C/topology.xml"
ok $? "(the cut cache keeps its key and loses its end)"
run probe "$C"
printf '%s\n' "$out" >"$TMP/cut.json"
[ "$rc" = 0 ] && cmp -s "$TMP/live.json" "$TMP/cut.json" && grep -q '</topology>' "$C/topology.xml"
ok $? "a cut cache is made again and the facts stay true"

# A symlink planted as the cache: never read or written through; replaced.
rm -f "$C/topology.xml"
echo precious >"$TMP/victim"
ln -s "$TMP/victim" "$C/topology.xml"
run probe "$C"
[ "$rc" = 0 ] && [ "$(cat "$TMP/victim")" = precious ] && [ ! -L "$C/topology.xml" ] &&
    [ -f "$C/topology.xml" ]
ok $? "a planted symlink is replaced, its target untouched"

# A FIFO as the cache: read without blocking, refused.
rm -f "$C/topology.xml"
mkfifo "$C/topology.xml"
run timeout "$(scaled 120)" env RDMARUN_TOPOLOGY_CACHE="$C" "$RDMARUN" probe --json
[ "$rc" = 0 ] && printf '%s\n' "$out" | cmp -s "$TMP/live.json" -
ok $? "a FIFO as the cache does not stop the probe (status $rc)"

# A folder others may write: not used at all, and said why.
O=$TMP/open
mkdir -m 777 "$O"
run probe "$O"
printf '%s\n' "$out" >"$TMP/open.json"
[ "$rc" = 0 ] && cmp -s "$TMP/live.json" "$TMP/open.json" && [ ! -e "$O/topology.xml" ]
ok $? "a folder open to others is left alone"
check "and the note says why" 0 "topology cache $O not used" "others may open it"

# Another user's folder: the probe runs as that user cannot be tricked into
# reading or writing it. Root makes it; an unprivileged user runs rdmarun.
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && [ -z "$(as_user_blocked)" ]; then
    F=$TMP/foreign
    mkdir -m 700 "$F"
    run as_user env RDMARUN_TOPOLOGY_CACHE="$F" "$RDMARUN" probe --json
    check "another user's cache folder is not used" 0 "topology cache $F not used"
    [ ! -e "$F/topology.xml" ]
    ok $? "and nothing is written into it"
    chmod 700 "$TMP"
else
    skip "another user's cache folder is not used" "needs root (to make a folder of another user's), setpriv and a build tree others can reach"
    skip "and nothing is written into it" "as above"
fi

# HWLOC_* steers discovery: no cache is read or made.
N=$TMP/none
HWLOC_COMPONENTS=linux,-pci RDMARUN_TOPOLOGY_CACHE=$N "$RDMARUN" probe --json >/dev/null 2>&1
[ ! -e "$N" ]
ok $? "an HWLOC_ variable keeps the cache out"

# A cgroup that allows one CPU (as Slurm's task/cgroup does): the cache made
# outside it gives, inside it, what hwloc discovers there - only that CPU.
# cgroup v1's cpuset hierarchy, else cgroup v2 (the unified hierarchy, its
# cpuset controller enabled for a child of the root: cgroup.subtree_control).
CG=/sys/fs/cgroup/cpuset V2=/sys/fs/cgroup TASKS=tasks G=
if [ "$(id -u)" = 0 ] && [ "$(nproc --all)" -gt 1 ]; then
    if [ -w "$CG/cpuset.cpus" ] && mkdir "$CG/rdmarun-test.$$" 2>/dev/null; then
        G=$CG/rdmarun-test.$$
    elif grep -qw cpuset "$V2/cgroup.controllers" 2>/dev/null &&
        { grep -qw cpuset "$V2/cgroup.subtree_control" || echo +cpuset >"$V2/cgroup.subtree_control"; } 2>/dev/null &&
        mkdir "$V2/rdmarun-test.$$" 2>/dev/null; then
        CG=$V2 G=$V2/rdmarun-test.$$ TASKS=cgroup.procs
    fi
fi
if [ -n "$G" ] && echo 0 >"$G/cpuset.cpus" &&
    cat "$CG/cpuset.mems" "$CG/cpuset.mems.effective" 2>/dev/null | head -1 >"$G/cpuset.mems"; then
    inside() { sh -c 'echo $$ >"$1/$2" && shift 2 && exec "$@"' sh "$G" "$TASKS" "$@"; }
    probe "$C" >/dev/null 2>&1   # made outside
    inside env RDMARUN_TOPOLOGY_CACHE=off "$RDMARUN" probe --json >"$TMP/cg-live.json" 2>&1
    inside env RDMARUN_TOPOLOGY_CACHE="$C" "$RDMARUN" probe --json >"$TMP/cg-hit.json" 2>&1
    rmdir "$G" 2>/dev/null
    grep -q '"pus": 1,' "$TMP/cg-live.json"
    ok $? "inside a one-CPU cgroup, hwloc sees one PU"
    cmp -s "$TMP/cg-live.json" "$TMP/cg-hit.json"
    ok $? "and the cache made outside it gives the same facts inside"
else
    [ -n "$G" ] && rmdir "$G" 2>/dev/null
    skip "inside a one-CPU cgroup, hwloc sees one PU" "needs root, a cgroup v1 cpuset or v2 cpuset controller it may use, and 2+ CPUs"
    skip "and the cache made outside it gives the same facts inside" "as above"
fi
done_testing
