#!/bin/sh
# Real Intel MPI jobs through rdmarun (issue 37): Intel's own wheels from
# PyPI (impi-rt 2021.18.1, impi-devel), which scripts/setup-debian.sh puts
# in a virtual environment (RDMARUN_IMPI, default /opt/rdmarun-impi). The
# examples are built here with Intel's mpicc. rdmarun reads the program's
# MPI from its libraries (libmpi.so.12, with Intel's impi_info beside the
# file the loader finds through the program's RUNPATH), starts Intel's own
# mpiexec.hydra, asks for I_MPI_DEBUG=6 and judges from Intel's report.
. "${RDMARUN_SRCDIR:-.}/tests/lib.sh"
IMPI=${RDMARUN_IMPI:-/opt/rdmarun-impi}
if [ ! -x "$IMPI/bin/mpiexec.hydra" ] || [ ! -x "$IMPI/bin/mpicc" ]; then
    [ "${RDMARUN_REQUIRE_PYPI:-}" = 1 ] && { echo "Bail out! its wheel is missing where PyPI is reachable (RDMARUN_REQUIRE_PYPI=1)"; exit 1; }
    echo "1..0 # SKIP Intel MPI is not installed in $IMPI (scripts/setup-debian.sh check installs impi-rt and impi-devel 2021.18.1 from PyPI; PyPI may be out of reach)"
    exit 0
fi
for p in mpi_hello mpi_exit; do
    I_MPI_ROOT=$IMPI "$IMPI/bin/mpicc" -O2 -o "$TMP/$p" "$SRC/examples/$p.c" || {
        echo "Bail out! Intel's mpicc cannot build examples/$p.c"; exit 1; }
done
HELLO=$TMP/mpi_hello EXIT=$TMP/mpi_exit
MPIEXEC=$(realpath "$IMPI/bin/mpiexec.hydra")

# Independent of rdmarun: what the program names, and where it is found.
readelf -d "$HELLO" | grep -q 'NEEDED.*\[libmpi\.so\.12\]' &&
    readelf -d "$HELLO" | grep -q "RUNPATH.*$IMPI/lib" && [ -x "$IMPI/bin/impi_info" ]
ok $? "readelf: the example names libmpi.so.12 and Intel's folder, impi_info beside it"

run "$RDMARUN" -p shm --dry-run --json -np 2 "$HELLO"
has "$out" '"mpi_family": "impi"'
ok $? "--json: stack.mpi_family impi"
run "$RDMARUN" -p shm --dry-run -np 2 "$HELLO"
check "started by Intel's own mpiexec.hydra, beside its library; I_MPI_DEBUG 6 asked" 0 \
    "$MPIEXEC -prepend-pattern" "-genv I_MPI_DEBUG 6" \
    "Intel MPI: Open MPI's MCA parameters"
run env PATH=/usr/bin:/bin "$RDMARUN" -p shm --dry-run -np 2 "$HELLO"
check "Intel's mpiexec whatever PATH says (MPICH's mpiexec.hydra may be first there)" 0 \
    "$MPIEXEC -prepend-pattern"

# Real jobs. One node: Intel MPI uses its shm fabric alone and says so at
# I_MPI_DEBUG 6; its report lines are rdmarun's (taken out, kept in mpi.log).
run "$RDMARUN" -p shm -np 2 "$HELLO"
check_without "a 2-rank Intel MPI job on one node: local, on Intel's shm fabric" 0 \
    "MPI startup()" "rank 0 of 2" "rank 1 of 2" "local only:" "of 2 ranks" \
    "impi used its shm fabric (a single node launch)"
dir=$(ls -td "$TMP"/rdmarun-evidence/*/ | head -1)
grep -q "Defaulting to shm fabric" "$dir/mpi.log" && grep -q "Intel(R) MPI Library, Version" "$dir/mpi.log"
ok $? "Intel MPI's report is kept in the evidence folder's mpi.log"
# Told to use libfabric's tcp provider and no shm (I_MPI_FABRICS=ofi): the
# ranks of one node talk over TCP, which is what the verdict says (the
# pinning table lists one host; 2021.18's NIC pinning table names no host).
# The same wheel names "tcp;ofi_rxm" on Debian 12 and "tcp" on Debian 13.
run "$RDMARUN" -p tcp -np 2 -genv I_MPI_FABRICS ofi -genv FI_PROVIDER tcp "$HELLO"
check "Intel MPI on libfabric's tcp provider, no shm, one node: local over TCP, the provider named" 0 \
    "rank 1 of 2" "within one node, over TCP (tcp" "not shared memory"
run "$RDMARUN" -p shm --dry-run -x I_MPI_DEBUG=2 -np 2 "$HELLO"
check_without "the job's own I_MPI_DEBUG=2 is kept, with what it costs" 0 "I_MPI_DEBUG 6" \
    "I_MPI_DEBUG=2 from the command line is kept: Intel MPI then prints no pinning table"
I_MPI_DEBUG=5 run "$RDMARUN" -p shm --dry-run -np 2 "$HELLO"
check_without "I_MPI_DEBUG=5 exported: rdmarun asks for no level of its own" 0 "I_MPI_DEBUG 6" \
    "$MPIEXEC -prepend-pattern"
I_MPI_DEBUG=5 run "$RDMARUN" -p shm -np 2 "$HELLO"
check "I_MPI_DEBUG=5 exported: Intel MPI's report is the job's, shown, and still read" 0 \
    "MPI startup(): Intel(R) MPI Library" "all on one node as the log says"

# The profile's [impi] values become I_MPI_*, their names checked against
# Intel's own impi_info (Intel ignores a name it lacks); [mpich] values too,
# against Intel's MPI_T (Intel MPI reads MPICH's control variables).
LD_LIBRARY_PATH=$IMPI/lib "$IMPI/bin/impi_info" -a | grep -qx 'I_MPI_PIN_DOMAIN *' &&
    ! LD_LIBRARY_PATH=$IMPI/lib "$IMPI/bin/impi_info" -e | grep -q 'I_MPI_PIN_DOMAN '
ok $? "impi_info: Intel MPI has I_MPI_PIN_DOMAIN and no I_MPI_PIN_DOMAN"
printf '[profile]\ninherit = shm\n[impi]\nFABRICS = shm\nPIN_DOMAN = core\n' >"$TMP/typo.ini"
run "$RDMARUN" -p "$TMP/typo.ini" -np 2 "$HELLO"
check "an [impi] variable Intel MPI lacks: refused before the job, with the one it has" 78 \
    "has no variable I_MPI_PIN_DOMAN (typo.ini:5): it would ignore it" \
    "(did you mean I_MPI_PIN_DOMAIN?)"
printf '[profile]\ninherit = shm\n[impi]\nFABRICS = shm\n' >"$TMP/shm.ini"
run "$RDMARUN" -p "$TMP/shm.ini" -np 2 "$HELLO"
check "[impi] FABRICS = shm reaches the ranks, and Intel's report of it is the verdict" 0 \
    "rank 1 of 2" "impi used its shm fabric (I_MPI_FABRICS=shm)"
run "$RDMARUN" -p "$TMP/shm.ini" --dry-run -np 2 "$SRC/examples/mpi_hello.c"
check "for another MPI's program, [impi] values are left out, said once" 0 \
    "Open MPI: Intel MPI's variables I_MPI_FABRICS=shm (shm.ini:4) do not apply: left out"

# Exit status and placement pass through Intel's Hydra.
run "$RDMARUN" -p shm -np 2 "$EXIT" 7
check "the Intel MPI program exits 7, rdmarun exits 7" 7
run "$RDMARUN" -p shm --bind-policy numa --report -np 2 "$HELLO"
check "placement under Intel's Hydra: each rank finds its local rank in MPI_LOCALRANKID" 0 \
    "rank 0 (local 0 of 2) on" "rank 1 (local 1 of 2) on" "[MPI_LOCALRANKID]"
! has "$out$err" "are not supported and will be ignored"
ok $? "no -bind-to for Intel's mpiexec.hydra, which refuses it with a warning in the job's output"
# Intel's ranks pin themselves inside the CPUs the helper gave them: one
# rank more than this node's cores (some share a core), each rank's pin in
# Intel's own table within the PUs the helper reported for that rank.
np=$(($(nproc) + 1))
run "$RDMARUN" -p shm --bind-policy numa --report -np $np "$HELLO"
log=$(printf '%s\n' "$err" | evidence_path)/mpi.log
printf '%s\n' "$err" >"$TMP/helper.txt"
python3 - "$log" "$np" "$TMP/helper.txt" <<'PY'
import re, sys
def pus(text):   # "0-2,5" -> {0, 1, 2, 5}
    out = set()
    for part in text.split(","):
        a, _, b = part.partition("-")
        out |= set(range(int(a), int(b or a) + 1))
    return out
helper = {int(m.group(1)): pus(m.group(2)) for m in
          re.finditer(r"rank (\d+) \(local \d+ of \d+\) on \S+: PUs ([0-9,-]+)",
                      open(sys.argv[3]).read())}
rows = open(sys.argv[1]).read().split("Pin cpu", 1)[1].splitlines()[1:]
intel = {}
for line in rows:
    m = re.search(r"MPI startup\(\):\s+(\d+)\s+\d+\s+\S+\s+\{([0-9,-]+)\}", line)
    if m:
        intel[int(m.group(1))] = pus(m.group(2))
n = int(sys.argv[2])
good = len(helper) == n and len(intel) == n and all(intel[r] <= helper[r] for r in range(n))
if not good:
    print("# helper's PUs %s, Intel's pins %s" % (helper, intel))
sys.exit(0 if good else 1)
PY
ok $? "Intel MPI pins each of $np ranks within the PUs the helper gave it (from hwloc, any core count)"
done_testing
