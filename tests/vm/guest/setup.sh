# In the guest: Soft-RoCE on the virtio NIC. Sourced by guest scripts (after
# tests/lib.sh, or with their own ok). Sets RXE_GID (the RoCE v2 IPv4-mapped GID index).
# Once a boot: a second script in the same guest (single.sh runs perf.sh for
# check-vm's benchmark figures) finds the address and rxe0 there.
ip link set eth0 up
ip -4 -o addr show dev eth0 | grep -q " ${GUEST_IP:-10.0.2.15/24} " ||
    ip addr add "${GUEST_IP:-10.0.2.15/24}" dev eth0
[ -e /sys/class/infiniband/rxe0 ] || rdma link add rxe0 type rxe netdev eth0
. "$RDMARUN_SRCDIR/tests/wait.sh"
RXE_GID=
roce_v2_gid() {
    RXE_GID=   # (set again each time: a wait for the GID after it was gone)
    for g in /sys/class/infiniband/rxe0/ports/1/gids/*; do
        case $(cat "$g" 2>/dev/null) in 0000:0000:0000:0000:0000:ffff:*)
            n=${g##*/}
            [ "$(cat /sys/class/infiniband/rxe0/ports/1/gid_attrs/types/$n 2>/dev/null)" = "RoCE v2" ] &&
                RXE_GID=$n ;;
        esac
    done
    [ -n "$RXE_GID" ]
}
within 5 roce_v2_gid; ok $? "rxe0 is up on eth0 with a RoCE v2 IPv4 GID (index $RXE_GID)"

# rxe0's hardware counters, "name value" per line.
rxe_counters() {
    for f in /sys/class/infiniband/rxe0/ports/1/hw_counters/*; do
        echo "${f##*/} $(cat "$f")"
    done
}
counter_delta() {  # BEFORE AFTER NAME
    b=$(awk -v n="$3" '$1 == n {print $2}' "$1")
    a=$(awk -v n="$3" '$1 == n {print $2}' "$2")
    echo $((a - b))
}
# Sample the kernel's QP table while a job runs: rdma res show qp lines.
# qp_sampler OUTFILE: rdma res samples until qp_sampler_stop; a stop
# request lets the sample in flight finish (a kill could cut the first one,
# and a job shorter than one rdma res under TCG would leave an empty file).
qp_sampler() {  # OUTFILE
    while :; do
        rdma res show qp 2>/dev/null
        echo "--"
        [ -e "$1.stop" ] && break
        sleep 0.3
    done >"$1"
}
qp_sampler_stop() {  # OUTFILE PID
    : >"$1.stop"
    wait "$2" 2>/dev/null
    rm -f "$1.stop"
}
