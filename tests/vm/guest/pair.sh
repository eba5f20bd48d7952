#!/bin/bash
# Runs inside each of two guests joined by a qemu socket link: node a
# launches a 2-rank job through rdmarun with one rank per node (mpirun over
# ssh, keys made for the test), node b serves. Argument: a or b.
# Output: TAP from node a in $RR_SHARE/tap.txt; node b's QP samples and
# counters in $RR_SHARE/b.*.
role=${1:?a or b}
. "$RR_SHARE/env.sh"
exec >"$RR_SHARE/$role.log" 2>&1
. "$RDMARUN_SRCDIR/tests/lib.sh"
[ "$role" = a ] && exec >"$RR_SHARE/tap.txt" 2>&1
. "$RDMARUN_SRCDIR/tests/vm/guest/setup.sh"
A=192.168.77.1 B=192.168.77.2
S=$RR_SHARE

# The job's working directory: node-local (tmpfs) on each node, the same path,
# nothing shared: every report must reach node a through mpirun.
JOB=/tmp/rdmarun-job
mkdir -p $JOB
ulimit -l unlimited   # as on a node set up for RDMA (the kernel's default is 8 MiB)

# sshd on both nodes, with the test's keys; root's home is a tmpfs.
mkdir -p /root/.ssh /run/sshd
cp "$S/id" /root/.ssh/id_ed25519
cp "$S/id.pub" /root/.ssh/authorized_keys
chmod 600 /root/.ssh/id_ed25519
cat >/root/.ssh/config <<CFG
Host *
    StrictHostKeyChecking no
    UserKnownHostsFile /dev/null
    LogLevel ERROR
CFG
/usr/sbin/sshd -o HostKey="$S/hostkey" -o PermitRootLogin=prohibit-password \
    -o UsePAM=no -o StrictModes=no -o PidFile=/run/sshd.pid
ok $? "sshd started on node $role"

rxe_counters >"$TMP/before"
qp_sampler "$TMP/qps" &
sampler=$!

if [ "$role" = b ]; then
    # Serve until node a is done (or 500 s).
    for i in $(seq 1 1000); do [ -f "$S/a-done" ] && break; sleep 0.5; done
else
    for i in $(seq 1 120); do busybox ping -c1 -W1 $B >/dev/null 2>&1 && break; sleep 0.5; done
    for i in $(seq 1 120); do ssh -o ConnectTimeout=2 $B true 2>/dev/null && break; sleep 0.5; done
    ssh $B true; ok $? "node a reaches node b over ssh"
    # Open MPI 4.1's runtime is kept on eth0; Open MPI 5's runs without the
    # option (the guests have no other interface for it to pick).
    # PRRTE also does not take this node's own address in -H for this node
    # (it knows it by name only: "not enough slots"), so it is named.
    oob= hosts="$(hostname),$B"
    [ "${OMPI_MAJOR:-4}" -ge 5 ] || oob="--mca oob_tcp_if_include eth0" hosts="$A,$B"
    cd $JOB
    # shellcheck disable=SC2086
    run timeout 300 "$RDMARUN" --allow-run-as-root -H "$hosts" -np 2 $oob \
        "$RDMARUN_BUILDDIR/examples/mpi_pingpong" 20 8 65536
    check "a 2-rank job, one rank per node, through rdmarun (auto profile)" 0 \
        "pingpong size=65536" "rdmarun: profile roce (chosen by auto)"
    ev=$(ls -d $JOB/rdmarun-evidence/*/ | head -1)
    ucx_peer_eps "$(cat "$ev/ucx.log")" | sed 's/^/# /'
    n=$(ucx_peer_eps "$(cat "$ev/ucx.log")" | grep -c 'tag(rc_verbs/rxe0:1')
    [ "$n" = 2 ]; ok $? "both ranks' endpoints to the other node send on rc_verbs/rxe0:1"
    grep -q '^\[[0-9.]*\] \[rxe-guest-b:' "$ev/ucx.log"
    ok $? "node b's rank's report reached node a's evidence directory, with no file system shared"
    [ -z "$(ssh $B ls $JOB)" ]; ok $? "and node b's working directory stays empty"
    has "$err" "rdmarun: RDMA verified: 2 processes, lanes rc_verbs/rxe0:1, no TCP lanes"
    ok $? "rdmarun's verdict across the two nodes is RDMA"
    # TCP between the nodes where RDMA is expected: the fallback rdmarun exists
    # to catch, between real nodes (UCX 1.14+ says inter-node here). The job
    # would run for minutes; strict stops it at its first endpoint on TCP.
    printf '[profile]\ninherit = tcp\nexpect = rdma\n' >"$TMP/wants-rdma.ini"
    run timeout 300 "$RDMARUN" --allow-run-as-root -p "$TMP/wants-rdma.ini" --verify strict \
        -H "$hosts" -np 2 $oob --evidence-dir "$TMP/evidence-tcp" \
        "$RDMARUN_BUILDDIR/examples/mpi_pingpong" 100000 8 1048576
    end=$(date +%s.%N)
    check "RDMA expected, TCP between the two nodes, verify strict: 80, the process, host and lane" 80 \
        "FALLBACK: process" " on rxe-guest-" "used tcp/eth0" "stopping the job"
    first=$(sed -n 's/^\[\([0-9.]*\)\] \[rxe-guest-a:.*cfg.*tcp\/.*/\1/p' "$TMP/evidence-tcp/ucx.log" | head -1)
    took=$(awk -v a="$end" -v b="${first:-0}" 'BEGIN { printf "%.2f", a - b }')
    [ -n "$first" ] && awk -v t="$took" 'BEGIN { exit !(t < 5) }'
    ok $? "stopped $took s after node a's first endpoint on TCP (under 5 s)"
    echo "# figures: strict stop $took s after the first TCP endpoint, two guests"
    touch "$S/a-done"
fi
kill $sampler
wait $sampler 2>/dev/null
rxe_counters >"$TMP/after"
grep -c "type RC state RTS.*comm mpi_pingpong" "$TMP/qps" >"$S/$role.rts"
counter_delta "$TMP/before" "$TMP/after" sent_pkts >"$S/$role.sent"
if [ "$role" = a ]; then
    for i in $(seq 1 120); do [ -f "$S/b.sent" ] && break; sleep 0.5; done
    for node in a b; do
        [ "$(cat "$S/$node.rts" 2>/dev/null || echo 0)" -gt 0 ]
        ok $? "node $node: the job's rank had RC QPs in RTS in rdma res"
        sent=$(cat "$S/$node.sent" 2>/dev/null || echo 0)
        [ "$sent" -gt 100 ]; ok $? "node $node: rxe0 sent $sent packets during the job"
    done
    done_testing
fi
