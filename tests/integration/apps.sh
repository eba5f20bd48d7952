#!/bin/bash
# Real applications through rdmarun compare (issue 50): OpenFOAM's
# simpleFoam on pitzDaily (examples/openfoam) and LAMMPS's Lennard-Jones
# melt (examples/lammps), shm against tcp at 1 and 2 ranks, each figure the
# application's own (OpenFOAM's ExecutionTime per iteration, LAMMPS's
# timesteps/s), every run verified. The parallel efficiency is checked by
# hand from runs.csv's figures. Then tune on the OpenFOAM case, small budget.
. "${RDMARUN_SRCDIR:-.}/tests/lib.sh"
EX=$SRC/examples
# the efficiency from runs.csv by hand, against summary.json's
EFF="python3 $SRC/tests/compare-efficiency.py"
command -v mpirun >/dev/null || { echo "1..0 # SKIP mpirun not installed"; exit 0; }

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
    e=$($EFF "$TMP/foam-cmp" shm lower && $EFF "$TMP/foam-cmp" tcp lower)
    ok $? "OpenFOAM's parallel efficiency, from runs.csv by hand: $(echo $e)"
    echo "# OpenFOAM's compare took $((SECONDS - t0)) s"
    # tune on the same case with a small budget: the base (shm) against
    # UCX's rendezvous threshold and the bind policy, 2 ranks, the metric
    # OpenFOAM's own time per iteration (read back from each run's output).
    t0=$SECONDS
    printf '[tune]\ndefaults = no\n[ucx]\nRNDV_THRESH = auto | 8k\n[bind]\npolicy = none | numa\n' \
        >"$TMP/foam-space.ini"
    run "$RDMARUN" tune -p shm --space "$TMP/foam-space.ini" --budget 6 --repeat 2 \
        -o "$TMP/foam-tune" $MPIRUN_ROOT -np 2 --metric 'time_per_step_ms=([0-9.]+)' -- \
        "$EX/openfoam/foam-rank.sh" "$TMP/foam"
    check "OpenFOAM through tune (budget 6): every run verified, the profile written" 0 \
        "every run verified as 'local'" "6 runs (0 left out) over 2 keys" "profile: $TMP/foam-tune/tuned.ini"
    printf '%s\n' "$out" | sed 's/^/# /'
    awk -F'\t' 'NR > 2 { n++; cmd = "sed -n \"s/.*time_per_step_ms=//p\" " $7; cmd | getline v; close(cmd)
                          if (v + 0 != $9 + 0 || $4 != "local") bad++ }
                 END { exit !(n == 6 && !bad) }' "$TMP/foam-tune/samples.tsv"
    ok $? "tune's 6 samples are OpenFOAM's own time per iteration, as each run printed it"
    echo "# OpenFOAM's tune took $((SECONDS - t0)) s"
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
    e=$($EFF "$TMP/lmp-cmp" shm higher && $EFF "$TMP/lmp-cmp" tcp higher)
    ok $? "LAMMPS's parallel efficiency, from runs.csv by hand: $(echo $e)"
    echo "# LAMMPS's compare took $((SECONDS - t0)) s"
else
    skip "LAMMPS through compare" "lmp (lammps) not installed"
fi
done_testing
