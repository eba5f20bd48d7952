#!/bin/sh
# One rank of the OpenFOAM solver the case setup-case.sh made for the job's
# size names (its controlDict's application: simpleFoam for pitzDaily):
# `rdmarun compare ... -- examples/openfoam/foam-rank.sh DIR`.
# Rank 0 prints the solver's own ExecutionTime per time step, after the
# first (which holds the start-up), as compare's metric reads it:
#   openfoam ranks=2 steps=199 time_per_step_ms=4.42
set -eu
dir=${1:?DIR}
: "${WM_PROJECT_DIR:=/usr/share/openfoam}"
export WM_PROJECT_DIR
size=${OMPI_COMM_WORLD_SIZE:-${PMI_SIZE:-1}}
rank=${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-0}}
case=$dir/np$size
[ -d "$case" ] || { echo "foam-rank.sh: no case for $size ranks: $case (setup-case.sh $dir $size)" >&2; exit 66; }
solver=$(sed -n 's/^application  *\([A-Za-z0-9]*\);.*/\1/p' "$case/system/controlDict")
case $solver in
    *Foam) ;;
    *) echo "foam-rank.sh: $case/system/controlDict names no solver (application)" >&2; exit 65 ;;
esac
parallel=
[ "$size" -gt 1 ] && parallel=-parallel
[ "$rank" = 0 ] || exec "$solver" -case "$case" $parallel
log=$case/log.rank0.$$
status=0
"$solver" -case "$case" $parallel >"$log" 2>&1 || status=$?
cat "$log"
awk -v n="$size" '/^ExecutionTime = / { t[++k] = $3 }
    END { if (k > 1) printf "openfoam ranks=%d steps=%d time_per_step_ms=%.3f\n",
                            n, k - 1, (t[k] - t[1]) / (k - 1) * 1000 }' "$log"
rm -f "$log"
exit $status
