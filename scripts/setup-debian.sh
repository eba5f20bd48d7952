#!/bin/sh
# Set up a fresh Debian 12 machine for rdmarun, build it, then either run the
# example job (run) or the whole test suite (check). Installs only what is
# missing; needs root (or sudo) for that.
#   scripts/setup-debian.sh run     # build, then a 2-rank MPI job through rdmarun
#   scripts/setup-debian.sh check   # build, then make check, check-vm, check-slurm,
#                                   # distcheck with sanitizers, check-valgrind, the
#                                   # benchmarks in short mode, fuzz,
#                                   # check, check-vm, check-slurm on Debian 13,
#                                   # and the packages (.deb on both, RPM)
set -eu
mode=${1:-run}
case $mode in run | check) ;; *) echo "usage: $0 run|check" >&2; exit 64 ;; esac
cd "$(dirname "$0")/.."

# Build tools, the libraries rdmarun links (hwloc, libibverbs, numa, inih,
# ucx, json-c, pmix, libelf), Open MPI to launch with, MPICH beside it (its
# mpirun alternative ranks below Open MPI's, which stays mpirun), and what the tests use: python3, and
# for the Soft-RoCE VM suite qemu, Debian's kernel (it has rdma_rxe),
# busybox-static for the guest's initramfs and the RDMA tools; gnuplot for
# compare's plots; Slurm and munge for the Slurm suite and the SPANK plugin;
# debhelper, lintian and rpm to build and check the packages; python3-torch
# for a real torchrun under --launcher exec, strace to see its workers' writes;
# python3-venv for Intel MPI's wheels (below); python3-prometheus-client, the
# Prometheus project's own parser, to read check --prometheus's file.
# libfabric-bin: fi_pingpong and fi_info for the libfabric suite.
packages="build-essential autoconf automake libtool pkg-config
  libhwloc-dev hwloc libibverbs-dev ibverbs-providers libnuma-dev libinih-dev
  libucx-dev ucx-utils libjson-c-dev libpmix-dev libelf-dev openmpi-bin libopenmpi-dev python3
  mpich libmpich-dev
  qemu-system-x86 linux-image-amd64 busybox-static kmod cpio rdma-core ibverbs-utils
  perftest libfabric-bin libfabric-dev iproute2 openssh-server openssh-client clang libclang-rt-14-dev valgrind
  gnuplot-nox slurm-wlm slurm-client munge libslurm-dev mmdebstrap lmod bash-completion zsh
  debhelper lintian rpm python3-torch strace python3-venv python3-prometheus-client
  openfoam openfoam-examples lammps"
missing=
for p in $packages; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
        missing="$missing $p"
done
if [ -n "$missing" ]; then
    echo "setup: installing:$missing"
    sudo=
    [ "$(id -u)" = 0 ] || sudo=sudo
    $sudo apt-get update -q
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends $missing
fi

# MPIs for the suite from PyPI, each in a virtual environment that the
# tests find by its variable: Intel MPI from Intel's own wheels (impi-rt:
# the runtime with its mpiexec.hydra and libfabric; impi-devel: mpicc;
# 2021.18.1, as 2021.19 needs a libfabric wheel PyPI does not carry) for
# tests/integration/impi.sh, MPICH 5.0 (ch4:ucx and ch4:ofi, its own
# Hydra and libmpi.so.12) for tests/integration/mpich5.sh, and UCX 1.22
# (RAPIDS' libucx wheel: its libraries and ucx_perftest) for the newest
# UCX's report lines in tests/integration/exec.sh. Without PyPI those tests
# skip, saying why; with RDMARUN_REQUIRE_PYPI=1 (.ci/run: CI reaches PyPI) a
# wheel that does not install, or a suite without it, fails.
# pypi_venv VAR DEFAULT_NAME MARKER PACKAGES...: DEFAULT_NAME under /opt
# (root) or ~/.cache, unless VAR names a folder; installed unless MARKER (a
# glob in it) is there; VAR is exported.
pypi_venv() {
    _var=$1 _name=$2 _marker=$3
    shift 3
    eval "_dir=\${$_var:-}"
    if [ -z "$_dir" ]; then
        _dir=/opt/$_name
        [ "$(id -u)" = 0 ] || _dir=$HOME/.cache/$_name
    fi
    # shellcheck disable=SC2086
    if ! ls $_dir/$_marker >/dev/null 2>&1; then
        echo "setup: installing $* from PyPI into $_dir"
        { python3 -m venv "$_dir" && "$_dir/bin/pip" install -q "$@"; } ||
            { rm -rf "$_dir"
              if [ "${RDMARUN_REQUIRE_PYPI:-}" = 1 ]; then
                  echo "setup: $* not installed from PyPI, which RDMARUN_REQUIRE_PYPI=1 (CI) says is reachable" >&2
                  exit 1
              fi
              echo "setup: $* not installed (PyPI not reachable?): their tests will skip"; }
    fi
    eval "$_var=\$_dir; export $_var"
}
if [ "$mode" = check ]; then
    pypi_venv RDMARUN_IMPI rdmarun-impi bin/mpiexec.hydra impi-rt==2021.18.1 impi-devel==2021.18.1
    pypi_venv RDMARUN_MPICH5 rdmarun-mpich5 bin/mpiexec.hydra mpich==5.0.2
    pypi_venv RDMARUN_UCX122 rdmarun-ucx122 'lib/python3*/site-packages/libucx/bin/ucx_perftest' \
        libucx-cu12==1.22.0
fi

[ -x configure ] || autoreconf -fi
[ -f Makefile ] || ./configure --enable-werror
make -j"$(nproc)"
make examples

# Open MPI refuses to run as root unless told; CI and containers run as root.
root=
[ "$(id -u)" = 0 ] && root=--allow-run-as-root
export RDMARUN_PROFILE_PATH="$PWD/profiles"

if [ "$mode" = run ]; then
    exec ./rdmarun $root -np 2 examples/mpi_hello
fi

rm -f test-suite-main.log test-suite-vm.log test-suite-slurm.log test-suite-packages.log
status=0
times=
table=
run_t0=$(date +%s)
# step NAME LOG COMMAND...: run it unless an earlier step failed, note its
# time and its five slowest test scripts (from the '# took' line each
# writes in its log), and keep its test-suite.log as LOG (- for none).
step() {
    _name=$1 _log=$2
    shift 2
    [ "$status" = 0 ] || return 0
    _t0=$(date +%s)
    touch .step-start
    "$@" || status=$?
    _t=$(($(date +%s) - _t0))
    times="$times$_name ${_t}s; "
    table="$table$(printf '%-24s %6ss  %s' "$_name" "$_t" "$([ "$status" = 0 ] && echo ok || echo "failed ($status)")")
"
    echo "setup: $_name took ${_t}s (status $status)"
    _slow=$(find . -name '*.log' ! -name '*test-suite*' -newer .step-start -exec grep -H '^# took [0-9]*s$' {} + 2>/dev/null |
        sed -E 's|^\./(.*)\.log:# took ([0-9]+)s$|\2 \1|' | sort -rn | head -5 |
        awk '{printf "%s%s %ss", (NR > 1 ? ", " : ""), $2, $1}')
    [ -z "$_slow" ] || echo "setup: $_name, slowest: $_slow"
    [ "$_log" = - ] || cp test-suite.log "$_log" 2>/dev/null || true
}
echo "setup: this stack: $(. /etc/os-release; echo "$PRETTY_NAME"), $(mpirun --version 2>&1 | head -1)," \
    "UCX $(ucx_info -v | sed -nE 's/^# (Library version:|Version) ([0-9.]+).*/\2/p' | head -1)," \
    "$(slurmd -V 2>/dev/null || /usr/sbin/slurmd -V 2>/dev/null), hwloc $(hwloc-info --version | awk '{print $2}')"
# make check and distcheck run a test script a core (the scripts' process
# checks see their own processes only); the VM suites run one guest pair.
step "make check" test-suite-main.log make -j"$(nproc)" check
# check-vm's guests also measure the VM benchmarks' figures (RDMARUN_VM_BENCH),
# which make bench then prints beside their targets (BENCH_VM_SHARES): each
# guest boots once.
step "check-vm" test-suite-vm.log env RDMARUN_VM_BENCH=1 BENCH_SHORT=1 make check-vm
step "check-slurm" test-suite-slurm.log make check-slurm
# The distribution, built and tested again with ASan and UBSan.
step "distcheck (sanitizers)" - make -j"$(nproc)" distcheck DISTCHECK_CONFIGURE_FLAGS=--enable-sanitizers
step "check-valgrind" - make check-valgrind
step "benchmarks (short)" - make bench BENCH_VM_SHARES="$PWD/tests/vm"
# Fuzzing here is a short pass: each target replays its seed corpus and the
# regression inputs, then looks for new inputs for FUZZ_SECONDS (10); the long
# campaign is make fuzz-long (10 minutes a target).
step "fuzz" - make fuzz FUZZ_SECONDS="${FUZZ_SECONDS:-10}"
# The second stack: Debian 13 (Open MPI 5, UCX 1.18, Slurm 24.11) in a root made
# from Debian's packages; make check, check-vm and check-slurm inside it.
rm -f debian13-test-suite-*.log
step "check-debian13" - make check-debian13
# The .deb packages built on both stacks and installed in clean roots; the RPM.
step "check-packages" test-suite-packages.log make check-packages
echo "setup: times: $times"
# Each suite's time, as a table, and the whole run's.
printf 'setup: %-24s %7s  %s\n' suite time status
printf '%s' "$table" | sed 's/^/setup: /'
printf 'setup: %-24s %6ss\n' "all" "$(($(date +%s) - run_t0))"
# One closing line for whoever reads the log: the totals of make check,
# make check-vm and make check-slurm, on both stacks.
pass=0 fail=0 skip=0
for log in test-suite-main.log test-suite-vm.log test-suite-slurm.log \
    debian13-test-suite-main.log debian13-test-suite-vm.log debian13-test-suite-slurm.log \
    test-suite-packages.log; do
    [ -f "$log" ] || continue
    p=$(sed -n 's/^# PASS: *//p' "$log"); f=$(sed -n 's/^# FAIL: *//p' "$log")
    e=$(sed -n 's/^# ERROR: *//p' "$log"); s=$(sed -n 's/^# SKIP: *//p' "$log")
    pass=$((pass + ${p:-0})); fail=$((fail + ${f:-0} + ${e:-0})); skip=$((skip + ${s:-0}))
done
echo "$pass passed, $fail failed, $skip skipped"
exit "$status"
