#!/bin/sh
# An OpenFOAM tutorial case from Debian's openfoam-examples (default
# pitzDaily: simpleFoam, 12225 cells), meshed once and decomposed for each
# rank count, for `rdmarun compare` (see foam-rank.sh and README.md,
# Comparing profiles).
#   examples/openfoam/setup-case.sh DIR NP...
#   STEPS: time steps (default 200); TUTORIAL: the case under the examples
#   (default incompressible/simpleFoam/pitzDaily; the test's emulated guests
#   take incompressible/icoFoam/cavity/cavity, 400 cells)
# DIR/npN is the case for N ranks (N > 1: decomposed with decomposePar); its
# system/controlDict names the solver (application), which foam-rank.sh runs.
set -eu
dir=${1:?DIR NP...}
shift
: "${WM_PROJECT_DIR:=/usr/share/openfoam}"
export WM_PROJECT_DIR
tutorial=${FOAM_TUTORIALS:-/usr/share/doc/openfoam-examples/examples}/${TUTORIAL:-incompressible/simpleFoam/pitzDaily}
[ -f "$tutorial/system/controlDict" ] ||
    { echo "setup-case.sh: no case at $tutorial (install openfoam-examples)" >&2; exit 66; }
mkdir -p "$dir"
base=$dir/mesh
rm -rf "$base"
cp -r "$tutorial" "$base"
# STEPS time steps of the case's own deltaT; written once, at the end
dt=$(sed -n 's/^deltaT  *\([0-9.eE+-]*\);.*/\1/p' "$base/system/controlDict")
end=$(awk -v s="${STEPS:-200}" -v dt="${dt:-1}" 'BEGIN { printf "%.10g", s * dt }')
sed -i "s/^endTime .*/endTime         $end;/; s/^writeControl .*/writeControl    timeStep;/;
        s/^writeInterval .*/writeInterval   100000;/" "$base/system/controlDict"
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
