#!/bin/bash
# The expectation travels with the run (issue 46): a real job run as TCP on
# purpose (-p tcp) records its expect in verify.json, and verify DIR and
# report judge it by that later, not as a fallback; the same logs without
# the record are judged as they read. Real Open MPI jobs over UCX's tcp.
. "$RDMARUN_SRCDIR/tests/lib.sh"
HELLO=$BUILD/examples/mpi_hello
evidence_in() { evidence_path <<<"$err"; }
mkdir "$TMP/w" && cd "$TMP/w"
run "$RDMARUN" -p tcp $MPIRUN_ROOT -np 2 "$HELLO"
dir=$(evidence_in)
check "a TCP run on purpose: as intended, never a fallback" 0 "rank 1 of 2" "$ONE_NODE_TCP_TEXT"
python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
assert d["expect"] == "tcp" and d["expected"] is True and d["expect_reason"], d
' "$dir/verdict.json"
ok $? "verdict.json records the expectation, its reason and that it was met"
run "$RDMARUN" verify "$dir"
check "verify of its evidence folder later: met, status 0" 0 "rdmarun: "
if [ "$ONE_NODE_TCP" = fallback ]; then
    # UCX 1.13 cannot say the TCP stayed on the node: the logs alone read
    # as a fallback, the run's own record says it was meant.
    check_without "and said as intended, not as a FALLBACK" 0 "FALLBACK" "TCP, as intended (expect tcp"
    run "$RDMARUN" verify --expect rdma "$dir"
    check "--expect rdma overrides the record: a fallback (80)" 80 "FALLBACK"
    mv "$dir/verdict.json" "$TMP/verdict.json"
    run "$RDMARUN" verify "$dir"
    check "without its record the same logs read as they are: a fallback (80)" 80 "FALLBACK"
    mv "$TMP/verdict.json" "$dir/verdict.json"
fi
run "$RDMARUN" report --json "$TMP/w"
python3 -c 'import json, sys
d = json.loads(sys.stdin.read())
assert d["nodes"] and all(n["runs"] >= 1 and n["fell_back"] == 0 for n in d["nodes"]), d
' <<<"$out"
ok $? "report counts the run as expected, not as fallen back"
# A recorded expect any (the default profile on a node without RDMA) never
# makes TCP a red FALLBACK.
sed -i 's/"expect": "tcp"/"expect": "any"/; s/"expect_reason": "[^"]*"/"expect_reason": "fabric auto"/' "$dir/verdict.json"
run "$RDMARUN" verify --color always "$dir"
check_without "expect any: TCP said as allowed, no FALLBACK in red" 0 "FALLBACK" "rdmarun: "
done_testing
