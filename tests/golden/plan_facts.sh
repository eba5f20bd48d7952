#!/bin/sh
# The plan facts that matter in the golden cases (ports, GID index, TLS,
# NCCL_IB_HCA, exit status, each rank's NUMA node, cores and NIC), against
# tests/golden/plan_facts.expected: values written by hand from the profiles
# and the recorded sysfs trees, with their reasons. The goldens only say that
# the output did not change; this says it is right. Each rank's PUs are also
# checked with hwloc-calc on the same XML, and its NIC's locality with the
# NIC's numa_node in the tree.
. "${RDMARUN_SRCDIR:-.}/tests/lib.sh"
command -v hwloc-calc >/dev/null || { echo "1..0 # SKIP hwloc-calc not installed"; exit 0; }
GOLDEN_TOPO=$DATA/topology/2pkg-2numa.xml
TOPO=$GOLDEN_TOPO
RECORDED=$TOPOLOGIES
TABLE=$SRC/tests/golden/plan_facts.expected
calc() { hwloc-calc --input "$TOPO" "$@" 2>/dev/null </dev/null; }

# The table's "nearest to NUMA 0" rests on where Open MPI maps the ranks.
[ "$(calc core:0-1 --intersect NUMAnode)" = 0 ]
ok $? "hwloc: 2 ranks mapped by core (cores 0-1) are on NUMA 0"
[ "$(calc package:0-1 --intersect NUMAnode)" = 0,1 ]
ok $? "hwloc: 4 ranks mapped by package are on NUMA 0 and 1"

# facts CASE: the plan's facts of one case, "KEY VALUE" lines (- unset), into
# $TMP/facts; NODE+XML takes a recorded machine's topology (1 when it is missing).
facts() {
    _p=${1%%@*} _rest=${1#*@}
    _node=${_rest%%/*} _np=2 _policy=
    TOPO=$GOLDEN_TOPO
    case $_node in *+*) TOPO=$RECORDED/${_node#*+}.xml _node=${_node%%+*} ;; esac
    [ -f "$TOPO" ] || return 1
    case $_rest in */*) _np=${_rest#*/} ;; esac
    case $_np in */*) _policy=${_np#*/} _np=${_np%%/*} ;; esac
    "$RDMARUN" --dry-run --json --mpirun mpirun --evidence-dir /EVIDENCE --topology "$TOPO" \
        --sysfs "$DATA/sysfs/$_node" -p "$_p" -np "$_np" ${_policy:+--bind-policy "$_policy"} \
        ./mpi_hello >"$TMP/json" 2>"$TMP/err" </dev/null
    echo "status $?" >"$TMP/facts"
    python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for i in d["items"]:
    print(i["name"], "-" if i["value"] is None else i["value"])
p = d.get("placement")
for r in p["ranks"] if p else []:
    print("rank.%d numa=%s,cores=%d,nic=%s" % (r["local_rank"], ",".join(map(str, r["numa"] or [])),
          r["cores"], r["nic"] or "-"))
    print("pus.%d %s %s %d" % (r["local_rank"], r["pus"], r["nic"] or "-", int(r["nic_local"])))
    print("gpus.%d %s" % (r["local_rank"], ",".join(r["gpus"]) or "-"))
    print("gpulocal.%d %d" % (r["local_rank"], int(r["gpu_local"])))
' "$TMP/json" >>"$TMP/facts" 2>>"$TMP/err"
}

# hwloc_rank CASE N: rank N's PUs, per hwloc-calc, are on its NUMA node and
# make whole cores of its count; its NIC is local exactly when the NIC's
# numa_node (the sysfs tree) is the rank's.
hwloc_rank() {
    set -- "$1" "$2" $(sed -n "s/^pus\.$2 //p" "$TMP/facts")
    _case=$1 _rk=$2 _pus=$3 _nic=$4 _local=$5
    _line=$(sed -n "s/^rank\.$_rk //p" "$TMP/facts")
    _numa=${_line#numa=}; _numa=${_numa%%,cores=*}
    _cores=${_line#*cores=}; _cores=${_cores%%,*}
    _args=$(echo "$_pus" | tr ',' '\n' | sed 's/^/pu:/' | tr '\n' ' ')
    _hnuma=$(calc --pi $_args --intersect NUMAnode --po)
    _hcores=$(calc --pi $_args -N core)
    _hwhole=$(calc $(calc --pi $_args --intersect core | tr ',' '\n' | sed 's/^/core:/') -N pu)
    _hpus=$(calc --pi $_args -N pu)
    [ "$_hnuma" = "$_numa" ] && [ "$_hcores" = "$_cores" ] && [ "$_hwhole" = "$_hpus" ]
    _r=$?
    [ $_r = 0 ] || echo "# PUs $_pus: hwloc NUMA $_hnuma, $_hcores cores of $_hwhole PUs ($_hpus PUs)"
    ok $_r "$_case rank $_rk: PUs $_pus are NUMA $_numa, $_cores whole cores (hwloc-calc)"
    _dev=${_nic%%:*} _node=${_case#*@}
    _node=${_node%%/*}
    _f=$DATA/sysfs/${_node%%+*}/class/infiniband/$_dev/device/numa_node
    if [ "$_nic" != - ] && [ -r "$_f" ]; then
        _want=0
        case ",$_numa," in *",$(cat "$_f"),"*) _want=1 ;; esac
        [ "$_local" = "$_want" ]
        ok $? "$_case rank $_rk: $_nic (sysfs numa_node $(cat "$_f")) is local: $_want"
    fi
}

# hwloc_gpus N: each GPU of rank N is, per hwloc-calc, on the rank's NUMA
# node exactly when the plan calls it local.
hwloc_gpus() {
    _line=$(sed -n "s/^rank\.$1 //p" "$TMP/facts")
    _numa=${_line#numa=}; _numa=${_numa%%,cores=*}
    _want=1
    for _g in $(sed -n "s/^gpus\.$1 //p" "$TMP/facts" | tr ',' ' '); do
        case ",$_numa," in *",$(calc os="$_g" --intersect NUMAnode),"*) ;; *) _want=0 ;; esac
    done
    [ "$(sed -n "s/^gpulocal\.$1 //p" "$TMP/facts")" = $_want ]
    ok $? "$case rank $1: its GPUs' NUMA nodes (hwloc-calc) make gpu_local $_want"
}

last=
grep -v '^#' "$TABLE" >"$TMP/table"
while read -r case key want reason; do
    [ -n "$case" ] || continue
    if [ "$case" != "$last" ]; then
        facts "$case"
        skip_case=$?
        last=$case
    fi
    if [ $skip_case != 0 ]; then   # the topologies ship with the tests
        ok 1 "$case: $key (no $TOPO)"
        continue
    fi
    got=$(sed -n "s/^$key //p" "$TMP/facts" | head -1)
    [ -n "$got" ] || got=-   # an item the plan does not have is unset
    [ "$got" = "$want" ]
    r=$?
    [ $r = 0 ] || sed 's/^/#   stderr: /' "$TMP/err" | head -5
    ok $r "$case: $key is $want (got $got): $reason"
    case $key in
    rank.*) hwloc_rank "$case" "${key#rank.}" ;;
    gpus.*) hwloc_gpus "${key#gpus.}" ;;
    esac
done <"$TMP/table"
# Every plan golden of tests/golden/dry_run.sh has rows here: none is left
# with no check but its own earlier output.
for f in "$SRC"/tests/golden/expected/*@*.txt "$SRC"/tests/golden/expected/*@*.json; do
    c=${f##*/}
    c=${c%.*}
    case $c in probe@*) continue ;; esac   # tests/golden/probe_facts.sh's
    awk -v c="$c" '$1 == c || index($1, c "/") == 1 {f = 1} END {exit !f}' "$TMP/table"
    ok $? "golden ${f##*/} has its facts in plan_facts.expected"
done
done_testing
