#!/bin/sh
# rdmarun verify: every log format in tests/data/logs gets its expected
# verdict (tests/data/logs/EXPECTED) and exit status; directories and
# several paths; JSON fields.
. "${RDMARUN_SRCDIR:-.}/tests/lib.sh"
LOGS=$DATA/logs
status_of() {
    case $1 in rdma) echo 0 ;; fallback) echo 80 ;; local) echo 81 ;; unknown) echo 82 ;; esac
}
grep -v '^#' "$LOGS/EXPECTED" | while read -r file want; do
    run "$RDMARUN" verify --json "$LOGS/$file"
    got=$(printf '%s' "$out" | python3 -c 'import json, sys; print(json.load(sys.stdin)["verdict"])')
    [ "$got" = "$want" ] && [ "$rc" = "$(status_of "$want")" ]
    ok $? "$file: verdict $want, status $(status_of "$want") (got $got, $rc)"
done >"$TMP/tap"
cat "$TMP/tap"
_n=$(grep -c '^\(not \)\?ok' "$TMP/tap")
_failed=$(grep -c '^not ok' "$TMP/tap")

run "$RDMARUN" verify "$LOGS/ucx-1.13-rxe.log"
check "text verdict for RDMA" 0 "rdmarun: RDMA verified: 1 process, lanes rc_verbs/rxe0:1, no TCP lanes"
run "$RDMARUN" verify "$LOGS/ucx-interleaved-diag-warn.log"
check "text verdict names the process, host, transport and line" 80 \
    "FALLBACK: process 4242 on c11 used tcp/eth0" "ucx-interleaved-diag-warn.log:7"
run "$RDMARUN" verify "$LOGS/nccl-no-device.log"
check "NCCL without an RDMA device is a fallback" 80 "FALLBACK"
run "$RDMARUN" verify "$LOGS/ucx-1.13-rxe.log" "$LOGS/ucx-1.13-tcp.log"
check "one TCP path among several files is a fallback" 80 "FALLBACK"
mkdir -p "$TMP/job"
cp "$LOGS/ucx-1.13-rxe.log" "$TMP/job/ucx.node1.2213.log"
cp "$LOGS/ucx-pasted-noprefix.log" "$TMP/job/ucx.node2.900.log"
run "$RDMARUN" verify --json "$TMP/job"
check "a directory: every file read" 0 '"files": 2' '"verdict": "rdma"' '"host": "node2"' '"pid": 900'
run "$RDMARUN" verify "$TMP/missing"
check "a missing path" 66 "cannot read"
run "$RDMARUN" verify
check "no path" 64 "'verify' needs log files"

done_testing
