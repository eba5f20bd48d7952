#!/bin/sh
# The per-rank helper (rdmarun rank) on this host: alone, with the local rank
# from each launcher's variables; then in real Open MPI jobs, where every rank
# prints its own affinity, memory policy and environment (examples/mpi_placement),
# checked against rdmarun's report and against Open MPI's --report-bindings.
. "${RDMARUN_SRCDIR:-.}/tests/lib.sh"
PLACE=$BUILD/examples/mpi_placement
command -v mpirun >/dev/null || { echo "1..0 # SKIP mpirun not installed"; exit 0; }

# ---- the helper alone ----
# numa_pus R N: the PUs (hwloc-calc's list) bind policy numa gives local rank
# R of N, from hwloc's own tools on the topology they load (this host's, or
# HWLOC_XMLFILE's): with a PU a rank, the PU of logical index R (hwloc
# orders PUs by NUMA node, core, thread); with 2 ranks, each half of the
# cores in that order. Checked on every recorded topology below.
numa_pus() {
    _pus=$(hwloc-calc --number-of pu all) _cores=$(hwloc-calc --number-of core all)
    _h=$(((_cores + 1) / 2))
    if [ "$2" = "$_pus" ]; then
        _at=pu:$1
    elif [ "$2" = 2 ] && [ "$1" = 0 ]; then
        _at=core:0-$((_h - 1))
    elif [ "$2" = 2 ]; then
        _at=core:$_h-$((_cores - 1))
    else
        return 1
    fi
    hwloc-calc --physical-output --intersect pu "$_at" | tr ',' '\n' | sort -n | paste -sd, -
}
npus=$(hwloc-calc --number-of pu all) cores=$(hwloc-calc --number-of core all)
status_of() { sed -n "s/^$1:[[:space:]]*//p" "$TMP/status"; }
helper() {  # helper ENV... -- runs `rdmarun rank` in front of a program that saves its status
    env "$@" "$RDMARUN" rank --bind-policy numa --memory prefer -- \
        sh -c 'cat /proc/self/status >"$0"; env >"$0.env"' "$TMP/status" 2>"$TMP/err"
}
bound() { expand_list "$(status_of Cpus_allowed_list)"; }   # the helper's PUs, hwloc-calc's form
want=$(numa_pus 1 "$npus")
if [ "$npus" -ge 2 ]; then
    helper RDMARUN_LOCAL_RANK=1 RDMARUN_LOCAL_SIZE="$npus"
    [ $? = 0 ] && [ -n "$want" ] && [ "$(bound)" = "$want" ]
    ok $? "local rank 1 of $npus is bound to PU $want, hwloc's logical PU 1 (Cpus_allowed_list: $(status_of Cpus_allowed_list))"
else
    skip "local rank 1 of $npus is bound to its own PU" "one PU on this host"
fi
if [ "$cores" -ge 2 ]; then
    want=$(numa_pus 0 2)
    helper OMPI_COMM_WORLD_LOCAL_RANK=0 OMPI_COMM_WORLD_LOCAL_SIZE=2 OMPI_COMM_WORLD_RANK=6
    [ $? = 0 ] && [ -n "$want" ] && [ "$(bound)" = "$want" ]
    ok $? "Open MPI's local rank variables are read: local rank 0 of 2 on the first half of the cores (PUs $want; $(status_of Cpus_allowed_list))"
    want=$(numa_pus 1 2)
    helper SLURM_LOCALID=1 SLURM_NODEID=2 SLURM_STEP_TASKS_PER_NODE='4(x2),2' SLURM_PROCID=9
    [ $? = 0 ] && [ -n "$want" ] && [ "$(bound)" = "$want" ]
    ok $? "Slurm's SLURM_LOCALID and tasks per node ('4(x2),2', node 2: 2 ranks) are read: the second half (PUs $want; $(status_of Cpus_allowed_list))"
else
    skip "Open MPI's and Slurm's local rank variables are read" "one core on this host: 2 ranks share it"
fi
# numa_pus holds on other machines too: hwloc's tools and rdmarun's plan
# (a dry run) on each recorded topology, loaded by both through HWLOC_XMLFILE.
# (hwloc ignores HWLOC_XMLFILE while HWLOC_COMPONENTS is set, as the
# sanitizer build's tests set it: it is left out here.)
components=${HWLOC_COMPONENTS-}
unset HWLOC_COMPONENTS
for xml in "$TOPOLOGIES"/*.xml; do
    bad=
    export HWLOC_XMLFILE=$xml HWLOC_THISSYSTEM=0
    n=$(hwloc-calc --number-of pu all)
    for N in "$n" 2; do
        "$RDMARUN" --dry-run --json --bind-policy numa -N "$N" ./app 2>/dev/null |
            python3 -c 'import json, sys
for r in json.load(sys.stdin)["placement"]["ranks"]: print(r["pus"])' >"$TMP/plan" 2>/dev/null
        for R in 0 1; do
            got=$(expand_list "$(sed -n "$((R + 1))p" "$TMP/plan")") want=$(numa_pus "$R" "$N")
            [ -n "$want" ] && [ "$got" = "$want" ] ||
                { bad="$bad $R/$N"; echo "# rank $R of $N: $got, hwloc: $want" | cut -c1-200; }
        done
    done
    unset HWLOC_XMLFILE HWLOC_THISSYSTEM
    [ -z "$bad" ]; ok $? "$(basename "$xml" .xml): numa_pus's expectations are the plan's${bad:+ (not rank/ranks:$bad)}"
done
[ -n "$components" ] && export HWLOC_COMPONENTS=$components
helper MPI_LOCALRANKID=1 MPI_LOCALNRANKS=1
grep -q "local rank 1 of 1" "$TMP/err"; ok $? "an impossible local rank is refused with the variable named"
helper RDMARUN_LOCAL_RANK=5000 RDMARUN_LOCAL_SIZE=100000
grep -q "100000 ranks on one node; rdmarun places at most 4096" "$TMP/err"
ok $? "more ranks on a node than rdmarun places: refused, not overrun"

# The launchers' own local rank variables, each said: HPE Cray PALS (PBS
# Pro's mpiexec) with its own local size, or Cray PMI's, Cray PMI's pair, Flux's local
# id with the size the job passes (Flux sets none).
for vars in "PALS_LOCAL_RANKID=1 PALS_LOCAL_SIZE=2 PALS_RANKID=5" \
            "PALS_LOCAL_RANKID=1 PMI_LOCAL_SIZE=2 PALS_RANKID=5" \
            "PMI_LOCAL_RANK=1 PMI_LOCAL_SIZE=2 PMI_RANK=5" \
            "FLUX_TASK_LOCAL_ID=1 RDMARUN_LOCAL_SIZE=2 FLUX_TASK_RANK=5"; do
    # shellcheck disable=SC2086
    run env $vars "$RDMARUN" rank --report -- true
    check "local rank from ${vars%%=*}" 0 "rank 5 (local 1 of 2) on" "[${vars%%=*}]"
done
run env -u OMPI_COMM_WORLD_LOCAL_RANK "$RDMARUN" rank -- true
check "the helper outside a launcher says what it needs" 64 \
    "cannot tell this rank's local rank" "OMPI_COMM_WORLD_LOCAL_RANK"
run env RDMARUN_LOCAL_RANK=0 RDMARUN_LOCAL_SIZE=1 "$RDMARUN" rank -- /nonexistent/prog
check "a program that does not exist: 127 and the reason" 127 "cannot run /nonexistent/prog"
run "$RDMARUN" rank --bind-policy sideways -- true
check "a bad policy is refused" 64 "--bind-policy sideways: expected none|numa|nic-local|gpu-local"

# NIC per rank from a recorded Soft-RoCE node (rxe0 port 1, ACTIVE).
run env RDMARUN_LOCAL_RANK=0 RDMARUN_LOCAL_SIZE=1 "$RDMARUN" rank --fabric roce --net-devices \
    --nccl-hca --sysfs "$DATA/sysfs/rxe" --report -- env
check "the helper sets the rank's NIC" 0 "UCX_NET_DEVICES=rxe0:1" "NCCL_IB_HCA==rxe0:1" \
    "NIC rxe0:1"
run env RDMARUN_LOCAL_RANK=0 RDMARUN_LOCAL_SIZE=1 UCX_NET_DEVICES=mine "$RDMARUN" rank \
    --fabric roce --sysfs "$DATA/sysfs/rxe" -- env
check "without --net-devices the rank's UCX_NET_DEVICES is left alone" 0 "UCX_NET_DEVICES=mine"

# GPUs, from a recorded GPU node (LLNL's Lassen: 4 NVIDIA GPUs, 2 a socket)
# read by hwloc itself (HWLOC_XMLFILE); its PUs are not this host's, so
# the helper keeps the CPUs and memory alone.
lassen=$TOPOLOGIES/coral-lassen.xml
gpu_helper() {  # VAR=VALUE...: the GPU variables the helper sets
    run env -u HWLOC_COMPONENTS HWLOC_XMLFILE="$lassen" "$@" "$RDMARUN" rank --bind-policy gpu-local --keep-cpus \
        --memory none -- env
    out=$(printf '%s\n' "$out" | grep -E '^CUDA_(VISIBLE_DEVICES|DEVICE_ORDER)=' | sort | tr '\n' ' ')
}
if have_topology coral-lassen; then
    gpu_helper RDMARUN_LOCAL_RANK=1 RDMARUN_LOCAL_SIZE=4
    check "an MPI rank sees its own GPU only, as device 0" 0 \
        "CUDA_DEVICE_ORDER=PCI_BUS_ID CUDA_VISIBLE_DEVICES=1 "
    gpu_helper LOCAL_RANK=1 LOCAL_WORLD_SIZE=2
    check "a torchrun worker (LOCAL_RANK 1 of 2, GPUs 2 and 3) sees every GPU, its own at index 1" 0 \
        "CUDA_VISIBLE_DEVICES=0,2,1,3 "
    gpu_helper CUDA_VISIBLE_DEVICES=2,3 RDMARUN_LOCAL_RANK=0 RDMARUN_LOCAL_SIZE=2
    check "the job's own GPUs (Slurm's --gpus: 2,3) are kept, and CUDA's order with them" 0 \
        "CUDA_VISIBLE_DEVICES=2,3 " "CUDA_VISIBLE_DEVICES=2,3 was set before rdmarun"
    check_without "CUDA_DEVICE_ORDER is not set over the job's list" 0 CUDA_DEVICE_ORDER "CUDA_VISIBLE_DEVICES=2,3 "
    gpu_helper CUDA_VISIBLE_DEVICES=0,1,2,3 RDMARUN_LOCAL_RANK=3 RDMARUN_LOCAL_SIZE=4
    check "a whole node's list (0,1,2,3) is no restriction: local rank 3 gets GPU 3" 0 \
        "CUDA_VISIBLE_DEVICES=3 "
fi

# ---- real jobs ----
# ranks FILE: "rank cpus mem dev" per rank from mpi_placement's lines, sorted by rank
ranks() { sed -n 's/^placement rank=\([0-9]*\) local=[^ ]* cpus=\([^ ]*\) mem=\([^ ]*\) UCX_NET_DEVICES=\([^ ]*\).*/\1 \2 \3 \4/p' "$1" | sort -n; }

ev=$TMP/ev-numa
run "$RDMARUN" -p shm --bind-policy numa --report --evidence-dir "$ev" $MPIRUN_ROOT -np 2 "$PLACE"
check "a 2-rank job placed by rdmarun" 0 "rank 0 (local 0 of 2)" "rank 1 (local 1 of 2)"
printf '%s\n' "$out" >"$TMP/numa.out"
ranks "$TMP/numa.out" >"$TMP/numa.ranks"
# Expected from hwloc: numa_pus's PUs, memory preferred on their NUMA node
# (a rank over several has it interleaved: its PUs alone are compared).
placed=0
for r in 0 1; do
    want=$(numa_pus $r 2)
    # shellcheck disable=SC2046
    node=$(hwloc-calc --physical-input $(printf 'pu:%s' "$want" | sed 's/,/ pu:/g') \
        --intersect numanode --physical-output 2>/dev/null)
    cpus=$(awk -v r=$r '$1 == r {print $2}' "$TMP/numa.ranks")
    mem=$(awk -v r=$r '$1 == r {print $3}' "$TMP/numa.ranks")
    dev=$(awk -v r=$r '$1 == r {print $4}' "$TMP/numa.ranks")
    [ -n "$want" ] && [ "$(expand_list "$cpus")" = "$want" ] && [ "$dev" = - ] &&
        case $node in *,*) true ;; *) [ "$mem" = "prefer:$node" ] ;; esac ||
        { placed=1; echo "# rank $r: PUs $cpus, memory $mem; hwloc: PUs $want, NUMA $node"; }
done
ok $placed "each rank runs on its half of the cores, memory preferred on its NUMA node (sched_getaffinity, get_mempolicy)" ||
    sed 's/^/#   /' "$TMP/numa.ranks"
for r in 0 1; do
    reported=$(printf '%s\n' "$err" | sed -n "s/.*rank $r (local $r of 2) on [^:]*: PUs \([^ ]*\) .*/\1/p")
    kernel=$(awk -v r=$r '$1 == r {print $2}' "$TMP/numa.ranks")
    [ -n "$reported" ] && [ "$reported" = "$kernel" ]
    ok $? "rank $r: rdmarun's report (PUs $reported) is what the kernel says ($kernel)"
done
[ "$(grep -c '^rank ' "$ev/placement.txt")" = 2 ]
ok $? "the placement of both ranks is in the evidence directory"
# ompi_core R: the core Open MPI's --report-bindings shows rank R on: Open
# MPI 4.1 "MCW rank R bound to ...: [./B]" (core 1), Open MPI 5 (PRRTE)
# "Rank R bound to package[0][core:1]".
ompi_core() {
    { printf '%s\n' "$err" | sed -n "s/.*MCW rank $1 bound to .*: \[\(.*\)\]$/\1/p" |
        awk -F/ '{for (i = 1; i <= NF; i++) if ($i ~ /B/) print i - 1}'
      printf '%s\n' "$err" | sed -n "s/.* Rank $1 bound to .*\[core:L\{0,1\}\([0-9]*\)\].*/\1/p"
    } | head -1
}
core_of() { hwloc-calc --physical-input "pu:$1" --intersect core; }
# Open MPI's own report (printed by each rank at MPI_Init from its real
# affinity) shows the ranks where the helper put them; mpirun was told
# --bind-to none so that it does not bind them elsewhere first.
run "$RDMARUN" -p shm --bind-policy numa $MPIRUN_ROOT --report-bindings -np 2 "$PLACE"
if [ "${OMPI_MAJOR:-4}" -ge 5 ]; then
    # Open MPI 5 reports from PRRTE before the rank starts: the binding it
    # made itself, none, as rdmarun asked; the helper's is the kernel's above.
    check "a placed job with Open MPI's --report-bindings" 0 "--bind-to=none" \
        "Rank 0 is not bound" "Rank 1 is not bound"
else
    check "a placed job with Open MPI's --report-bindings" 0 "--bind-to=none" "MCW rank 1 bound to"
    for r in 0 1; do
        ours=$(awk -v r=$r '$1 == r {print $2}' "$TMP/numa.ranks")
        [ -n "$(ompi_core $r)" ] && [ "$(ompi_core $r)" = "$(core_of "$ours")" ]
        ok $? "rank $r: Open MPI reports it on core $(ompi_core $r), where rdmarun placed it (PUs $ours)"
    done
fi

# The dry run on this node's facts predicts exactly that.
run "$RDMARUN" -p shm --bind-policy numa --report --dry-run -np 2 "$PLACE"
for r in 0 1; do
    pred=$(printf '%s\n' "$out" | awk -v r=$r '$1 == r && NF >= 4 {print $4}')
    kernel=$(awk -v r=$r '$1 == r {print $2}' "$TMP/numa.ranks")
    [ "$pred" = "$kernel" ]; ok $? "rank $r: the dry run's placement (PUs $pred) is what ran ($kernel)"
done

# Against Open MPI's own binding: with policy none, Open MPI binds 2 ranks by
# core and reports it; rdmarun's choice for the same ranks is the same core.
run "$RDMARUN" -p shm --report $MPIRUN_ROOT -np 2 "$PLACE"
check "policy none: Open MPI binds and reports (--report adds --report-bindings)" 0 "ank 0 bound to"
ranks "$(printf '%s\n' "$out" >"$TMP/none.out"; echo "$TMP/none.out")" >"$TMP/none.ranks"
for r in 0 1; do
    ours=$(awk -v r=$r '$1 == r {print $2}' "$TMP/numa.ranks")
    kernel=$(awk -v r=$r '$1 == r {print $2}' "$TMP/none.ranks")
    [ -n "$(ompi_core $r)" ] && [ "$(ompi_core $r)" = "$(core_of "$ours")" ] &&
        [ "$(core_of "$kernel")" = "$(ompi_core $r)" ]
    ok $? "rank $r: Open MPI by itself binds it to core $(ompi_core $r), as rdmarun does"
done

# --bind-to on the command line wins: Open MPI binds, the helper leaves cores alone.
run "$RDMARUN" -p shm --bind-policy numa --dry-run $MPIRUN_ROOT --bind-to core -np 2 "$PLACE"
check "--bind-to on the command line keeps Open MPI's binding" 0 "--keep-cpus" \
    "Open MPI binds the ranks; bind policy numa only chooses their NICs and GPUs"
# A profile's bind-to is replaced, and says so.
cat >"$TMP/placed.ini" <<'INI'
[profile]
inherit = shm
[bind]
bind-to = core
policy = numa
memory = bind
INI
run "$RDMARUN" -p "$TMP/placed.ini" $MPIRUN_ROOT -np 2 "$PLACE"
printf '%s\n' "$out" >"$TMP/bind.out"
check "a profile with [bind] policy = numa and memory = bind" 0 "--bind-to core from" "replaced by none"
[ "$(ranks "$TMP/bind.out" | awk '{print $3}' | sort -u)" = bind:0 ]
ok $? "memory = bind gives every rank the bind policy on its NUMA node"

# Hybrid MPI + OpenMP: --threads auto, each rank's threads one per core of its
# own, as the threads themselves report (examples/mpi_omp: sched_getcpu).
OMP=$BUILD/examples/mpi_omp
cores=$(hwloc-calc --number-of core all)
run "$RDMARUN" -p shm --bind-policy numa --threads auto $MPIRUN_ROOT -np 1 "$OMP"
check "--threads auto, one rank: OpenMP's variables reach it" 0 \
    "omp rank=0 thread=0 of=$cores " "bind=close"
cpus=$(printf '%s\n' "$out" | sed -n 's/^omp rank=0 .* cpu=\([0-9]*\) .*/\1/p')
[ "$(printf '%s\n' "$cpus" | wc -l)" = "$cores" ] &&
    [ "$(for c in $cpus; do hwloc-calc --intersect core "pu:$c"; done | sort -u | wc -l)" = "$cores" ]
ok $? "its $cores threads run on $cores different cores (CPUs $(echo $cpus))"
if [ "$cores" -ge 2 ]; then
    run "$RDMARUN" -p shm --bind-policy numa --set bind.threads=auto $MPIRUN_ROOT -np 2 "$OMP"
    check "[bind] threads = auto, two ranks: a thread each on its own core" 0 \
        "omp rank=0 thread=0 of=$((cores / 2)) " "omp rank=1 thread=0 of=$((cores / 2)) "
    c0=$(printf '%s\n' "$out" | sed -n 's/^omp rank=0 .* cpu=\([0-9]*\) .*/\1/p' | head -1)
    c1=$(printf '%s\n' "$out" | sed -n 's/^omp rank=1 .* cpu=\([0-9]*\) .*/\1/p' | head -1)
    [ -n "$c0" ] && [ -n "$c1" ] &&
        [ "$(hwloc-calc --intersect core "pu:$c0")" != "$(hwloc-calc --intersect core "pu:$c1")" ]
    ok $? "the two ranks' threads are on different cores ($c0, $c1)"
fi
run "$RDMARUN" -p shm --threads 3 --dry-run $MPIRUN_ROOT -np 1 "$OMP"
check "--threads without a bind policy: said, and nothing set" 0 \
    "threads: 3 (--threads)" "needs a bind policy"
run "$RDMARUN" -p shm --bind-policy numa --threads many --dry-run -np 1 "$OMP"
check "--threads many: 64" 64 "--threads many: expected a whole number or auto (N|auto)"
run "$RDMARUN" -p shm --bind-policy numa $MPIRUN_ROOT -np 1 "$OMP"
has "$out" "places=- bind=-"; ok $? "without threads, no OpenMP variable is set (pure MPI as before)"

done_testing
