#!/bin/sh
# The drop-in mpirun wrapper: an unchanged job script runs through rdmarun.
. "${RDMARUN_SRCDIR:-.}/tests/lib.sh"
command -v mpirun >/dev/null || { echo "1..0 # SKIP mpirun not installed"; exit 0; }
real=$(command -v mpirun)

cat >"$TMP/job.sh" <<JOB
#!/bin/sh
# An ordinary job script: it knows nothing of rdmarun.
mpirun $MPIRUN_ROOT -np 2 "$BUILD/examples/mpi_hello"
JOB
chmod +x "$TMP/job.sh"
PATH=$BUILD/wrappers:$PATH run "$TMP/job.sh"
check "the job script's mpirun goes through rdmarun and runs" 0 "rdmarun: profile auto" "rank 0 of 2" "rank 1 of 2"

PATH=$BUILD/wrappers:$PATH RDMARUN_PROFILE=tcp run "$TMP/job.sh"
check "RDMARUN_PROFILE picks the wrapper's profile" 0 "rdmarun: profile tcp" "rank 1 of 2"

PATH=$BUILD/wrappers:$PATH run "$RDMARUN" --dry-run -np 2 ./prog
first=$(printf '%s\n' "$out" | head -n 1)
case "$first" in "$real "*) r=0 ;; *) r=1 ;; esac
ok $r "with the wrapper first on PATH, rdmarun finds the real mpirun ($real), not itself"

run env PATH=$BUILD/wrappers "$BUILD/wrappers/mpirun" $MPIRUN_ROOT -np 1 ./prog
check "a wrapper with no real mpirun behind it says so (no loop)" 127 "mpirun not found on PATH"

done_testing
