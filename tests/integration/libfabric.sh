#!/bin/bash
# libfabric's own words as evidence (issue 46), on real runs: Open MPI's
# mtl ofi over libfabric's tcp and shm providers with FI_LOG_LEVEL=info ("Opened
# fabric: SUBNET", rxm's "connreq for" a peer), and fi_pingpong pairs
# (libfabric-bin) whose client logs the fabric it opened. Each log is
# judged by `rdmarun verify` as a user would paste it.
. "$RDMARUN_SRCDIR/tests/lib.sh"
HELLO=$BUILD/examples/mpi_hello
command -v fi_pingpong >/dev/null || { echo "1..0 # SKIP fi_pingpong (libfabric-bin) is not installed"; exit 0; }
ompi_info --parsable 2>/dev/null | grep -q "mca:mtl:ofi:" ||
    { echo "1..0 # SKIP this Open MPI has no mtl ofi"; exit 0; }
cd "$TMP"

# ofi_job LOG [PROVIDER]: a 2-rank job on Open MPI's cm pml and mtl ofi,
# libfabric's PROVIDER (tcp), libfabric's log at info, into LOG.
ofi_job() {
    local log=$1
    FI_LOG_LEVEL=info timeout 120 mpirun $MPIRUN_ROOT --oversubscribe -np 2 --mca pml cm \
        --mca mtl ofi --mca mtl_ofi_provider_include "${2:-tcp}" -x FI_LOG_LEVEL \
        ${FI_TCP_IFACE:+-x FI_TCP_IFACE} "$HELLO" >"$log" 2>&1
}

# pml_failure LOG: Open MPI's words for a job whose pml could not start (-a:
# libfabric's log holds bytes that make grep call the file binary).
pml_failure() {
    grep -aEo "PML cm cannot be selected|No components were able to be opened in the pml framework" \
        "$1" | head -n 1
}
# job_failed LOG STATUS WHY: the job ended non-zero (WHY), and verify says no
# path was chosen and names Open MPI's words for it (a log without them
# fails: the text looked for is then one no output holds).
job_failed() {
    [ "$2" != 0 ]; ok $? "$3"
    local words
    words=$(pml_failure "$1")
    run "$RDMARUN" verify "$1"
    check "verify: no path was chosen, the failure named" 82 \
        "no verdict: the job failed before any process chose a path" \
        "${words:-(no pml failure of Open MPI in $1)}"
}

ofi_job ofi-tcp.log
ok $? "a 2-rank Open MPI job on mtl ofi over libfabric's tcp provider runs"
grep -q "Opened fabric: " ofi-tcp.log && grep -q "connreq for " ofi-tcp.log
ok $? "libfabric's log names the fabric it opened and the connections to peers"
run "$RDMARUN" verify --json ofi-tcp.log
python3 -c 'import json, sys
d = json.loads(sys.stdin.read())
assert d["verdict"] == "fallback" and d["class"] == "tcp", d
assert any(o["family"] == "libfabric" and o["class"] == "tcp" for o in d["observations"]), d
' <<<"$out"
ok $? "verify: TCP between two processes whose locality no line says: a fallback, class tcp"
run "$RDMARUN" verify --expect tcp ofi-tcp.log
check "--expect tcp: TCP as intended, status 0" 0 "TCP, as intended"

# libfabric 2's tcp provider (Debian 13) cannot listen on lo (xnet_listen's
# "socket listen failed"): the job then fails, and verify names the failure.
FI_TCP_IFACE=lo ofi_job ofi-lo.log
lo_rc=$?
if grep -q "xnet_listen().*socket listen failed" ofi-lo.log; then
    job_failed ofi-lo.log "$lo_rc" "FI_TCP_IFACE=lo: this libfabric's tcp cannot listen on lo, and the job fails"
else
    ok "$lo_rc" "the same job with FI_TCP_IFACE=lo runs"
    run "$RDMARUN" verify ofi-lo.log
    check "a loopback fabric (127.0.0.1/32) keeps the ranks on one host: local, over TCP" 81 \
        "within one node, over TCP (a libfabric tcp connection"
fi

# mtl ofi over libfabric's shm provider. mtl ofi asks for FI_LOCAL_COMM and
# FI_REMOTE_COMM (ompi_mtl_ofi_component_init's hints); libfabric 1.17's shm
# offers neither (prov/shm smr_info caps; ofi_check_info prints "Unsupported
# capabilities"), so there the cm pml cannot be selected and no path was
# chosen: no verdict, status 82. Where shm offers them, the job runs on
# shared memory: local, 81. Which one is libfabric's own line's to say.
# (Open MPI 4 says "PML cm cannot be selected", 5 "No components were able
# to be opened in the pml framework".)
ofi_job ofi-shm.log shm
shm_rc=$?
if grep -q "::shm:core:ofi_check_info():.*Unsupported capabilities" ofi-shm.log &&
    grep -Eq "PML cm cannot be selected|No components were able to be opened in the pml framework" \
        ofi-shm.log; then
    job_failed ofi-shm.log "$shm_rc" \
        "mtl ofi over shm: this libfabric's shm lacks the caps mtl ofi asks for, and the job fails"
else
    ok "$shm_rc" "a 2-rank Open MPI job on mtl ofi over libfabric's shm provider runs"
    run "$RDMARUN" verify ofi-shm.log
    check "verify: mtl ofi over shm is local, on shared memory" 81 "shared memory"
fi

# pp_server PROVIDER EP PORT: start fi_pingpong's server on PORT and wait
# until it listens (status 0) or exits (status 1: its port was taken, by a
# socket in TIME_WAIT for one). Server and client end within a minute.
pp_server() {
    timeout "$(scaled 60)" fi_pingpong -p "$1" -e "$2" -I 100 -B "$3" >server.out 2>&1 &
    server=$!
    server_up() { ss -ltn | grep -q ":$1 " || ! kill -0 $server 2>/dev/null; }
    within 30 server_up "$3" && kill -0 $server 2>/dev/null && return 0
    kill $server 2>/dev/null; wait $server
    echo "# fi_pingpong's server on port $3 did not listen: $(tr '\n' ' ' <server.out)" >&2
    return 1
}
# pingpong PROVIDER EP LOG: fi_pingpong's server and client on this host,
# the client's output (its command first, as users paste it) into LOG. Ports
# lie below Linux's ephemeral range (32768 up) that the jobs before use;
# a port that will not listen is tried again with another, three times.
pingpong() {
    local port try up=1
    for try in 1 2 3; do
        port=$((20000 + RANDOM % 10000))
        ss -tan | grep -q ":$port " && continue   # in use, TIME_WAIT too
        pp_server "$1" "$2" "$port" && { up=0; break; }
    done
    [ $up = 0 ] || return 1
    { echo "\$ fi_pingpong -p $1 -e $2 -I 100 -P $port 127.0.0.1"
      FI_LOG_LEVEL=info timeout "$(scaled 60)" fi_pingpong -p "$1" -e "$2" -I 100 -P "$port" 127.0.0.1 2>&1
    } | grep -v "param_get\|registering provider" >"$3"
    wait $server
}
pingpong shm rdm pp-shm.log
ok $? "fi_pingpong over shm between two processes completes"
run "$RDMARUN" verify pp-shm.log
check "fi_pingpong over shm: local, on shared memory" 81 "shared memory"
pingpong tcp msg pp-tcp.log
ok $? "fi_pingpong over tcp to 127.0.0.1 completes"
run "$RDMARUN" verify pp-tcp.log
check "its client pointed at its own host: local, over TCP" 81 "within one node, over TCP"
sed 1d pp-tcp.log >pp-tcp-nocommand.log
run "$RDMARUN" verify --json pp-tcp-nocommand.log
python3 -c 'import json, sys
d = json.loads(sys.stdin.read())
assert d["verdict"] == "fallback" and d["class"] == "tcp", d
' <<<"$out"
ok $? "the same output without its command: the fabric FI_LOG names (a subnet) is TCP, not known local"
done_testing
