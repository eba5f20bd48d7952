# Host side of the Soft-RoCE testbed: find the kernel, build the initramfs,
# prepare a share for one guest. Sourced by the tests/vm/*.sh TAP scripts.
VM_DIR=$RDMARUN_SRCDIR/tests/vm
VM_BUILD=$RDMARUN_BUILDDIR/tests/vm

# Skip only where qemu cannot run at all; a missing kernel or module is a
# setup error (scripts/setup-debian.sh installs them).
vm_require() {
    command -v qemu-system-x86_64 >/dev/null ||
        { echo "1..0 # SKIP qemu-system-x86_64 is not installed"; exit 0; }
    VM_KVER=
    for k in $(ls -v /boot/vmlinuz-* 2>/dev/null | sort -rV); do
        v=${k#/boot/vmlinuz-}
        if modinfo -k "$v" rdma_rxe >/dev/null 2>&1; then VM_KVER=$v; break; fi
    done
    if [ -z "$VM_KVER" ]; then
        echo "1..1"
        echo "not ok 1 - no installed kernel with rdma_rxe (install linux-image-amd64)"
        exit 1
    fi
    [ -r "/boot/vmlinuz-$VM_KVER" ] || {
        echo "1..1"; echo "not ok 1 - /boot/vmlinuz-$VM_KVER is not readable"; exit 1; }
    export VM_KERNEL=/boot/vmlinuz-$VM_KVER
    export VM_INITRD=$VM_BUILD/initramfs-$VM_KVER.cpio.gz
    mkdir -p "$VM_BUILD"
    if [ ! -s "$VM_INITRD" ] || [ "$VM_DIR/init" -nt "$VM_INITRD" ] ||
        [ "$VM_DIR/build-initramfs.sh" -nt "$VM_INITRD" ]; then
        "$VM_DIR/build-initramfs.sh" "$VM_INITRD" "$VM_KVER" ||
            { echo "1..1"; echo "not ok 1 - building the initramfs failed"; exit 1; }
    fi
}

# vm_share NAME: a fresh writable folder the guest sees at the same path,
# with the environment the guest's tests need.
vm_share() {
    d=$VM_BUILD/share-$1
    rm -rf "$d"
    mkdir -p "$d"
    cat >"$d/env.sh" <<ENV
RDMARUN='$RDMARUN'; export RDMARUN
RDMARUN_SRCDIR='$RDMARUN_SRCDIR'; export RDMARUN_SRCDIR
RDMARUN_BUILDDIR='$RDMARUN_BUILDDIR'; export RDMARUN_BUILDDIR
RDMARUN_PROFILE_PATH='$RDMARUN_PROFILE_PATH'; export RDMARUN_PROFILE_PATH
ENV
    echo "$d"
}

# vm_run SHARE SCRIPT [ARGS]: boot, run, then pass the guest's TAP through.
vm_run() {
    share=$1
    shift
    t0=$(date +%s)
    "$VM_DIR/boot.sh" "$share" "$@"
    status=$?
    cat "$share/tap.txt" 2>/dev/null
    echo "# guest wall time: $(($(date +%s) - t0)) s, exit status $status"
    if ! grep -q '^1\.\.' "$share/tap.txt" 2>/dev/null; then
        echo "not ok 1 - the guest produced no TAP plan"
        echo "1..1"
        tail -n 30 "$share"/console-*.log | sed 's/^/#   /'
        return 1
    fi
    return $status
}
