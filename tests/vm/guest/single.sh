#!/bin/bash
# Runs inside one Soft-RoCE guest: rdmarun against a real kernel RDMA stack.
# Output: TAP in $RR_SHARE/tap.txt (boot.sh brings it back).
. "$RR_SHARE/env.sh"
exec >"$RR_SHARE/tap.txt" 2>&1
. "$RDMARUN_SRCDIR/tests/lib.sh"
. "$RDMARUN_SRCDIR/tests/vm/guest/setup.sh"
cd "$TMP"   # evidence directories go under the working directory; / is read-only
# As on a cluster node set up for RDMA (the kernel's default is 8 MiB, which
# the roce profile's [check] memlock = unlimited refuses under strict).
ulimit -l unlimited
PINGPONG=$RDMARUN_BUILDDIR/examples/mpi_pingpong
MPI="--allow-run-as-root -np 2"

# 1. probe agrees with ibv_devinfo -v and rdma link, field by field.
"$RDMARUN" probe --json >"$TMP/probe.json"
ok $? "rdmarun probe --json in the guest"
ibv_devinfo -v -d rxe0 >"$TMP/devinfo.txt"
rdma -j link show rxe0/1 >"$TMP/link.json"
python3 - "$TMP/probe.json" "$TMP/devinfo.txt" "$TMP/link.json" >"$TMP/fields" 2>&1 <<'PY'
import ipaddress, json, re, sys
probe = json.load(open(sys.argv[1]))
devinfo = open(sys.argv[2]).read()
link = json.load(open(sys.argv[3]))[0]
dev = next(d for d in probe["devices"] if d["name"] == "rxe0")
port = dev["ports"][0]
def field(name):
    m = re.search(r"^\s*%s:\s*(.+)$" % name, devinfo, re.M)
    return m.group(1).strip() if m else None
checks = []
def check(what, ours, theirs):
    checks.append((what, ours == theirs, ours, theirs))
check("state", port["state"], re.sub(r"PORT_(\w+).*", r"\1", field("state")))
check("physical state", {"LinkUp": "LINK_UP"}.get(port["phys_state"], port["phys_state"]),
      re.sub(r"\s*\(.*", "", field("phys_state")))
check("link layer", port["link_layer"], field("link_layer"))
check("active MTU", str(port["active_mtu"]), field("active_mtu").split()[0])
check("max MTU", str(port["max_mtu"]), field("max_mtu").split()[0])
width = int(re.match(r"(\d+)X", field("active_width")).group(1))
speed = float(field("active_speed").split()[0])
check("rate (Gb/s)", port["rate_gbps"], width * speed)
check("node GUID", dev["node_guid"], field("node_guid"))
gids_theirs = sorted((int(i), g, t) for i, g, t in
                     re.findall(r"GID\[\s*(\d+)\]:\s*([0-9a-f:.]+), (.+)", devinfo))
gids_ours = sorted((g["index"], str(ipaddress.IPv6Address(g["gid"].replace(":", "")
                    and int(g["gid"].replace(":", ""), 16))), g["type"]) for g in port["gids"])
gids_theirs = [(i, str(ipaddress.IPv6Address(g)), t) for i, g, t in gids_theirs]
check("GID table (index, address, type)", gids_ours, gids_theirs)
check("state (rdma link)", port["state"], link["state"])
check("physical state (rdma link)", {"LinkUp": "LINK_UP"}.get(port["phys_state"]), link["physical_state"])
check("netdev (rdma link)", dev["netdevs"], [link["netdev"]])
for what, same, ours, theirs in checks:
    print("%s\t%s\t%r\t%r" % ("same" if same else "DIFF", what, ours, theirs))
PY
ok $? "probe, ibv_devinfo and rdma link outputs parse"
while IFS="$(printf '\t')" read -r verdict what ours theirs; do
    [ "$verdict" = same ]; ok $? "probe agrees on $what: $ours"
    [ "$verdict" = same ] || echo "#   ibv_devinfo/rdma link say $theirs"
done <"$TMP/fields"

# 1a. Fabric health facts on the real kernel: dcb (iproute2) against rxe0's
# netdev, the dma-buf registration NCCL's way, cpufreq as sysfs has it.
nd=$(python3 -c 'import json,sys; print(next(d for d in json.load(open(sys.argv[1]))["devices"] if d["name"]=="rxe0")["netdevs"][0])' "$TMP/probe.json")
pfc=$(python3 -c 'import json,sys; d=next(d for d in json.load(open(sys.argv[1]))["devices"] if d["name"]=="rxe0"); print(d["lossless"]["pfc"], type(d["dmabuf"]).__name__)' "$TMP/probe.json")
if dcb -j pfc show dev "$nd" >/dev/null 2>&1; then
    # (Nothing read, the probe's JSON unreadable, is no PFC read either.)
    case $pfc in ""|"None "*) ok 1 "probe reads PFC where dcb can ($nd: ${pfc:-nothing})";;
    *) ok 0 "probe reads PFC where dcb can ($nd)";; esac
else
    case $pfc in "None bool") ok 0 "dcb cannot read $nd's DCB: PFC unknown (null); dma-buf tested: $pfc";;
    *) ok 1 "dcb cannot read $nd's DCB: PFC unknown, dma-buf tested (got $pfc)";; esac
fi
run "$RDMARUN" probe
check "probe says the lossless settings are unknown, once" 0 "lossless ($nd): unknown (dcb cannot read its DCB settings"
gov=$(cat /sys/devices/system/cpu/cpu0/cpufreq/scaling_governor 2>/dev/null || echo none)
got=$(python3 -c 'import json,sys; g=json.load(open(sys.argv[1]))["host"]["cpu"]["governors"]; print(g[0].split(":")[0] if g else "none")' "$TMP/probe.json")
[ "$gov" = "$got" ]; ok $? "cpufreq governor as sysfs says: $got"
mkdir -p /root/rdmarun-fabric && printf '[check]\nlossless = yes\ngovernor = performance\n' >/root/rdmarun-fabric/check.ini
run "$RDMARUN" check --config /root/rdmarun-fabric/check.ini
check "check lossless on rxe0: unknown said, not failed" 0 \
    "rdmarun: check lossless: rxe0 PFC and priority ('dcb pfc show dev $nd' fails" "is healthy"

# 1b. The preflight QP test: a live RC loopback on rxe0:1, and its failures.
run "$RDMARUN" check --qp-test
check "check --qp-test passes on rxe0" 0 "rxe0:1 QP test passed: RC QPs" \
    "RDMA WRITE, RDMA READ and SEND/RECV verified; latency"
run "$RDMARUN" check --qp-test --device rxe0:1 --gid-index 77
check "a GID index that does not exist fails, naming the step" 69 "rxe0:1 QP test:" "GID index 77"
run setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all --bounding-set=-all \
    sh -c 'ulimit -l 64 && exec "$0" check --qp-test' "$RDMARUN"
check "memlock 64 KiB for an ordinary user: ibv_reg_mr fails with the hint" 69 \
    "ibv_reg_mr failed: Cannot allocate memory" "memlock limit is 64 KiB"

# 2. An MPI job over rc_verbs/rxe0:1, launched by rdmarun: UCX's endpoint
# lines, RC QPs in RTS seen by the kernel, rxe0's counters moving. Both ranks
# share one guest, so -x UCX_TLS=rc,self leaves out shared memory: they talk
# as ranks on two nodes would (the two-guest test covers real nodes).
rdma_job() {  # LABEL, rdmarun options...
    label=$1
    shift
    rxe_counters >"$TMP/$label.before"
    qp_sampler "$TMP/$label.qps" &
    sampler=$!
    # 80 iterations: about 8 s of traffic under TCG, several of rdmarun's
    # QP census samples (every 2 s) and the sampler's; 200 took 172 s for
    # MPICH over UD, for nothing more to check.
    run "$RDMARUN" "$@" --evidence-dir "$TMP/ev-$label" $MPI "${PROGRAM:-$PINGPONG}" 80 8 1048576
    ucx_lines=$(cat "$TMP/ev-$label/ucx.log" 2>/dev/null)
    qp_sampler_stop "$TMP/$label.qps" $sampler
    rxe_counters >"$TMP/$label.after"
}
# within_node UCX_LINES: the verdict's words for ranks of one node when UCX
# itself says each endpoint is intra-node (1.14+'s "intra-node cfg#"; 1.13
# names no scope), the oracle being UCX's own line.
within_node() {
    if printf '%s\n' "$1" | grep -q 'intra-node cfg#' &&
        ! printf '%s\n' "$1" | grep -q 'inter-node cfg#'; then
        echo " within one node (through the NIC)"
    fi
}
# rdma_verified LABEL: what an rdma_job over rc_verbs shows, each seen its own way.
rdma_verified() {
    ucx_peer_eps "$ucx_lines" | grep -q 'tag(rc_verbs/rxe0:1'
    ok $? "$1: UCX's endpoint to the other rank sends tagged messages on rc_verbs/rxe0:1"
    has "$err" "rdmarun: RDMA verified: 2 processes$(within_node "$ucx_lines"), lanes rc_verbs/rxe0:1, no TCP lanes; rxe0/1 sent"
    ok $? "$1: rdmarun's verdict is RDMA, with rxe0's packet count"
    rts=$(printf '%s\n' "$err" | sed -n 's/.*, \([0-9]*\) RC QPs\{0,1\} of the ranks in RTS (rdma res).*/\1/p')
    [ "${rts:-0}" -gt 0 ]; ok $? "$1: rdmarun saw ${rts:-no} RC QPs of the ranks in RTS in rdma res"
    grep -q "type RC state RTS.*comm mpi_pingpong" "$TMP/$1.qps"
    ok $? "$1: the ranks' RC QPs are in RTS in rdma res"
    sent=$(counter_delta "$TMP/$1.before" "$TMP/$1.after" sent_pkts)
    [ "$sent" -gt 1000 ]; ok $? "$1: rxe0 sent $sent packets during the job"
}
for profile in roce auto; do
    rdma_job "$profile" -p "$profile" -x UCX_TLS=rc,self
    check "$profile: 2-rank ping-pong through rdmarun" 0 "pingpong size=1048576"
    rdma_verified "$profile"
done
has "$err" "rdmarun: profile roce (chosen by auto)"; ok $? "auto chose the roce profile for rxe0"
has "$err" "no loss, error or congestion counter grew"
ok $? "without loss, the verdict says no loss, error or congestion counter grew"
python3 -c 'import json, sys
c = json.load(open(sys.argv[1]))["counters"]
r = [p for p in c if p["port"] == "rxe0/1"][0]
sys.exit(not (r["grew"].get("sent_pkts", 0) > 1000 and r["families"]["loss"] == 0))' \
    "$TMP/ev-auto/verdict.json"
ok $? "verdict.json has rxe0/1's counter deltas: packets sent, no loss"

# 2b. The same job placed by the per-rank helper (issue 6): each rank gets
# its cores and UCX_NET_DEVICES=rxe0:1 from `rdmarun rank`, and is verified.
rdma_job placed -p roce --bind-policy nic-local --report -x UCX_TLS=rc,self
check "placed: 2-rank ping-pong through rdmarun rank" 0 "pingpong size=1048576" \
    "rank 0 (local 0 of 2)" "rank 1 (local 1 of 2)" "--bind-to=none"
[ "$(grep -c 'NIC rxe0:1 (local)' "$TMP/ev-placed/placement.txt")" = 2 ]
ok $? "placed: both ranks got rxe0:1 from the helper (placement.txt)"
has "$err" "rdmarun: RDMA verified: 2 processes$(within_node "$ucx_lines"), lanes rc_verbs/rxe0:1, no TCP lanes"
ok $? "placed: rdmarun's verdict is RDMA"

# 2b, built with MPICH (issue 37): the same ping-pong; rdmarun reads MPICH
# from the program, starts it with Hydra's mpiexec, and verifies it from the
# ranks' UCX reports (Debian's MPICH is built on UCX) and the kernel's QPs.
# Over UD, with the plan's UD DGID workaround reaching Hydra's ranks: over
# RC, MPICH 4.2's teardown on Debian 13 (UCX 1.18.1, kernel 6.12's rxe, which
# raises "last WQE reached" again for each packet reaching a QP in error)
# ends about 1 run in 5 in UCX's own assertion (ib_device.c:210,
# openucx/ucx#10432) and once hung for 20 minutes; Open MPI's and Intel
# MPI's runs above and below cover RC. tests/data/logs keeps such a run.
PROGRAM=$RDMARUN_BUILDDIR/examples/mpich/mpi_pingpong
if [ -x "$PROGRAM" ] && command -v mpiexec.mpich >/dev/null; then
    rdma_job mpich -p roce -x UCX_TLS=ud,self
    check "mpich: 2-rank ping-pong through Hydra over rxe (UD)" 0 "pingpong size=1048576" \
        "UCX_UD_VERBS_ETH_DGID_CHECK=n"
    ucx_peer_eps "$ucx_lines" | grep -q 'tag(ud_verbs/rxe0:1'
    ok $? "mpich: UCX's endpoint to the other rank sends tagged messages on ud_verbs/rxe0:1"
    has "$err" "rdmarun: RDMA verified: 2 processes$(within_node "$ucx_lines"), lanes ud_verbs/rxe0:1, no TCP lanes; rxe0/1 sent"
    ok $? "mpich: rdmarun's verdict is RDMA, with rxe0's packet count"
    grep -q "type UD state RTS.*comm mpi_pingpong" "$TMP/mpich.qps"
    ok $? "mpich: the ranks' UD QPs are in RTS in rdma res"
    sent=$(counter_delta "$TMP/mpich.before" "$TMP/mpich.after" sent_pkts)
    [ "$sent" -gt 1000 ]; ok $? "mpich: rxe0 sent $sent packets during the job"
else
    skip "MPICH over rxe" "MPICH is not installed (mpich, libmpich-dev) or its examples not built"
fi
PROGRAM=   # the Open MPI ping-pong again

# 2b', Intel MPI (issue 37; impi-rt 2021.18 from PyPI, built by the host
# side): Intel's own mpiexec.hydra, told to use libfabric's verbs provider
# and no shm (I_MPI_FABRICS=ofi), so that both ranks of the guest talk over
# verbs;ofi_rxm on rxe0, as between nodes. rdmarun judges from Intel's own
# report (I_MPI_DEBUG 6: the provider and the fabric); the kernel's QP table
# and rxe0's counters say the same independently.
if [ -x "$RR_SHARE/impi_pingpong" ]; then
    PROGRAM=$RR_SHARE/impi_pingpong rdma_job impi -p roce -genv I_MPI_FABRICS ofi \
        -genv FI_PROVIDER verbs
    check "impi: 2-rank ping-pong through Intel's mpiexec.hydra over rxe (verbs)" 0 \
        "pingpong size=1048576"
    grep -q "libfabric provider: verbs;ofi_rxm" "$TMP/ev-impi/mpi.log"
    ok $? "impi: Intel's report, kept in the evidence folder's mpi.log, names verbs;ofi_rxm"
    has "$err" "RDMA verified: " && has "$err" "lanes verbs;ofi_rxm, no TCP lanes; rxe0/1 sent"
    ok $? "impi: rdmarun's verdict is RDMA, from Intel's provider and fabric lines"
    grep -q "type RC state RTS.*comm impi_pingpong" "$TMP/impi.qps"
    ok $? "impi: the ranks' RC QPs are in RTS in rdma res"
    sent=$(counter_delta "$TMP/impi.before" "$TMP/impi.after" sent_pkts)
    [ "$sent" -gt 1000 ]; ok $? "impi: rxe0 sent $sent packets during the job"
else
    skip "Intel MPI over rxe" "Intel MPI is not installed (impi-rt and impi-devel from PyPI)"
fi

# 2c. Placement over two NUMA nodes (the guest has a CPU and half the
# memory on each, issue 18), as the kernel sees it from inside each rank
# (sched_getaffinity, get_mempolicy): one rank takes the whole node with its
# memory interleaved, two ranks a NUMA node each.
PLACE=$RDMARUN_BUILDDIR/examples/mpi_placement
placed() {  # RANKS, rdmarun options...: got="cpus mem;" per rank, by rank
    n=$1
    shift
    run "$RDMARUN" -p shm --bind-policy numa --report "$@" --allow-run-as-root -np "$n" "$PLACE"
    got=$(printf '%s\n' "$out" | sed -n 's/^placement rank=\([0-9]*\) .* cpus=\([^ ]*\) mem=\([^ ]*\) .*/\1 \2 \3/p' |
        sort -n | cut -d' ' -f2- | tr '\n' ';')
}
[ "$(hwloc-calc --number-of numanode all)" = 2 ]; ok $? "the guest has two NUMA nodes"
placed 1
[ "$got" = "0-1 interleave:0-1;" ] && has "$err" "NUMA 0-1, memory interleave"
ok $? "1 rank on 2 NUMA nodes: both CPUs, memory interleaved over both ($got)"
placed 2
[ "$got" = "0 prefer:0;1 prefer:1;" ]; ok $? "2 ranks: a NUMA node each, memory preferred there ($got)"
placed 1 --set bind.memory=bind
[ "$got" = "0-1 bind:0-1;" ]; ok $? "memory = bind: 1 rank's memory bound to both nodes ($got)"

# 2c'. The memory's bandwidth (issue 50): the guest's firmware has an ACPI
# HMAT (boot.sh: 12800 MB/s from a node's own CPU, half from the other's),
# which the kernel publishes and hwloc reads into the facts; judge holds a
# shared-memory result to its copy ceiling, that figure / 2.
hmat=$(cat /sys/devices/system/node/node0/access0/initiators/read_bandwidth 2>/dev/null)
[ "$hmat" = 12800 ]; ok $? "the kernel reads the firmware's HMAT: node 0's memory from its own CPU ${hmat:-none} (12800)"
gbs=$(awk -v m="$hmat" 'BEGIN { printf "%.1f", m * 1.048576e-3 }')
run "$RDMARUN" probe
check "probe: each NUMA node's memory bandwidth, from the HMAT through hwloc (hwloc's MiB/s)" 0 \
    "NUMA 0: PUs 0 (1 cores), memory $gbs GB/s (the firmware's HMAT)" \
    "NUMA 1: PUs 1 (1 cores), memory $gbs GB/s (the firmware's HMAT)"
UCX_TLS=sm,self ucx_perftest $PERFTEST_P -p 13390 -t tag_bw -s 65536 -n 100 >"$TMP/shm-server.txt" 2>&1 &
srv=$!
"$RDMARUN_SRCDIR/tests/listening.sh" 13390
UCX_TLS=sm,self ucx_perftest $PERFTEST_P -p 13390 -t tag_bw -s 65536 -n 100 localhost >"$TMP/shm.txt" 2>&1
wait $srv
# (--node alone describes another node; with --facts it adds to them)
"$RDMARUN" probe --json >"$TMP/here.json"
run "$RDMARUN" judge --facts "$TMP/here.json" --node nodes=1 "$TMP/shm.txt"
check "judge: ucx_perftest over shared memory, against this node's HMAT: a share of the copy ceiling" 0 \
    "memory $gbs GB/s a NUMA node" "of ceiling" \
    "the memory's copy ceiling: $gbs GB/s / 2" "one copy stream is bound by its core, not by the memory: not labeled"
echo "# figures: $(printf '%s\n' "$out" | grep 'not judged:' | sed 's/^ *//')"

# 2d. compare (issue 7): rc_verbs against TCP with the stencil, each run's
# verdict recorded. Both ranks share the guest, so the RDMA profile leaves
# out shared memory (as above). The results stay in the share for the README.
cat >"$TMP/rc.ini" <<'INI'
[profile]
description = roce without shared memory, so that ranks in one guest use rc_verbs
inherit = roce
[ucx]
TLS = rc,self
INI
STENCIL=$RDMARUN_BUILDDIR/examples/mpi_stencil
run "$RDMARUN" compare -p "$TMP/rc.ini",tcp --np 1,2 --repeat 2 --warmup 0 \
    --metric 'time_per_iter_us=([0-9.]+)' -o "$RR_SHARE/compare" --allow-run-as-root \
    -- "$STENCIL" 512 50
printf '%s\n' "$out" >"$RR_SHARE/compare/table.txt"
check "compare: rc_verbs against tcp in the guest" 0 "speedup" "efficiency"
csv=$RR_SHARE/compare/runs.csv
[ "$(awk -F, '$4 == "rc" && $5 == 2 {print $8}' "$csv" | sort -u)" = rdma ]
ok $? "compare: every 2-rank run of the rc profile has the verdict rdma"
[ "$(awk -F, '$4 == "tcp" && $5 == 2 {print $8 "/" $11}' "$csv" | sort -u)" = $ONE_NODE_TCP/1 ]
ok $? "compare: every 2-rank tcp run is TCP ($ONE_NODE_TCP on UCX $UCX_VERSION), as intended, and counted"

# 2d'. tune (issue 36): rc, ud and tcp over rxe on top of the rc profile,
# which expects RDMA, with the profile's device (auto: rxe0:1) or all of
# them. tcp,self cannot start on rxe0:1 alone (its runs fail, left out); with
# all devices it runs on TCP, judged as any job is (below); the rc and ud runs
# are RDMA.
# Small messages, few iterations: rxe in an emulated guest moves a few MB/s.
printf '[tune]\ndefaults = no\n[ucx]\nTLS = rc,self | ud,self | tcp,self\nNET_DEVICES = all\n' \
    >"$TMP/tls-space.ini"
run "$RDMARUN" tune -p "$TMP/rc.ini" --space "$TMP/tls-space.ini" --budget 16 --repeat 2 \
    -o "$RR_SHARE/tune" $MPI \
    --metric '^((pingpong|allreduce) size=[0-9]+) .*(latency_us|time_us)=([0-9.eE+-]+)' \
    -- "$PINGPONG" 10 8 65536
journal=$RR_SHARE/tune/samples.tsv
# The values' indexes: TLS 0 rc,self (the base's), 1 ud,self, 2 tcp,self;
# NET_DEVICES 0 the profile's, 1 all. TCP between ranks of one guest is a
# fallback where UCX cannot tell it stays in the node (1.13): left out, named;
# 1.14+ labels it intra-node, a local path, which an RDMA profile's job on one
# node may take (as compare counts it above).
if [ "$ONE_NODE_TCP" = fallback ]; then
    check "tune: rc, ud and tcp over rxe from an RDMA profile" 0 "every run verified as 'rdma'" \
        "(ucx.TLS=tcp,self ucx.NET_DEVICES=all) is not verified as the base expects: the verdict is" \
        "pingpong size=65536"
    [ -n "$(awk -F'\t' 'NR > 1 && $2 ~ /^2,/' "$journal")" ] &&
        [ "$(awk -F'\t' 'NR > 1 && $2 ~ /^2,/ {print $5}' "$journal" | sort -u)" = 0 ]
    ok $? "tune: every tcp,self run is left out"
else
    check "tune: rc, ud and tcp over rxe from an RDMA profile" 0 "every run verified as 'rdma'" \
        "pingpong size=65536"
    [ "$(awk -F'\t' 'NR > 1 && $2 == "2,0" {print $5}' "$journal" | sort -u)" = 0 ]
    ok $? "tune: tcp,self on the profile's device alone cannot start, and is left out"
fi
[ "$(awk -F'\t' 'NR > 1 && $2 == "2,1" && $3 == 0 {print $4 "/" $5}' "$journal" | sort -u)" = \
  "$ONE_NODE_TCP/$([ "$ONE_NODE_TCP" = fallback ] && echo 0 || echo 1)" ]
ok $? "tune: tcp,self on all devices ran on TCP ($ONE_NODE_TCP), judged as rdmarun judges it"
[ "$(awk -F'\t' 'NR > 1 && $2 !~ /^2,/ && $3 == 0 {print $4 "/" $5}' "$journal" | sort -u)" = rdma/1 ]
ok $? "tune: every rc and ud run that ended is verified as RDMA, and counted"
if [ "$ONE_NODE_TCP" = fallback ]; then
    ! grep -q '^TLS = tcp,self' "$RR_SHARE/tune/tuned.ini"
    ok $? "tune: the tuned profile never takes a value whose runs were left out (TCP)"
fi

# 2e. launcher exec (issue 21): ucx_perftest's server and client (UCP tag
# bandwidth), forked by one script, started by rdmarun --launcher exec with
# the roce profile and, as in 2, no shared memory: both processes' endpoints
# on rc_verbs/rxe0:1, their RC QPs in the kernel, one verdict over both.
cat >"$TMP/perftest-pair.sh" <<'SH'
#!/bin/sh
ucx_perftest $PERFTEST_P -p 13400 -t tag_bw -s 65536 -n 200 & server=$!
"$RDMARUN_SRCDIR/tests/listening.sh" 13400 || exit 1
ucx_perftest $PERFTEST_P -p 13400 -t tag_bw -s 65536 -n 200 127.0.0.1 || exit 1
wait $server
SH
chmod +x "$TMP/perftest-pair.sh"
qp_sampler "$TMP/exec.qps" &
sampler=$!
run "$RDMARUN" --launcher exec -p roce -x UCX_TLS=rc,self --evidence-dir "$TMP/ev-exec" \
    -- "$TMP/perftest-pair.sh"
qp_sampler_stop "$TMP/exec.qps" $sampler
check "launcher exec: ucx_perftest's pair through rdmarun, roce profile" 0 "Final:"
has "$out$err" "UCX_NET_DEVICES=rxe0:1" && has "$out$err" "UCX_UD_VERBS_ETH_DGID_CHECK=n"
ok $? "launcher exec: the plan's variables reached COMMAND's environment"
# (Each process has one endpoint, its ep_cfg[0]: the other process.)
eps=$(grep 'tag(rc_verbs/rxe0:1' "$TMP/ev-exec/ucx.log" | sed -n 's/^\[[0-9.]*\] \[[^:]*:\([0-9]*\).*/\1/p' | sort -u | wc -l)
[ "$eps" = 2 ]
ok $? "launcher exec: both ucx_perftest processes' endpoints send on rc_verbs/rxe0:1 ($eps)"
has "$err" "rdmarun: $(hostname): RDMA verified: 2 processes$(within_node "$(cat "$TMP/ev-exec/ucx.log")"), lanes rc_verbs/rxe0:1, no TCP lanes"
ok $? "launcher exec: the verdict is RDMA over both processes, and names the node"
grep -q "type RC state RTS.*comm ucx_perftest" "$TMP/exec.qps"
ok $? "launcher exec: ucx_perftest's RC QPs are in RTS in rdma res"

# Open MPI's mtl ofi over libfabric's verbs;ofi_rxm on rxe0 (issue 46), with
# libfabric's own log at info: the fabric it opened (verbs_info.c's
# "IB-0x..." name) and rxm's connection to the other rank, read by rdmarun
# verify as pasted: RDMA, class rdma.
if [ "${OMPI_MAJOR:-4}" -ge 5 ]; then
    skip "mtl ofi over verbs;ofi_rxm" "checked with Open MPI 4.1 and libfabric 1.17 (Debian 12) only"
else
    rxe_counters >"$TMP/ofi.before"
    # FI_UNIVERSE_SIZE: rxm sizes its MSG CQ for 256 peers by default,
    # past what rxe0 allows ("vrb_cq_open(): Unable to create verbs CQ")
    timeout "$(scaled 120)" mpirun --allow-run-as-root -np 2 --mca pml cm --mca mtl ofi \
        --mca mtl_ofi_provider_include "verbs;ofi_rxm" -x FI_LOG_LEVEL=info -x FI_UNIVERSE_SIZE=16 \
        "$PINGPONG" 50 8 65536 >"$TMP/ofi-verbs.log" 2>&1
    s=$?
    rxe_counters >"$TMP/ofi.after"
    grep -q "pingpong size=65536" "$TMP/ofi-verbs.log" && [ $s = 0 ]
    ok $? "mtl ofi over verbs;ofi_rxm: a 2-rank ping-pong runs (status $s)"
    run "$RDMARUN" verify --json "$TMP/ofi-verbs.log"
    python3 -c 'import json, sys
d = json.loads(sys.stdin.read())
assert d["verdict"] == "rdma" and d["class"] == "rdma", d
assert any(o["family"] == "libfabric" and not o.get("selected") for o in d["observations"]), d
' <<<"$out"
    s=$?
    ok $s "rdmarun verify of its log: RDMA, from libfabric's opened fabric and rxm's connection"
    [ $s = 0 ] || grep -E "Opened fabric|connreq|mtl:ofi" "$TMP/ofi-verbs.log" | head -5 | sed 's/^/#   /'
    sent=$(counter_delta "$TMP/ofi.before" "$TMP/ofi.after" sent_pkts)
    [ "$sent" -gt 1000 ]; ok $? "mtl ofi over verbs: rxe0 sent $sent packets during the job"
fi
# The libfabric pair test (issue 49) over verbs;ofi_rxm on rxe0: two RDM
# endpoints, their rxm connection on RC QPs of rxe0, whose counters move.
rxe_counters >"$TMP/pair.before"
FI_UNIVERSE_SIZE=16 run "$RDMARUN" check --fi-pair "verbs;ofi_rxm"
rxe_counters >"$TMP/pair.after"
check "libfabric pair test over verbs;ofi_rxm: a message each way on rxe0" 0 \
    "libfabric pair test verbs;ofi_rxm: an RDM endpoint pair exchanged a message on rxe0"
sent=$(counter_delta "$TMP/pair.before" "$TMP/pair.after" sent_pkts)
[ "$sent" -gt 0 ]; ok $? "libfabric pair test: rxe0 sent $sent packets (its hw_counters)"
FI_UNIVERSE_SIZE=16 run "$RDMARUN" check --fi-pair efa
check "libfabric pair test of a provider the guest lacks: refused, named" 69 \
    "no 'efa' provider with RDM endpoints answers here"

# 3. The tcp profile runs over TCP, and the kernel sees no RC QP of the job.
rdma_job tcp -p tcp
check "tcp: the same job with the tcp profile" 0 "pingpong size=1048576"
ucx_peer_eps "$ucx_lines" | grep -q 'tcp/' &&
    ! ucx_peer_eps "$ucx_lines" | grep -q 'rc_verbs'
ok $? "tcp: UCX's endpoint to the other rank is TCP, not rc_verbs"
has "$err" "$ONE_NODE_TCP_TEXT"; ok $? "tcp: rdmarun's verdict says TCP"
# RDMA expected, TCP used, verify strict: the documented status where UCX
# cannot tell the ranks share the node (1.13); between nodes: pair.sh.
printf '[profile]\ninherit = tcp\nexpect = rdma\n' >"$TMP/wants-rdma.ini"
run "$RDMARUN" -p "$TMP/wants-rdma.ini" --verify strict $MPI "$PINGPONG" 20 8
if [ "$ONE_NODE_TCP" = fallback ]; then
    check "strict: a TCP job where RDMA was expected ends with status 80" 80 "FALLBACK"
else
    check "strict: TCP within one guest is local on UCX $UCX_VERSION: status 0" 0 "$ONE_NODE_TCP_TEXT"
fi
# rdma res answered while the job ran (the port's own GSI QP is always
# listed): an empty sample would show no RC QP of any job.
grep -q "^link rxe0" "$TMP/tcp.qps" && ! grep -q "type RC.*comm mpi_pingpong" "$TMP/tcp.qps"
ok $? "tcp: rdma res lists rxe0's QPs, and no RC QP of the job" ||
    grep -v '^--' "$TMP/tcp.qps" | sort | uniq -c | sed 's/^/# /'

# 3b. The profile's [check] keys hold a job to them before launch: roce asks
# for memlock = unlimited; strict refuses with the check's words, warn runs.
run sh -c 'ulimit -l 8192 && exec "$@"' sh "$RDMARUN" -p roce --verify strict $MPI "$PINGPONG" 20 8
check "[check] memlock under strict: the job does not start (69), the check says why" 69 \
    "[check] memlock: the memlock limit is 8192 KiB, the site requires unlimited"
check_without "and no rank ran" 69 "pingpong size" "[check] memlock: the memlock limit is 8192 KiB"
run sh -c 'ulimit -l 8192 && exec "$@"' sh "$RDMARUN" -p roce --verify warn $MPI -x UCX_TLS=rc,self "$PINGPONG" 20 8
check "[check] memlock under warn: a warning, and the job runs" 0 "warning: [check] memlock" \
    "pingpong size"
run "$RDMARUN" -p roce --verify strict --set check.min-rate=400 $MPI "$PINGPONG" 20 8
check "[check] min-rate above rxe0's rate under strict: 69" 69 "[check] min-rate: rxe0 port 1 runs at"
run "$RDMARUN" -p roce --verify strict --set ucx.IB_GID_INDEX=77 $MPI -x UCX_TLS=rc,self "$PINGPONG" 20 8
check "a QP test that fails under strict (GID index 77): the job does not start" 69 \
    "rxe0:1 QP test:" "not starting the job"
run timeout "$(scaled 120)" "$RDMARUN" -p roce --verify strict --set check.qp-test=no --set ucx.IB_GID_INDEX=77 \
    $MPI -x UCX_TLS=rc,self -x UCX_UD_VERBS_TIMEOUT=5s "$PINGPONG" 20 8
! has "$out$err" "QP test" && ! has "$err" "[check]" && has "$out$err" "UCX  "
ok $? "--set check.qp-test=no: no QP test before the job, which started (status $rc)"

# 4. The UCX 1.13 UD defect on rxe is handled out of the box, with the reason
# (in full, with its sources: --report).
run "$RDMARUN" --dry-run --report $MPI "$PINGPONG"
check "the plan for this node sets the UD DGID workaround, with its reason" 0 \
    "-x UCX_UD_VERBS_ETH_DGID_CHECK=n" "rule:ucx-ud-eth-dgid-check" "fixed in UCX 1.19.0"
# The control: without the workaround, UD wire-up fails (timeout shortened).
run timeout "$(scaled 120)" "$RDMARUN" -p roce --set ucx.UD_VERBS_ETH_DGID_CHECK=y $MPI \
    -x UCX_TLS=rc,self -x UCX_UD_VERBS_TIMEOUT=5s "$PINGPONG" 20 8
[ "$rc" -ne 0 ]; ok $? "without the workaround the same job fails (status $rc): the rule is needed"

# 5. The health check's loopback bandwidth (issue 38) on rxe0: RDMA WRITEs
# between two QPs through the port, queue kept full, from its NUMA node;
# measured and said, and held to the site's floor. (Its figure beside
# ib_write_bw's: benchmarks/vm-perf.sh.)
mkdir -p "$TMP/site"
printf '[check]\ndevices = rxe0:1\nloopback = yes\nmin-loopback-percent = 1\n' >"$TMP/site/lb.ini"
run "$RDMARUN" check --config "$TMP/site/lb.ini"
check "loopback: rxe0's loopback bandwidth is measured, above 1% of its rate: healthy" 0 \
    "check loopback: rxe0 port 1: loopback RDMA WRITE at" "software RDMA: no line-rate expectation" "is healthy"
printf '[check]\ndevices = rxe0:1\nloopback = yes\nmin-loopback-gbps = 1000\n' >"$TMP/site/lb2.ini"
run "$RDMARUN" check --json --config "$TMP/site/lb2.ini"
check "loopback: below min-loopback-gbps 1000: RDMARUN-LOOPBACK-BW, in the JSON" 69 \
    '"code": "RDMARUN-LOOPBACK-BW"' "rxe0 port 1: loopback RDMA WRITE at"

# check-vm asked for benchmarks/vm-perf.sh's figures too (RDMARUN_VM_BENCH):
# measured here, before the fault matrix changes the node, rather than in a
# guest of their own. perf.sh writes them to $RR_SHARE/perf.txt.
if [ -n "${RDMARUN_VM_BENCH:-}" ]; then
    bash "$RDMARUN_SRCDIR/tests/vm/guest/perf.sh"
    tail -n 1 "$RR_SHARE/perf.txt" | grep -qx "perf.sh: done"
    ok $? "the benchmark's figures measured in this guest (perf.txt)"
fi

# 6. The fault matrix, injected for real on rxe0 (issue 38): each fault the
# kernel lets us make, caught by the check with its own code. First the
# healthy node, with every check the matrix uses on (the kernel's own log
# read live from /dev/kmsg), and this node's facts kept as its manifest.
# It runs on Debian 12's stack only (issue 48's CI budget: about 150 s a
# stack): what it injects (a link down and up, an MTU, a memlock limit, an
# address, a module, rdma link delete) is read back by rdmarun check from
# the kernel's stable sysfs ABI and /dev/kmsg, through no MPI or UCX. Debian
# 13's kernel (6.12) is read field by field in step 1, its loopback measured
# in step 5, and a port down between nodes is pair.sh's.
if [ "${OMPI_MAJOR:-4}" -ge 5 ]; then
    skip "the fault matrix on rxe0" "checked on Debian 12's stack only (kernel 6.1; the sysfs ABI it reads is stable)"
    done_testing
    exit
fi
amtu=$(python3 -c 'import json,sys; print(next(d for d in json.load(open(sys.argv[1]))["devices"] if d["name"]=="rxe0")["ports"][0]["active_mtu"])' "$TMP/probe.json")
"$RDMARUN" probe --json >"$TMP/site/good.json"
mx_conf() {  # FILE EXTRA-LINES: the matrix's configuration
    printf '[check]\ndevices = rxe0:1\nmtu = %s\nmemlock = 1M\n' "$amtu" >"$1"
    printf 'state = %s\ndrop-after = 1\nmanifest = %s\nkmsg = yes\n%b' "$TMP/site/state" "$TMP/site/good.json" "$2" >>"$1"
}
mx_conf "$TMP/site/mx.ini" 'modules = rdma_rxe\nflaps = yes\n'
run "$RDMARUN" check --config "$TMP/site/mx.ini"
check_without "fault matrix: the healthy node passes every check (kmsg read live)" 0 "unknown" \
    "is healthy: 7 checks passed"
caught=0 faults=0
caught() {  # DESCRIPTION CODE: the last check failed with CODE
    faults=$((faults + 1))
    check "fault matrix: $1 is caught as $2" 69 "FAILED: $2: " && caught=$((caught + 1))
}
port_state() { cat /sys/class/infiniband/rxe0/ports/1/state 2>/dev/null; }
active() { case $(port_state) in *ACTIVE*) return 0 ;; esac; return 1; }
not_active() { ! active; }
# A port down (ip link set down), then left down: dropped.
ip link set eth0 down && within 20 not_active
run "$RDMARUN" check --config "$TMP/site/mx.ini"
caught "eth0 down: rxe0's port" RDMARUN-PORT-DOWN
dropped() { run "$RDMARUN" check --config "$TMP/site/mx.ini"; has "$out" RDMARUN-PORT-DROPPED; }
within 30 dropped
caught "eth0 left down past drop-after (1 s)" RDMARUN-PORT-DROPPED
ip link set eth0 up && within 30 active
# A flap: down and up again, three times, a check at each.
for i in 1 2 3; do
    run "$RDMARUN" check --config "$TMP/site/mx.ini"
    ip link set eth0 down && within 20 not_active
    run "$RDMARUN" check --config "$TMP/site/mx.ini"
    ip link set eth0 up && within 30 active
done
caught "eth0 down and up 3 times, each down seen by a check" RDMARUN-FLAP
mx_conf "$TMP/site/mx-noflap.ini" 'modules = rdma_rxe\n'
# The MTU changed under the port.
omtu=$(cat /sys/class/net/eth0/mtu)
ip link set eth0 mtu 1000
mtu_changed() { run "$RDMARUN" check --config "$TMP/site/mx-noflap.ini"; has "$out" RDMARUN-MTU; }
within 20 mtu_changed
caught "eth0's MTU 1000: rxe0's active MTU below $amtu" RDMARUN-MTU
ip link set eth0 mtu "$omtu"
# The locked-memory limit lowered.
run sh -c 'ulimit -l 64 && exec "$0" check --config "$1"' "$RDMARUN" "$TMP/site/mx-noflap.ini"
caught "ulimit -l 64" RDMARUN-MEMLOCK
# A module the site requires is not loaded.
if [ ! -d /sys/module/ib_ipoib ]; then
    mx_conf "$TMP/site/mx-mod.ini" 'modules = rdma_rxe,ib_ipoib\n'
    run "$RDMARUN" check --config "$TMP/site/mx-mod.ini"
    caught "ib_ipoib required, not loaded" RDMARUN-MODULE
fi
# A GID gone with the IP address: the node no longer matches its manifest.
addr=$(ip -4 -o addr show dev eth0 | awk '{print $4; exit}')
ip addr del "$addr" dev eth0
gid_gone() { run "$RDMARUN" check --config "$TMP/site/mx-noflap.ini"; has "$out" RDMARUN-MANIFEST-GID; }
within 20 gid_gone
caught "the IPv4 address $addr removed: its RoCE GIDs gone" RDMARUN-MANIFEST-GID
ip addr add "$addr" dev eth0
# The loopback bandwidth below the site's floor.
mx_conf "$TMP/site/mx-lb.ini" 'loopback = yes\nmin-loopback-gbps = 1000\n'
within 20 roce_v2_gid
run "$RDMARUN" check --config "$TMP/site/mx-lb.ini"
caught "min-loopback-gbps 1000" RDMARUN-LOOPBACK-BW
# The rxe device removed.
rdma link delete rxe0
run "$RDMARUN" check --config "$TMP/site/mx-noflap.ini"
caught "rdma link delete rxe0" RDMARUN-DEVICE-ABSENT
rdma link add rxe0 type rxe netdev eth0
within 20 roce_v2_gid
echo "# fault matrix in the VM, injected for real: caught $caught/$faults"
[ "$caught" = "$faults" ]; ok $? "fault matrix in the VM: caught $caught/$faults, each with its own code"

done_testing
