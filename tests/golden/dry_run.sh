#!/bin/sh
# Golden plans and probes: every shipped profile on every recorded node
# (sysfs trees in tests/data/sysfs with a two-NUMA topology), text and JSON,
# compared with tests/golden/expected.
# After an intended change: RDMARUN_REGEN=1 make check TESTS=tests/golden/dry_run.sh,
# then the oracles, which do not come from rdmarun's output:
# tests/golden/plan_facts.sh (the plans' facts, written by hand, every plan
# golden has rows there) and tests/golden/probe_facts.sh (the probes, read
# from the trees' sysfs files and hwloc-calc).
. "${RDMARUN_SRCDIR:-.}/tests/lib.sh"
EXP=$SRC/tests/golden/expected
TOPO=$DATA/topology/2pkg-2numa.xml

golden_run() {  # NAME, then the rdmarun arguments
    name=$1
    shift
    # At the width of a pipe or a file without COLUMNS: what a job log shows.
    COLUMNS= "$RDMARUN" "$@" >"$TMP/got" 2>&1
    echo "exit status: $?" >>"$TMP/got"
    sed -i -e "s|$SRC|@SRCDIR@|g" -e 's|"ucx_version": "[^"]*"|"ucx_version": "@UCX@"|' \
        -e 's|UCX [0-9][0-9.]* (|UCX @UCX@ (|' \
        -e 's|^stack: .*|stack: @MPI@, UCX @UCX@|' \
        -e 's|"mpi": "[^"]*"|"mpi": "@MPI@"|' -e 's|"ucx": "[0-9][0-9.]*"|"ucx": "@UCX@"|' \
        "$TMP/got"
    golden "$EXP/$name" "$TMP/got" "golden $name"
}

# The JSON goldens' stack.mpi_family "openmpi" with origin "default": no
# ./mpi_hello here, so no library of it names an MPI and rdmarun's default
# (Open MPI) holds; readelf, not rdmarun, says what a real one would name.
[ ! -e ./mpi_hello ] && ! readelf -d ./mpi_hello >/dev/null 2>&1
ok $? "the goldens' ./mpi_hello is no file: its MPI is the default, openmpi"
for tree in "$DATA"/sysfs/*/; do
    tree=${tree%/}
    node=${tree##*/}
    for profile in auto ib roce pvrdma nccl-ib tcp shm; do
        golden_run "$profile@$node.txt" --dry-run --mpirun mpirun --evidence-dir /EVIDENCE --topology "$TOPO" \
            --sysfs "$tree" -p "$profile" -np 2 ./mpi_hello
    done
    golden_run "auto@$node.json" --dry-run --json --mpirun mpirun --evidence-dir /EVIDENCE --topology "$TOPO" \
        --sysfs "$tree" -np 4 ./mpi_hello
    golden_run "probe@$node.txt" probe --topology "$TOPO" --sysfs "$tree"
    golden_run "probe@$node.json" probe --json --topology "$TOPO" --sysfs "$tree"
done

# The plan's layout (issue 35): wrapped to the width (a terminal's, else
# COLUMNS, else 80), each reason said once, the command still a command.
set -- --dry-run --mpirun mpirun --evidence-dir /EVIDENCE --topology "$TOPO" \
    --sysfs "$DATA/sysfs/rxe" -p roce -np 2 ./mpi_hello 'an arg'
longest() { awk '{ if (length > m) m = length } END { print m + 0 }' "$1"; }
COLUMNS= "$RDMARUN" "$@" >"$TMP/w80" 2>&1
[ "$(longest "$TMP/w80")" -le 80 ]
ok $? "without COLUMNS, no line is wider than 80 ($(longest "$TMP/w80"))" || sed 's/^/#   /' "$TMP/w80"
[ "$(grep -c "transport reports from the launcher" "$TMP/w80")" = 1 ]
ok $? "the evidence variables' reason is said once"
grep -q "^       why: Open MPI 4.1 enables pml ucx only" "$TMP/w80" &&
    ! grep -q "applies to Open MPI" "$TMP/w80" && grep -q "^            " "$TMP/w80"
ok $? "a rule's reason, without its sources, wrapped under its why: with an indent"
# The command's lines, as a shell reads them, are the plan's argv.
sed '/^$/,$d' "$TMP/w80" >"$TMP/cmd"
bash -c "printf '%s\n' $(cat "$TMP/cmd")" >"$TMP/cmd.argv"
"$RDMARUN" --json "$@" | python3 -c 'import json, sys; print("\n".join(json.load(sys.stdin)["argv"]))' \
    >"$TMP/json.argv"
[ "$(wc -l <"$TMP/cmd")" -gt 1 ] && cmp -s "$TMP/cmd.argv" "$TMP/json.argv" &&
    ! sed 1d "$TMP/cmd" | grep -qv '^    -'
ok $? "the wrapped command breaks before options only, and a shell reads it as the plan's argv" ||
    diff "$TMP/json.argv" "$TMP/cmd.argv" | sed 's/^/#   /'
COLUMNS=200 "$RDMARUN" "$@" >"$TMP/w200" 2>&1
[ "$(longest "$TMP/w200")" -le 200 ] && [ "$(longest "$TMP/w200")" -gt 80 ] &&
    [ "$(wc -l <"$TMP/w200")" -lt "$(wc -l <"$TMP/w80")" ]
ok $? "COLUMNS=200: lines up to 200 ($(longest "$TMP/w200")), $(wc -l <"$TMP/w200") of them against $(wc -l <"$TMP/w80") at 80"
if command -v script >/dev/null && command -v stty >/dev/null; then
    q=$(printf '%q ' "$RDMARUN" "$@")
    COLUMNS=60 script -qec "stty cols 100; $q" /dev/null </dev/null 2>&1 | tr -d '\r' >"$TMP/tty"
    [ "$(longest "$TMP/tty")" -le 100 ] && [ "$(longest "$TMP/tty")" -gt 60 ]
    ok $? "on a terminal of 100 columns, its width wins over COLUMNS=60 ($(longest "$TMP/tty"))"
else
    skip "on a terminal, its width wins over COLUMNS" "no script(1) or stty"
fi
# (The placement report after the plan is a table of its own.)
COLUMNS= "$RDMARUN" --report "$@" 2>&1 | sed '/^placement: /,$d' >"$TMP/report"
grep -q "applies to Open MPI 4.1 and 5.0" "$TMP/report" && [ "$(longest "$TMP/report")" -le 80 ]
ok $? "--report gives each rule's reason in full, wrapped too"

done_testing
