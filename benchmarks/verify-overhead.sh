#!/bin/sh
# What verification costs a job (not a test: figures only). The same MPI
# ping-pong through rdmarun with --verify off (mpirun exec'd) and with
# --verify warn (evidence collected, supervised, verdict), alternating, over
# RUNS runs each; prints the median wall times and the overhead (target < 1%).
#   benchmarks/verify-overhead.sh [RUNS] [ITERATIONS]   (from a built tree)
set -eu
cd "$(dirname "$0")/.."
runs=${1:-7}
iters=${2:-20000}
rdmarun=${RDMARUN:-./rdmarun}
export RDMARUN_PROFILE_PATH=${RDMARUN_PROFILE_PATH:-$PWD/profiles}
root=
[ "$(id -u)" = 0 ] && root=--allow-run-as-root
ev=$(mktemp -d)
trap 'rm -rf "$ev"' EXIT

wall_ms() {
    s=$(date +%s%N)
    "$@" >/dev/null 2>&1
    echo $((($(date +%s%N) - s) / 1000000))
}
median() { sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }

: >"$ev/off"
: >"$ev/warn"
for i in $(seq "$runs"); do
    wall_ms "$rdmarun" -p shm --verify off $root -np 2 examples/mpi_pingpong "$iters" 8 65536 >>"$ev/off"
    wall_ms "$rdmarun" -p shm --verify warn --evidence-dir "$ev/run$i" $root -np 2 \
        examples/mpi_pingpong "$iters" 8 65536 >>"$ev/warn"
done
off=$(median <"$ev/off")
warn=$(median <"$ev/warn")
echo "mpi_pingpong $iters iterations, 2 ranks, shm profile, median of $runs runs"
echo "verify off:  $off ms"
echo "verify warn: $warn ms"
awk -v a="$warn" -v b="$off" 'BEGIN {printf "overhead: %+.2f%% (%+d ms)\n", 100 * (a - b) / b, a - b}'
