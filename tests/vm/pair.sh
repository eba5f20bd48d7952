#!/bin/bash
# The Soft-RoCE VM suite, two nodes: two guests joined by a qemu socket link
# (a TCP stream on the host's loopback), rxe on each, and an Open MPI job with
# one rank per guest launched by rdmarun over ssh.
. "$RDMARUN_SRCDIR/tests/vm/lib.sh"
vm_require
command -v /usr/sbin/sshd >/dev/null && command -v ssh-keygen >/dev/null ||
    { echo "1..1"; echo "not ok 1 - openssh-server and openssh-client are needed"; exit 1; }
share=$(vm_share pair)
ssh-keygen -q -t ed25519 -N '' -f "$share/hostkey"
ssh-keygen -q -t ed25519 -N '' -f "$share/id"
port=$((20000 + $$ % 20000))
export RDMARUN_VM_MEM=1024 RDMARUN_VM_SMP=1
RDMARUN_VM_NAME=rxe-guest-a RDMARUN_VM_IP=192.168.77.1/24 RDMARUN_VM_MAC=52:54:00:77:00:01 \
    RDMARUN_VM_NETDEV="socket,id=n0,listen=127.0.0.1:$port" \
    "$VM_DIR/boot.sh" "$share" "$VM_DIR/guest/pair.sh" a &
a=$!
sleep 2   # the listening side first
RDMARUN_VM_NAME=rxe-guest-b RDMARUN_VM_IP=192.168.77.2/24 RDMARUN_VM_MAC=52:54:00:77:00:02 \
    RDMARUN_VM_NETDEV="socket,id=n0,connect=127.0.0.1:$port" \
    "$VM_DIR/boot.sh" "$share" "$VM_DIR/guest/pair.sh" b
b=$?
wait $a
status=$?
cat "$share/tap.txt" 2>/dev/null || { echo "not ok 1 - node a produced no TAP"; echo "1..1"; }
echo "# node b's log:"; sed 's/^/#   /' "$share/b.log" 2>/dev/null | tail -20
[ $b = 0 ] || echo "# node b exited $b"
exit $status
