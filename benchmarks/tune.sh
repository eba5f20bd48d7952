#!/bin/bash
# rdmarun tune against a landscape whose optimum is known (figures, not a
# test): benchmarks/tune-landscape.c, four UCX variables of six values each
# (1,296 configurations), interacting keys, a narrow optimum, 3% noise, run
# through the real 'rdmarun tune' (--launcher exec, so each run is a
# process, not an MPI job). Printed per tune and over all: evaluations used
# against the exhaustive grid's 1,296 (target <= 25%), the figure found
# against the true optimum (target within 2%), the share of bins where the
# result is slower than the base (target 0); then the wall time of a default
# tune of the built-in sweep on 2 ranks on this machine.
#   benchmarks/tune.sh [TUNES]   (from a built tree; BENCH_SHORT=1: 2 tunes, no default tune)
set -eu
cd "$(dirname "$0")/.."
tunes=${1:-${BENCH_SHORT:+2}}
tunes=${tunes:-5}
rdmarun=${RDMARUN:-$PWD/rdmarun}
. benchmarks/lib.sh
export RDMARUN_PROFILE_PATH=${RDMARUN_PROFILE_PATH:-$PWD/profiles}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -O2 -o "$tmp/landscape" benchmarks/tune-landscape.c -lm
# The base sets each variable to its list's first value (index 0).
printf '[profile]\ninherit = shm\n[ucx]\nRNDV_THRESH = 1K\nZCOPY_THRESH = 1K\nRNDV_SCHEME = auto\nSEG_SIZE = 2K\n' \
    >"$tmp/base.ini"
cat >"$tmp/space.ini" <<'INI'
[tune]
defaults = no
[ucx]
RNDV_THRESH = 1K | 4K | 16K | 64K | 256K | 1M
ZCOPY_THRESH = 1K | 4K | 16K | 64K | 256K | 1M
RNDV_SCHEME = auto | get_zcopy | put_zcopy | get_ppln | put_ppln | am
SEG_SIZE = 2K | 4K | 8K | 16K | 32K | 64K
INI
read -r optimum base <<<"$("$tmp/landscape" --optimum)"
echo "landscape: 1296 configurations, true optimum $optimum (base $base), 3% noise, $tunes tunes"
runs_all=0 worst_found=0 slower=0 bins=0
for i in $(seq 1 "$tunes"); do
    d=$tmp/t$i
    "$rdmarun" tune -p "$tmp/base.ini" --launcher exec --verify off --space "$tmp/space.ini" \
        --budget 2000 --metric '^(bin[01]) t=([0-9.]+)' -o "$d" -- "$tmp/landscape" \
        >"$tmp/out$i" 2>&1 || { cat "$tmp/out$i" >&2; continue; }
    runs=$(awk 'NR > 1' "$d/samples.tsv" | wc -l)
    # The tuned values, as the benchmark reads them: set in its environment.
    envs=$(awk -F' = ' '/^\[ucx\]/ {u = 1; next} /^\[/ {u = 0} u && NF == 2 && $1 !~ /^#/ {printf "UCX_%s=%s ", $1, $2}' "$d/tuned.ini")
    read -r t0 t1 <<<"$(env $envs "$tmp/landscape" --true)"
    read -r b0 b1 <<<"$(env UCX_RNDV_THRESH=1K "$tmp/landscape" --true)"
    found=$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.6f", sqrt(a * b)}')
    off=$(awk -v f="$found" -v o="$optimum" 'BEGIN {printf "%.2f", (f / o - 1) * 100}')
    s=$(awk -v a="$t0" -v b="$t1" -v x="$b0" -v y="$b1" 'BEGIN {print (a > x) + (b > y)}')
    printf 'tune %d: %d runs, found %s (%s%% off the optimum), %d of 2 bins slower than the base; %s\n' \
        "$i" "$runs" "$found" "$off" "$s" "${envs:-the base values}"
    runs_all=$((runs_all + runs))
    worst_found=$(awk -v w="$worst_found" -v o="$off" 'BEGIN {print (o > w) ? o : w}')
    slower=$((slower + s)) bins=$((bins + 2))
done
figure "evaluations / exhaustive grid (mean over tunes)" \
    "$(awk -v r="$runs_all" -v n="$tunes" 'BEGIN {printf "%.1f", r / n / 1296 * 100}')" % "<=" 25
figure "found / true optimum (worst tune)" "$worst_found" "% off" "<=" 2
figure "bins slower than the base" \
    "$(awk -v s="$slower" -v b="$bins" 'BEGIN {if (b) printf "%.1f", s / b * 100}')" % "<=" 0
if [ -z "${BENCH_SHORT:-}" ] && command -v mpirun >/dev/null; then
    root=
    [ "$(id -u)" = 0 ] && root=--allow-run-as-root
    t0=$(date +%s.%N)
    "$rdmarun" tune -p shm -o "$tmp/default" $root >"$tmp/default.out" 2>&1 || true
    t1=$(date +%s.%N)
    figure "a default tune of the built-in sweep, 2 ranks, profile shm ($(awk 'NR > 1' "$tmp/default/samples.tsv" | wc -l) runs)" \
        "$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.1f", b - a}')" s
fi
bench_end
