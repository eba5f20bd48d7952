#!/bin/sh
# What supervision costs a job (figures, not a test). A 2-rank hello through
# rdmarun with its default verify (warn: supervised, reports read live, a
# verdict), against the very mpirun command its dry run prints, and against
# rdmarun --verify off (mpirun exec'd), and its dry run alone (facts, plan:
# what rdmarun does before any job starts); interleaved, medians of RUNS runs.
# Targets: rdmarun / mpirun <= 1.05 (issue 32), and <= 10 ms over --verify off.
# Exits 1 when a figure is missing.
#   benchmarks/verify-overhead.sh [RUNS]      (from a built tree; BENCH_SHORT=1: 5 runs)
set -eu
cd "$(dirname "$0")/.."
runs=${1:-${BENCH_SHORT:+5}}
runs=${runs:-31}
rdmarun=${RDMARUN:-$PWD/rdmarun}
hello=$PWD/examples/mpi_hello
export RDMARUN_PROFILE_PATH=${RDMARUN_PROFILE_PATH:-$PWD/profiles}
root=
[ "$(id -u)" = 0 ] && root=--allow-run-as-root
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

wall_us() {
    s=$(date +%s%N)
    "$@" >/dev/null 2>&1 || echo "failed: $*" >&2
    echo $((($(date +%s%N) - s) / 1000))
}
median() { sort -n | awk '{a[NR] = $1} END {if (NR) print a[int((NR + 1) / 2)]}'; }

# The dry run's command, as a shell would run it (it prints it shell-quoted).
cmd=$("$rdmarun" -p shm --dry-run $root -np 2 "$hello" | head -1)
for i in $(seq "$runs"); do
    wall_us "$rdmarun" -p shm $root -np 2 "$hello" >>"$tmp/rdmarun"
    wall_us sh -c "$cmd" >>"$tmp/mpirun"
    wall_us "$rdmarun" -p shm --verify off $root -np 2 "$hello" >>"$tmp/off"
    wall_us "$rdmarun" -p shm --dry-run $root -np 2 "$hello" >>"$tmp/dry"
done
r=$(median <"$tmp/rdmarun") m=$(median <"$tmp/mpirun") o=$(median <"$tmp/off") d=$(median <"$tmp/dry")
[ -n "$r" ] && [ -n "$m" ] && [ -n "$o" ] && [ -n "$d" ] || { echo "verify-overhead: a figure is missing" >&2; exit 1; }
echo "mpi_hello, 2 ranks, shm profile, median of $runs interleaved runs"
awk -v r="$r" -v m="$m" -v o="$o" -v d="$d" 'BEGIN {
    printf "rdmarun (verify warn): %8.1f ms\n", r / 1000
    printf "its dry run'\''s mpirun:  %8.1f ms   ratio %.2f (target <= 1.05)\n", m / 1000, r / m
    printf "rdmarun --verify off:  %8.1f ms   supervision adds %+.1f ms (target <= 10)\n", o / 1000, (r - o) / 1000
    printf "rdmarun --dry-run:     %8.1f ms   facts and plan, before any job starts\n", d / 1000
}'
