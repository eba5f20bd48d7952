#!/bin/sh
# The probe goldens' oracle (tests/golden/dry_run.sh keeps probe@NODE.json
# and .txt for every recorded tree): each device, port, GID, counter and PCIe
# link read from the tree's own sysfs files by tests/golden/probe_oracle.py,
# not through rdmarun, and the host's packages, cores, PUs and NUMA nodes from
# hwloc-calc on the same XML. A golden regenerated from wrong output (its
# RDMARUN_REGEN=1) fails here.
. "${RDMARUN_SRCDIR:-.}/tests/lib.sh"
require_hwloc_tools
EXP=$SRC/tests/golden/expected
TOPO=$DATA/topology/2pkg-2numa.xml
calc() { hwloc-calc --input "$TOPO" "$@" 2>/dev/null </dev/null; }
packages=$(calc -N package all) cores=$(calc -N core all) pus=$(calc -N pu all)
numa0=$(calc numa:0 --intersect PU | tr ',' '\n' | sed -n '1p;$p' | paste -sd-)
numa1=$(calc numa:1 --intersect PU | tr ',' '\n' | sed -n '1p;$p' | paste -sd-)
[ "$packages" -gt 0 ] && [ -n "$numa0" ]; ok $? "hwloc-calc reads the goldens' topology"

for tree in "$DATA"/sysfs/*/; do
    tree=${tree%/}
    node=${tree##*/}
    json=$EXP/probe@$node.json txt=$EXP/probe@$node.txt
    [ -f "$json" ] && [ -f "$txt" ]; ok $? "$node: its probe goldens are there"
    python3 "$SRC/tests/golden/probe_oracle.py" "$tree" "$json" "$txt" >"$TMP/oracle" 2>&1
    r=$?
    relay_tap "$TMP/oracle" ""
    grep -q "^ok - " "$TMP/oracle" && ! grep -vq "^\(not \)\{0,1\}ok - " "$TMP/oracle"
    ok $? "$node: the oracle checked it and said nothing else (status $r)"
    head -1 "$txt" | grep -q "^host (name unknown): $packages packages, $cores cores, $pus PUs, 2 NUMA nodes;" &&
        grep -q "^  NUMA 0: PUs $numa0 (" "$txt" && grep -q "^  NUMA 1: PUs $numa1 (" "$txt"
    ok $? "$node: the text's host is hwloc-calc's ($packages packages, $cores cores, $pus PUs, NUMA 0 $numa0, 1 $numa1)"
done
# Every probe golden has its tree: none is left without the oracle.
for f in "$EXP"/probe@*; do
    n=${f##*/probe@}
    [ -d "$DATA/sysfs/${n%.*}" ]; ok $? "probe@$n is checked against tree ${n%.*}"
done
done_testing
