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

# A drop-in that is really drop-in: what launches nothing goes to the real
# launcher, as flavour detection (CMake's FindMPI, job scripts) expects.
for args in "--version" "-V" "--help" "--help mapping"; do
    # shellcheck disable=SC2086
    want=$("$real" $args 2>&1)
    # shellcheck disable=SC2086
    got=$(PATH=$BUILD/wrappers:$PATH mpirun $args 2>&1)
    [ "$got" = "$want" ] && [ -n "$want" ]; ok $? "mpirun $args through the wrapper is the real mpirun's answer"
done
PATH=$BUILD/wrappers:$PATH run mpirun --version
case $out in *"Open MPI"*|*"Open RTE"*|*"prte"*|*"PRRTE"*) r=0;; *) r=1;; esac
ok $r "mpirun --version names Open MPI, not rdmarun: $(printf '%s' "$out" | head -n 1)"
for name in mpiexec orterun prterun; do
    realn=$(PATH=$(printf '%s' "$PATH" | sed "s|$BUILD/wrappers:||") command -v $name) || {
        skip "$name through the wrapper" "no real $name here"; continue; }
    [ -L "$BUILD/wrappers/$name" ]; ok $? "the wrapper is installed as $name too"
    want=$("$realn" --version 2>&1)
    got=$(PATH=$BUILD/wrappers:$PATH $name --version 2>&1)
    [ "$got" = "$want" ]; ok $? "$name --version through the wrapper is the real $name's"
    printf '#!/bin/sh\n%s %s -np 2 "%s/examples/mpi_hello"\n' "$name" "$MPIRUN_ROOT" "$BUILD" >"$TMP/job-$name.sh"
    chmod +x "$TMP/job-$name.sh"
    PATH=$BUILD/wrappers:$PATH run "$TMP/job-$name.sh"
    check "a job script calling $name goes through rdmarun" 0 "rdmarun: profile auto" "rank 1 of 2" "2 processes"
done

# MPICH's Hydra under its own names: what launches nothing reaches the real
# one; a job script's mpiexec.hydra runs through rdmarun, which starts
# Hydra; a program whose libraries name no MPI (a script) is MPICH's, as
# the name says.
if command -v mpiexec.hydra >/dev/null && [ -x "$BUILD/examples/mpich/mpi_hello" ]; then
    for name in mpiexec.hydra mpiexec.mpich; do
        realn=$(PATH=$(printf '%s' "$PATH" | sed "s|$BUILD/wrappers:||") command -v $name)
        want=$("$realn" --version 2>&1)
        got=$(PATH=$BUILD/wrappers:$PATH $name --version 2>&1)
        [ -L "$BUILD/wrappers/$name" ] && [ "$got" = "$want" ] && [ -n "$want" ]
        ok $? "$name --version through the wrapper is the real $name's (Hydra's)"
    done
    printf '#!/bin/sh
mpiexec.hydra -n 2 "%s/examples/mpich/mpi_hello"
' "$BUILD" >"$TMP/job-hydra.sh"
    chmod +x "$TMP/job-hydra.sh"
    PATH=$BUILD/wrappers:$PATH run "$TMP/job-hydra.sh"
    check "a job script calling mpiexec.hydra goes through rdmarun and Hydra" 0 \
        "rdmarun: profile auto" "rank 1 of 2" "2 processes"
    PATH=$BUILD/wrappers:$PATH run mpiexec.hydra --dry-run -n 2 sh -c 'echo hi'
    first=$(printf '%s\n' "$out" | head -n 1)
    case $first in *mpiexec.hydra\ *) r=0 ;; *) r=1 ;; esac
    ok $r "a script under the mpiexec.hydra wrapper is planned for Hydra, as the name says ($first)"
    has "$out" "MPICH 4" && has "$out" "(mpich: rdmarun's drop-in mpiexec.hydra)"
    ok $? "and the plan says where MPICH came from"
else
    skip "mpiexec.hydra through the wrapper" "MPICH is not installed"
fi

# From the build tree, without RDMARUN or RDMARUN_PROFILE_PATH: the wrapper
# starts the build tree's rdmarun, which reads the source tree's profiles.
PATH=$BUILD/wrappers:$PATH run env -u RDMARUN -u RDMARUN_PROFILE_PATH "$TMP/job.sh"
check "a build tree's wrapper and rdmarun work before anything is installed" 0 \
    "rdmarun: profile auto" "rank 1 of 2"

run env -u RDMARUN_PROFILE_PATH "$BUILD/rdmarun" $MPIRUN_ROOT -np 2 "$BUILD/examples/mpi_hello"
check "README: the build tree's ./rdmarun -np 2 examples/mpi_hello before installing" 0 \
    "rdmarun: profile auto" "rank 1 of 2"
# (The source tree's path resolved: distcheck's is _build/sub/../..)
real_src=$(cd "$SRC" && pwd -P)
run env -u RDMARUN_PROFILE_PATH "$BUILD/rdmarun" profiles -v
check "an uninstalled rdmarun lists the source tree's profiles" 0 "$real_src/profiles/auto.ini"
check_without "and not /usr/local's installation" 0 "/usr/local/share/rdmarun" "$real_src/profiles/auto.ini"
check_without "and not /usr's installation" 0 "/usr/share/rdmarun" "$real_src/profiles/auto.ini"

done_testing
