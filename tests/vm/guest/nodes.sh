#!/bin/bash
# Sourced first by the scripts that run inside each of two guests joined by a
# qemu socket link (guest/pair.sh, guest/path-bench.sh): the guest's RDMA
# setup and sshd with the test's keys on both; `serve` for node b, `reach_b`
# for node a. Argument: a or b. Node a's output goes to $RR_SHARE/tap.txt.
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

# Node b: serve until node a is done (or `scaled 680` s: pair.sh gives the
# guests 780).
serve() { within 680 test -f "$S/a-done"; }

# Node a: wait until node b answers over ssh; sets oob and hosts for mpirun.
# Open MPI 4.1's runtime is kept on eth0; Open MPI 5's runs without the
# option (the guests have no other interface for it to pick).
# PRRTE also does not take this node's own address in -H for this node
# (it knows it by name only: "not enough slots"), so it is named.
reach_b() {
    within 60 busybox ping -c1 -W1 $B >/dev/null 2>&1
    within 60 ssh -o ConnectTimeout=2 $B true 2>/dev/null
    ssh $B true; ok $? "node a reaches node b over ssh"
    oob= hosts="$(hostname),$B"
    [ "${OMPI_MAJOR:-4}" -ge 5 ] || oob="--mca oob_tcp_if_include eth0" hosts="$A,$B"
}

# path_bench (node a, after reach_b): the path test between the two nodes,
# launch included, BENCH_SHORT ? 3 : 5 times; the median wall time beside
# its target into $RR_SHARE/bench.txt, for benchmarks/path-test.sh. Run by
# guest/path-bench.sh, and by pair.sh when check-vm is asked for the
# benchmarks' figures too (RDMARUN_VM_BENCH: one pair of boots, not two).
path_bench() {
    . "$RDMARUN_SRCDIR/benchmarks/lib.sh"
    runs=5
    [ -n "${BENCH_SHORT:-}" ] && runs=3
    times= last=
    for i in $(seq 1 $runs); do
        t0=$(date +%s.%N)
        # shellcheck disable=SC2086
        "$RDMARUN" check --path-test --allow-run-as-root -H "$hosts" $oob >"$TMP/path" 2>&1 && t=$(
            awk -v a="$(date +%s.%N)" -v b="$t0" 'BEGIN { printf "%.2f", a - b }') || t=?
        times="$times $t"
        last=$(sed -n 's/^rdmarun: path test passed: //p' "$TMP/path")
    done
    median=$(printf '%s\n' $times | sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2] }')
    case $times in *'?'*) median= ;; esac
    {
        figure "path test, 2 guests (ring, mpirun over ssh, launch included): median of $runs runs (${times# })" \
            "$median" s "<" 30
        echo "  last run: ${last:-?}"
        echo "path-bench.sh: done"
    } >"$RR_SHARE/bench.txt"
}
