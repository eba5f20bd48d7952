#!/bin/bash
# Boot one Soft-RoCE guest under qemu (TCG), run a script inside, bring back
# its TAP output and exit status through a writable share, power off. A guest
# that does not finish in time is killed and its console shown.
#   boot.sh SHARE_DIR GUEST_SCRIPT [ARG,ARG...]
# Environment: RDMARUN_VM_TIMEOUT (s, default 600, times RDMARUN_TEST_SLOWDOWN), RDMARUN_VM_MEM (MiB, 2048),
# RDMARUN_VM_SMP (2), RDMARUN_VM_NETDEV (qemu -netdev, default user),
# RDMARUN_VM_MAC, RDMARUN_VM_NAME, RDMARUN_VM_IP (guest address/prefix),
# RDMARUN_VM_CONSOLE (qemu -serial; default a file in the share),
# RDMARUN_VM_NUMA (NUMA nodes, each with its share of CPUs and memory; default 1).
set -uo pipefail
share=$(cd "${1:?share dir}" && pwd)
script=${2:?guest script}
args=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../wait.sh"
name=${RDMARUN_VM_NAME:-rxe-guest}
src=$(cd "${RDMARUN_SRCDIR:?}" && pwd -P)
build=$(cd "${RDMARUN_BUILDDIR:?}" && pwd -P)
# The guest sees the host's root, but mounts tmpfs on /tmp, /root and /run:
# the source and build trees are shared again on their own.
trees=(-virtfs "local,path=$src,mount_tag=src,security_model=none,readonly=on,multidevs=remap")
build_arg=
if [ "$build" != "$src" ]; then
    trees+=(-virtfs "local,path=$build,mount_tag=build,security_model=none,readonly=on,multidevs=remap")
    build_arg="rr_build=$build"
fi
# A guest with several NUMA nodes (for placement across them): a CPU and a
# memory backend each, and an ACPI HMAT (QEMU's hmat-lb, qemu-options.hx)
# that gives each node's memory a latency and bandwidth from each node's
# CPUs: RDMARUN_VM_HMAT_MBS (MB/s) from its own, half that from the others,
# as a firmware does; the kernel publishes them in
# /sys/devices/system/node/nodeN/access0/initiators/.
numa=()
nodes=${RDMARUN_VM_NUMA:-1}
if [ "$nodes" -gt 1 ]; then
    numa+=(-machine hmat=on)
    for ((i = 0; i < nodes; i++)); do
        numa+=(-object "memory-backend-ram,id=mem$i,size=$((${RDMARUN_VM_MEM:-2048} / nodes))M"
               -numa "node,nodeid=$i,cpus=$((i * ${RDMARUN_VM_SMP:-2} / nodes))-$(((i + 1) * ${RDMARUN_VM_SMP:-2} / nodes - 1)),memdev=mem$i")
    done
    mbs=${RDMARUN_VM_HMAT_MBS:-12800}
    for ((i = 0; i < nodes; i++)); do
        for ((t = 0; t < nodes; t++)); do
            near=$([ $i = $t ] && echo 1 || echo 2)
            numa+=(-numa "hmat-lb,initiator=$i,target=$t,hierarchy=memory,data-type=access-latency,latency=$((90 * near))"
                   -numa "hmat-lb,initiator=$i,target=$t,hierarchy=memory,data-type=access-bandwidth,bandwidth=$((mbs / near))M")
        done
    done
fi
console=$share/console-$name.log
rm -f "$share/exit-status-$name"
timeout --foreground -k 5 "$(scaled "${RDMARUN_VM_TIMEOUT:-600}")" qemu-system-x86_64 \
    -accel tcg,thread=multi -cpu max -smp "${RDMARUN_VM_SMP:-2}" -m "${RDMARUN_VM_MEM:-2048}" \
    "${numa[@]}" -kernel "$VM_KERNEL" -initrd "$VM_INITRD" \
    -append "console=ttyS0 loglevel=4 panic=-1 rr_script=$script rr_share=$share rr_src=$src $build_arg rr_args=$args GUEST_NAME=$name GUEST_IP=${RDMARUN_VM_IP:-10.0.2.15/24}" \
    -display none -serial "${RDMARUN_VM_CONSOLE:-file:$console}" -monitor none -no-reboot \
    -virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap \
    "${trees[@]}" \
    -virtfs "local,path=$share,mount_tag=share,security_model=none,multidevs=remap" \
    -netdev "${RDMARUN_VM_NETDEV:-user,id=n0}" \
    -device "virtio-net-pci,netdev=n0,mac=${RDMARUN_VM_MAC:-52:54:00:12:34:01}" </dev/null
qrc=$?
if [ ! -f "$share/exit-status-$name" ]; then
    echo "# guest $name did not finish (qemu status $qrc$([ $qrc = 124 ] && echo ': timed out')); console:"
    tail -n 40 "$console" | sed 's/^/#   /'
    exit 1
fi
exit "$(cat "$share/exit-status-$name")"
