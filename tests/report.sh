#!/bin/sh
# rdmarun report: the fleet view of records rdmarun itself wrote (checks of
# recorded nodes with --json, verdicts of recorded logs with verify --json,
# as every evidence folder's verdict.json holds them) and a path test's
# JSON written by hand; the expected rows are counted by hand below.
. "${RDMARUN_SRCDIR:-.}/tests/lib.sh"
F=$TMP/fleet
mkdir -p "$F/checks" "$F/runs/a" "$F/runs/b" "$F/runs/c" "$F/runs/d" "$TMP/site"
printf '[check]\ntimeout = %s\n' "$(scaled 20)" >"$TMP/site/any.ini"
rec() {  # NODE TREE K: check NODE on a recorded TREE, saved as NODE.K.json
    "$RDMARUN" check --json --config "$TMP/site/any.ini" --node "$1" --sysfs "$DATA/sysfs/$2" \
        >"$F/checks/$1.$3.json" 2>/dev/null
}
# n1: 5 healthy checks; n2: 5 healthy, 1 on a node without devices; n3: 4
# with port 1 DOWN.
for k in 1 2 3 4 5; do rec n1 rxe $k; rec n2 rxe $k; done
rec n2 none 6
for k in 1 2 3 4; do rec n3 ib-down $k; done
# Runs: node1 and node2 fell back (Open MPI's btl/tcp between them), acn01
# ran over RDMA, cn07 fell back, and a run whose log names no host.
"$RDMARUN" verify --json "$DATA/logs/ompi-btl-tcp-connect-inter.log" >"$F/runs/a/verdict.json"
"$RDMARUN" verify --json "$DATA/logs/ucx-1.14-inter-rdma.log" >"$F/runs/b/verdict.json"
"$RDMARUN" verify --json "$DATA/logs/ucx-debug-tcp-connect.log" >"$F/runs/c/verdict.json"
"$RDMARUN" verify --json "$DATA/logs/impi-pinning-two-hosts-tcp.log" >"$F/runs/d/verdict.json"
# A path test of a ring of 3 (check --path-test --json's shape): n1-n2 good,
# n2-n3 failed at the QP's RTR step, n3-n1 failed.
cat >"$F/path.json" <<'JSON'
{"passed": false, "summary": "2 of 3 paths failed", "seconds": 4.2, "pairs_tested": "ring",
 "nodes": [{"rank": 0, "host": "n1"}, {"rank": 1, "host": "n2"}, {"rank": 2, "host": "n3"}],
 "pairs": [{"from": 0, "to": 1, "reported": true, "ok": true, "step": null, "error": null},
           {"from": 1, "to": 2, "reported": true, "ok": false, "step": "rtr", "error": "timeout"},
           {"from": 2, "to": 0, "reported": true, "ok": false, "step": "rts", "error": "timeout"}],
 "findings": []}
JSON
# Hostile neighbours: a link to more records (never followed), a FIFO named
# .json (never opened), and a .json that is not a record.
mkdir -p "$TMP/elsewhere" && cp "$F/checks/n3.1.json" "$TMP/elsewhere/n3.9.json"
ln -s "$TMP/elsewhere" "$F/link"
mkfifo "$F/fifo.json"
echo '{"something": "else"}' >"$F/other.json"

run "$RDMARUN" report "$F"
check "report: 20 records (15 checks, 4 runs with a host, a path test) on 7 nodes" 0 \
    "rdmarun report: 20 records (15 checks, 4 runs) on 7 nodes; 1 other .json files skipped"
row() { printf '%s\n' "$out" | awk -v n="$1" '$1 == n'; }
n3=$(row n3)
set -- $n3
[ "$1 $2 $3" = "n3 4 4" ] && has "$n3" "RDMARUN-PORT-DOWN x4"
ok $? "n3: 4 checks, 4 failed, its port DOWN 4 times ($n3)"
[ "$(printf '%s\n' "$out" | sed -n 4p | awk '{print $1}')" = n3 ]; ok $? "n3 has the most trouble: first row"
set -- $(row n2)
[ "$1 $2 $3" = "n2 6 1" ] && has "$(row n2)" "RDMARUN-NO-DEVICE x1"; ok $? "n2: 6 checks, 1 failed, no device ($(row n2))"
set -- $(row node1)
[ "$1 $2 $3" = "node1 0 0" ] && has "$(row node1)" " 1         1  "; ok $? "node1: 1 run, fell back once ($(row node1))"
has "$(row acn01)" "-                     1         0  -"; ok $? "acn01: 1 run over RDMA, none fell back ($(row acn01))"
check "pairs whose path test failed, with the step" 0 "n2 - n3: 1 of 1 tests failed, last" "at step rtr" \
    "n1 - n3: 1 of 1 tests failed"
check_without "the good pair is not listed" 0 "n1 - n2:" "n2 - n3"
# Odd one out by hand: n3 4 of 4 went wrong (100%); the others 1 of 6 (n2)
# + 3 of 4 runs (node1, node2, cn07) = 4 of 15 (27%): 100% >= 3 x 27%.
check "n3 is the odd one out, with the figures" 0 \
    "Odd one out: n3: 4 of 4 checks and runs went wrong (100%), the other nodes' 4 of 15 (27%)"
check_without "n2 (1 failure) is not" 0 "Odd one out: n2" "Odd one out: n3"
check_without "the link's records are not read" 0 "21 records" "20 records"

run "$RDMARUN" report --csv "$F"
python3 - "$TMP/out" <<'PY'
import csv, sys
rows = {r["node"]: r for r in csv.DictReader(open(sys.argv[1]))}
assert rows["n3"]["failed"] == "4" and rows["n3"]["odd"] == "yes", rows["n3"]
assert rows["n2"]["checks"] == "6" and rows["n2"]["codes"] == "RDMARUN-NO-DEVICE x1", rows["n2"]
assert rows["cn07"]["fell_back"] == "1" and rows["n1"]["pairs_failed"] == "1", rows
assert len(rows) == 7
PY
ok $? "--csv: one row per node, read back by Python's csv"
run "$RDMARUN" report --json "$F"
python3 - "$TMP/out" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
nodes = {n["node"]: n for n in d["nodes"]}
assert d["records"] == 20 and nodes["n3"]["codes"] == {"RDMARUN-PORT-DOWN": 4}, nodes["n3"]
assert nodes["n3"]["odd"] and not nodes["n2"]["odd"]
pairs = {(p["a"], p["b"]): p for p in d["pairs"]}
assert pairs[("n2", "n3")]["failed"] == 1 and pairs[("n1", "n2")]["failed"] == 0
PY
ok $? "--json: nodes, codes, the odd one and the pairs"

# --plot: n3's checks moved to three days (their "time"), by hand.
python3 - "$F/checks" <<'PY'
import json, sys, time
day = 86400
today = int(time.time()) // day * day + 3600
for k, ago in ((1, 2), (2, 1), (3, 0), (4, 0)):
    p = "%s/n3.%d.json" % (sys.argv[1], k)
    d = json.load(open(p)); d["time"] = today - ago * day; json.dump(d, open(p, "w"))
PY
run "$RDMARUN" report --plot "$F"
check "--plot: n3 failed on each of 3 days" 0 "Each node's days" "  n3               |XXX|"
# Runs are dated by their files: node1's run today, with n1's checks.
check "--plot: a day with a fallback" 0 "  node1            |  F|"
run "$RDMARUN" report --json --plot "$F"
check "--plot goes with the table only" 64 "--plot draws on the table"
run "$RDMARUN" report
check "report without a path" 64 "'report' needs folders or files of records"
run "$RDMARUN" report "$TMP/nothing-here"
check "a path that is not there" 66 "cannot read $TMP/nothing-here"
mkdir -p "$TMP/empty"
run "$RDMARUN" report "$TMP/empty"
check "a folder without records" 66 "no record of a run or a check under $TMP/empty"
printf '{"node": "\\u001b[31mred\\u001b[0m", "healthy": false, "checks": [], "codes": ["RDMARUN-X\\u001b]0;t\\u0007"]}\n' \
    >"$TMP/empty/esc.json"
run "$RDMARUN" report "$TMP/empty"
case $out in *"$(printf '\033')"*) r=1 ;; *) r=0 ;; esac
[ $r = 0 ] && has "$out" "red"; ok $? "a node name with escape sequences is shown, never sent to the terminal"
done_testing
