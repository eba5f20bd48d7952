#!/bin/sh
# The path test on this host (no RDMA device): real mpirun starting real
# path peers that meet through Open MPI's PMIx server, and the launch node's
# judgement of what they said; a node that cannot be reached; the plan
# putting the test in front of a multi-node job, and its options. Between
# nodes with real verbs it runs in the Soft-RoCE VM (tests/vm/guest/pair.sh).
. "${RDMARUN_SRCDIR:-.}/tests/lib.sh"
command -v mpirun >/dev/null || { echo "1..0 # SKIP mpirun not installed"; exit 0; }
host=$(hostname)

run "$RDMARUN" check --path-test $MPIRUN_ROOT
check "this node alone, no RDMA device: 83, the node and why" 83 \
    "rdmarun: path test: " "--map-by ppr:1:node" "path-peer" \
    "path test: $host: port: no RDMA device on this node" \
    "path test failed: 1 node, 0 of 1 path good (the node to itself)"
check_without "the node answered through PMIx: it is not called silent" 83 "did not answer" \
    "path test: $host: port: no RDMA device on this node"
run "$RDMARUN" check --path-test $MPIRUN_ROOT --json
check "--json: the nodes, the pairs and the findings" 83 '"passed": false' '"host": "'"$host"'"' \
    '"failed_step": "port"' '"pairs": [' '"level": "fail"'
python3 -c 'import json, sys; d = json.loads(sys.argv[1]); assert d["nodes"][0]["answered"]' "$out"
ok $? "and it is JSON"

run "$RDMARUN" check --path-test $MPIRUN_ROOT -H localhost,localhost --device mlx5_3:1
check "a device the node lacks is named (and localhost is this node, once)" 83 \
    "$host: port: no device or port mlx5_3:1 on this node"

t0=$(date +%s)
deadline=$(scaled 20)
run "$RDMARUN" check --path-test $MPIRUN_ROOT -H "localhost,nosuch.invalid" --path-timeout "$deadline"
t1=$(date +%s)
check "a node that cannot be reached: 83 within the deadline, named with the launcher's words" 83 \
    "nosuch.invalid did not answer: the launcher says \"ssh: Could not resolve hostname nosuch" \
    "no peer started on $host either"
[ $((t1 - t0)) -le "$deadline" ]; ok $? "and it took $((t1 - t0)) s (deadline $deadline s)"
has "$err" "ORTE was unable to reliably start" || has "$err" "PRTE has lost communication" ||
    has "$err" "ssh:"
ok $? "mpirun's own message stays in the output"

printf 'h1 slots=2\n# a comment\nh2\n\nh1\n' >"$TMP/hosts"
run "$RDMARUN" --dry-run --sysfs "$DATA/sysfs/rxe" --hostfile "$TMP/hosts" -np 4 ./app
check "the dry run of a job on two nodes (a hostfile) shows the path test in front" 0 \
    "path test: 2 nodes, ring, within 30 s: " "--hostfile $TMP/hosts --map-by ppr:1:node --bind-to none" \
    "path-peer --step-timeout=2"
check_without "with UCX_IB_GID_INDEX auto, each node uses its own routable GID" 0 "path-peer --gid-index" \
    "path-peer --step-timeout=2"
# The Kubeflow MPI operator's launcher pod: no hosts on the command line, the
# operator's hostfile named in the environment, in its formats (by hand, from
# mpi-operator's newConfigMap: "%s slots=%d" for Open MPI, "%s:%d" for Intel
# MPI and MPICH; workers as <job>-worker-<i>.<job>.<namespace>.svc). The
# example manifest's launcher arguments, as written there (but --verify
# warn: strict opens a QP on the device first, which a recorded node lacks).
kf=$(sed -n 's/^ *# rdmarun-args: //p' "$SRC/examples/kubeflow-mpijob.yaml")
has "$kf" "--verify strict" && grep -q "args: \[\"$(printf '%s' "$kf" | sed 's/ /", "/g')\"\]" "$SRC/examples/kubeflow-mpijob.yaml"
ok $? "the example's args are its rdmarun-args line: $kf"
kf=${kf/--verify strict/--verify warn}
printf 'hello-worker-0.hello.default.svc slots=2\nhello-worker-1.hello.default.svc slots=2\n' >"$TMP/kf-ompi"
printf 'hello-worker-0.hello.default.svc:2\nhello-worker-1.hello.default.svc:2\n' >"$TMP/kf-hydra"
# shellcheck disable=SC2086
run env OMPI_MCA_orte_default_hostfile="$TMP/kf-ompi" "$RDMARUN" --dry-run --sysfs "$DATA/sysfs/ib-mlx5" $kf
check "the Kubeflow example's launcher: two workers from the operator's hostfile (Open MPI's)" 0 \
    "path test: 2 nodes, ring" "mpirun" "/opt/app/mpi_hello"
# shellcheck disable=SC2086
run env HYDRA_HOST_FILE="$TMP/kf-hydra" "$RDMARUN" --dry-run --sysfs "$DATA/sysfs/ib-mlx5" $kf
check "and from Hydra's host file format (HOST:N)" 0 "path test: 2 nodes, ring"
run env OMPI_MCA_orte_default_hostfile="$TMP/nosuch" "$RDMARUN" --dry-run --sysfs "$DATA/sysfs/rxe" -np 2 ./app
check "a hostfile the environment names that is not there: 66, with the variable" 66 \
    "hostfile $TMP/nosuch (named by OMPI_MCA_orte_default_hostfile) cannot be read"
run env OMPI_MCA_orte_default_hostfile="$TMP/kf-ompi" "$RDMARUN" --dry-run --sysfs "$DATA/sysfs/rxe" -H a -np 2 ./app
check_without "hosts on the command line win over the environment's hostfile" 0 "path test:" "mpirun -H a"
run "$RDMARUN" --dry-run --json --sysfs "$DATA/sysfs/rxe" -H a,b:4 -np 2 ./app
check "and its JSON" 0 '"path_test": {' '"nodes": 2' '"pairs": "ring"'
run "$RDMARUN" --dry-run --sysfs "$DATA/sysfs/rxe" -H a,b -np 2 \
    --set check.path-pairs=all --set check.path-timeout=12 --set ucx.NET_DEVICES=rxe0:1 ./app
check "path-pairs, path-timeout and a device the profile names" 0 \
    "path test: 2 nodes, all pairs, within 12 s" "path-peer --device rxe0:1" "--all-pairs"
run "$RDMARUN" --dry-run --sysfs "$DATA/sysfs/rxe" -H a,b -np 2 --set check.path-test=no ./app
check_without "check.path-test = no: the job's command, no path test line" 0 "path test:" \
    "mpirun -H a,b -np 2 " "profile: auto -> roce"
run "$RDMARUN" --dry-run --sysfs "$DATA/sysfs/rxe" -H a,a -np 2 ./app
check_without "one node named twice: the job's command, no path test" 0 "path test:" \
    "mpirun -H a,a -np 2 " "profile: auto -> roce"
run "$RDMARUN" --dry-run --sysfs "$DATA/sysfs/rxe" -p tcp -H a,b -np 2 ./app
check_without "a job that expects TCP: the job's command, no path test" 0 "path test:" \
    "mpirun -H a,b -np 2 -x UCX_TLS=tcp,self" "profile: tcp (fabric: tcp)"
run env SLURM_JOB_NUM_NODES=3 "$RDMARUN" --dry-run --sysfs "$DATA/sysfs/rxe" -np 2 ./app
check "inside a 3-node Slurm allocation: the allocation's nodes" 0 "path test: 3 nodes, ring"
run "$RDMARUN" $MPIRUN_ROOT --sysfs "$DATA/sysfs/rxe" --hostfile "$TMP/nosuch" -np 2 ./app
check "a hostfile that cannot be read: 66, named" 66 "hostfile $TMP/nosuch cannot be read"
run "$RDMARUN" --dry-run --sysfs "$DATA/sysfs/rxe" --hostfile "$TMP/nosuch" -np 2 ./app
check "and the dry run: the same status and message (it still prints the plan)" 66 \
    "error: hostfile $TMP/nosuch cannot be read" "mpirun "

# Before a real job: the ranks run only when the test allows it.
printf '[profile]\ninherit = roce\n[ucx]\nNET_DEVICES = rxe0:1\n' >"$TMP/roce.ini"
run "$RDMARUN" $MPIRUN_ROOT --sysfs "$DATA/sysfs/rxe" -p "$TMP/roce.ini" --verify strict \
    --set check.qp-test=no -H "localhost,nosuch.invalid" -np 2 echo RAN
check "strict, a node that cannot be reached: the job does not start (83)" 83 \
    "nosuch.invalid did not answer" "the path test between the job's nodes failed: not starting the job"
check_without "the program never ran" 83 "RAN" "not starting the job"

for bad in "--path-timeout 0" "--path-timeout x" "--gid-index 300"; do
    # shellcheck disable=SC2086
    run "$RDMARUN" check --path-test $bad
    check "check --path-test $bad: 64" 64
done
run "$RDMARUN" check -H a,b
check "host options without --path-test: 64 with the hint" 64 "rdmarun check --path-test -H node1,node2"
run "$RDMARUN" check --path-test --qp-test
check "--path-test with --qp-test: 64" 64 "run one at a time"
run "$RDMARUN" path-peer
check "path-peer started by hand: 64, says who starts it" 64 "PMIx_Init" "rdmarun check --path-test"
# Over libfabric (--provider, issue 49): real path peers, each with an RDM
# endpoint of the provider, meeting through mpirun's PMIx server. One node
# here, so its ring is the node to itself; several peers on this host (path
# -peer started by mpirun directly, as the launcher starts it on many nodes)
# test every pair, each with its own figures.
run "$RDMARUN" check --path-test $MPIRUN_ROOT --provider tcp
check "--provider tcp: the node's path over libfabric's tcp, with figures" 0 \
    "path-peer --provider=tcp" "path $host (tcp on " "tagged messages (4 KiB, 32 KiB) verified, latency" \
    "path test passed: 1 node, 1 of 1 path good (the node to itself): latency"
run "$RDMARUN" check --path-test $MPIRUN_ROOT --provider tcp --json
check "--provider tcp --json: the node names its provider and libfabric" 0 '"passed": true' \
    '"prov": "tcp"' '"libfabric": "'
run "$RDMARUN" check --path-test $MPIRUN_ROOT --provider efa
check "--provider efa on a node without EFA: 83, named with what to run" 83 \
    "$host (efa): provider: fi_getinfo: no 'efa' provider with tagged RDM endpoints answers on this node" \
    "'rdmarun check --fi-pair efa' there" "0 of 1 path good"
np3="-np 3"
[ "$(nproc)" -lt 3 ] && np3="-np 3 --oversubscribe"
# shellcheck disable=SC2086
mpirun $MPIRUN_ROOT $np3 "$RDMARUN" path-peer --provider tcp --all-pairs >"$TMP/fi3" 2>&1
[ "$(grep -c '^rdmarun-path: pair r=[0-2] n=3 to=[0-2] ok=1 lat=[0-9.]* bw=[0-9.]*$' "$TMP/fi3")" = 6 ]
ok $? "three tcp peers, every pair: 6 pairs verified, each with its latency and bandwidth"
[ "$(grep -c '^rdmarun-path: node r=[0-2] n=3 .* prov=tcp ' "$TMP/fi3")" = 3 ] &&
    [ "$(grep -c '^rdmarun-path: done r=[0-2] n=3 ' "$TMP/fi3")" = 3 ]
ok $? "and each peer said its node and that it was done"
for prov in "udp;ofi_rxd" shm; do
    # shellcheck disable=SC2086
    mpirun $MPIRUN_ROOT -np 2 --oversubscribe "$RDMARUN" path-peer --provider "$prov" >"$TMP/fi2" 2>&1
    [ "$(grep -c '^rdmarun-path: pair r=[01] n=2 to=[01] ok=1 ' "$TMP/fi2")" = 2 ]
    ok $? "two $prov peers: both directions verified (a provider with its own protocol for 32 KiB)"
done
# A peer whose provider does not answer: it says so, and its pairs fail at
# connect on both ends, named, within the step. (Rank 1 picks efa by its
# PMIx rank: Open MPI 5.0.7's mpirun, Debian 13's, crashes on MPMD's ':'.)
t0=$(date +%s)
# shellcheck disable=SC2086,SC2016
mpirun $MPIRUN_ROOT --oversubscribe -np 2 sh -c \
    'p=tcp; [ "$PMIX_RANK" = 1 ] && p=efa; exec "$0" path-peer --provider $p' "$RDMARUN" \
    >"$TMP/fi-mixed" 2>&1
t1=$(date +%s)
grep -q "^rdmarun-path: fail r=1 n=2 step=provider err=fi_getinfo: no 'efa' provider" "$TMP/fi-mixed" &&
    grep -q '^rdmarun-path: pair r=0 n=2 to=1 ok=0 step=connect err=the other end has no usable endpoint' "$TMP/fi-mixed" &&
    grep -q '^rdmarun-path: pair r=0 n=2 from=1 ok=0 step=connect' "$TMP/fi-mixed"
ok $? "a peer without the provider: its failure and node 0's pairs with it, at connect ($((t1 - t0)) s)"
for bad in "x y" "$(printf 'tcp\033[2J')" "$(printf '%070d' 0)"; do
    run "$RDMARUN" check --path-test --provider "$bad"
    check "--provider '$(printf '%s' "$bad" | tr -c '[:print:]' '?')': 64, a provider's name expected" 64 \
        "expected a libfabric provider's name"
    check_without "and nothing raw reaches the terminal" 64 "$(printf '\033')" "provider"
done
run "$RDMARUN" check --path-test --provider ""
check "--provider '': 64" 64 "--provider needs a value"
run "$RDMARUN" check --path-test --provider tcp --device rxe0
check "--provider with --device: 64, the provider picks its NIC" 64 "FI_EFA_IFACE, FI_CXI_DEVICE_NAME"
run "$RDMARUN" check --provider tcp
check "--provider without --path-test: 64" 64 "rdmarun check --path-test"
# Before a multi-node job on an OFI fabric: the path test over its provider.
for pf in efa:efa:efa-8x400 slingshot:cxi:cxi-4nic opx:opx:opa-hfi1; do
    IFS=: read -r profile prov tree <<EOF_PF
$pf
EOF_PF
    run "$RDMARUN" --dry-run --sysfs "$DATA/fabrics/sysfs/$tree" -p "$profile" -H h1,h2 -np 4 ./app
    check "$profile, two nodes: the path test over libfabric's $prov in front of the job" 0 \
        "path test: 2 nodes, ring" "path-peer --provider=$prov"
done
run "$RDMARUN" --dry-run --sysfs "$DATA/sysfs/rxe" -p roce -H h1,h2 -np 4 ./app
check_without "roce, two nodes: the verbs path test, no provider" 0 "--provider" "path-peer"
run "$RDMARUN" check --help
check "check --help shows the path test" 0 "check --path-test [--json] [--all-pairs]" "--path-timeout S"
done_testing
