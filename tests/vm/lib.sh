# Host side of the Soft-RoCE testbed: find the kernel, build the initramfs,
# prepare a share for one guest. Sourced by the tests/vm/*.sh TAP scripts.
VM_DIR=$RDMARUN_SRCDIR/tests/vm
VM_BUILD=$RDMARUN_BUILDDIR/tests/vm
. "$RDMARUN_SRCDIR/tests/wait.sh"

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
RDMARUN_TEST_SLOWDOWN='$RDMARUN_TEST_SLOWDOWN'; export RDMARUN_TEST_SLOWDOWN
RDMARUN_TAP_TIMES=1; export RDMARUN_TAP_TIMES
RDMARUN_VM_BENCH='${RDMARUN_VM_BENCH:-}'; export RDMARUN_VM_BENCH
BENCH_SHORT='${BENCH_SHORT:-}'; export BENCH_SHORT
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

# vm_pair SHARE SCRIPT: two guests joined by a qemu socket link (a TCP
# stream on the host's loopback), 1 vCPU and 1 GiB each, with ssh keys made
# for the test in SHARE; SCRIPT runs in both (argument a or b). Returns node
# a's exit status; VM_PAIR_B holds node b's.
vm_pair() {
    command -v /usr/sbin/sshd >/dev/null && command -v ssh-keygen >/dev/null ||
        { echo "1..1"; echo "not ok 1 - openssh-server and openssh-client are needed"; exit 1; }
    ssh-keygen -q -t ed25519 -N '' -f "$1/hostkey"
    ssh-keygen -q -t ed25519 -N '' -f "$1/id"
    _port=$((20000 + $$ % 20000))
    RDMARUN_VM_MEM=1024 RDMARUN_VM_SMP=1 RDMARUN_VM_NAME=rxe-guest-a \
        RDMARUN_VM_IP=192.168.77.1/24 RDMARUN_VM_MAC=52:54:00:77:00:01 \
        RDMARUN_VM_NETDEV="socket,id=n0,listen=127.0.0.1:$_port" \
        "$VM_DIR/boot.sh" "$1" "$2" a &
    _a=$!
    # the listening side first
    "$RDMARUN_SRCDIR/tests/listening.sh" "$_port" 30 >&2
    RDMARUN_VM_MEM=1024 RDMARUN_VM_SMP=1 RDMARUN_VM_NAME=rxe-guest-b \
        RDMARUN_VM_IP=192.168.77.2/24 RDMARUN_VM_MAC=52:54:00:77:00:02 \
        RDMARUN_VM_NETDEV="socket,id=n0,connect=127.0.0.1:$_port" \
        "$VM_DIR/boot.sh" "$1" "$2" b
    VM_PAIR_B=$?
    wait $_a
}
