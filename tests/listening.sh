#!/bin/sh
# listening.sh PORT [SECONDS]: wait until a TCP socket on this host listens
# on PORT (ss, iproute2), SECONDS (30) at most. For the tests' ucx_perftest pairs: a client
# started a fixed time after its server is refused when the server is slow
# to listen (seen under TCG and make -j2).
i=0
until ss -ltn | grep -q ":${1:?port} "; do
    i=$((i + 1))
    [ $i -le $((${2:-30} * 10)) ] || { echo "listening.sh: nothing listens on port $1 after ${2:-30} s" >&2; exit 1; }
    sleep 0.1
done
