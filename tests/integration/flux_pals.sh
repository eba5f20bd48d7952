#!/bin/bash
# --launcher flux and --launcher pals: neither Flux nor PBS Pro's PALS is
# packaged in Debian 12 or 13, so their commands are tested as dry runs
# against the options their documentation lists, and a real run is a skip
# that says so. (The helper under their variables: integration/placement.sh.)
. "${RDMARUN_SRCDIR:-.}/tests/lib.sh"
cd "$TMP"
RX=$DATA/sysfs/rxe
MPICH_APP=$BUILD/examples/mpich/mpi_placement OMPI_APP=$BUILD/examples/mpi_pingpong

# The command of a --dry-run --json, one word a line.
argv_of() {
    "$RDMARUN" --dry-run --json "$@" 2>/dev/null |
        python3 -c 'import json,sys; print("\n".join(json.load(sys.stdin)["argv"]))'
}

# undocumented LAUNCHER DOCUMENTED WORDS...: the launcher's options in the
# command (up to the helper or the program) that DOCUMENTED does not list;
# an option's value is the word after it, or after its '='.
undocumented() {
    local first=$1 documented=" $2 " skip=0 word name
    while read -r word; do
        [ "$word" = "$first" ] && continue
        if [ $skip = 1 ]; then skip=0; continue; fi
        case $word in -*) ;; *) break ;; esac   # the helper or the program
        name=${word%%=*}
        case $documented in *" $name "*) ;; *) echo "$word" ;; esac
        case $word in *=*) ;; *) skip=1 ;; esac   # its value follows
    done
}

# flux-run(1), flux-core 0.6x: -n/--ntasks, -N/--nodes, --tasks-per-node,
# --env=RULE, --requires=CONSTRAINT (job-constraints: host:LIST), --taskmap
# (block|cyclic|...), --setattr=KEY=VAL, -o/--setopt NAME[=ARG] (shell
# options, flux-shell-options(7): cpu-affinity, pmi).
FLUX_DOCUMENTED="run --ntasks --nodes --tasks-per-node --env --requires --taskmap --setattr -o"
FLUX_SHELL_OPTIONS="cpu-affinity pmi"
# HPE PALS mpiexec(1) (ALCF's Polaris and Aurora guides, HPE's cray mpiexec):
# -n, --ppn, --hosts, --hostfile, --env VAR=VALUE, --cpu-bind, --wdir.
PALS_DOCUMENTED="-n --ppn --hosts --hostfile --env --cpu-bind --wdir"

if [ -x "$MPICH_APP" ] && [ -x "$OMPI_APP" ]; then
    for app in "$MPICH_APP" "$OMPI_APP"; do
        for args in "-np 4" "-np 8 -N 4 -H n1:4,n2:4 -x A=1 --bind-to core --map-by node" \
                    "-np 2 --bind-to none --wdir /tmp --mca btl self"; do
            # shellcheck disable=SC2086
            words=$(argv_of --launcher flux -p roce --sysfs "$RX" --bind-policy numa $args "$app")
            bad=$(printf '%s\n' "$words" | undocumented flux "$FLUX_DOCUMENTED")
            opts=$(printf '%s\n' "$words" | sed -n '/^-o$/{n;s/=.*//;p}' | tr '\n' ' ')
            for o in $opts; do
                case " $FLUX_SHELL_OPTIONS " in *" $o "*) ;; *) bad="$bad -o $o" ;; esac
            done
            [ -n "$words" ] && [ -z "$bad" ]
            ok $? "flux: every option of 'flux run' for ${app##*/} $args is documented${bad:+ (not: $bad)}"
            # shellcheck disable=SC2086
            words=$(argv_of --launcher pals -p roce --sysfs "$RX" --bind-policy numa $args "$app")
            bad=$(printf '%s\n' "$words" | undocumented mpiexec "$PALS_DOCUMENTED")
            [ -n "$words" ] && [ -z "$bad" ]
            ok $? "pals: every option of PALS's mpiexec for ${app##*/} $args is documented${bad:+ (not: $bad)}"
        done
    done

    # The whole command once, checked by hand: the profile's variables and
    # the evidence's reach every rank through Flux's --env (UCX's log on
    # stderr: Flux reads the tasks' stdout through a pipe), Flux's own
    # binding is off while the helper places the ranks, and the helper is
    # told the node's rank count (no Flux variable gives it).
    run "$RDMARUN" --dry-run -p roce --sysfs "$RX" --launcher flux --bind-policy numa -np 2 "$MPICH_APP"
    first=$(printf '%s\n' "$out" | sed '/^$/q' | tr -d '\\\n' | tr -s ' ')
    case $first in "flux run --ntasks=2 -o cpu-affinity=off --env=UCX_TLS=rc,sm,self --env=UCX_NET_DEVICES=rxe0:1 "*"--env=UCX_LOG_FILE=stderr "*"--env=RDMARUN_LOCAL_SIZE=2 $RDMARUN rank --bind-policy numa"*" -- $MPICH_APP") s=0 ;; *) s=1 ;; esac
    ok $s "flux: the whole command ($first)"
    if command -v flux >/dev/null; then
        [ "$rc" = 0 ]; ok $? "flux is installed: the dry run's status is 0"
    else
        [ "$rc" = 127 ] && has "$err" "flux not found on PATH (hint: Flux is not packaged in Debian: install flux-core, or give its path with --mpirun or RDMARUN_FLUX)"
        ok $? "flux missing: the plan is shown, the status is 127, and the error says where Flux comes from"
    fi
    run "$RDMARUN" --dry-run -p roce --sysfs "$RX" --launcher pals --bind-policy numa -np 2 -N 2 "$MPICH_APP"
    first=$(printf '%s\n' "$out" | sed '/^$/q' | tr -d '\\\n' | tr -s ' ')
    case $first in "mpiexec -n 2 --ppn 2 --env UCX_TLS=rc,sm,self --env UCX_NET_DEVICES=rxe0:1 "*"--env UCX_LOG_FILE=stderr "*"--cpu-bind none $RDMARUN rank --bind-policy numa"*" -- $MPICH_APP") s=0 ;; *) s=1 ;; esac
    ok $s "pals: the whole command ($first)"
    [ "$rc" = 127 ] && has "$err" "PALS's mpiexec (under /opt/cray/pals/) not found on PATH"
    ok $? "pals: Debian's mpiexec (Open MPI's) is never taken for PALS's: 127, with where PALS comes from"
else
    skip "flux and pals dry runs" "an example program is not built"
fi

# What Flux cannot be told is refused before anything runs, with the way out.
# (Where flux is missing, that comes first, as in the real run: 127.)
run "$RDMARUN" --dry-run -p shm --launcher flux -np 6 -N 4 "$OMPI_APP"
want=64
command -v flux >/dev/null || want=127
check "flux: -np 6 -N 4 cannot be said with --tasks-per-node ($want)" $want \
    "--launcher flux: -np 6 is not a multiple of -N 4, and flux run places the same count of tasks on every node (--tasks-per-node) (hint: -np 8)"
run "$RDMARUN" --dry-run -p shm --launcher flxu -np 2 "$OMPI_APP"
check "a misspelled launcher names the ones there are" 64 "mpirun|srun|exec|hydra|flux|pals"

# The real runs.
if command -v flux >/dev/null; then
    run flux start "$RDMARUN" -p shm --launcher flux -np 2 "$OMPI_APP"
    check "a real job under Flux" 0
else
    skip "a real job under Flux" "flux is not installed here (packaged in neither Debian 12 nor 13)"
fi
skip "a real job under PBS Pro's PALS" "PALS comes only with HPE's PBS Pro and Cray PE, not installable here"
done_testing
