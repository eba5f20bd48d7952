#!/bin/bash
# Every command README.md and the man pages show is run, so that a stale
# example fails the suite. Commands are taken from README's ```sh blocks (a
# line each, "\" joined, comments cut) and its "$ " lines, from the man
# pages' EXAMPLE(S) .nf blocks, and from their other .nf blocks' lines that
# are rdmarun commands; each must have a line in HOW below
# (and each line of HOW must still be shown). The man pages' example profile
# is loaded as a profile.
. "$RDMARUN_SRCDIR/tests/lib.sh"

# HOW each shown command runs here: the command as shown, a tab, then
#   run [STATUS [TEXT]]  as shown, in a folder with the example programs
#                        (./app, ./mpi_hello, examples/), ./hosts, ./job.sh (an
#                        unchanged job script that calls mpirun), the source
#                        tree's tests/ (paths as from a clone's top) and
#                        rdmarun on PATH; STATUS (default 0) and TEXT expected
#   recorded             planned on the recorded Soft-RoCE node, not run:
#                        rdmarun --dry-run --sysfs tests/data/sysfs/rxe ...
#   sed EXPR             as shown, edited by sed EXPR (fewer and shorter runs)
#   suite FILE REGEX     FILE, a suite, runs it (a line matching REGEX)
#   file FILE RUNNER     FILE has it as a line ("\" lines joined), and the suite
#                        RUNNER runs FILE
#   debian12             ./scripts/setup-debian.sh run, on Debian 12, in-tree builds
# Every mode but run, sed and debian12 says, in a third column, why
# the command cannot run here as shown: it is then run where it can be.
HOW=$(cat <<'TABLE'
./scripts/setup-debian.sh run	debian12
./scripts/setup-debian.sh check	suite .ci/run ^exec ./scripts/setup-debian.sh check$	the whole suite: CI runs it, a test inside it cannot
make dist && tar xzf rdmarun-0.1.0.tar.gz && cd rdmarun-0.1.0 && dpkg-buildpackage -us -uc -b	suite tests/packages/packages.sh dpkg-buildpackage -us -uc -b	a package build takes minutes: make check-packages builds both
rpmbuild -tb rdmarun-0.1.0.tar.gz	suite tests/packages/packages.sh rpmbuild -tb .*"\$TARBALL"	as above
PATH=/usr/libexec/rdmarun/wrappers:$PATH ./job.sh	run 0 rdmarun: local only: 2 processes
PATH=/usr/libexec/rdmarun/wrappers:$PATH RDMARUN_PROFILE=roce ./job.sh	run 69 profile 'roce' is for RoCE but this node has no ACTIVE RoCE port
PATH=@libexecdir@/rdmarun/wrappers:$PATH ./job.sh	run 0 rdmarun: local only: 2 processes
rdmarun -np 2 ./app	run 0 rdmarun: local only: 2 processes
rdmarun -p shm -np 2 ./mpich_hello	run 0 rdmarun: local only: 2 processes
rdmarun -p roce -np 4 ./mpich_app	sed s|^rdmarun |rdmarun --dry-run --sysfs tests/data/sysfs/rxe |
rdmarun -p roce --hostfile hosts -np 64 ./app	recorded	needs an ACTIVE RoCE port and 64 slots; make check-vm runs roce jobs on Soft-RoCE
rdmarun --dry-run -p roce --set ucx.RNDV_THRESH=16M -np 64 --hostfile hosts ./app	recorded	the roce profile needs a RoCE port to plan
rdmarun profiles	run 0 roce
rdmarun probe --sysfs tests/data/fabrics/sysfs/efa-8x400 --topology tests/data/fabrics/efa-8x400.xml	run 0 rdmap18s0: driver efa
rdmarun --dry-run -p efa --sysfs tests/data/fabrics/sysfs/efa-8x400 --topology tests/data/fabrics/efa-8x400.xml --bind-policy gpu-local --report -N 8 ./app	run 0 rdmap130s0:1     local  cuda7    local  PIX
rdmarun -p efa --verify strict -np 2 ./app	run 69 no ACTIVE AWS EFA port
rdmarun check --fi-pair tcp	run 0 an RDM endpoint pair exchanged a message
rdmarun check --path-test --provider tcp	run 0 tagged messages (4 KiB, 32 KiB) verified
rdmarun check --path-test --provider tcp -H node1,node2	suite tests/vm/guest/pair.sh pt --provider 'verbs;ofi_rxm'	needs two nodes: the VM pair (make check-vm) runs it over verbs;ofi_rxm
rdmarun profiles show roce	run 0 TLS = rc,sm,self
rdmarun probe	run
rdmarun probe --json > node.json	run
rdmarun probe --topology tests/data/topologies/coral-lassen.xml	run 0 host lassen28: 2 packages, 40 cores, 160 PUs
rdmarun --dry-run -p roce --sysfs tests/data/sysfs/rxe -np 2 ./mpi_hello	run 0 UCX_NET_DEVICES=rxe0:1
rdmarun check --path-test -H node1,node2	suite tests/vm/guest/pair.sh check --path-test .*-H "\$hosts"	needs two nodes with RDMA: the VM pair (make check-vm) runs it
rdmarun --dry-run --report --topology tests/data/topologies/coral-lassen.xml --bind-policy gpu-local -N 4 ./app	run 0 136-175          mlx5_3:1         local  cuda3
rdmarun compare -p auto,tcp --np 1,2 --repeat 5 --metric 'time_per_iter_us=([0-9.]+)' -o results -- examples/mpi_stencil 2048 200	sed s/--repeat 5/--repeat 1/; s/2048 200$/512 20/
rdmarun tune -p shm --budget 100 -o tuned	sed s/--budget 100/--budget 16/
rdmarun -p tuned/tuned.ini -np 2 ./app	run 0 rdmarun: local only: 2 processes
exec rdmarun --launcher srun -n "${SLURM_NTASKS:-2}" examples/mpi_hello	file examples/slurm-job.sbatch tests/slurm/slurm.sh	needs Slurm: make check-slurm submits the script as shipped
head=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)	file examples/torchrun-job.sbatch tests/topologies.sh	needs GPUs, PyTorch and Slurm: its plan is checked on a recorded GPU node
exec srun --kill-on-bad-exit=1 rdmarun -p nccl-ib --launcher exec --bind-policy gpu-local -N 4 -- torchrun --nnodes="$SLURM_NNODES" --nproc_per_node=4 --rdzv_id="$SLURM_JOB_ID" --rdzv_backend=c10d --rdzv_endpoint="$head:29500" --no_python rdmarun rank -- python3 train.py	file examples/torchrun-job.sbatch tests/topologies.sh	as above
rdmarun report --plot rdmarun-evidence /var/log/rdmarun	sed s| /var/log/rdmarun||
rdmarun judge --node 'gpus=8xH100' tests/data/judge/nccl-h100-all_reduce_perf.txt	run 0 normal: 476.5 GB/s
examples/openfoam/setup-case.sh /tmp/foam 1 2	suite tests/integration/apps.sh setup-case.sh" "\$TMP/foam" 1 2	OpenFOAM is Debian 12's openfoam: the apps suite sets the case up
rdmarun compare -p shm,tcp --np 1,2 --repeat 3 --metric 'time_per_step_ms=([0-9.]+)' -o foam -- examples/openfoam/foam-rank.sh /tmp/foam	suite tests/integration/apps.sh foam-rank.sh" "\$TMP/foam"	the apps suite runs it with 2 rounds of 100 iterations
rdmarun compare -p shm,tcp --np 1,2 --repeat 3 --higher-is-better --metric 'Performance: .* ([0-9.]+) timesteps/s' -o lj -- lmp -in examples/lammps/in.lj	suite tests/integration/apps.sh lmp -in "\$EX/lammps/in.lj"	the apps suite runs it with 2 rounds of 100 steps
rdmarun --launcher exec -p roce -- ucx_perftest -t tag_bw host2	recorded	needs a RoCE peer named host2: the VM pair runs ucx_perftest over rxe
TABLE
)

# The shown commands, one per line; the man pages' example profile to $TMP.
SHOWN=$(python3 - "$SRC" "$TMP/example-profile.ini" <<'PY'
import re, sys
src, profile_out = sys.argv[1], sys.argv[2]
cmds = []
fence = None
for line in open(f"{src}/README.md"):
    line = line.rstrip("\n")
    if line.startswith("```"):
        fence = None if fence is not None else line[3:].strip()
        pending = ""
        continue
    if fence == "sh":
        text = pending + line.strip()
        if text.endswith("\\"):
            pending = text[:-1].rstrip() + " "
            continue
        pending = ""
        text = re.sub(r"\s{2,}#.*$", "", text).strip()
        if text and not text.startswith("#"):
            cmds.append(text)
    elif fence == "" and line.startswith("$ "):
        cmds.append(line[2:].strip())
for page in ("rdmarun.1", "rdmarun-profile.5", "rdmarun-slurm.7"):
    section, block = None, None
    for line in open(f"{src}/man/{page}.in"):
        line = line.rstrip("\n").replace("\\-", "-").replace("\\\\", "\\")
        if line.startswith(".SH "):
            section = line[4:].strip()
            continue
        example = section in ("EXAMPLE", "EXAMPLES")
        if line == ".nf":
            block = []
        elif line == ".fi" and block is not None:
            if block and block[0].startswith("["):          # a profile
                open(profile_out, "w").write("\n".join(block) + "\n")
            else:
                joined, pending = [], ""
                for l in block:
                    l = pending + l.strip()
                    pending = l[:-1].rstrip() + " " if l.endswith("\\") else ""
                    if not pending:
                        joined.append(l)
                # an EXAMPLES block is commands; elsewhere a block's
                # lines that are rdmarun commands (the rest: output, tables)
                cmds += [l for l in joined if l and not l.startswith("#")
                         and (example or l.startswith("rdmarun "))]
            block = None
        elif block is not None:
            block.append(line)
seen = set()
for c in cmds:
    if c not in seen:
        seen.add(c)
        print(c)
PY
)

# The folder the commands run in.
S=$TMP/docs
mkdir -p "$S/bin" "$S/examples"
ln -s "$RDMARUN" "$S/bin/rdmarun"
cp "$BUILD/examples/mpi_hello" "$S/app" && cp "$BUILD/examples/mpi_hello" "$S/mpi_hello"
# The README's MPICH program: the example built with mpicc.mpich (when it is
# not, the run says the launcher it would need: a failure all the same).
cp "$BUILD/examples/mpich/mpi_hello" "$S/mpich_hello" 2>/dev/null && cp "$S/mpich_hello" "$S/mpich_app"
cp "$BUILD/examples/mpi_stencil" "$S/examples/"
ln -s "$SRC/tests" "$S/tests"
printf 'localhost slots=64\n' >"$S/hosts"
printf '#!/bin/sh\n# An unchanged job script.\nmpirun -np 2 ./app\n' >"$S/job.sh" && chmod +x "$S/job.sh"
WRAPPERS=$BUILD/wrappers
# Open MPI refuses root unless told (CI runs as root); these reach every mpirun.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export PATH=$S/bin:$PATH

# in_sandbox COMMAND: run it there with bash (README's commands are shell
# lines), the installed wrapper paths standing for the build tree's.
in_sandbox() {
    local c=${1//@libexecdir@\/rdmarun\/wrappers/$WRAPPERS}
    c=${c//\/usr\/libexec\/rdmarun\/wrappers/$WRAPPERS}
    run bash -c "cd '$S' && $c" </dev/null
}

# (The commands run with stdin closed: the list is read on fd 3.)
while IFS= read -r cmd <&3; do
    how=$(awk -F'\t' -v c="$cmd" '$1 == c {print $2; exit}' <<<"$HOW")
    why=$(awk -F'\t' -v c="$cmd" '$1 == c {print $3; exit}' <<<"$HOW")
    case ${how%% *} in
        recorded | suite | file)
            [ -n "$why" ]
            ok $? "HOW says why this cannot run here as shown: $cmd" ;;
    esac
    if [ -z "$how" ]; then
        ok 1 "a shown command has a way to run here: $cmd"
        continue
    fi
    read -r mode rest <<<"$how"
    case $mode in
        run)
            read -r want text <<<"$rest"
            in_sandbox "$cmd"
            if [ -n "$text" ]; then check "$cmd" "${want:-0}" "$text"; else check "$cmd" "${want:-0}"; fi ;;
        recorded)
            c=${cmd/#rdmarun /rdmarun --dry-run --sysfs tests/data/sysfs/rxe }
            in_sandbox "$c"
            check "$cmd (planned on the recorded Soft-RoCE node: $why)" 0 "UCX_NET_DEVICES=rxe0:1" ;;
        sed)
            c=$(sed "$rest" <<<"$cmd")
            in_sandbox "$c"
            check "$cmd (as: $c)" 0 ;;
        suite)
            read -r file regex <<<"$rest"
            grep -qE -- "$regex" "$SRC/$file"
            ok $? "$cmd (run by $file: $why)" ;;
        file)
            read -r file runner <<<"$rest"
            sed -e ':a' -e '/\\$/{N;s/[[:space:]]*\\\n[[:space:]]*/ /;ba' -e '}' "$SRC/$file" |
                grep -qxF -- "$cmd" && grep -qF -- "$file" "$SRC/$runner"
            ok $? "$cmd (is in $file, which $runner runs: $why)" ;;
        debian12)
            if [ "$(. /etc/os-release; echo "$VERSION_ID")" != 12 ] || [ "$SRC" != "$BUILD" ]; then
                skip "$cmd" "for an in-tree build on Debian 12"
                continue
            fi
            run env -u MAKEFLAGS -u MFLAGS "$SRC/scripts/setup-debian.sh" run </dev/null
            check "$cmd" 0 "rank 0 of 2" "rank 1 of 2" ;;
        *) ok 1 "HOW has a known mode for: $cmd ($mode)" ;;
    esac
done 3<<<"$SHOWN"

# What runs where, for the log (the issue counted 10 of 23 run here).
awk -F'\t' '{split($2, m, " "); n[m[1] ~ /^(run|sed|debian12)$/ ? "here" : m[1] == "recorded" ? "recorded" : "elsewhere"]++}
    END {printf "# shown commands: %d run here, %d planned on a recorded node, %d run by another suite\n", n["here"], n["recorded"], n["elsewhere"]}' <<<"$HOW"

# Every line of HOW is still shown somewhere.
while IFS=$'\t' read -r cmd _; do
    grep -qxF -- "$cmd" <<<"$SHOWN"
    ok $? "still shown in README.md or a man page: $cmd"
done <<<"$HOW"

# Output shown in the docs names paths a reader has or placeholders, not a
# developer's checkout or home (the README once showed "results in
# /work/main/tests/vm/...").
found=$(cd "$SRC" && grep -nE '(^|[^[:alnum:]_])/(work|home)/' README.md man/*.in docs/*.md)
[ -z "$found" ]
ok $? "README.md, man/*.in and docs/*.md name no /work/ or /home/ path" || printf '#   %s\n' "$found"

# examples/job.sh runs as it is from a built tree (its mpi_hello beside it),
# rdmarun on PATH: the dry run, then the job.
mkdir -p "$TMP/tree/examples"
cp "$SRC/examples/job.sh" "$BUILD/examples/mpi_hello" "$TMP/tree/examples/"
run bash -c "cd '$TMP/tree' && examples/job.sh" </dev/null
check "examples/job.sh: its dry run, then its job" 0 "mpirun -np 2" "rank 0 of 2" "rank 1 of 2" \
    "rdmarun: local only: 2 processes"
# examples/nic-local.ini's table, as its first comment line asks for it, on
# a node with two HCAs per socket (the recorded Lassen): ranks 0-1 on socket
# 0 with mlx5_0 and mlx5_1, ranks 2-3 on socket 1 with mlx5_2 and mlx5_3.
line=$(sed -n 's/^#   \(rdmarun .*--dry-run.*[^ ]\)  *# the table$/\1/p' "$SRC/examples/nic-local.ini")
lassen=$TOPOLOGIES/coral-lassen.xml
c="rdmarun --topology '$lassen' ${line#rdmarun }"
run bash -c "cd '$SRC' && $c" </dev/null
check "examples/nic-local.ini: $line (on the recorded Lassen)" 0 "placement: policy nic-local, 4 ranks" \
    "mlx5_0:1 " "mlx5_1:1 " "mlx5_2:1 " "mlx5_3:1 "
printf '%s\n' "$out" | awk '$1 ~ /^[0-3]$/ {print $1, $2, $5}' >"$TMP/nic-local"
printf '0 0 mlx5_0:1\n1 0 mlx5_1:1\n2 8 mlx5_2:1\n3 8 mlx5_3:1\n' | cmp -s - "$TMP/nic-local"
ok $? "and each rank's NUMA node and NIC are as its comment says" || sed 's/^/#   /' "$TMP/nic-local"

# Each example program's "Build:" line builds it.
mkdir -p "$TMP/build"
for src in "$SRC"/examples/*.c; do
    line=$(sed -n 's/.*Build: \(.*\)$/\1/p' "$src" | sed 's| *\*/$||')
    name=$(basename "$src" .c)
    if [ -z "$line" ]; then ok 1 "examples/$name.c says how to build it"; continue; fi
    cp "$src" "$TMP/build/"
    run bash -c "cd '$TMP/build' && $line && test -x '$name'"
    check "examples/$name.c builds with its own line: $line" 0
done

# rdmarun-profile(5)'s example profile loads (it inherits roce).
run "$RDMARUN" profiles show "$TMP/example-profile.ini"
check "rdmarun-profile(5)'s example profile loads" 0 "RNDV_THRESH" "16M"
done_testing
