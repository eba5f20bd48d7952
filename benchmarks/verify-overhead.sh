#!/bin/sh
# What supervision costs a job (figures, not a test). A 2-rank hello through
# rdmarun with its default verify (warn: supervised, reports read live, a
# verdict), against the very mpirun command its dry run prints, and against
# rdmarun --verify off (mpirun exec'd), and its dry run alone (facts, plan:
# what rdmarun does before any job starts); interleaved, medians of RUNS runs.
# Targets: rdmarun / mpirun <= 1.05 (issue 32: the median of each run's ratio
# to the mpirun run beside it), and <= 10 ms over --verify off,
# each figure printed beside its target, met or missed. Exits 1 when a figure
# is missing.
# What each library is asked to print (plan.c's evidence rows): UCX at
# UCX_LOG_LEVEL=info (its endpoint lines, ucp_worker.c, a few a process),
# NCCL at NCCL_DEBUG=INFO with NCCL_DEBUG_SUBSYS=INIT,NET. UCX's
# UCX_LOG_FILE_FILTER=ucp_worker.c would keep only the endpoint lines, but
# it filters every level: ucp_context.c's "UCX  ERROR no usable
# transports/devices" is then lost (UCX 1.13, ucx_info -e with
# UCX_TLS=rc_mlx5 on a node without mlx5), so it is not used.
#   benchmarks/verify-overhead.sh [RUNS]      (from a built tree; BENCH_SHORT=1: 5 runs)
set -eu
cd "$(dirname "$0")/.."
runs=${1:-${BENCH_SHORT:+5}}
runs=${runs:-31}
rdmarun=${RDMARUN:-$PWD/rdmarun}
. benchmarks/lib.sh
RDMARUN_BUILDDIR=${RDMARUN_BUILDDIR:-$PWD} bench_examples
hello=${RDMARUN_BUILDDIR:-$PWD}/examples/mpi_hello
export RDMARUN_PROFILE_PATH=${RDMARUN_PROFILE_PATH:-$PWD/profiles}
root=
[ "$(id -u)" = 0 ] && root=--allow-run-as-root
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

wall_us() {
    s=$(date +%s%N)
    # a run that failed gives no figure
    # (an empty line keeps the runs of one round on the same line number)
    "$@" >/dev/null 2>&1 || { echo "failed: $*" >&2; echo; return 0; }
    echo $((($(date +%s%N) - s) / 1000))
}
median() { awk 'NF' | sort -n | awk '{a[NR] = $1} END {if (NR) print a[int((NR + 1) / 2)]}'; }

# The dry run's command, as a shell would run it (shell-quoted, its lines
# broken by " \" line ends), up to the blank line after it.
cmd=$("$rdmarun" -p shm --dry-run $root -np 2 "$hello" | sed '/^$/,$d')
for i in $(seq "$runs"); do
    wall_us "$rdmarun" -p shm $root -np 2 "$hello" >>"$tmp/rdmarun"
    wall_us sh -c "$cmd" >>"$tmp/mpirun"
    wall_us "$rdmarun" -p shm --verify off $root -np 2 "$hello" >>"$tmp/off"
    # UCX's own part: its info lines printed, nobody reading them
    wall_us "$rdmarun" -p shm --verify off $root -x UCX_LOG_LEVEL=info -x UCX_LOG_FILE=stdout \
        -np 2 "$hello" >>"$tmp/ucxinfo"
    wall_us "$rdmarun" -p shm --dry-run $root -np 2 "$hello" >>"$tmp/dry"
done
r=$(median <"$tmp/rdmarun") m=$(median <"$tmp/mpirun") o=$(median <"$tmp/off") d=$(median <"$tmp/dry")
u=$(median <"$tmp/ucxinfo")
ms() { [ -n "$1" ] && awk -v v="$1" 'BEGIN { printf "%.1f", v / 1000 }'; }
echo "mpi_hello, 2 ranks, shm profile, median of $runs interleaved runs"
figure "rdmarun (verify warn)" "$(ms "$r")" ms
figure "its dry run's mpirun" "$(ms "$m")" ms
# The ratio of each run to the mpirun run beside it, then their median and
# quartiles: a machine whose load drifts moves both runs of a pair together,
# where a ratio of two medians takes them from different moments.
ratios=$(paste "$tmp/rdmarun" "$tmp/mpirun" | awk 'NF == 2 && $2 > 0 { printf "%.4f\n", $1 / $2 }' | sort -n)
quart() { printf '%s\n' "$ratios" | awk -v q="$1" 'NF {a[NR] = $1} END {if (NR) printf "%.2f", a[int((NR - 1) * q + 1.5)]}'; }
figure "rdmarun / mpirun, median of paired runs" "$(quart 0.5)" "" "<=" 1.05
echo "  (quartiles $(quart 0.25) - $(quart 0.75); ratio of the two medians $([ -n "$r" ] && [ -n "$m" ] && awk -v r="$r" -v m="$m" 'BEGIN { printf "%.2f", r / m }'))"
figure "rdmarun --verify off" "$(ms "$o")" ms
figure "supervision adds" "$([ -n "$r" ] && [ -n "$o" ] && awk -v r="$r" -v o="$o" 'BEGIN { printf "%.1f", (r - o) / 1000 }')" ms "<=" 10
figure "of it, UCX printing its info lines (--verify off with UCX_LOG_LEVEL=info)" \
    "$([ -n "$u" ] && [ -n "$o" ] && awk -v u="$u" -v o="$o" 'BEGIN { printf "%.1f", (u - o) / 1000 }')" ms "<=" 10
figure "rdmarun --dry-run (facts and plan, before any job starts)" "$(ms "$d")" ms
bench_end
