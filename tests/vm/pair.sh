#!/bin/bash
# The Soft-RoCE VM suite, two nodes: two guests joined by a qemu socket link
# (a TCP stream on the host's loopback), rxe on each, and an Open MPI job with
# one rank per guest launched by rdmarun over ssh.
. "$RDMARUN_SRCDIR/tests/vm/lib.sh"
vm_require
share=$(vm_share pair)
# the guests run past the boot script's default 600 s when a step waits out its limit
RDMARUN_VM_TIMEOUT=${RDMARUN_VM_TIMEOUT:-780} vm_pair "$share" "$VM_DIR/guest/pair.sh"
status=$? b=$VM_PAIR_B
cat "$share/tap.txt" 2>/dev/null || { echo "not ok 1 - node a produced no TAP"; echo "1..1"; }
echo "# node b's log:"; sed 's/^/#   /' "$share/b.log" 2>/dev/null | tail -20
[ $b = 0 ] || echo "# node b exited $b"
exit $status
