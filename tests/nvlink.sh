#!/bin/bash
# NVLink between a node's GPUs, from hwloc's "NVLinkBandwidth" distances
# (hwloc topology-nvml.c hwloc__nvml_add_nvlink_bandwidth), and what
# verify = strict sets from it (issue 46): NCCL's own fail-closed switches
# where NVLink joins every pair. The matrices are written into LLNL
# Lassen's recorded tree (4 V100, nvml0-3) in hwloc's XML form (distances2,
# gp indexes, as hwloc's XML export writes them): Lassen's own layout (two
# GPUs a socket joined by NVLink, none across), and every pair joined.
. "$RDMARUN_SRCDIR/tests/lib.sh"
LASSEN=$RDMARUN_SRCDIR/tests/data/topologies/coral-lassen.xml
# with_nvlink OUT VALUES...: Lassen's tree with an NVLinkBandwidth matrix
# over nvml0-3 (gp 420-423), row by row.
with_nvlink() {
    python3 - "$LASSEN" "$@" <<'PY'
import sys
src, out, vals = sys.argv[1], sys.argv[2], " ".join(sys.argv[3:]) + " "
idx = "420 421 422 423 "
m = ('  <distances2 type="OSDev" nbobjs="4" kind="9" name="NVLinkBandwidth" indexing="gp">\n'
     f'    <indexes length="{len(idx)}">{idx}</indexes>\n'
     f'    <u64values length="{len(vals)}">{vals}</u64values>\n  </distances2>\n')
open(out, "w").write(open(src).read().replace("</topology>", m + "</topology>"))
PY
}
L=75000
with_nvlink "$TMP/pairs.xml" 0 $L 0 0  $L 0 0 0  0 0 0 $L  0 0 $L 0
with_nvlink "$TMP/all.xml" 0 $L $L $L  $L 0 $L $L  $L $L 0 $L  $L $L $L 0

run "$RDMARUN" probe --json --topology "$TMP/pairs.xml"
python3 -c 'import json, sys
d = json.loads(sys.stdin.read())
assert [g["nvlink_peers"] for g in d["gpus"]] == [1, 1, 1, 1], d["gpus"]
' <<<"$out"
ok $? "Lassen's layout: each GPU reaches one other over NVLink"
run "$RDMARUN" probe --topology "$TMP/all.xml"
check "every pair joined: probe says NVLink to 3 of 3 GPUs" 0 "NVLink to 3 of 3 GPUs"
run "$RDMARUN" probe --json --topology "$LASSEN"
python3 -c 'import json, sys
d = json.loads(sys.stdin.read())
assert all(g["nvlink_peers"] is None for g in d["gpus"]), d["gpus"]
' <<<"$out"
ok $? "a tree without the matrix: NVLink not known (null), not said"

plan() { run "$RDMARUN" --dry-run -p tcp --topology "$1" "${@:2}" -np 4 ./prog; }
plan "$TMP/all.xml" --verify strict
check "strict, NVLink between every pair: NCCL's SHM and intra-node NET are off, each with why" 0 \
    "-x NCCL_SHM_DISABLE=1" "-x NCCL_NET_DISABLE_INTRA=1" "verify strict" \
    "a broken NVLink path"
plan "$TMP/pairs.xml" --verify strict
check_without "strict, NVLink only within each socket's pair: not set (P2P across needs a way)" 0 \
    "NCCL_SHM_DISABLE" "verify: strict"
plan "$TMP/all.xml" --verify warn
check_without "warn: not set" 0 "NCCL_SHM_DISABLE" "verify: warn"
plan "$TMP/all.xml" --verify strict --set nccl.SHM_DISABLE=0
check "a profile's own NCCL_SHM_DISABLE is kept, said in a note" 0 \
    "NCCL_SHM_DISABLE=0 from --set is kept (verify = strict would set 1" "-x NCCL_NET_DISABLE_INTRA=1"
done_testing
