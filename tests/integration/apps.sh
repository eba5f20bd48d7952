#!/bin/bash
# Real applications through rdmarun compare (issue 50): OpenFOAM's
# simpleFoam on pitzDaily (examples/openfoam) and LAMMPS's Lennard-Jones
# melt (examples/lammps), shm against tcp at 1 and 2 ranks, each figure the
# application's own (OpenFOAM's ExecutionTime per iteration, LAMMPS's
# timesteps/s), every run verified. The parallel efficiency is checked by
# hand from runs.csv's figures.
. "${RDMARUN_SRCDIR:-.}/tests/lib.sh"
EX=$SRC/examples
command -v mpirun >/dev/null || { echo "1..0 # SKIP mpirun not installed"; exit 0; }

# efficiency DIR PROFILE HIGHER: the median of np 1 over np 2's, from
# runs.csv, as compare's definition (stats.c efficiency) gives it, against
# the summary's.
efficiency_agrees() {
    python3 - "$1" "$2" "$3" <<'PY'
import csv, json, statistics, sys
d, prof, higher = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
rows = [r for r in csv.DictReader(open(d + "/runs.csv")) if r["profile"] == prof]
med = {n: statistics.median(float(r["metric"]) for r in rows
                            if r["np"] == n and r["phase"] == "measure" and r["included"] == "1")
       for n in ("1", "2")}
eff = med["2"] / (2 * med["1"]) if higher else med["1"] / (2 * med["2"])
s = [x for x in json.load(open(d + "/summary.json"))["results"]
     if x["profile"] == prof and x["np"] == 2][0]
assert abs(s["efficiency"] - eff) < 1e-6, (s["efficiency"], eff)
assert 0.1 < eff < 1.5, eff
print("%s: %.1f%%" % (prof, eff * 100))
PY
}

if command -v simpleFoam >/dev/null && [ -d /usr/share/doc/openfoam-examples/examples ]; then
    t0=$SECONDS
    STEPS=100 "$EX/openfoam/setup-case.sh" "$TMP/foam" 1 2 >"$TMP/setup.out" 2>&1
    ok $? "setup-case.sh: pitzDaily meshed, decomposed for 2 ranks ($(tail -c 300 "$TMP/setup.out"))"
    run "$RDMARUN" compare -p shm,tcp --np 1,2 --repeat 2 --warmup 1 \
        --metric 'time_per_step_ms=([0-9.]+)' -o "$TMP/foam-cmp" $MPIRUN_ROOT -- \
        "$EX/openfoam/foam-rank.sh" "$TMP/foam"
    check "OpenFOAM through compare: shm and tcp at 1 and 2 ranks, efficiency" 0 "efficiency" \
        "baseline: shm"
    printf '%s\n' "$out" | sed 's/^/# /'
    [ "$(awk -F, '$4 == "shm" && $5 == 2 {print $8}' "$TMP/foam-cmp/runs.csv" | sort -u)" = local ] &&
        [ "$(awk -F, '$4 == "tcp" && $5 == 2 {print $9}' "$TMP/foam-cmp/runs.csv" | sort -u)" = tcp ]
    ok $? "every 2-rank run verified: shm local, tcp over TCP"
    e=$(efficiency_agrees "$TMP/foam-cmp" shm 0 && efficiency_agrees "$TMP/foam-cmp" tcp 0)
    ok $? "OpenFOAM's parallel efficiency, from runs.csv by hand: $(echo $e)"
    echo "# OpenFOAM's compare took $((SECONDS - t0)) s"
else
    skip "OpenFOAM through compare" "simpleFoam or openfoam-examples not installed"
fi

if command -v lmp >/dev/null; then
    t0=$SECONDS
    run "$RDMARUN" compare -p shm,tcp --np 1,2 --repeat 2 --warmup 1 --higher-is-better \
        --metric 'Performance: .* ([0-9.]+) timesteps/s' -o "$TMP/lmp-cmp" $MPIRUN_ROOT -- \
        lmp -in "$EX/lammps/in.lj" -var steps 100 -log none
    check "LAMMPS through compare: timesteps/s at 1 and 2 ranks, efficiency" 0 "efficiency" \
        "baseline: shm"
    printf '%s\n' "$out" | sed 's/^/# /'
    e=$(efficiency_agrees "$TMP/lmp-cmp" shm 1 && efficiency_agrees "$TMP/lmp-cmp" tcp 1)
    ok $? "LAMMPS's parallel efficiency, from runs.csv by hand: $(echo $e)"
    echo "# LAMMPS's compare took $((SECONDS - t0)) s"
else
    skip "LAMMPS through compare" "lmp (lammps) not installed"
fi
done_testing
