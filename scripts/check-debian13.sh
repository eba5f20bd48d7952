#!/bin/sh
# make check-debian13: the version matrix's second stack. Builds rdmarun
# inside the Debian 13 root (scripts/debian13-root.sh) with that root's
# compiler and libraries, from a copy of this tree, and runs make check, the
# single- and two-guest VM suites (the guest boots trixie's kernel with the
# root as its root) and the Slurm suite there. Needs root.
#   scripts/check-debian13.sh SRCDIR [COMMAND...]
# With a COMMAND, it runs that in the copied, built tree instead of the
# suites, e.g. 'make check TESTS=tests/cli.sh'.
set -u
src=$(cd "${1:?srcdir}" && pwd)
shift
root=$("$src/scripts/debian13-root.sh" | tail -1) || exit 1
work=/work/rdmarun
# A fresh copy of the tree: what git tracks and what it would track, not the
# other stack's build products. (A build kept from an earlier copy would go
# stale: copied sources keep their times, older than its objects.)
rm -rf "${root:?}$work"
mkdir -p "$root$work"
if git -C "$src" rev-parse >/dev/null 2>&1; then
    # One tar reads the whole list (xargs would split a long one into
    # several archives, and tar xf stops at the first one's end).
    (cd "$src" && git ls-files -co --exclude-standard -z | tar cf - --null -T -) | tar xf - -C "$root$work"
else
    (cd "$src" && tar cf - --exclude='*.o' --exclude=autom4te.cache .) | tar xf - -C "$root$work"
fi
cat >"$root$work/.matrix.sh" <<'IN'
set -u
cd /work/rdmarun
echo "debian13: $(. /etc/os-release; echo "$PRETTY_NAME"), $(mpirun --version 2>&1 | head -1),"\
" $(ucx_info -v | sed -n 's/^# Library version: /UCX /p'), $(slurmd -V),"\
" hwloc $(hwloc-info --version | awk '{print $2}'), kernel $(ls /boot | sed -n 's/^vmlinuz-//p' | tail -1)"
status=0
times=
rm -f test-suite-main.log test-suite-vm.log test-suite-slurm.log
# step LOG COMMAND...: unless an earlier one failed; its time; its test-suite.log as LOG.
step() {
    log=$1
    shift
    [ "$status" = 0 ] || return 0
    t0=$(date +%s)
    "$@" || status=$?
    times="$times$* $(($(date +%s) - t0))s; "
    [ "$log" = - ] || cp test-suite.log "$log" 2>/dev/null
}
step - autoreconf -fi
step - ./configure --enable-werror
step - make -j"$(nproc)"
step - make examples
if [ -n "${RDMARUN_MATRIX_COMMAND:-}" ]; then
    sh -c "$RDMARUN_MATRIX_COMMAND"
    exit $?
fi
step test-suite-main.log make -j"$(nproc)" check
step test-suite-vm.log make check-vm
step test-suite-slurm.log make check-slurm
echo "debian13: $times"
for log in test-suite-main.log test-suite-vm.log test-suite-slurm.log; do
    [ -f "$log" ] && echo "debian13: $log: $(grep -E '^# (PASS|FAIL|ERROR|SKIP)' "$log" | tr '\n' ' ')"
done
exit $status
IN
# Intel MPI's wheels carry their own runtime (its mpiexec.hydra, libfabric,
# a gcc-driving mpicc), so Debian 13 runs the very same Intel MPI: its
# virtual environment is bound in, read-only (the Python in it is not used).
impi=${RDMARUN_IMPI:-/opt/rdmarun-impi}
RDMARUN_CHROOT_RO=$impi "$src/scripts/chroot-run.sh" "$root" RDMARUN_IMPI="$impi" \
    RDMARUN_MATRIX_COMMAND="$*" /bin/sh "$work/.matrix.sh"
status=$?
# The logs, for whoever reads CI's output.
for log in test-suite-main.log test-suite-vm.log test-suite-slurm.log; do
    [ -f "$root$work/$log" ] && cp "$root$work/$log" "$src/debian13-$log"
done
exit $status
