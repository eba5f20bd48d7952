#!/bin/sh
# Real MPICH jobs on this host through rdmarun (issue 37): the program's MPI
# read from its own libraries, Hydra's mpiexec started with the plan as
# -genv, Open MPI's options translated, Hydra's own passed with the words
# its mpiexec -h gives them, and the verdict from the ranks' UCX reports
# (Debian's MPICH 4.0.2 and 4.2.1 are built on UCX, ch4:ucx). The examples
# are the Open MPI ones built with mpicc.mpich (examples/mpich/).
. "${RDMARUN_SRCDIR:-.}/tests/lib.sh"
HELLO=$BUILD/examples/mpich/mpi_hello
EXIT=$BUILD/examples/mpich/mpi_exit
OMPI_HELLO=$BUILD/examples/mpi_hello
if ! command -v mpiexec.mpich >/dev/null || [ ! -x "$HELLO" ]; then
    echo "1..0 # SKIP MPICH is not installed (apt-get install mpich libmpich-dev, then configure)"
    exit 0
fi
# Independent of rdmarun: what the dynamic linker is told to load.
readelf -d "$HELLO" | grep -q 'NEEDED.*\[libmpich\.so\.12\]'
ok $? "readelf: the MPICH example names libmpich.so.12"

# The MPI and the launcher follow from the program; the plan's variables
# reach every rank as -genv; MPICH has no MCA parameters, said once.
run "$RDMARUN" -p shm --dry-run -np 2 "$HELLO"
check "an MPICH program is planned for Hydra's mpiexec, read from its libraries" 0 \
    "launcher: hydra (default)" "mpich: $HELLO links libmpich.so.12" "-genv UCX_TLS sm,self" \
    "MPICH: Open MPI's MCA parameters pml=ucx"
printf '%s\n' "$out" | head -1 |
    grep -Eq "^[^ ]*mpiexec\.(hydra|mpich) -prepend-pattern '\[rdmarun:[0-9a-f]{16} %r\]' -n 2 "
ok $? "the command is Hydra's mpiexec, its output labelled by rank, -n 2 ($(printf '%s\n' "$out" | head -1))"
check_without "no Open MPI option reaches Hydra" 0 "--mca" "-genv"
run "$RDMARUN" -p shm --dry-run --json -np 2 "$HELLO"
has "$out" '"mpi_family": "mpich"'; ok $? "--json: stack.mpi_family mpich"

# An Open MPI program stays with mpirun; the two cannot be crossed.
run "$RDMARUN" -p shm --dry-run $MPIRUN_ROOT -np 2 "$OMPI_HELLO"
check "an Open MPI program stays with mpirun" 0 "launcher: mpirun (default)" \
    "openmpi: $OMPI_HELLO links libmpi.so.40"
run "$RDMARUN" -p shm --launcher mpirun -np 2 "$HELLO"
check "Open MPI's mpirun for an MPICH program: refused, with the launcher that can" 64 \
    "MPICH" "--launcher hydra"
run "$RDMARUN" -p shm --mpi mpich -np 2 "$OMPI_HELLO"
check "--mpi mpich for an Open MPI program: refused, it would start singletons" 64 \
    "links libmpi.so.40" "singletons"

run env PATH=/nonexistent "$RDMARUN" -p shm -np 2 "$HELLO"
check "no Hydra on PATH: 127, with the package to install" 127 \
    "Hydra's mpiexec (mpiexec.hydra, mpiexec.mpich) not found on PATH" "apt-get install mpich"

# Open MPI's options in a job script, in Hydra's words; Hydra's own pass with
# their words (-genv takes two, -ppn one, from mpiexec -h and Hydra's table).
run "$RDMARUN" -p shm --dry-run $MPIRUN_ROOT -np 2 -N 2 --bind-to package -x A=1 -x PATH \
    --mca btl self "$HELLO"
check "Open MPI's -np/-N/--bind-to/-x translated, --mca noted" 0 "-n 2 -ppn 2 -bind-to socket" \
    "-genv A 1" "--mca btl self is an Open MPI MCA parameter"
check_without "-x VAR alone and --allow-run-as-root are not passed" 0 "-genv PATH" \
    "-genv A 1"
run "$RDMARUN" -p shm --dry-run -np 2 --map-by ppr:1:node "$HELLO"
check_without "--map-by ppr:1:node, which Hydra has no word for: noted, left out" 0 " -map-by " \
    "hydra: --map-by ppr:1:node has no Hydra equivalent"
has "$out" "allow-run-as-root"; [ $? -ne 0 ]; ok $? "--allow-run-as-root left out (Hydra has none)"
run "$RDMARUN" -p shm --verify off --dry-run -np 2 -genv FOO bar -ppn 2 -prepend-rank "$HELLO" x y
check "Hydra's own options pass unchanged, the program and its words after them" 0 \
    "-n 2 -genv FOO bar -ppn 2 -prepend-rank" "$HELLO x y"
run "$RDMARUN" -p shm --verify off --dry-run -np 2 -genv FOO=bar -l "$HELLO"
check "-genv NAME=VALUE is one word, as Hydra reads it; -l takes none" 0 \
    "-n 2 -genv FOO=bar -l -genv UCX_TLS" "$HELLO"
run "$RDMARUN" -p shm --dry-run -np 2 -l -outfile-pattern 'out.%r' "$HELLO"
check_without "the job's own -outfile-pattern: no label of rdmarun's, said why" 0 "-prepend-pattern" \
    "note: hydra: with -outfile-pattern the ranks' output is not labelled by rdmarun" \
    " -l -outfile-pattern out.%r "

# tcp_run ARGS...: an MPICH job over UCX's TCP. UCX 1.13's TCP transport
# can hang a process in MPI_Finalize, flushing an endpoint it no longer
# progresses (openucx/ucx#8738, open; seen here about once in ten runs, rank
# 0 spinning in uct_tcp_iface_progress under PMPI_Finalize): after
# `scaled 10` s (the job itself takes a second or two) it gets SIGTERM, as
# from a batch system's time limit, and its verdict is still the one its
# ranks' reports make (timeout's 124 is then taken for the job's 0).
tcp_run() {
    run timeout -s TERM "$(scaled 10)" "$@"
    if [ "$rc" = 124 ]; then
        echo "# the MPICH job over TCP hung in MPI_Finalize (openucx/ucx#8738): ended at the limit"
        rc=0
    fi
}

# Real jobs: shared memory, then TCP, each judged from UCX's own reports.
run "$RDMARUN" -p shm -np 2 "$HELLO"
check "a 2-rank MPICH job on shared memory: verdict local" 0 "rank 0 of 2" "rank 1 of 2" \
    "local only: 2 processes on shared memory"
[ "$(printf '%s\n' "$out" | grep -c 'token 42')" = 2 ]; ok $? "both MPICH ranks passed the token"
# The profile's [mpich] values become MPIR_CVAR_* for every rank, checked
# by the program's own MPICH (its tool interface) before the job starts:
# MPICH ignores a name it lacks and fails MPI_Init on a value it cannot
# parse. The names expected here are checked against MPICH's own mpivars.
mpivars | grep -q 'MPIR_CVAR_BCAST_MIN_PROCS *=' && ! mpivars | grep -q 'MPIR_CVAR_BCAST_MIN_PROC *='
ok $? "mpivars: MPICH has MPIR_CVAR_BCAST_MIN_PROCS and no MPIR_CVAR_BCAST_MIN_PROC"
printf '[profile]\ninherit = shm\n[mpich]\nBCAST_MIN_PROCS = 4\nMPIR_CVAR_ENABLE_GPU = 0\n' >"$TMP/cvars.ini"
printf '[profile]\ninherit = shm\n[mpich]\nBCAST_MIN_PROC = 4\n' >"$TMP/cvar-typo.ini"
printf '[profile]\ninherit = shm\n[mpich]\nENABLE_GPU = maybe\n' >"$TMP/cvar-value.ini"
run "$RDMARUN" -p "$TMP/cvar-typo.ini" -np 2 "$HELLO"
check "a control variable MPICH lacks: refused before the job, with the one it has" 78 \
    "has no control variable MPIR_CVAR_BCAST_MIN_PROC (cvar-typo.ini:4): it would ignore it" \
    "(did you mean MPIR_CVAR_BCAST_MIN_PROCS?)"
has "$out" "rank 0 of 2"; [ $? -ne 0 ]; ok $? "the job with the unknown variable did not start"
run "$RDMARUN" -p "$TMP/cvar-value.ini" -np 2 "$HELLO"
check "a value MPICH cannot parse: refused with MPICH's own words and the profile line" 78 \
    "refuses MPIR_CVAR_ENABLE_GPU=maybe (cvar-value.ini:4)" "(MPIR_CVAR_ENABLE_GPU)"
MPIR_CVAR_BCAST_MIN_PROCS=x run "$RDMARUN" -p shm -np 2 "$HELLO"
check "an MPIR_CVAR_ from the environment is checked too" 78 \
    "refuses MPIR_CVAR_BCAST_MIN_PROCS=x (environment)"
run "$RDMARUN" -p "$TMP/cvars.ini" -np 2 "$HELLO"
check "a real MPICH job with the checked values runs" 0 "rank 1 of 2" \
    "local only: 2 processes on shared memory"
run "$RDMARUN" -p "$TMP/cvars.ini" --dry-run -np 2 "$OMPI_HELLO"
check_without "an Open MPI program: MPICH's control variables left out, said once" 0 \
    "-x MPIR_CVAR" "Open MPI: MPICH's control variables"

# MPICH's PMI_Init makes a rank's stdout unbuffered, and glibc 2.37+
# (Debian 13) writes a UCX line there in 128-byte pieces, which mpiexec
# forwards as they come, between other ranks' (1 run in 60 counted one
# process of two). rdmarun labels Hydra's output by rank and joins each
# rank's pieces. Deterministic here: rank 0 writes the start of its UCX
# line, rank 1 then its whole line, rank 0 the rest (each waits for the
# other's file). The line's words are UCX 1.18's (ucp_worker.c:1903).
cat >"$TMP/pieces.sh" <<'SH'
#!/bin/sh
dir=$1 limit=$2 me=$PMI_RANK
line="[1796397941.866049] [$(hostname):$$:0]      ucp_worker.c:1903 UCX  INFO    ucp_context_0 intra-node cfg#1 tag(sysv/memory cma/memory)  rma(sysv/memory posix/memory)  am(sysv/memory cma/memory)"
# until the other rank's file is there (polled), at most LIMIT seconds
wait_for() {
    end=$(($(date +%s) + limit))
    while [ ! -e "$dir/$1" ] && [ "$(date +%s)" -le "$end" ]; do sleep 0.01; done
}
if [ "$me" = 0 ]; then
    printf '%s' "${line%% rma(*}"; touch "$dir/a"; wait_for b
    printf ' rma(%s\n' "${line#* rma(}"
else
    wait_for a; printf '%s\n' "$line"; touch "$dir/b"
fi
echo "rank $me done"
SH
chmod +x "$TMP/pieces.sh"
mkdir "$TMP/sync"
run "$RDMARUN" -p shm --mpi mpich -np 2 "$TMP/pieces.sh" "$TMP/sync" "$(scaled 60)"
check "rank 0's UCX line cut by rank 1's through Hydra: both joined, both processes counted" 0 \
    "rank 0 done" "rank 1 done" "local only: 2 processes on shared memory"
dir=$(ls -td "$TMP"/rdmarun-evidence/*/ | head -1)
bad=$(broken_ucx_lines "$dir/ucx.log" | wc -l)
[ "$bad" = 0 ] && [ "$(grep -c 'intra-node cfg#1 tag(sysv' "$dir/ucx.log")" = 2 ]
ok $? "ucx.log keeps both ranks' lines whole ($bad broken)"
! has "$out$err" "[rdmarun:"
ok $? "no label reaches the job's output"
rm -f "$TMP/sync"/*
run "$RDMARUN" -p shm --mpi mpich -np 2 -l "$TMP/pieces.sh" "$TMP/sync" "$(scaled 60)"
check "the job's -l: each rank's lines start with Hydra's [RANK], once" 0 \
    "[0] rank 0 done" "[1] rank 1 done" "local only: 2 processes on shared memory"
# Real ranks: four MPICH processes, every one counted, no UCX line broken.
run "$RDMARUN" -p shm -np 4 "$HELLO"
dir=$(ls -td "$TMP"/rdmarun-evidence/*/ | head -1)
bad=$(broken_ucx_lines "$dir/ucx.log" | wc -l)
check "four MPICH ranks: all four counted" 0 "local only: 4 processes on shared memory"
ok "$bad" "four MPICH ranks: every UCX line in ucx.log whole ($bad broken)"
# (TCP between ranks of one node: UCX 1.14+ says so, the verdict is local;
# 1.13 cannot tell, and it is TCP as the tcp profile intends: tests/lib.sh.)
tcp_run "$RDMARUN" -p tcp -np 2 "$HELLO"
check "a 2-rank MPICH job on TCP: verdict $ONE_NODE_TCP, as the tcp profile intends" 0 \
    "rank 1 of 2" "2 processes" "$ONE_NODE_TCP_TEXT"
# UCX's own endpoint lines (verify off: they stay in the job's output).
tcp_run "$RDMARUN" -p tcp --verify off -x UCX_LOG_LEVEL=info -np 2 "$HELLO"
ucx_peer_eps "$out$err" | grep -q 'tcp/' && ! ucx_peer_eps "$out$err" | grep -Eq 'sysv|posix|cma'
ok $? "with tcp, UCX's endpoint between the MPICH ranks is TCP and no shared memory"
# The profile wants shared memory, the job script says TCP: on UCX 1.13 a
# fallback that names a process and the lane it used; 1.14+ knows the TCP
# stayed in the node, and says it was not shared memory.
tcp_run "$RDMARUN" -p shm -x UCX_TLS=tcp,self -np 2 "$HELLO"
if [ "$ONE_NODE_TCP" = fallback ]; then
    check "an MPICH job told TCP under the shm profile: FALLBACK, with the process and its lane" 0 \
        "rdmarun: FALLBACK: process" "used tcp/" "the profile expects local"
else
    check "an MPICH job told TCP under the shm profile: local, over TCP, not shared memory" 0 \
        "within one node, over TCP (tcp/" "not shared memory"
fi

# Exit status and signals pass through Hydra as through mpirun.
run "$RDMARUN" -p shm -np 2 "$EXIT" 7
check "the MPICH program exits 7, rdmarun exits 7" 7
"$RDMARUN" -p "$TMP/cvars.ini" -np 2 "$EXIT" sleep 60 >"$TMP/sleep.out" 2>&1 &
pid=$!
wait_lines "$TMP/sleep.out" sleeping 2
ranks=$(sed -n 's/.*pid \([0-9]*\) sleeping/\1/p' "$TMP/sleep.out")
[ "$(echo $ranks | wc -w)" = 2 ]; ok $? "both MPICH ranks started and reported their pids"
# The profile's [mpich] values, in each running rank's own environment.
s=0
for r in $ranks; do
    tr '\0' '\n' <"/proc/$r/environ" | grep -qx 'MPIR_CVAR_BCAST_MIN_PROCS=4' &&
        tr '\0' '\n' <"/proc/$r/environ" | grep -qx 'MPIR_CVAR_ENABLE_GPU=0' || s=1
done
ok $s "[mpich] values are in every MPICH rank's environment (/proc/PID/environ)"
kill -TERM $pid
wait $pid
status=$?
# Hydra passes SIGTERM to its ranks and exits with the signal's number, or
# with 0 when the ranks were already ending: rdmarun calls neither a
# success: the job's status is 143, as a shell reports a job SIGTERM ended.
[ "$status" = 143 ]
ok $? "SIGTERM to rdmarun ends the MPICH job with status 143 (got $status)"
gone $ranks
ok $? "SIGTERM reached the MPICH ranks through Hydra: none is left running"

# MPMD: Open MPI's "-np 1 a : -np 1 b" as Hydra's "-n 1 a : -n 1 b", each
# part's -x its own (-env), the plan's -genv reaching every part.
run "$RDMARUN" -p shm --dry-run -np 1 -x A=1 "$HELLO" : -np 1 -x B=2 "$HELLO" x
check "an MPMD job: each part with its own -n and -env, the plan's -genv before the first" 0 \
    "-n 1 -env A 1 -genv UCX_TLS sm,self" "$HELLO : -n 1 -env B 2 $HELLO x"
run "$RDMARUN" -p shm -np 1 "$HELLO" : -np 1 "$HELLO"
check "a real MPMD MPICH job: one communicator of 2 ranks, both counted" 0 "rank 0 of 2" \
    "rank 1 of 2" "local only: 2 processes on shared memory"

# The per-rank helper places Hydra's ranks by Hydra's local rank.
run "$RDMARUN" -p shm --bind-policy numa --report -np 2 "$HELLO"
check "placement under Hydra: each rank finds its local rank in Hydra's MPI_LOCALRANKID" 0 \
    "rank 0 (local 0 of 2) on" "rank 1 (local 1 of 2) on" "[MPI_LOCALRANKID]"
# One placement whatever starts the ranks: the same profile and node give
# each of 4 ranks (on this node's cores: two ranks a core) the same local
# rank, CPUs, memory policy and NIC variables under Open MPI's mpirun and
# MPICH's Hydra, byte for byte once sorted by rank (srun's in the Slurm
# suite, Intel's Hydra in impi.sh).
PLACE=$BUILD/examples/mpich/mpi_placement OMPI_PLACE=$BUILD/examples/mpi_placement
if [ -x "$PLACE" ] && [ -x "$OMPI_PLACE" ] && command -v mpirun >/dev/null; then
    run "$RDMARUN" -p shm --bind-policy numa $MPIRUN_ROOT --oversubscribe -np 4 "$OMPI_PLACE"
    printf '%s\n' "$out" | grep '^placement ' | sort >"$TMP/ompi.place"
    run "$RDMARUN" -p shm --bind-policy numa -np 4 "$PLACE"
    printf '%s\n' "$out" | grep '^placement ' | sort >"$TMP/mpich.place"
    [ "$(wc -l <"$TMP/ompi.place")" = 4 ] && cmp -s "$TMP/ompi.place" "$TMP/mpich.place" &&
        ! grep -q "local=- " "$TMP/ompi.place"
    ok $? "the same placement under mpirun and Hydra: $(cut -d' ' -f2-5 "$TMP/mpich.place" | tr '\n' ';')"
else
    skip "the same placement under mpirun and Hydra" "an example program is not built"
fi
done_testing
