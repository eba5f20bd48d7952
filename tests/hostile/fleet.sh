#!/bin/bash
# Hostile cases (issue 47): rdmarun report on what a fleet really writes and
# on records made to hurt it. A node that never answered a path test is
# named (the real check --path-test --json, where a silent node has no
# record of its own); 600,000 fault codes in one record and 250,000 hosts in
# one are read in bounded time; records dated 2100 or 2^63-1 move nothing.
. "${RDMARUN_SRCDIR:-.}/tests/lib.sh"
cd "$TMP" || exit 1
mkdir -p real big dated

if command -v mpirun >/dev/null; then
    "$RDMARUN" check --path-test $MPIRUN_ROOT -H localhost,nosuch.invalid \
        --path-timeout "$(scaled 20)" --json >real/path.json 2>real/path.err
    st=$?
    python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["passed"] is False and "nosuch.invalid" in d["silent_hosts"], d
assert d["hosts"][1:] == ["nosuch.invalid"], d["hosts"]
' real/path.json
    ok $? "check --path-test --json (status $st): the hosts asked for, and nosuch.invalid among those silent"
    run "$RDMARUN" report real
    check "report on it names the silent node" 0 "Nodes that did not answer a path test:" \
        "  nosuch.invalid: 1 time, last "
    set -- $(printf '%s\n' "$out" | awk '$1 == "nosuch.invalid"')
    [ "$8" = 1 ]; ok $? "its row counts the path test it failed ($*)"
else
    skip "check --path-test --json names the silent host" "mpirun not installed"
    skip "report names the silent node" "mpirun not installed"
    skip "its row counts it" "mpirun not installed"
fi

# One check record with 600,000 distinct fault codes; one path test whose
# 250,000 hosts were silent; one run's verdict naming 250,000 hosts.
python3 - <<'PY'
import json
codes = ["RDMARUN-X%d" % i for i in range(600000)]
json.dump({"node": "n1", "healthy": False, "time": 1700000000, "checks": [], "codes": codes},
          open("big/codes.json", "w"))
hosts = ["h%d" % i for i in range(250000)]
json.dump({"passed": False, "pairs_tested": "ring", "nodes": [], "pairs": [],
           "hosts": hosts, "silent_hosts": hosts}, open("big/silent.json", "w"))
json.dump({"verdict": "fallback", "observations": [{"host": h, "path": "tcp"} for h in hosts]},
          open("big/verdict.json", "w"))
PY
t0=$(date +%s%N)
run "$RDMARUN" report --json big
t1=$(date +%s%N)
ms=$(((t1 - t0) / 1000000))
check "report on 600,000 codes and twice 250,000 hosts" 0 '"records": 3'
[ "$ms" -le $((20000 * SLOWDOWN)) ]; ok $? "in bounded time: $ms ms (limit $((20 * SLOWDOWN)) s; linear lookups took minutes)"
python3 -c '
import json, sys
d = json.loads(sys.stdin.read())
n = {x["node"]: x for x in d["nodes"]}
assert len(n["n1"]["codes"]) == 600000 and len(n) == 250001, len(n)
assert n["h7"]["path_silent"] == 1 and n["h7"]["fell_back"] == 1, n["h7"]
' <<<"$out"
ok $? "every code and every host counted once"

# Dated in 2100 and at 2^63-1: undated, said; the plot stays on today.
now=$(date +%s)
printf '{"node": "d1", "healthy": false, "time": %s, "checks": [], "codes": ["A"]}\n' "$now" >dated/now.json
printf '{"node": "d2", "healthy": false, "time": 4102444800, "checks": [], "codes": ["B"]}\n' >dated/y2100.json
printf '{"node": "d3", "healthy": false, "time": 9223372036854775807, "checks": [], "codes": ["C"]}\n' >dated/max.json
run "$RDMARUN" report --plot dated
check "records dated 2100 and 2^63-1: counted undated, said" 0 \
    "3 records (3 checks, 0 runs) on 3 nodes; 2 undated (a time before 2000 or after tomorrow)"
check_without "no date past the year 9999 printed" 0 "219250468" "undated"
has "$out" "$(date -u +%Y-%m-%d)" || has "$out" "$(date -u -d @"$now" +%m-%d)"
ok $? "the plot and the last failure are today's"
done_testing
