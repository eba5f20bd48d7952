#!/bin/bash
# Help that fits the question (issue 35): each command's own --help, the
# grouped global help and --help all; the man page documents every option
# --help all lists, and only those; --version names the stack built against
# and found; colour on a terminal only (--color, NO_COLOR).
. "$RDMARUN_SRCDIR/tests/lib.sh"
R=$RDMARUN
ESC=$(printf '\033')

# options TEXT: the option names (long and short spellings) a help text lists.
options() { printf '%s\n' "$1" | grep -oE '^  (-[a-zA-Z]+, |    )--[a-z-]+' | grep -oE -- '-[-a-zA-Z]+' | sort -u; }

# Each command's help: its usage, one sentence, its own options only.
# COMMAND  OPTIONS-IT-TAKES  OPTIONS-IT-DOES-NOT
while read -r sub yes no; do
    run "$R" "$sub" --help
    check "$sub --help: its usage and options" 0 "Usage: rdmarun $sub" ${yes//,/ }
    for o in ${no//,/ }; do
        ! options "$out" | grep -qx -- "$o"
        ok $? "$sub --help does not list $o"
    done
done <<'EOF'
probe --json,--topology,--sysfs,--facts --dry-run,--expect,--qp-test,--profile,--repeat
verify --expect,--json --profile,--dry-run,--sysfs,--qp-test
check --qp-test,--path-test,--all-pairs,--drain,--mpirun --repeat,--expect,--dry-run,--keys
compare --repeat,--warmup,--metric,--baseline,--output,--resume,--profile --qp-test,--expect,--dry-run
profiles --json,--keys,--set --dry-run,--mpirun,--sysfs
rank --keep-cpus,--memory,--nics --profile,--dry-run,--color
path-peer --step-timeout,--all-pairs,--device --profile,--json
EOF
run "$R" probe --help
[ "$(printf '%s\n' "$out" | wc -l)" -le 25 ]; ok $? "probe --help is short ($(printf '%s\n' "$out" | wc -l) lines)"
has "$out" "Shows what rdmarun finds on this node"; ok $? "probe --help says what probe does"
run "$R" verify --json --help
check "--help after another option is still the command's" 0 "Usage: rdmarun verify"

# The global help: grouped, common options first, short.
run "$R" --help
check "--help: grouped" 0 "Common options:" "Placement:" "Verifying the transports:" "Commands:" \
    "rdmarun COMMAND --help"
n=$(printf '%s\n' "$out" | wc -l)
[ "$n" -le 42 ]; ok $? "--help fits 42 lines ($n: every command a person runs, and --color)"
first=$(printf '%s\n' "$out" | grep -m1 -E '^  (-[a-zA-Z]+, |    )--' | grep -oE -- '--[a-z-]+')
[ "$first" = --profile ]; ok $? "the first option is a common one: --profile ($first)"
for o in --qp-test --repeat --keep-cpus --sysfs; do
    ! options "$out" | grep -qx -- "$o"
    ok $? "--help leaves $o to --help all and its command's help"
done

# --help all: everything, the helper's options too; and it is the union of
# the commands' helps.
run "$R" --help all
check "--help all: every usage and the helper's options" 0 "rdmarun check --path-test" \
    "rdmarun compare --resume DIR" "--keep-cpus" "--step-timeout" "--threads" "--color"
all=$(options "$out")
union=$( { options "$("$R" --help all | sed -n '/^Options of a run:$/,/^$/p')"
          for sub in profiles probe verify check compare tune report rank path-peer; do
              options "$("$R" $sub --help)"; done; } | sort -u)
[ "$all" = "$union" ] || diff <(echo "$all") <(echo "$union") | sed 's/^/# /'
ok $([ "$all" = "$union" ]; echo $?) "--help all lists what the commands' helps list together ($(echo "$all" | wc -l))"

# The man page's OPTIONS section documents every option --help all lists,
# and no option --help all does not.
man_opts=$(awk '/^\.SH OPTIONS/{on=1;next} /^\.SH/{on=0} on && /^\.TP/{getline; for(i=1;i<=NF;i++) if ($i ~ /^\\-/) print $i}' \
    "$SRC/man/rdmarun.1.in" | sed 's/\\//g' | sort -u)
missing=$(comm -23 <(echo "$all") <(echo "$man_opts"))
extra=$(comm -13 <(echo "$all") <(echo "$man_opts"))
[ -z "$missing" ]; ok $? "rdmarun(1) documents every option of --help all${missing:+ (missing: $(echo $missing))}"
[ -z "$extra" ]; ok $? "rdmarun(1) documents no option --help all lacks${extra:+ (extra: $(echo $extra))}"

# --version: the stack built against and the one found now.
run "$R" --version
check "--version: rdmarun's and the stack's versions" 0 "rdmarun " "built against" "found now" \
    "hwloc" "UCX" "rdma-core" "json-c" "inih" "PMIx" "mpirun" "srun"
if [ -n "$UCX_VERSION" ]; then
    printf '%s\n' "$out" | grep -qE "^  UCX +$UCX_VERSION +$UCX_VERSION\$"
    ok $? "UCX: built against and found $UCX_VERSION (ucx_info -v)"
fi
v=$out
run "$R" version
[ "$out" = "$v" ] && [ "$rc" = 0 ]; ok $? "rdmarun version says the same"
mkdir -p "$TMP/fake"
printf '#!/bin/sh\necho "mpirun (Open MPI) 9.8.7"\n' >"$TMP/fake/mpirun"
printf '#!/bin/sh\necho "slurm 23.02.7"\n' >"$TMP/fake/srun"
chmod +x "$TMP/fake/mpirun" "$TMP/fake/srun"
PATH=$TMP/fake:$PATH run "$R" --version
check "--version: the mpirun and srun on PATH" 0 "Open MPI 9.8.7 ($TMP/fake/mpirun)" \
    "slurm 23.02.7 ($TMP/fake/srun)"
if [ -n "$OMPI_MAJOR" ]; then
    check "and says the mpirun differs from the ranks' libmpi" 0 \
        "differs: Open MPI: $TMP/fake/mpirun runs Open MPI 9.8.7, the ranks' libmpi.so.40 is Open MPI $OMPI_MAJOR."
fi
run env RDMARUN_MPIRUN="$TMP/fake/mpirun" PATH=/nonexistent "$R" --version
check "no srun on PATH: said so" 0 "no srun on PATH" "Open MPI 9.8.7"
printf '#!/bin/sh\nsleep 60\n' >"$TMP/fake/srun"
start=$SECONDS
PATH=$TMP/fake:$PATH run "$R" --version
check "an srun that hangs: bounded, and named" 0 "did not answer within 3 s ($TMP/fake/srun)"
[ $((SECONDS - start)) -lt 10 ]; ok $? "within its timeout ($((SECONDS - start)) s)"
[ -z "$(ours -f 'sleep 60')" ]; ok $? "its children end with it"

# Colour: error:, warning: and FALLBACK on a terminal only.
run "$R" probe --color=always --facts "$TMP/none.json"
check "--color=always: error: in colour into a pipe" 66 "rdmarun: $ESC[1;31merror:$ESC[0m cannot read facts"
run "$R" probe --facts "$TMP/none.json"
check_without "a pipe: no escape codes" 66 "$ESC" "rdmarun: error: cannot read facts"
NO_COLOR=1 run "$R" probe --color=always --facts "$TMP/none.json"
check "--color=always wins over NO_COLOR" 66 "$ESC[1;31merror:"
run "$R" verify --color=always "$DATA/logs/ucx-interleaved-diag-warn.log"
check "a FALLBACK verdict in colour" 80 "rdmarun: $ESC[1;31mFALLBACK$ESC[0m: process 4242 on c11"
run "$R" verify "$DATA/logs/ucx-interleaved-diag-warn.log"
check_without "and not into a pipe" 80 "$ESC" "rdmarun: FALLBACK: process 4242"
run "$R" --dry-run --color=always --mpirun mpirun --sysfs "$DATA/sysfs/ib-down" -p ib -np 2 ./prog
check "the dry run's error: in colour" 69 "$ESC[1;31merror:$ESC[0m profile 'ib' is for InfiniBand"
run "$R" --dry-run --mpirun mpirun --sysfs "$DATA/sysfs/ib-down" -p ib -np 2 ./prog
check_without "and not into a pipe" 69 "$ESC" "error: profile 'ib' is for InfiniBand"
run "$R" --color=rainbow probe
check "--color's values" 64 "--color rainbow: expected auto|always|never"
if command -v script >/dev/null; then
    # On a terminal (script's pty): colour by default, none with NO_COLOR.
    tty_run() { script -qec "$*" /dev/null </dev/null; }
    out=$(tty_run "'$R' probe --facts '$TMP/none.json'" 2>&1)
    has "$out" "$ESC[1;31merror:"; ok $? "a terminal: error: in colour"
    out=$(NO_COLOR=1 tty_run "'$R' probe --facts '$TMP/none.json'" 2>&1)
    ! has "$out" "$ESC[1;31m" && has "$out" "error: cannot read facts"; ok $? "a terminal with NO_COLOR=1: none"
    out=$(tty_run "'$R' probe --color=never --facts '$TMP/none.json'" 2>&1)
    ! has "$out" "$ESC[1;31m" && has "$out" "error: cannot read facts"; ok $? "a terminal with --color=never: none"
    out=$(NO_COLOR= tty_run "'$R' probe --facts '$TMP/none.json'" 2>&1)
    has "$out" "$ESC[1;31merror:"; ok $? "an empty NO_COLOR is not set (no-color.org)"
else
    skip "colour on a terminal" "script (util-linux) is not installed"
fi
done_testing
