#!/bin/sh
# Set up a fresh Debian 12 machine for rdmarun, build it, then either run the
# example job (run) or the whole test suite (check). Installs only what is
# missing; needs root (or sudo) for that.
#   scripts/setup-debian.sh run     # build, then a 2-rank MPI job through rdmarun
#   scripts/setup-debian.sh check   # build, then make check and make distcheck
set -eu
mode=${1:-run}
case $mode in run | check) ;; *) echo "usage: $0 run|check" >&2; exit 64 ;; esac
cd "$(dirname "$0")/.."

# Build tools, the libraries rdmarun links (hwloc, libibverbs, numa, inih,
# ucx, json-c), Open MPI to launch with, and what the tests use.
packages="build-essential autoconf automake libtool pkg-config
  libhwloc-dev hwloc libibverbs-dev ibverbs-providers libnuma-dev libinih-dev
  libucx-dev ucx-utils libjson-c-dev openmpi-bin libopenmpi-dev python3"
missing=
for p in $packages; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
        missing="$missing $p"
done
if [ -n "$missing" ]; then
    echo "setup: installing:$missing"
    sudo=
    [ "$(id -u)" = 0 ] || sudo=sudo
    $sudo apt-get update -q
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends $missing
fi

[ -x configure ] || autoreconf -fi
[ -f Makefile ] || ./configure --enable-werror
make -j"$(nproc)"
make examples

# Open MPI refuses to run as root unless told; CI and containers run as root.
root=
[ "$(id -u)" = 0 ] && root=--allow-run-as-root
export RDMARUN_PROFILE_PATH="$PWD/profiles"

if [ "$mode" = run ]; then
    exec ./rdmarun $root -np 2 examples/mpi_hello
fi

status=0
make check || status=$?
[ "$status" = 0 ] && { make distcheck || status=$?; }
# One closing line for whoever reads the log: the totals of make check.
p=$(sed -n 's/^# PASS: *//p' test-suite.log); f=$(sed -n 's/^# FAIL: *//p' test-suite.log)
e=$(sed -n 's/^# ERROR: *//p' test-suite.log); s=$(sed -n 's/^# SKIP: *//p' test-suite.log)
echo "${p:-0} passed, $((${f:-0} + ${e:-0})) failed, ${s:-0} skipped"
exit "$status"
