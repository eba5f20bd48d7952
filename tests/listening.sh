#!/bin/sh
# listening.sh PORT [SECONDS]: wait until a TCP socket on this host listens
# on PORT (ss, iproute2), SECONDS (30) times RDMARUN_TEST_SLOWDOWN at most.
# For the tests' ucx_perftest pairs: a client started a fixed time after its
# server is refused when the server is slow to listen (seen under TCG and
# make -j2).
. "$(dirname "$0")/wait.sh"
listens() { ss -ltn | grep -q ":$1 "; }
within "${2:-30}" listens "${1:?port}" ||
    { echo "listening.sh: nothing listens on port $1 after $(scaled "${2:-30}") s" >&2; exit 1; }
