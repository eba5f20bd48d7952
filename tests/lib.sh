# TAP helpers for rdmarun's shell tests. Source it; call done_testing at the end.
# The Makefile exports RDMARUN, RDMARUN_SRCDIR, RDMARUN_BUILDDIR and
# RDMARUN_PROFILE_PATH (the shipped profiles).
: "${RDMARUN:?run through make check}"
SRC=$RDMARUN_SRCDIR
BUILD=$RDMARUN_BUILDDIR
DATA=$SRC/tests/data
# hwloc XML topologies of real machines (their sources: its README.md).
TOPOLOGIES=$DATA/topologies
TMP=$(mktemp -d "${TMPDIR:-/tmp}/rdmarun-test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
# Jobs leave their evidence under the working directory: keep it out of the tree.
cd "$TMP" || exit 1
_n=0
_failed=0
# rdmarun wraps its plan to the terminal's width, else COLUMNS, else 80: the
# tests read whole lines (tests/golden/dry_run.sh checks the wrapping).
export COLUMNS=100000
mkdir -p "$HOME"
# Every process this script starts carries its tag in its environment (mpirun
# and srun pass it on to the ranks), so that its checks for processes left
# behind see its own only while other scripts run beside it (make -j check).
RDMARUN_TEST_TAG="$$.${0##*/}"
export RDMARUN_TEST_TAG
# ours PGREP-OPTIONS...: pgrep's PIDs, of processes with this script's tag.
ours() {
    for _p in $(pgrep "$@"); do
        tr '\0' '\n' <"/proc/$_p/environ" 2>/dev/null | grep -qx "RDMARUN_TEST_TAG=$RDMARUN_TEST_TAG" &&
            echo "$_p"
    done
}
# The tests' python3 is Debian's (the setup installs it), not a version
# manager's shim ahead of it on PATH: pyenv's takes 0.3 s to start one.
[ -x /usr/bin/python3 ] && python3() { /usr/bin/python3 "$@"; }
# The installed UCX's version ("1.13.1"), as rdmarun's messages name it.
# (1.13 prints "# Version 1.13.1", 1.18 "# Library version: 1.18.1").
UCX_VERSION=$(ucx_info -v 2>/dev/null | sed -nE 's/^# (Library version:|Version) ([0-9.]+).*/\2/p' | head -1)
# TCP between ranks of one node: UCX 1.14+ labels it intra-node, so the
# verdict is local (over TCP); UCX 1.13 cannot tell, so TCP may leave the node
# and it is a fallback. Between nodes it is a fallback on both (tests/vm).
if [ "$(printf '%s\n' 1.14 "${UCX_VERSION:-0}" | sort -V | head -1)" = 1.14 ]; then
    ONE_NODE_TCP=local ONE_NODE_TCP_TEXT="within one node, over TCP ("
else
    ONE_NODE_TCP=fallback ONE_NODE_TCP_TEXT="TCP, as intended (expect tcp"
fi
# ucx_perftest's MPI mode off where it has one: UCX 1.18's in Debian 13 is
# built with MPI and, when stdin is not a terminal (a background job's is
# /dev/null), runs as a one-process MPI job unless told -P 0; 1.13's
# (Debian 12) has no MPI mode and no -P. (Asked of the binary, not of its
# -h, which starts MPI itself.)
PERFTEST_P=$(ldd "$(command -v ucx_perftest)" 2>/dev/null | grep -q libmpi && echo "-P 0")
export PERFTEST_P   # for the scripts the tests write
# Open MPI's major version (4 on Debian 12, 5 on Debian 13).
OMPI_MAJOR=$(mpirun --version 2>/dev/null | sed -n 's/.*(Open MPI) \([0-9]*\).*/\1/p' | head -1)
# The names the launcher's process goes by: Open MPI 4.1's mpirun (orterun),
# Open MPI 5's mpirun, which becomes PRRTE's prte.
LAUNCHER_NAMES="mpirun orterun prte prterun"
LAUNCHERS_RE=$(echo $LAUNCHER_NAMES | tr ' ' '|')   # for pgrep -x
# launcher_of PID: the launcher rdmarun PID started (as soon as it runs;
# `scaled 10` s at most).
launcher_of() { within 10 pgrep -P "$1" -x "$LAUNCHERS_RE"; }
is_launcher() { case " $LAUNCHER_NAMES " in *" $1 "*) return 0 ;; esac; return 1; }
# ucx_peer_eps TEXT: UCX's endpoint lines to another rank (not to itself), in
# both forms: ep_cfg[1..] (UCX 1.13) and intra-/inter-node cfg#N (1.14+).
ucx_peer_eps() { printf '%s\n' "$1" | grep -E 'ep_cfg\[[1-9][0-9]*\]|(intra|inter)-node cfg#'; }
# broken_ucx_lines FILE: the UCX lines in FILE that are not one process's
# whole line: no record header at the start, or a second one inside.
broken_ucx_lines() {
    grep -vE '^\[[0-9]+\.[0-9]+\] +\[[^]]+\] ' "$1"
    grep -E '.\[[0-9]+\.[0-9]+\] +\[[^] ]+:[0-9]+' "$1"
}
# Waits that end at their event, with limits scaled by RDMARUN_TEST_SLOWDOWN.
. "$SRC/tests/wait.sh"

# Tests run as root in CI; mpirun refuses that unless told.
MPIRUN_ROOT=
[ "$(id -u)" = 0 ] && MPIRUN_ROOT=--allow-run-as-root
# Real jobs planned on recorded nodes (--sysfs, --topology, --facts: a fabric
# this machine lacks) are how the suites test rdmarun's handling of them;
# a user's such run is refused (tests/cli.sh runs without this).
RDMARUN_RECORDED_RUN=1
export RDMARUN_RECORDED_RUN
# evidence_path: the evidence folder a job's summary line names (read from
# stdin), whole: the line says it relative to the job's folder when inside it.
evidence_path() {
    _e=$(sed -n 's/.*evidence in \([^ ;]*\).*/\1/p' | head -1)
    case $_e in /* | "") printf '%s\n' "$_e" ;; *) printf '%s/%s\n' "$PWD" "$_e" ;; esac
}

# ok STATUS DESCRIPTION: returns STATUS's truth, so that `ok $? ... || show`
# and `[ $? = 0 ] ||` after it see the check, not the echo.
ok() {
    _n=$((_n + 1))
    # RDMARUN_TAP_TIMES (the VM guests): the seconds since the previous
    # check, where they are many, so CI's log shows where a suite's time goes.
    if [ -n "${RDMARUN_TAP_TIMES:-}" ]; then
        _t_now=$(date +%s)
        [ $((_t_now - ${_t_prev:-$_t_now})) -ge 5 ] &&
            echo "# $((_t_now - _t_prev)) s since the previous check"
        _t_prev=$_t_now
    fi
    if [ "$1" -eq 0 ]; then
        echo "ok $_n - $2"
    else
        echo "not ok $_n - $2"
        _failed=$((_failed + 1))
        return 1
    fi
}

# What the last run printed, as TAP comments.
show_run() {
    printf '%s\n' "$out" | sed 's/^/#   stdout: /' | head -40
    printf '%s\n' "$err" | sed 's/^/#   stderr: /' | head -40
    echo "#   status: $rc"
}
skip() { _n=$((_n + 1)); echo "ok $_n - $1 # SKIP $2"; }

# run CMD...: sets $out, $err and $rc
run() {
    "$@" >"$TMP/out" 2>"$TMP/err"
    rc=$?
    out=$(cat "$TMP/out")
    err=$(cat "$TMP/err")
}

has() { case "$1" in *"$2"*) return 0 ;; esac; return 1; }

# check DESCRIPTION EXPECTED_STATUS [TEXT_IN_OUTPUT...]: after run, the status
# and every text (searched in stdout and stderr together).
check() { _check 0 "$@"; }
_check() {  # FAILED_ALREADY DESCRIPTION EXPECTED_STATUS [TEXT...]
    _ok=$1 _desc=$2 _want=$3
    shift 3
    [ "$rc" = "$_want" ] || _ok=1
    for _t in "$@"; do
        has "$out$err" "$_t" || { _ok=1; echo "# missing: $_t"; }
    done
    [ $_ok = 0 ] || show_run
    ok $_ok "$_desc"
}

# check_without DESCRIPTION EXPECTED_STATUS ABSENT TEXT...: as check, and
# ABSENT in neither stdout nor stderr. A text that must be there is required:
# absence alone passes a command that failed outright.
check_without() {
    _pre=0 _d=$1 _w=$2 _a=$3
    shift 3
    [ $# -gt 0 ] || { _pre=1; echo "# check_without needs a text that must be there"; }
    ! has "$out$err" "$_a" || { _pre=1; echo "# present: $_a"; }
    _check "$_pre" "$_d" "$_w" "$@"
}

# The script's own time goes in its log, for the setup's slowest-tests list.
done_testing() { echo "1..$_n"; echo "# took ${SECONDS}s"; [ "$_failed" -eq 0 ]; }

# wait_lines FILE PATTERN COUNT: until FILE has COUNT lines matching
# (`scaled 10` s at most).
_has_lines() { [ "$(grep -c "$2" "$1" 2>/dev/null)" -ge "$3" ]; }
wait_lines() { within 10 _has_lines "$@"; }

# gone PID...: whether every process has ended (waiting `scaled 10` s at most).
_all_gone() {
    for _p in "$@"; do kill -0 "$_p" 2>/dev/null && return 1; done
    return 0
}
gone() { within 10 _all_gone "$@"; }

# require_hwloc_tools: skip the whole test without hwloc's own tools, the
# oracle the recorded topologies are checked against.
require_hwloc_tools() {
    for _t in hwloc-calc hwloc-info lstopo-no-graphics; do
        command -v $_t >/dev/null || { echo "1..0 # SKIP $_t not installed (apt-get install hwloc)"; exit 0; }
    done
}

# as_user CMD...: CMD as an unprivileged user (nobody) when this runs as root
# (CI does), so that a case root's privilege would hide (a file it cannot
# read) runs everywhere; CMD itself otherwise. $TMP becomes traversable
# (711), not readable, so that the user reaches the files the test names.
as_user() {
    [ "$(id -u)" = 0 ] || { "$@"; return; }
    chmod 711 "$TMP"
    setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
}
# as_user_blocked: why as_user cannot start rdmarun (a build tree under a
# folder closed to others, as root's home is), or nothing.
as_user_blocked() {
    as_user test -x "$RDMARUN" 2>/dev/null || echo "nobody cannot reach $RDMARUN"
}

# stop_at_open PATH CMD...: CMD, with any process of it that opens PATH
# stopped right there (SIGSTOP, by strace): a check that never finishes, as
# one stuck in a driver would. can_stop_at_open: whether strace can here.
stop_at_open() {
    _p=$1
    shift
    strace -f -qq -o /dev/null -P "$_p" -e trace=openat -e inject=openat:signal=SIGSTOP "$@"
}
can_stop_at_open() { command -v strace >/dev/null && stop_at_open /nonexistent true 2>/dev/null; }

# expand_list LIST: a PU list "0-2,5" (the kernel's and rdmarun's form) as
# "0,1,2,5" (hwloc-calc's --physical-output form), in order.
expand_list() {
    printf '%s\n' "$1" | tr ',' '\n' | while IFS=- read _a _b; do
        [ -n "$_a" ] && seq "$_a" "${_b:-$_a}"
    done | sort -n | paste -sd, -
}

# have_topology NAME: whether $TOPOLOGIES/NAME.xml is there. It ships with
# the tests: a missing one is a failing TAP line, not checks left out.
have_topology() {
    [ -f "$TOPOLOGIES/$1.xml" ] && return 0
    ok 1 "$1.xml is in $TOPOLOGIES (it ships with the tests)"
}

# relay_tap FILE PREFIX: the "ok - TEXT" and "not ok - TEXT" lines of a
# checker that speaks TAP's words (a script run in a root, an oracle), as
# this test's own lines with PREFIX before each; its other lines pass as
# they are.
relay_tap() {
    while IFS= read -r _line; do
        case $_line in
            "ok - "*) ok 0 "$2${_line#ok - }" ;;
            "not ok - "*) ok 1 "$2${_line#not ok - }" ;;
            *) echo "$_line" ;;
        esac
    done <"$1"
}

# golden EXPECTED GOT DESCRIPTION: the file GOT must equal EXPECTED
# (RDMARUN_REGEN=1 writes EXPECTED from GOT instead).
golden() {
    if [ -n "${RDMARUN_REGEN:-}" ]; then
        mkdir -p "$(dirname "$1")"
        cp "$2" "$1"
    fi
    diff -u "$1" "$2" >"$TMP/diff" 2>&1
    _r=$?
    [ $_r = 0 ] || sed 's/^/# /' "$TMP/diff" | head -30
    ok $_r "$3"
}

# One placement whatever starts the ranks (issue 37): a 4-rank job on a
# recorded node, hwloc's recorded topology XML (HWLOC_XMLFILE, for the ranks'
# helper) and a recorded sysfs tree (the NIC), whose CPUs are not this host's,
# so the helper chooses every rank's PUs, NUMA node, memory policy, NIC and
# GPU but leaves its CPUs alone (--bind-to none: --keep-cpus).
# equivalence_profile FILE: ib's placement with the ranks on shared memory
# and Open MPI's ob1 (the host has no IB port: its UCX would find none).
equivalence_profile() {
    printf '[profile]\ninherit = ib\n[ucx]\nTLS = sm,self\n[mpi]\npml = ob1\n' >"$1"
}
# equivalence_lines: from the last run, the program's (mpi_placement) and the
# helper's (--report) line per rank, sorted by rank; the helper's without the
# launcher variable it read ("[OMPI_COMM_WORLD_LOCAL_RANK]"), the only
# difference a launcher may make.
equivalence_lines() {
    {
        printf '%s\n' "$out" | grep '^placement rank='
        printf '%s\n' "$err" "$out" | sed -n 's/^rdmarun: \(rank [0-9]* (local [0-9]* of [0-9]*) on .*\) \[[A-Z_]*\]$/\1/p'
    } | LC_ALL=C sort
}
