#!/bin/bash
# Placement from hwloc XML topologies recorded on real machines
# (tests/data/topologies), under every policy, for 1,
# 2, 3, 4 and 8 ranks per node and as many as the node has NUMA nodes, GPUs
# and cores. Every rank's PUs, core count, NUMA nodes and the locality of its
# NIC and GPUs must agree with hwloc-calc on the same file; the whole node
# must be handed out (every core, every GPU under gpu-local; under gpu-local
# with a rank a NUMA node, the GPUs' NUMA nodes whole and no other) in
# balanced shares, each rank's NIC and GPU the nearest to its cores; the
# tables are golden files. Then mappings that LLNL's mpibind records for the
# same machines, and each launcher's view of the GPUs.
. "${RDMARUN_SRCDIR:-.}/tests/lib.sh"
require_hwloc_tools
EXP=$SRC/tests/golden/expected/placement

# rank lines from a dry run's JSON:
#   local numa pus cores nic nic_local gpus gpu_local shared
# and the plan's fabric in $TMP/fabric.
ranks() {
    rm -f "$TMP/fabric"
    python3 -c '
import json, sys
j = json.load(sys.stdin)
open(sys.argv[1], "w").write(str(j.get("fabric")))
p = j.get("placement")
for r in p["ranks"] if p else []:
    print(r["local_rank"], ",".join(map(str, r["numa"] or [])) or "-", r["pus"], r["cores"],
          r["nic"] or "-", int(r["nic_local"]), ",".join(r["gpus"]) or "-",
          int(r["gpu_local"]), int(r["cores_shared"]))
' "$TMP/fabric"
}

# NUMA nodes (physical) an object or PU list is local to, per hwloc-calc.
numa_of() { hwloc-calc -i "$xml" "$@" --intersect NUMAnode --physical-output 2>/dev/null; }
# calc_each OPTION...: hwloc-calc on $xml for each line of locations on
# stdin, a result a line (without the line it writes to say it waits).
calc_each() { hwloc-calc -i "$xml" "$@" 2>/dev/null | sed '/^Waiting for locations/d'; }
# dev_numa OSDEV: numa_of os=OSDEV in $dn, asked once a topology.
declare -A devnuma
dev_numa() {
    [ -n "${devnuma[$xml:$1]+set}" ] || devnuma[$xml:$1]=$(numa_of "os=$1")
    dn=${devnuma[$xml:$1]}
}
# Whether two comma lists share an element.
meet() { case ",$2," in *",${1%%,*},"*) return 0 ;; esac; [ "${1#*,}" != "$1" ] && meet "${1#*,}" "$2"; }

for xml in "$TOPOLOGIES"/*.xml; do
    name=$(basename "$xml" .xml)
    cores=$(hwloc-calc -i "$xml" --number-of core all)
    numas=$(hwloc-calc -i "$xml" all --intersect NUMAnode --physical-output)   # those with cores
    nnuma=$(printf '%s\n' "$numas" | tr ',' '\n' | wc -l)
    gpus=$("$RDMARUN" probe --topology "$xml" --json | python3 -c '
import json, sys; print(" ".join(g["name"] for g in json.load(sys.stdin)["gpus"]))')
    ngpus=$(printf '%s' "$gpus" | wc -w)
    policies="numa nic-local"
    [ "$ngpus" -gt 0 ] && policies="$policies gpu-local"
    # gpu-local with as many ranks as NUMA nodes puts them on the GPUs' NUMA
    # nodes only (mpibind's gpu_optim), while each has a hardware thread there.
    gnuma=
    for g in $gpus; do
        dev_numa "$g"
        for d in ${dn//,/ }; do meet "$d" "$numas" && ! meet "$d" "${gnuma#,}" && gnuma="$gnuma,$d"; done
    done
    gnuma=${gnuma#,}
    gcores=0 gpus_pus=0
    if [ -n "$gnuma" ]; then
        gcores=$(hwloc-calc -i "$xml" --physical-input node:${gnuma//,/ node:} --number-of core)
        gpus_pus=$(hwloc-calc -i "$xml" --physical-input node:${gnuma//,/ node:} --number-of pu)
    fi
    counts=$(printf '%s\n' 1 2 3 4 8 "$nnuma" "$ngpus" "$gcores" "$cores" | awk '$1 > 0' | sort -un)
    : >"$TMP/got"
    for policy in $policies; do
        for n in $counts; do
            what="$name: $policy, $n ranks"
            args="--dry-run --mpirun mpirun --evidence-dir /EVIDENCE --topology $xml --bind-policy $policy -N $n"
            "$RDMARUN" $args --json ./app 2>/dev/null | ranks >"$TMP/ranks"
            [ "$(wc -l <"$TMP/ranks")" = "$n" ]
            ok $? "$what: a placement for every local rank"
            bad=0 sum=0 shared=0 used= given= nics=
            [ -s "$TMP/ranks" ] || bad=1
            # Each rank's PUs as hwloc-calc locations (one range each), a line
            # a rank, asked of one hwloc-calc for all ranks.
            while read local numa pus rest; do
                printf 'pu:%s\n' "${pus//,/ pu:}"
            done <"$TMP/ranks" >"$TMP/locs"
            all=$(tr '\n' ' ' <"$TMP/locs")
            calc_each --physical-input --intersect NUMAnode --physical-output <"$TMP/locs" >"$TMP/want-numa"
            calc_each --physical-input --number-of core <"$TMP/locs" >"$TMP/want-cores"
            [ "$(wc -l <"$TMP/want-numa") $(wc -l <"$TMP/want-cores")" = "$n $n" ] ||
                { bad=1; echo "# hwloc-calc did not answer for every rank"; }
            while read local numa pus nc nic nlocal rgpus glocal sh want got; do
                [ "$want" = "$numa" ] || { bad=1; echo "# rank $local: PUs $pus are on NUMA $want, not $numa"; }
                [ "$got" = "$nc" ] || { bad=1; echo "# rank $local: PUs $pus hold $got cores, not $nc"; }
                if [ "$nic" != - ]; then
                    dev_numa "${nic%%:*}"
                    meet "$dn" "$numa" && l=1 || l=0
                    [ "$l" = "$nlocal" ] || { bad=1; echo "# rank $local: $nic local=$nlocal, hwloc-calc says $l"; }
                    nics="$nics ${nic%%:*}"
                fi
                if [ "$rgpus" != - ]; then
                    l=1
                    for g in ${rgpus//,/ }; do
                        dev_numa "$g"
                        meet "$dn" "$numa" || l=0
                    done
                    [ "$l" = "$glocal" ] || { bad=1; echo "# rank $local: GPUs $rgpus local=$glocal, hwloc-calc says $l"; }
                    given="$given,$rgpus"
                fi
                sum=$((sum + nc)) shared=$((shared + sh)) used="$used,$numa"
            done < <(paste -d' ' "$TMP/ranks" "$TMP/want-numa" "$TMP/want-cores")
            ok $bad "$what: PUs, cores, NUMA nodes, NIC and GPU locality agree with hwloc-calc"

            # The whole node is handed out: every core, and no two ranks share
            # one while there are cores enough. Under gpu-local the GPUs' NUMA
            # nodes are the whole, and no rank runs elsewhere.
            whole=$cores onto=$numas
            if [ "$policy" = gpu-local ] && [ -n "$gnuma" ] && [ "$n" -ge "$nnuma" ] &&
                [ "$n" -le "$gpus_pus" ]; then
                whole=$gcores onto=$gnuma
                away=
                for d in ${used//,/ }; do meet "$d" "$gnuma" || away="$away $d"; done
                [ -z "$away" ]; ok $? "$what: ranks only on the GPUs' NUMA nodes $gnuma${away:+ (also on:$away)}"
            fi
            union=$(hwloc-calc -i "$xml" --physical-input $all --number-of core 2>/dev/null)
            [ "$union" = "$whole" ]; ok $? "$what: every core is given to a rank ($union of $whole)"
            if [ "$n" -le "$whole" ]; then
                [ "$shared" = 0 ] && [ "$union" = "$sum" ]
                ok $? "$what: no two ranks share a core ($sum cores, union $union)"
            fi
            if [ "$n" -ge "$nnuma" ]; then
                idle=
                for d in ${onto//,/ }; do meet "$d" "${used#,}" || idle="$idle $d"; done
                [ -z "$idle" ]; ok $? "$what: no NUMA node is left idle${idle:+ (idle:$idle)}"
            fi
            # Balanced shares: ranks on one NUMA node differ by a core at most;
            # ranks on several, by a NUMA node at most.
            awk '{ n = split($2, d, ","); if (n == 1) { c[$2] = c[$2] " " $4 } else { m[n] = 1 } }
                 END { bad = 0
                       for (k in c) { split(substr(c[k], 2), v, " "); lo = hi = v[1]
                           for (i in v) { if (v[i] < lo) lo = v[i]; if (v[i] > hi) hi = v[i] }
                           if (hi - lo > 1) { bad = 1; print "# NUMA " k ": cores" c[k] } }
                       lo = 1e9; hi = 0
                       for (k in m) { if (k < lo) lo = k; if (k > hi) hi = k }
                       if (hi > 0 && hi - lo > 1) { bad = 1; print "# NUMA nodes per rank from " lo " to " hi }
                       exit bad }' "$TMP/ranks"
            ok $? "$what: balanced shares"
            # Each rank's NIC is the nearest: local when any NIC in use is on
            # one of its NUMA nodes.
            # A plan on InfiniBand or RoCE gives every rank a NIC: none would
            # leave nothing to compare. (EFA, g4dnmetal's, is no fabric of
            # rdmarun's profiles: fabric none, no NIC.)
            near=0
            fabric=$(cat "$TMP/fabric" 2>/dev/null)
            if [ "$fabric" != none ] && [ "$(awk '$5 != "-"' "$TMP/ranks" | wc -l)" != "$n" ]; then
                near=1; echo "# fabric $fabric: not every rank was given a NIC"
            fi
            if [ -n "$nics" ]; then
                nicnuma=
                for d in $(printf '%s\n' $nics | sort -u); do dev_numa "$d"; nicnuma="$nicnuma,$dn"; done
                while read local numa pus nc nic nlocal rest; do
                    [ "$nic" = - ] && continue
                    if meet "${nicnuma#,}" "$numa" && [ "$nlocal" = 0 ]; then
                        near=1; echo "# rank $local on NUMA $numa: remote $nic while a NIC is local"
                    fi
                done <"$TMP/ranks"
            fi
            ok $near "$what: each rank's NIC is the nearest to its cores"
            if [ "$policy" = gpu-local ]; then
                missing=
                for g in $gpus; do meet "$g" "${given#,}" || missing="$missing $g"; done
                [ -z "$missing" ]; ok $? "$what: every GPU is given to a rank${missing:+ (not:$missing)}"
                # A rank whose NUMA nodes hold a GPU has one of them.
                far=0
                while read local numa pus nc nic nlocal rgpus glocal sh; do
                    mine=0 here=0
                    for g in $gpus; do
                        dev_numa "$g"
                        meet "$dn" "$numa" || continue
                        here=1
                        meet "$g" "$rgpus" && mine=1
                    done
                    [ "$here" = "$mine" ] || { far=1; echo "# rank $local on NUMA $numa: GPUs $rgpus, none of its own"; }
                done <"$TMP/ranks"
                ok $far "$what: each rank's GPU is the nearest to its cores"
            fi
            { echo "== $policy -N $n"
              "$RDMARUN" $args --report ./app 2>&1 | sed -n '/^placement:/,$p'
            } >>"$TMP/got"
        done
    done
    sed -i "s|$TOPOLOGIES|@TOPOLOGIES@|g" "$TMP/got"
    golden "$EXP/$name.txt" "$TMP/got" "$name: golden placement tables"
done

# ---- as mpibind maps them ----
# LLNL mpibind's recorded mappings (its test-suite/expected/expected.*,
# greedy, smt 0) for the same machines: each task's CPUs and GPUs. mpibind
# lists one PU per core at smt 0, so the comparison is by cores; its GPU
# numbers are the vendor's visible-device indexes. An empty GPU field is a
# task mpibind gives none (gpu-local gives such a rank the nearest GPU, so
# it is not compared). With more ranks than cores mpibind gives each a
# hardware thread: those cases (EXACT) compare PUs.
cores_of() {  # PU list -> logical core list (of $x)
    # shellcheck disable=SC2086
    hwloc-calc -i "$x" --physical-input pu:${2//,/ pu:} --intersect core 2>/dev/null
}
# A GPU field "-" is a task mpibind gives no GPU. $XML, when set, is the
# topology instead of TOPOLOGY's file (a restricted one).
mpibind_case() {  # TOPOLOGY RANKS POLICY CPUS GPUS WHAT [EXACT]
    x=${XML:-$TOPOLOGIES/$1.xml}
    [ -n "${XML:-}" ] || have_topology "$1" || return
    "$RDMARUN" --dry-run --json --topology "$x" --bind-policy "$3" -N "$2" ./app |
        python3 -c 'import json, sys
for r in json.load(sys.stdin)["placement"]["ranks"]:
    ids = [e.split("=", 1)[1] for e in r["env"] if e.split("=")[0] in
           ("CUDA_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES", "ZE_AFFINITY_MASK")]
    print(r["pus"], ",".join(ids) or "-")' >"$TMP/mine"
    bad=0 i=1
    while read pus ids; do
        want=$(printf '%s' "$4" | cut -d';' -f$i) wgpu=$(printf '%s' "$5" | cut -d';' -f$i)
        { [ -z "${7:-}" ] || [ "$pus" = "$want" ]; } &&
            [ "$(cores_of "$1" "$pus")" = "$(cores_of "$1" "$want")" ] ||
            { bad=1; echo "# task $((i - 1)): PUs $pus, mpibind $want"; }
        [ -z "$wgpu" ] || [ "$ids" = "$wgpu" ] || { bad=1; echo "# task $((i - 1)): GPUs $ids, mpibind $wgpu"; }
        i=$((i + 1))
    done <"$TMP/mine"
    [ "$((i - 1))" = "$2" ] || bad=1
    ok $bad "as mpibind: $1, $2 rank(s), $3: $6"
}
# TOPOLOGY LOCATION...: the topology as a job allocated LOCATION (hwloc-calc
# locations) sees it, as Slurm's cpuset shows it to hwloc: its XML with the
# allowed PUs and NUMA nodes those. mpibind's restricted mappings are for it.
restricted() {
    have_topology "$1" || return
    t=$1
    shift
    cpus=$(hwloc-calc -i "$TOPOLOGIES/$t.xml" --physical-input "$@") &&
        nodes=$(hwloc-calc -i "$TOPOLOGIES/$t.xml" --nodeset --physical-input "$@") &&
        sed -e "s/allowed_cpuset=\"[^\"]*\"/allowed_cpuset=\"$cpus\"/" \
            -e "s/allowed_nodeset=\"[^\"]*\"/allowed_nodeset=\"$nodes\"/" \
            "$TOPOLOGIES/$t.xml" >"$TMP/$t-restricted.xml" && XML=$TMP/$t-restricted.xml && return
    ok 1 "$t restricted to $*: hwloc-calc could not make the topology"
}
mpibind_case coral-lassen 1 gpu-local "8-87,96-175" "0,1,2,3" "the whole node and every GPU"
mpibind_case coral-lassen 2 gpu-local "8-87;96-175" "0,1;2,3" "a socket and its GPUs each"
mpibind_case coral-lassen 4 gpu-local "8-47;48-87;96-135;136-175" "0;1;2;3" "a GPU each, beside it"
mpibind_case coral-lassen 40 gpu-local \
    "8;12;16;20;24;28;32;36;40;44;48;52;56;60;64;68;72;76;80;84;96;100;104;108;112;116;120;124;128;132;136;140;144;148;152;156;160;164;168;172" \
    "0;0;0;0;0;0;0;0;0;0;1;1;1;1;1;1;1;1;1;1;2;2;2;2;2;2;2;2;2;2;3;3;3;3;3;3;3;3;3;3" \
    "a core each, ten ranks per GPU"
mpibind_case epyc-corona 1 gpu-local "0-95" "0,1,2,3" "the whole node and every GPU"
mpibind_case epyc-corona 2 gpu-local "0-23,48-71;24-47,72-95" "0,1;2,3" "a package and its GPUs each"
mpibind_case epyc-corona 7 gpu-local \
    "0-11,48-59;12-17,60-65;18-23,66-71;24-29,72-77;30-35,78-83;36-41,84-89;42-47,90-95" \
    "0;1;;;2;;3" "fewer ranks than NUMA nodes: the first takes two"
mpibind_case epyc-corona 8 numa "0-5;6-11;12-17;18-23;24-29;30-35;36-41;42-47" "" "a NUMA node each"
mpibind_case epyc-corona 8 gpu-local "6-8;9-11;12-14;15-17;30-32;33-35;42-44;45-47" \
    "0;0;1;1;2;2;3;3" "on the GPUs' NUMA nodes only, two ranks a GPU"
mpibind_case epyc-corona 48 gpu-local \
    "6;54;7;55;8;56;9;57;10;58;11;59;12;60;13;61;14;62;15;63;16;64;17;65;30;78;31;79;32;80;33;81;34;82;35;83;42;90;43;91;44;92;45;93;46;94;47;95" \
    "0;0;0;0;0;0;0;0;0;0;0;0;1;1;1;1;1;1;1;1;1;1;1;1;2;2;2;2;2;2;2;2;2;2;2;2;3;3;3;3;3;3;3;3;3;3;3;3" \
    "a hardware thread each on the GPUs' NUMA nodes" exact
mpibind_case coral-lassen 2 numa "8-87;96-175" "" "a socket each, without GPUs"
mpibind_case cts1-quartz-smt1 1 numa "0-35" "" "the whole node"
mpibind_case cts1-quartz-smt1 2 nic-local "0-17;18-35" "" "a socket each, though the NIC is on one"
mpibind_case cts1-quartz-smt1 2 gpu-local "0-17;18-35" "" "gpu-local without GPUs: a socket each"
restricted coral-lassen pu:8-11 && mpibind_case coral-lassen 4 gpu-local "8;9;10;11" "0;0;1;1" \
    "allocated one core: a hardware thread each, and only its socket's GPUs" exact
restricted coral-lassen pu:8 && mpibind_case coral-lassen 8 numa "8;8;8;8;8;8;8;8" "" \
    "allocated one PU: all eight share it" exact
restricted coral-lassen node:0 && mpibind_case coral-lassen 2 gpu-local \
    "8-47;48-87" "0;1" "allocated NUMA 0: its cores halved, a GPU each"
restricted epyc-corona pu:0 pu:48 && mpibind_case epyc-corona 2 gpu-local "0;48" "-;-" \
    "allocated a core without a GPU: a hardware thread each, no GPU" exact
restricted epyc-corona node:0 && mpibind_case epyc-corona 2 gpu-local "0-2;3-5" "-;-" \
    "allocated NUMA 0, which has no GPU"
restricted cts1-quartz-smt1 node:0 && mpibind_case cts1-quartz-smt1 2 gpu-local "0-8;9-17" "" \
    "allocated NUMA 0"
unset XML
mpibind_case cts1-quartz-smt1 36 numa \
    "0;1;2;3;4;5;6;7;8;9;10;11;12;13;14;15;16;17;18;19;20;21;22;23;24;25;26;27;28;29;30;31;32;33;34;35" \
    "" "a core each"

# More ranks than cores, against mpibind's own mappings recorded for them
# (tests/data/placement/mpibind-more-ranks-than-cores.txt says how): each
# task on the same cores as mpibind's (hwloc-calc's cores of its PUs), so a
# node's cores are dealt out first and split only as needed, never a rank
# across two cores; where every hardware thread is taken (more ranks than
# threads), the same PUs too. (mpibind gives a core's ranks only as many
# of its threads as the busiest core needs; rdmarun gives them all.)
if command -v hwloc-calc >/dev/null; then
    grep -v '^#' "$SRC/tests/data/placement/mpibind-more-ranks-than-cores.txt" >"$TMP/mpibind"
    for t in $(cut -d' ' -f1 "$TMP/mpibind" | sort -u); do
        have_topology "$t" || continue
        # Each core's PUs, as hwloc-calc lists them: "PUS" a line, core by core.
        ncores=$(hwloc-calc -i "$TOPOLOGIES/$t.xml" -N core all)
        for c in $(seq 0 $((ncores - 1))); do
            hwloc-calc -i "$TOPOLOGIES/$t.xml" --physical-output --intersect pu "core:$c"
        done >"$TMP/cores-$t"
        npus=$(hwloc-calc -i "$TOPOLOGIES/$t.xml" -N pu all)
        grep "^$t " "$TMP/mpibind" | while read -r topo n policy want; do
            "$RDMARUN" --dry-run --json --topology "$TOPOLOGIES/$topo.xml" --bind-policy "$policy" \
                -N "$n" ./app 2>/dev/null >"$TMP/plan.json"
            python3 - "$TMP/cores-$t" "$TMP/plan.json" "$want" "$npus" <<'PY'
import json, sys
def pus(text):
    out = set()
    for part in text.split(","):
        a, _, b = part.partition("-")
        out.update(range(int(a), int(b or a) + 1))
    return out
core_of = {}
for c, line in enumerate(open(sys.argv[1])):
    for pu in pus(line.strip()):
        core_of[pu] = c
mine = [r["pus"] for r in json.load(open(sys.argv[2]))["placement"]["ranks"]]
want = sys.argv[3].split(";")
exact = len(want) >= int(sys.argv[4])
bad = [i for i, (m, w) in enumerate(zip(mine, want))
       if {core_of[p] for p in pus(m)} != {core_of[p] for p in pus(w)} or (exact and m != w)]
if bad or len(mine) != len(want):
    print("# task %s: PUs %s, mpibind %s" % (bad[0], mine[bad[0]], want[bad[0]]) if bad
          else "# %d tasks, mpibind %d" % (len(mine), len(want)))
    sys.exit(1)
PY
            echo "$? $topo $n $policy"
        done
    done >"$TMP/mpibind-results"
    for t in coral-lassen arm64-ulna-hwloc1 epyc-corona; do
        have_topology "$t" || continue
        total=$(grep -c " $t " "$TMP/mpibind-results")
        bad=$(grep -v '^0 ' "$TMP/mpibind-results" | grep " $t " | cut -d' ' -f2- | tr '\n' ',')
        [ "$total" -gt 0 ] && [ -z "$bad" ]
        ok $? "as mpibind, more ranks than cores: $t, $total rank counts${bad:+ (differ: $bad)}"
    done
    grep '^#' "$TMP/mpibind-results" | head -5
fi

# Each GPU's vendor gets its own visible-devices variable, counted in PCI
# order among that vendor's GPUs: epyc-corona's GPUs are seen by OpenCL only
# (AMD), the 32em64t node has an NVIDIA GPU (CUDA) and an AMD one (OpenCL).
env_of() {  # TOPOLOGY N [OPTION...]: each rank's variables, a line each
    t=$1 n=$2
    shift 2
    "$RDMARUN" --dry-run --json --topology "$TOPOLOGIES/$t.xml" --bind-policy gpu-local -N "$n" "$@" -- ./app |
        python3 -c 'import json, sys
for r in json.load(sys.stdin)["placement"]["ranks"]: print(" ".join(r["env"]))'
}
if have_topology epyc-corona; then
    [ "$(env_of epyc-corona 4 | sed -n 's/.*ROCR_VISIBLE_DEVICES=\([0-9]\).*/\1/p' | tr -d '\n')" = 0123 ]
    ok $? "epyc-corona, 4 ranks: OpenCL-only AMD GPUs, ROCR_VISIBLE_DEVICES 0 to 3"
fi
# torchrun's workers pick their GPU by LOCAL_RANK (torch.cuda.set_device):
# under the exec launcher each sees every GPU, its own at its local rank's
# index; mpirun's ranks see their own only, as device 0.
if have_topology epyc-corona; then
    [ "$(env_of epyc-corona 8 | sed -n 's/.*ROCR_VISIBLE_DEVICES=\([0-9,]*\).*/\1/p' | tr '\n' ' ')" = \
        "0 0 1 1 2 2 3 3 " ]
    ok $? "epyc-corona, 8 ranks of mpirun: each sees its own GPU only"
    got=$(env_of epyc-corona 8 --launcher exec | sed -n 's/.*ROCR_VISIBLE_DEVICES=\([0-9,]*\).*/\1/p' |
        awk '{ split($1, v, ","); printf "%s ", v[(NR - 1) % 4 + 1] }')
    [ "$got" = "0 0 1 1 2 2 3 3 " ]
    ok $? "epyc-corona, 8 workers of --launcher exec: device LOCAL_RANK % 4 is each one's own GPU ($got)"
    env_of epyc-corona 8 --launcher exec | grep -q 'ROCR_VISIBLE_DEVICES=0,3,2,1'
    ok $? "epyc-corona, worker 3 of exec: every GPU visible, its own (1) at index 3"
fi
if have_topology 32em64t-2n8c2t-pci-normalio; then
    e=$(env_of 32em64t-2n8c2t-pci-normalio 2)
    has "$e" "CUDA_VISIBLE_DEVICES=0" && has "$e" "ROCR_VISIBLE_DEVICES=0" &&
        [ "$(printf '%s\n' "$e" | grep -c VISIBLE_DEVICES)" = 2 ]
    ok $? "32em64t, 2 ranks: one on the NVIDIA GPU (CUDA), one on the AMD GPU (ROCR)"
fi

done_testing
