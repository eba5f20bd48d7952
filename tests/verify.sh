#!/bin/sh
# rdmarun verify: every log format in tests/data/logs gets its expected
# verdict (tests/data/logs/EXPECTED) and exit status; directories and
# several paths; JSON fields.
. "${RDMARUN_SRCDIR:-.}/tests/lib.sh"
LOGS=$DATA/logs
status_of() {
    case ${1%@*} in rdma) echo 0 ;; fallback) echo 80 ;; local) echo 81 ;; unknown) echo 82 ;;
    degraded) echo 84 ;; esac
}
grep -v '^#' "$LOGS/EXPECTED" | while read -r file want source; do
    run "$RDMARUN" verify --json "$LOGS/$file"
    # "unknown/no_peer": the verdict and, for unknown, its reason_code;
    # "rdma@efa": and the path class it rests on
    got=$(printf '%s' "$out" | python3 -c 'import json, sys
d = json.load(sys.stdin)
print(d["verdict"] + ("/" + d["reason_code"] if "/" in sys.argv[1] else "")
      + ("@" + d["class"] if "@" in sys.argv[1] else ""))' "$want")
    [ "$got" = "$want" ] && [ "$rc" = "$(status_of "${want%/*}")" ]
    ok $? "$file: verdict $want, status $(status_of "${want%/*}") (got $got, $rc; $source)"
done >"$TMP/tap"
cat "$TMP/tap"
_n=$(grep -c '^\(not \)\?ok' "$TMP/tap")
_failed=$(grep -c '^not ok' "$TMP/tap")

# The verdict explains itself.
run "$RDMARUN" verify --json "$LOGS/nccl-tests-header.log"
check "JSON: the families and the versions the log names" 0 '"families": [' '"nccl"' '"NCCL 2.18.3+cuda12.2"'
run "$RDMARUN" verify --json "$LOGS/nccl-ib-create-qp-failed.log"
check "JSON: why there is no verdict, and the failure's line" 82 '"reason": "no verdict: RDMA was chosen and then failed' \
    '"failure_where": ' "nccl-ib-create-qp-failed.log:4"
run "$RDMARUN" verify --json "$LOGS/no-evidence.log"
check "JSON: the reason for an unknown without evidence" 82 '"reason": "no transport evidence in'
run "$RDMARUN" verify "$LOGS/ucx-proto-table-mixed.log"
check "one TCP lane beside RDMA lanes: a fallback for its share, with the share" 80 \
    "beside RDMA lanes rc_mlx5/mlx5_0:1: part of the traffic goes over TCP (40% of one protocol's"
run "$RDMARUN" verify --json "$LOGS/nccl-rank-prefixes.log"
check "prefixes looked past: the host and pid of each line, an empty hostname as none" 0 \
    '"host": "gpu21"' '"pid": 9001' '"pid": 22901'
run "$RDMARUN" verify --json "$LOGS/impi-mlx.log"
check "Intel MPI's [rank#pid@host] prefix (a provider chosen, no peer: 82)" 82 '"host": "clusternode1"' '"pid": 3520' '"family": "impi"'
run "$RDMARUN" verify "$LOGS/ucx-1.13-rxe.log"
check "text verdict for RDMA" 0 "rdmarun: RDMA verified: 1 process, lanes rc_verbs/rxe0:1, no TCP lanes"
run "$RDMARUN" verify "$LOGS/ucx-interleaved-diag-warn.log"
check "text verdict names the process, host, transport and line" 80 \
    "FALLBACK: process 4242 on c11 used tcp/eth0" "ucx-interleaved-diag-warn.log:7"
run "$RDMARUN" verify "$LOGS/nccl-no-device.log"
check "NCCL without an RDMA device is a fallback" 80 "FALLBACK"
# UCX ending a process itself (a real MPICH job's teardown in the Soft-RoCE
# VM): the verdict on the paths stands and the process is named, with UCX's
# line; its exit status is the job's, not rdmarun's.
run "$RDMARUN" verify --json "$LOGS/mpich-4.2-ucx-1.18-rc-assert-teardown.log"
check "UCX's assertion after RDMA: verdict rdma, the aborted process in JSON" 0 '"verdict": "rdma"' \
    '"aborted": "UCX ended process 2558 on rxe-guest: ib_device.c:210  Assertion `wait_ctx->cb_id == UCS_CALLBACKQ_ID_NULL'"'"' failed"' \
    '"aborted_where": '
run "$RDMARUN" verify "$LOGS/mpich-4.2-ucx-1.18-rc-assert-teardown.log"
check "and in the text, after the verdict" 0 \
    "RDMA verified: 2 processes within one node (through the NIC), lanes rc_verbs/rxe0:1, no TCP lanes; then UCX ended process 2558 on rxe-guest: ib_device.c:210"
# Both ranks' endpoints are UCX's "intra-node cfg#" (one guest, shared memory
# off): RDMA through the NIC, said as within one node; once one endpoint is
# inter-node, the words go.
sed 's/intra-node cfg#/inter-node cfg#/' "$LOGS/mpich-4.2-ucx-1.18-rc-assert-teardown.log" >"$TMP/rc-inter.log"
run "$RDMARUN" verify "$TMP/rc-inter.log"
check "an inter-node endpoint: RDMA verified without 'within one node'" 0 \
    "RDMA verified: 2 processes, lanes rc_verbs/rxe0:1, no TCP lanes"
# The forms UCX prints (debug/assert.c "%13s:%-4u %s" after "[host:pid:thread:tid] ",
# debug.c "Caught signal N (...)"), before any path: the error that ended the job.
printf '%s\n' '[c07:31337:0:31337] Caught signal 11 (Segmentation fault: address not mapped to object at address (nil))' >"$TMP/ucx-signal.log"
run "$RDMARUN" verify "$TMP/ucx-signal.log"
check "UCX's caught signal before any path: no verdict, the process and its line" 82 \
    "no verdict: the job failed before any process chose a path to another: process 31337 on c07 crashed: signal 11 (Segmentation fault"
printf '%s\n' '[c07:31337:0:31337]      ucp_ep.c:1210 Fatal: endpoint reconfiguration not supported yet' >"$TMP/ucx-fatal.log"
run "$RDMARUN" verify "$TMP/ucx-fatal.log"
check "UCX's Fatal: the same" 82 "process 31337 on c07: ucp_ep.c:1210 Fatal: endpoint reconfiguration"
# A program's own words of the same shape are not UCX's: no prefix, no file:line.
printf '%s\n' 'Assertion `x > 0'"'"' failed' '[c07:31337] main.c: Assertion `x'"'"' failed' >"$TMP/app-assert.log"
run "$RDMARUN" verify "$TMP/app-assert.log"
check_without "a program's assertion is not UCX's" 82 "UCX ended" "no transport evidence"
# Lines without a host:pid prefix (pasted from a job's output): the process
# is said to have no host in the log, never "process -1 on ?".
printf 'ep_cfg[0]: tag(self/memory0 tcp/eth0)\nep_cfg[1]: tag(tcp/eth0)\n' >"$TMP/pasted-tcp.log"
run "$RDMARUN" verify "$TMP/pasted-tcp.log"
check_without "UCX lines without a prefix: a process (no host in the log)" 80 "process -1" \
    "FALLBACK: a process (no host in the log) used tcp/eth0 (" "pasted-tcp.log:2)"
check_without "and no '?' for its host" 80 " on ?" "no host in the log"
printf 'NCCL INFO Channel 00 : 0[0] -> 1[0] [send] via NET/Socket/0\n' >"$TMP/pasted-nccl.log"
run "$RDMARUN" verify "$TMP/pasted-nccl.log"
check_without "an NCCL line without a prefix: the same words" 80 "process -1" \
    "FALLBACK: a process (no host in the log) used NET/Socket/0 (" "pasted-nccl.log:1)"
# NCCL's first word of it alone, as strict can stop on it live: the process
# from the line's own host:pid prefix, not from a file's name.
head -n 1 "$LOGS/nccl-no-device.log" >"$TMP/no-device-alone.log"
run "$RDMARUN" verify "$TMP/no-device-alone.log"
check "NET/IB : No device found alone names its process from the line" 80 \
    "FALLBACK: process 777 on gpu03: NCCL found no RDMA device"
run "$RDMARUN" verify "$LOGS/ucx-1.13-rxe.log" "$LOGS/ucx-1.13-tcp.log"
check "one TCP path among several files is a fallback" 80 "FALLBACK"
mkdir -p "$TMP/job"
cp "$LOGS/ucx-1.13-rxe.log" "$TMP/job/ucx.node1.2213.log"
cp "$LOGS/ucx-pasted-noprefix.log" "$TMP/job/ucx.node2.900.log"
run "$RDMARUN" verify --json "$TMP/job"
check "a directory: every file read" 0 '"files": 2' '"verdict": "rdma"' '"host": "node2"' '"pid": 900'
run "$RDMARUN" verify "$TMP/missing"
check "a missing path" 66 "cannot read"

# What a folder holds that is no log is not read as one: a test folder's
# EXPECTED, a README, an earlier verdict.json (whose summary says tcp/eth0).
mkdir -p "$TMP/folder"
cp "$LOGS/ucx-1.13-rxe.log" "$TMP/folder/job.out"
cp "$LOGS/EXPECTED" "$TMP/folder/EXPECTED"
cp "$LOGS/ucx-1.13-tcp.log" "$TMP/folder/README"
"$RDMARUN" verify --json "$LOGS/ucx-1.13-tcp.log" >"$TMP/folder/verdict.json"
run "$RDMARUN" verify --json "$TMP/folder"
check "a folder: its log read, EXPECTED, README and verdict.json not" 0 '"files": 1' '"verdict": "rdma"'
run "$RDMARUN" verify "$TMP/folder"
check "and the files left are named" 0 "folder: not read as logs: EXPECTED, README" "RDMA verified"
# A run directory (its mark, .rdmarun-evidence) is read for the logs
# rdmarun writes there (ucx.log, nccl.log) and the ranks' own
# (ucx.HOST.PID.log); nothing else in it, named or not.
EVR=$TMP/rdmarun-evidence
mkrun() {  # NAME LOG...: a run directory holding these logs as ucx.log, ucx.n2.900.log
    mkdir -p "$EVR/$1" && : >"$EVR/$1/.rdmarun-evidence"
    cp "$2" "$EVR/$1/ucx.log"
    [ -z "$3" ] || cp "$3" "$EVR/$1/ucx.n2.900.log"
}
mkrun node1.100.1796000000.AAAAAA "$LOGS/ucx-1.13-rxe.log" "$LOGS/ucx-pasted-noprefix.log"
cp "$LOGS/ucx-1.13-tcp.log" "$EVR/node1.100.1796000000.AAAAAA/notes.txt"
cp "$TMP/folder/verdict.json" "$EVR/node1.100.1796000000.AAAAAA/verdict.json"
run "$RDMARUN" verify --json "$EVR/node1.100.1796000000.AAAAAA"
check "a run directory: ucx.log and the rank's ucx.n2.900.log, not notes.txt or verdict.json" 0 \
    '"files": 2' '"verdict": "rdma"' '"host": "n2"'
# The folder of many runs: one verdict per run, each naming it, the status
# the worst (a fallback's 80 over RDMA's 0 and local's 81).
mkrun node1.200.1796000100.BBBBBB "$LOGS/ucx-1.13-tcp.log"
mkrun node1.300.1796000200.CCCCCC "$LOGS/ucx-1.13-shm.log"
run "$RDMARUN" verify "$EVR"
check "rdmarun-evidence: one verdict per run, each naming its run; the worst status, 80" 80 \
    "rdmarun: node1.100.1796000000.AAAAAA: RDMA verified" \
    "rdmarun: node1.200.1796000100.BBBBBB: FALLBACK: " \
    "rdmarun: node1.300.1796000200.CCCCCC: local only"
[ "$(printf '%s\n' "$out" | grep -c '^rdmarun: ')" = 3 ]
ok $? "three runs, three verdict lines (not one merged)" || show_run
run "$RDMARUN" verify --json "$EVR"
check "and in JSON: the runs, each with its name" 80 '"runs": [' '"run": "node1.200.1796000100.BBBBBB"'
printf '%s' "$out" | python3 -c 'import json, sys
d = json.load(sys.stdin)
assert [(r["run"], r["verdict"]) for r in d["runs"]] == [
    ("node1.100.1796000000.AAAAAA", "rdma"), ("node1.200.1796000100.BBBBBB", "fallback"),
    ("node1.300.1796000200.CCCCCC", "local")], d'
ok $? "the JSON is one document, a verdict per run in order"
rm -rf "$EVR/node1.200.1796000100.BBBBBB"
run "$RDMARUN" verify "$EVR"
check "RDMA and local only: local's 81 is the worst" 81 "AAAAAA: RDMA verified" "CCCCCC: local only"
run "$RDMARUN" verify
check "no path" 64 "'verify' needs log files"

# Multi-gigabyte input is streamed with bounded memory: 1.5 GiB of log lines,
# then 512 MiB on one endless line, then a fallback at the very end, through a
# pipe (nothing lands on disk). Peak memory is read from the kernel.
{ yes '[1700000000.000000] [node1:4242:0] ucp_worker.c:1891 UCX  DEBUG  a line that is not evidence' |
    head -c 1610612736
  head -c 536870912 /dev/zero | tr '\0' x; echo
  cat "$LOGS/ucx-1.13-tcp.log"; } |
python3 - "$RDMARUN" >"$TMP/big.out" 2>&1 3<&0 <<'PY'
import os, resource, subprocess, sys
r = subprocess.run([sys.argv[1], "verify", "-"], stdin=3, capture_output=True, text=True)
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # KiB
print(r.returncode, peak, r.stdout.strip())
PY
read -r st peak rest <"$TMP/big.out"
[ "$st" = 80 ] && has "$rest" "FALLBACK"
ok $? "2 GiB through a pipe (verify -), an endless line included: the fallback at the end is found ($st: $rest)"
[ "${peak:-999999}" -lt 65536 ]
ok $? "peak memory while reading it: ${peak} KiB (bounded, under 64 MiB)"

# No evidence is dropped at any size: 100,000 processes on rc_mlx5, then one
# whose path between nodes is tcp; and the same with 1,000,000 (issue 32's
# case: the list of observations used to stop at 100,000). Through a pipe.
scale_log() {
    awk -v n="$1" 'BEGIN {
        for (r = 0; r < n; r++)
            printf "[1796126212.%06d] [node%05d:%d :0]      ucp_worker.c:1888 UCX  INFO  ep_cfg[1]: tag(rc_mlx5/mlx5_0:1) am(rc_mlx5/mlx5_0:1);\n", r % 1000000, int(r / 100), 10000 + r % 100
        printf "[1796126299.000000] [node99999:4242 :0]      ucp_worker.c:1888 UCX  INFO  ep_cfg[1]: tag(tcp/eth0) am(tcp/eth0);\n"
    }'
}
for n in 100000 1000000; do
    run "$RDMARUN" verify - < <(scale_log "$n")
    check "$n RDMA processes and one on TCP: a fallback that names the one" 80 \
        "FALLBACK: process 4242 on node99999 used tcp/eth0" "1 of $((n + 1)) processes on 1 host"
done

# What a log directory holds is read only when it is a regular file: a FIFO
# planted there (no writer: a read would wait forever), a device, a link
# (a loop) are skipped with a note; a FIFO named on the command line is a
# stream, and with no writer it ends at once.
mkdir -p "$TMP/hostile" && cp "$LOGS/ucx-1.13-shm.log" "$TMP/hostile/"
mkfifo "$TMP/hostile/planted" && ln -s "$TMP/hostile" "$TMP/hostile/loop" && ln -s /dev/zero "$TMP/hostile/zero"
run timeout 60 "$RDMARUN" verify "$TMP/hostile"
check "a log directory with a FIFO, a link loop and /dev/zero in it: read, not hung" 81 "local only" \
    "planted skipped: not a regular file" "loop skipped: a symlink" "zero skipped: a symlink"
mkfifo "$TMP/lone.fifo"
run timeout 60 "$RDMARUN" verify "$TMP/lone.fifo"
check "a FIFO with no writer named on the command line: ends at once, no evidence" 82 "no transport evidence in 0 lines"
run timeout 60 "$RDMARUN" verify /dev/zero
check "/dev/zero named as a log: refused, not read forever" 66 "/dev/zero: not a regular file"
run "$RDMARUN" verify - <"$LOGS/ucx-1.13-shm.log"
check "'-' reads the log from stdin" 81 "local only"

# --expect: one judgement with the supervisor and compare (verdict_meets).
run "$RDMARUN" verify --expect rdma "$LOGS/ucx-1.13-shm.log"
check "--expect rdma, local only: met (a job on one node needs no network)" 0 "local only"
run "$RDMARUN" verify --expect rdma "$LOGS/no-evidence.log"
check "--expect rdma, no evidence: not met (82)" 82 "no transport evidence"
run "$RDMARUN" verify --expect local "$LOGS/ucx-1.13-rxe.log"
check "--expect local, RDMA: not met (80)" 80 "RDMA verified"
run "$RDMARUN" verify --expect tcp "$LOGS/ucx-1.13-tcp.log"
check "--expect tcp, TCP: met, said as intended" 0 "TCP, as intended (expect tcp: --expect): process"
run "$RDMARUN" verify --expect any "$LOGS/ucx-1.13-tcp.log"
check_without "--expect any, TCP: met, never a FALLBACK" 0 "FALLBACK" "TCP, as allowed (expect any"
# Expectations by path class: rdma takes EFA, Slingshot, Omni-Path, never
# GPUDirect-TCPX; each class meets its own name.
# EXPECT FIXTURE STATUS WORDS
while read -r expect file status words; do
    run "$RDMARUN" verify --expect "$expect" "$LOGS/$file"
    check "--expect $expect, $file: status $status" "$status" "$words"
done <<'CASES'
efa nccl-aws-libfabric-space.log 0 EFA (SRD) verified
rdma nccl-ofi-cxi.log 0 Slingshot (cxi) verified
efa nccl-ofi-cxi.log 80 Slingshot (cxi) verified
rdma nccl-fastrak.log 80 GPUDirect-TCPX verified
gpudirect-tcp nccl-fastrak.log 0 GPUDirect-TCPX verified
CASES
run "$RDMARUN" verify "$LOGS/nccl-nvlink-shm-degraded.log"
check "NVLink in NCCL's graph, SHM used: degraded (84), both lines named" 84 \
    "DEGRADED: " "over shared memory (SHM/direct/direct" "type NVL/PIX"
run "$RDMARUN" verify --expect sometimes "$LOGS/ucx-1.13-tcp.log"
check "--expect takes only rdma, tcp, local or any" 64 "expected rdma|tcp|local|any"
# GPUDirect RDMA on NCCL's channels (NCCL 2.23's net.cc, topo.cc, paths.cc lines).
run "$RDMARUN" verify "$LOGS/nccl-ib.log"
check "NCCL channels over GDRDMA are counted" 0 "NCCL: 2 of 2 network channels use GPUDirect RDMA"
run "$RDMARUN" verify "$LOGS/nccl-gdr-staged.log"
check "channels staged through host memory on a GDR-capable NIC are named, with NCCL's reason" 0 \
    "NCCL: 4 of 4 network channels are staged through host memory although a NIC is GPUDirect-capable" \
    "GPU Direct RDMA Disabled for GPU 1b000 / HCA 1 (distance 7 > 4)"
run "$RDMARUN" verify --json "$LOGS/nccl-gdr-staged.log"
check "verdict.json counts GDRDMA and host-staged channels" 0 '"gdrdma": 0' '"host_staged": 4' '"gdr_capable": true'
# A log's bytes that are not UTF-8 (a host name, a line) reach verdict.json:
# Python's own JSON reader must take it, and the name read back whole where
# it was well-formed.
printf '[1.1] [n\xffde\xc3\xa9:4242:0]      ucp_worker.c:1888 UCX  INFO  ep_cfg[1]: tag(tcp/eth0\xed\xa0\x80);\n' >"$TMP/bytes.log"
run "$RDMARUN" verify --json "$TMP/bytes.log"
python3 -c 'import json, sys
d = json.loads(sys.stdin.buffer.read().decode("utf-8"))
assert d["verdict"] == "fallback", d
assert "n\ufffdde\u00e9" in json.dumps(d, ensure_ascii=False), d
' <<<"$out"
ok $? "bytes that are not UTF-8 in a log: verdict.json still reads as JSON (U+FFFD for them)"

done_testing
