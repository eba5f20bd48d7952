#!/bin/sh
# OpenFOAM's pitzDaily (simpleFoam, 12225 cells, from Debian's
# openfoam-examples), meshed once and decomposed for each rank count, for
# `rdmarun compare` (see foam-rank.sh and README.md, Comparing profiles).
#   examples/openfoam/setup-case.sh DIR NP...   (STEPS: iterations, default 200)
# DIR/npN is the case for N ranks (N > 1: decomposed with decomposePar).
set -eu
dir=${1:?DIR NP...}
shift
: "${WM_PROJECT_DIR:=/usr/share/openfoam}"
export WM_PROJECT_DIR
tutorial=${FOAM_TUTORIALS:-/usr/share/doc/openfoam-examples/examples}/incompressible/simpleFoam/pitzDaily
[ -d "$tutorial" ] || { echo "setup-case.sh: no $tutorial (install openfoam-examples)" >&2; exit 66; }
mkdir -p "$dir"
base=$dir/mesh
rm -rf "$base"
cp -r "$tutorial" "$base"
sed -i "s/^endTime .*/endTime         ${STEPS:-200};/; s/^writeInterval .*/writeInterval   100000;/" \
    "$base/system/controlDict"
(cd "$base" && blockMesh >log.blockMesh 2>&1) || { tail -5 "$base/log.blockMesh" >&2; exit 1; }
for n in "$@"; do
    case=$dir/np$n
    rm -rf "$case"
    cp -r "$base" "$case"
    [ "$n" -gt 1 ] || continue
    cat >"$case/system/decomposeParDict" <<DICT
FoamFile { version 2.0; format ascii; class dictionary; object decomposeParDict; }
numberOfSubdomains $n;
method          simple;
simpleCoeffs    { n ($n 1 1); }
DICT
    (cd "$case" && decomposePar -force >log.decomposePar 2>&1) ||
        { tail -5 "$case/log.decomposePar" >&2; exit 1; }
done
