#!/bin/sh
# A newer MPICH beside Debian's (issue 37): MPICH 5.0.2 from PyPI (the
# `mpich` wheel, ch4:ucx and ch4:ofi, its own Hydra, libmpi.so.12), which
# scripts/setup-debian.sh puts in a virtual environment (RDMARUN_MPICH5,
# default /opt/rdmarun-mpich5). libmpi.so.12 without Intel's impi_info
# beside it is MPICH's; its own mpiexec.hydra starts it, not Debian's; on
# ch4:ofi its MPIR_CVAR_DEBUG_SUMMARY report (libfabric provider) gives
# the verdict, on ch4:ucx UCX's lines, as with Debian's MPICH.
. "${RDMARUN_SRCDIR:-.}/tests/lib.sh"
M5=${RDMARUN_MPICH5:-/opt/rdmarun-mpich5}
if [ ! -x "$M5/bin/mpiexec.hydra" ] || [ ! -x "$M5/bin/mpicc" ]; then
    [ "${RDMARUN_REQUIRE_PYPI:-}" = 1 ] && { echo "Bail out! its wheel is missing where PyPI is reachable (RDMARUN_REQUIRE_PYPI=1)"; exit 1; }
    echo "1..0 # SKIP MPICH 5 is not installed in $M5 (scripts/setup-debian.sh check installs the mpich 5.0.2 wheel from PyPI; PyPI may be out of reach)"
    exit 0
fi
"$M5/bin/mpicc" -O2 -o "$TMP/mpi_hello" "$SRC/examples/mpi_hello.c" || {
    echo "Bail out! MPICH 5's mpicc cannot build examples/mpi_hello.c"; exit 1; }
HELLO=$TMP/mpi_hello
MPIEXEC=$(realpath "$M5/bin/mpiexec.hydra")

# Independent of rdmarun: MPICH's own word for its version and devices, and
# what the program names.
"$M5/bin/mpichversion" | grep -q 'MPICH Version: *5\.' &&
    "$M5/bin/mpichversion" | grep -q 'MPICH Device: *ch4:ucx ofi' &&
    readelf -d "$HELLO" | grep -q 'NEEDED.*\[libmpi\.so\.12\]' && [ ! -e "$M5/bin/impi_info" ]
ok $? "mpichversion: MPICH 5 with ch4:ucx and ofi; the program names libmpi.so.12, no impi_info"

run "$RDMARUN" -p shm --dry-run -np 2 "$HELLO"
check "libmpi.so.12 without Intel's tool is MPICH's, started by its own Hydra" 0 \
    "$MPIEXEC -prepend-pattern" "stack: MPICH 5." "(mpich: $HELLO links libmpi.so.12)"

# ch4:ucx, the wheel's default here: the same UCX reports as Debian's MPICH.
run "$RDMARUN" -p shm -np 2 "$HELLO"
check "MPICH 5 on ch4:ucx: local, 2 processes on shared memory from UCX's lines" 0 \
    "rank 1 of 2" "local only: 2 processes on shared memory"
# ch4:ofi on libfabric's tcp provider: MPICH's own summary names it.
run "$RDMARUN" -p tcp -H localhost -x MPIR_CVAR_CH4_NETMOD=ofi -x MPIR_CVAR_DEBUG_SUMMARY=1 \
    -x FI_PROVIDER=tcp -np 2 "$HELLO"
check "MPICH 5 on ch4:ofi, tcp provider, one host: local, MPICH's summary names the provider" 0 \
    "rank 1 of 2" "all on one node as the job's command line or allocation says" \
    "mpich's libfabric provider tcp is what would carry traffic between nodes"

# ch4:ofi on libfabric's shm provider, local expected, strict (issue 49):
# as intended, from MPICH's own summary.
run "$RDMARUN" -p tcp -H localhost -x MPIR_CVAR_CH4_NETMOD=ofi -x MPIR_CVAR_DEBUG_SUMMARY=1 \
    -x FI_PROVIDER=shm --set profile.expect=local --verify strict -np 2 "$HELLO"
check_without "MPICH 5 on ch4:ofi, shm provider, local expected, strict: as intended" 0 \
    "the profile expects" "rank 1 of 2" "mpich used its libfabric provider shm"
# The fabric profiles with MPICH 5 on a node without their fabric: the
# named refusal before Hydra starts a rank.
for p in efa slingshot opx; do
    run "$RDMARUN" -p "$p" --verify strict -np 2 "$HELLO"
    check_without "MPICH 5, -p $p --verify strict here: refused (69), no rank started" 69 \
        "rank 0 of 2" "no ACTIVE" "provider"
done

# [mpich] names checked by MPICH 5's own MPI_T.
printf '[profile]\ninherit = shm\n[mpich]\nCH4_NETMODD = ofi\n' >"$TMP/typo.ini"
run "$RDMARUN" -p "$TMP/typo.ini" -np 2 "$HELLO"
check "a control variable MPICH 5 lacks: refused, with the one it has" 78 \
    "MPICH ($(realpath "$M5/lib/libmpi.so.12")) has no control variable MPIR_CVAR_CH4_NETMODD" \
    "(did you mean MPIR_CVAR_CH4_NETMOD?)"
done_testing
