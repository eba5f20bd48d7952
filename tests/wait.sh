# Time limits for the tests (sourced by tests/lib.sh, tests/vm/lib.sh, the
# guests' setup and tests/listening.sh). Every wait ends at its event, polled
# every 0.1 s; its limit, and every bound a test puts on how long something
# takes, is what an idle machine needs times RDMARUN_TEST_SLOWDOWN (default
# 1): the sanitizer and valgrind runs set 5, make check-loaded 3.
SLOWDOWN=${RDMARUN_TEST_SLOWDOWN:-1}
RDMARUN_TEST_SLOWDOWN=$SLOWDOWN
export RDMARUN_TEST_SLOWDOWN   # for the programs and scripts tests start
# scaled SECONDS: SECONDS times the slowdown, rounded up to whole seconds.
scaled() { awk -v s="$1" -v f="$SLOWDOWN" 'BEGIN { v = s * f; printf "%d", (v > int(v) ? int(v) + 1 : v) }'; }
# within SECONDS COMMAND...: poll COMMAND until it succeeds (status 0), or
# until `scaled SECONDS` have passed (status 1).
within() {
    _end=$(($(date +%s%N) + $(scaled "$1") * 1000000000))
    shift
    until "$@"; do
        [ "$(date +%s%N)" -lt "$_end" ] || return 1
        sleep 0.1
    done
}
