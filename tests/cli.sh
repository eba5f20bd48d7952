#!/bin/sh
# The command line: help, usage errors, mpirun pass-through and precedence,
# shell-quoted dry run, JSON.
. "${RDMARUN_SRCDIR:-.}/tests/lib.sh"
NONE=$DATA/sysfs/none

run "$RDMARUN" --help
check "--help prints usage" 0 "Usage: rdmarun" "--dry-run" "--set SECTION.KEY=VALUE"
run "$RDMARUN" --version
check "--version" 0 "rdmarun "
# srun's row says what srun said: its version, or why it has none (without
# a Slurm configuration srun prints 4 lines on stderr and exits 1: its fatal
# one is the reason; issue 51: the row said "said nothing").
if command -v srun >/dev/null; then
    said=$(srun --version 2>&1)
    s=$?
    if [ $s = 0 ]; then
        want=$(printf '%s\n' "$said" | head -1)
    else
        want="--version failed (status $s): $(printf '%s\n' "$said" | grep fatal | head -1 | cut -c1-150)"
        [ -n "$(printf '%s\n' "$said" | grep fatal)" ] ||
            want="--version failed (status $s): $(printf '%s\n' "$said" | grep . | tail -1 | cut -c1-150)"
    fi
    printf '%s\n' "$out" | grep "^  srun " | grep -qF -- "$want"
    ok $? "--version's srun row: ${want:-nothing}"
else
    skip "--version's srun row" "srun not installed"
fi
run "$RDMARUN"
check "no program is a usage error" 64 "no program to run"
run "$RDMARUN" -p
check "an option without its value" 64 "option -p needs a value"
run "$RDMARUN" --dry-run --mca pml
check "an mpirun option without its arguments" 64 "error: mpirun" "option --mca needs 2 arguments"

# The launcher's options are the launcher's own list (mpirun --help all),
# kept per launcher binary in the user's runtime folder: this script's own.
mkdir -m 700 "$TMP/run"
XDG_RUNTIME_DIR=$TMP/run
export XDG_RUNTIME_DIR

# Pass-through: every mpirun option kept, in order, with its arguments (the
# hostfile exists: the dry run refuses one that cannot be read, as the run does).
printf 'a\nb\n' >hosts
run "$RDMARUN" --dry-run --mpirun mpirun --sysfs "$NONE" -p shm -np 4 --oversubscribe \
    --tag-output -H a,b --hostfile hosts -N 2 --timeout 30 -mca btl self ./prog -x arg1 'arg two'
check "dry run succeeds" 0
line=$(printf '%s\n' "$out" | head -n 1)
case "$line" in
"mpirun -np 4 --oversubscribe --tag-output -H a,b --hostfile hosts -N 2 --timeout 30 -mca btl self "*) r=0 ;;
*) r=1 ;;
esac
ok $r "mpirun options come first, unchanged and in order"
case "$line" in *" ./prog -x arg1 'arg two'") r=0 ;; *) r=1 ;; esac
ok $r "the program's own arguments are untouched and shell-quoted"

# A new user's mistakes: rdmarun's own words never reach the launcher. Each
# is refused (64) before anything starts: a job would run $TMP/mark, which
# leaves $TMP/launched.
printf '#!/bin/sh\ntouch "%s/launched"\n' "$TMP" >"$TMP/mark"
chmod +x "$TMP/mark"
launched() { [ -e "$TMP/launched" ]; }
MPIRUN_V=$(mpirun --version 2>/dev/null | sed -n 's/.*(Open MPI) \([0-9.]*\).*/\1/p' | head -1)
refused() {  # DESCRIPTION MESSAGE ARGS...: 64, MESSAGE alone, nothing launched
    _d=$1 _m=$2
    shift 2
    rm -f "$TMP/launched"
    run "$RDMARUN" --sysfs "$NONE" -p shm "$@"
    _l=0
    if launched; then _l=1; echo "# launched: $TMP/launched is there"; fi
    [ -z "$out" ] && [ "$err" = "rdmarun: error: $_m" ] || { _l=1; echo "# want only: rdmarun: error: $_m"; }
    _check $_l "$_d" 64
}
if [ -n "$MPIRUN_V" ]; then
    refused "--dryrun: unknown, did you mean --dry-run" \
        "unknown option --dryrun (not rdmarun's, not mpirun $MPIRUN_V's; did you mean --dry-run?)" \
        --dryrun -np 1 "$TMP/mark"
    refused "--profil roce: did you mean --profile" \
        "unknown option --profil (not rdmarun's, not mpirun $MPIRUN_V's; did you mean --profile?)" \
        --profil roce -np 1 "$TMP/mark"
    refused "--bind-polcy numa: did you mean --bind-policy" \
        "unknown option --bind-polcy (not rdmarun's, not mpirun $MPIRUN_V's; did you mean --bind-policy?)" \
        --bind-polcy numa -np 1 "$TMP/mark"
    refused "-oversubscrib: a near miss of mpirun's own option" \
        "unknown option -oversubscrib (not rdmarun's, not mpirun $MPIRUN_V's; did you mean --oversubscribe?)" \
        -np 1 -oversubscrib "$TMP/mark"
    # It used to pass: an unknown word went to mpirun, which refused it after
    # rdmarun had planned and started the job.
    refused "--foo-unknown is nobody's option" \
        "unknown option --foo-unknown (not rdmarun's, not mpirun $MPIRUN_V's; hint: rdmarun --help)" \
        -np 1 --foo-unknown "$TMP/mark"
    refused "a mistake in the second app context (MPMD)" \
        "unknown option --dryrun (not rdmarun's, not mpirun $MPIRUN_V's; did you mean --dry-run?)" \
        -np 1 "$TMP/mark" : --dryrun -np 1 "$TMP/mark"
    ls "$TMP"/run/rdmarun/launcher-options-* >/dev/null 2>&1
    ok $? "mpirun's options are kept in the runtime folder (\$XDG_RUNTIME_DIR/rdmarun)"
    head -qn 1 "$TMP"/run/rdmarun/launcher-options-* |
        grep -q "^rdmarun-launcher-options-mpirun [0-9]* $(readlink -f "$(command -v mpirun)") size [0-9]* mtime [0-9.]* inode [0-9:]*$"
    ok $? "keyed by the launcher's real path, size, mtime and inode"
else
    skip "the mistakes refused with mpirun's own list" "no mpirun here"
fi
refused "--expect belongs to verify" \
    "--expect is an option of 'rdmarun verify', not of the run command (hint: rdmarun --help)" \
    --expect rdma -np 2 "$TMP/mark"
refused "--higher-is-better belongs to compare and tune" \
    "--higher-is-better is an option of 'rdmarun compare' or 'rdmarun tune', not of the run command (hint: rdmarun --help)" \
    --higher-is-better -np 1 "$TMP/mark"
refused "--keep-cpus belongs to the per-rank helper" \
    "--keep-cpus is an option of 'rdmarun rank', not of the run command (hint: rdmarun --help)" \
    --keep-cpus -np 1 "$TMP/mark"
refused "--qp-test belongs to check" \
    "--qp-test is an option of 'rdmarun check', not of the run command (hint: rdmarun --help)" \
    --qp-test -np 1 "$TMP/mark"
run "$RDMARUN" probe --dry-run
check "probe --dry-run names the command that takes it" 64 \
    "rdmarun: error: --dry-run is an option of the run command, not of 'probe'"
run "$RDMARUN" compare --qp-test
check "compare --qp-test names check" 64 \
    "rdmarun: error: --qp-test is an option of 'rdmarun check', not of 'compare'"
run "$RDMARUN" probe --jsn
check "probe --jsn: did you mean --json" 64 \
    "rdmarun: error: unknown option --jsn for 'probe' (did you mean --json?)"

# A launcher that cannot be asked (not Open MPI's mpirun; srun without its
# slurm.conf): its words pass as before, but a near miss of rdmarun's own
# does not.
run "$RDMARUN" --dry-run --mpirun /bin/true --sysfs "$NONE" -p shm -np 1 --foo-unknown ./prog
check "a launcher that cannot be asked: other words pass" 0 "/bin/true -np 1 --foo-unknown "
refused "a launcher that cannot be asked: --dryrun still refused" \
    "unknown option --dryrun (not rdmarun's, and mpirun could not be asked for its options; did you mean --dry-run?)" \
    --mpirun /bin/true --dryrun -np 1 "$TMP/mark"

# The list is asked once per launcher binary: a launcher that counts how
# often it is asked, answering with Open MPI 4.1.4's recorded list.
mkdir -p "$TMP/fake"
printf '#!/bin/sh\necho asked >>"%s/asked"\ncat "%s"\n' "$TMP" \
    "$DATA/launcher-help/openmpi-4.1.4-mpirun-help-all.txt" >"$TMP/fake/mpirun"
chmod +x "$TMP/fake/mpirun"
for _ in 1 2; do
    run "$RDMARUN" --dry-run --mpirun "$TMP/fake/mpirun" --sysfs "$NONE" -p shm -np 2 -mca btl self ./prog
done
check "a launcher's recorded list: its options pass" 0 "/fake/mpirun -np 2 -mca btl self "
[ "$(wc -l <"$TMP/asked")" = 1 ]; ok $? "asked once for two runs"
refused "and a word not in it is refused" \
    "unknown option --dryrun (not rdmarun's, not mpirun 4.1.4's; did you mean --dry-run?)" \
    --mpirun "$TMP/fake/mpirun" --dryrun -np 1 "$TMP/mark"
[ "$(wc -l <"$TMP/asked")" = 1 ]; ok $? "still asked once"
touch -d '2001-01-01' "$TMP/fake/mpirun"
run "$RDMARUN" --dry-run --mpirun "$TMP/fake/mpirun" --sysfs "$NONE" -p shm -np 2 ./prog
[ "$(wc -l <"$TMP/asked")" = 2 ]; ok $? "a launcher changed (mtime) is asked again"
run "$RDMARUN" --dry-run --mpirun "$TMP/fake/mpirun" --sysfs "$NONE" -p shm ./prog
[ "$(wc -l <"$TMP/asked")" = 2 ]; ok $? "a command line of rdmarun's words only asks no launcher"
# srun: srun --help's list, and the Open MPI options rdmarun translates.
printf '#!/bin/sh\ncat "%s"\n' "$DATA/launcher-help/srun-22.05.8-help.txt" >"$TMP/fake/srun"
chmod +x "$TMP/fake/srun"
run "$RDMARUN" --dry-run --launcher srun --mpirun "$TMP/fake/srun" --sysfs "$NONE" -p shm -np 2 \
    --partition=debug -A acct ./prog
check "srun's own options and the translated -np pass" 0 " -n 2 --partition=debug -A acct "
refused "srun: a misspelled srun option" \
    "unknown option --partitin (not rdmarun's, not srun's; did you mean --partition?)" \
    --launcher srun --mpirun "$TMP/fake/srun" --partitin=debug -np 1 "$TMP/mark"

# A profile whose launcher is srun: srun's list, known before the words are read.
printf '[profile]\ninherit = shm\nlauncher = srun\n' >"$TMP/srun.ini"
run "$RDMARUN" --dry-run --mpirun "$TMP/fake/srun" --sysfs "$NONE" -p "$TMP/srun.ini" -np 2 \
    --partition debug ./prog
check "a profile's launcher = srun: srun's options, their values as their own words" 0 \
    " -n 2 --partition debug "
refused "a profile's launcher = srun: srun's near miss" \
    "unknown option --partitin (not rdmarun's, not srun's; did you mean --partition?)" \
    --mpirun "$TMP/fake/srun" -p "$TMP/srun.ini" --partitin debug -np 1 "$TMP/mark"

# Open MPI 5: its mpirun lists no option, prterun beside it has the table,
# and mpirun is asked about a name the table lacks (--help NAME).
mkdir -p "$TMP/ompi5"
H=$DATA/launcher-help
cat >"$TMP/ompi5/mpirun" <<EOF
#!/bin/sh
for a; do w=\$a; done   # the last word: all, or the name asked about
case \$w in
all) cat "$H/openmpi-5.0.7-mpirun-help-all.txt" ;;
display-map | mca) cat "$H/openmpi-5.0.7-mpirun-help-\$w.txt" ;;
--help) cat "$H/openmpi-5.0.7-mpirun-help.txt" ;;
*) cat "$H/openmpi-5.0.7-mpirun-help-dryrun.txt" ;;
esac
EOF
printf '#!/bin/sh\ncat "%s"\n' "$H/openmpi-5.0.7-prterun-help.txt" >"$TMP/ompi5/prterun"
chmod +x "$TMP/ompi5/mpirun" "$TMP/ompi5/prterun"
run "$RDMARUN" --dry-run --mpirun "$TMP/ompi5/mpirun" --sysfs "$NONE" -p shm -np 2 --npernode 1 \
    --mca btl self --display-map ./prog
check "Open MPI 5: prterun's table, the options rdmarun reads, and one asked by name pass" 0 \
    "/ompi5/mpirun -np 2 --npernode 1 --mca btl self --display-map "
refused "Open MPI 5: a word nobody knows" \
    "unknown option --dryrun (not rdmarun's, not mpirun 5.0.7's; did you mean --dry-run?)" \
    --mpirun "$TMP/ompi5/mpirun" --dryrun -np 1 "$TMP/mark"

# A first word that nearly spells a command, and is no program: 64.
for w in prob:probe verison:version profile:profiles chek:check; do
    run "$RDMARUN" "${w%%:*}"
    check "rdmarun ${w%%:*}: did you mean '${w#*:}'" 64 \
        "rdmarun: error: '${w%%:*}' is not an rdmarun command, nor a program on PATH (did you mean '${w#*:}'?"
done
mkdir -p "$TMP/bin"
cp "$TMP/mark" "$TMP/bin/prob"
run env PATH="$TMP/bin:$PATH" "$RDMARUN" --dry-run --sysfs "$NONE" -p shm prob
check "a program named prob on PATH is a program" 0
case "$(printf '%s\n' "$out" | head -n 1)" in "mpirun "*" prob") r=0 ;; *) r=1 ;; esac
ok $r "and the plan runs it"
# Issue 51: commands that do something other than what they look like.
# Options before a command are the command's (git's order): never a job that
# runs a program named like it, even one first on PATH.
cp "$TMP/mark" "$TMP/bin/probe"
rm -f "$TMP/launched"
run env PATH="$TMP/bin:$PATH" "$RDMARUN" --color never --topology "$SRC/tests/data/topologies/coral-lassen.xml" probe
check "rdmarun --color never --topology X probe: probe, with its options" 0 "host lassen28"
! launched; ok $? "and no program named probe was launched"
run env PATH="$TMP/bin:$PATH" "$RDMARUN" -p shm probe
check "rdmarun -p shm probe: probe takes no -p: refused, with how to write either" 64 \
    "-p is an option of the run command" "'probe' is rdmarun's command" "./probe, or after --"
! launched; ok $? "and nothing was launched"
rm -f "$TMP/launched"
run env PATH="$TMP/bin:$PATH" "$RDMARUN" -np 2 probe
check "rdmarun -np 2 probe: probe refuses -np, and says how to run a program of that name" 64 \
    "'probe' is rdmarun's command" "./probe, or after --"
! launched; ok $? "and nothing was launched"
run env PATH="$TMP/bin:$PATH" "$RDMARUN" --dry-run --sysfs "$NONE" -p shm -- probe
check "after --, probe is a program" 0 "mpirun "
run "$RDMARUN" --color never verify "$TMP"
check "--color never verify DIR: verify, not a job" 82 "no transport evidence"
# --sysfs, --topology, --facts describe a recorded node: a real run is refused.
for o in "--sysfs $NONE" "--topology $SRC/tests/data/topologies/coral-lassen.xml"; do
    rm -f "$TMP/launched"
    run env -u RDMARUN_RECORDED_RUN "$RDMARUN" $o -p shm -np 1 "$TMP/mark"
    check "${o%% *} on a real run: refused, with the fix" 64 "${o%% *} describes a recorded node" \
        "add --dry-run"
    ! launched; ok $? "${o%% *}: nothing launched"
done
# rdmarun's options after the program go to the program (mpirun's rule):
# warned; under strict without a terminal, refused; on a terminal, asked.
rm -f "$TMP/launched"
run "$RDMARUN" -p shm $MPIRUN_ROOT -np 1 "$TMP/mark" --dry-run
check "--dry-run after the program: warned, the job runs (no terminal)" 0 \
    "warning: --dry-run comes after the program, so it goes to $TMP/mark, not to rdmarun"
launched; ok $? "and it ran, as mpirun would"
rm -f "$TMP/launched"
run "$RDMARUN" -p shm --verify strict $MPIRUN_ROOT -np 1 "$TMP/mark" --dry-run
check "--dry-run after the program under strict: refused" 64 "not started: --verify strict"
! launched; ok $? "and nothing ran"
asked() {  # ANSWER: the same job on a terminal (a pty), answering ANSWER
    rm -f "$TMP/launched"
    python3 - "$1" "$RDMARUN" -p shm $MPIRUN_ROOT -np 1 "$TMP/mark" --dry-run <<'PY'
import os, pty, sys, time
answer, argv = sys.argv[1], sys.argv[2:]
pid, fd = pty.fork()
if pid == 0:
    os.execv(argv[0], argv)
seen = b""
while b"[y/N]" not in seen:
    seen += os.read(fd, 1024)
os.write(fd, answer.encode() + b"\n")
while True:
    try:
        chunk = os.read(fd, 1024)
    except OSError:
        break
    if not chunk:
        break
    seen += chunk
_, status = os.waitpid(pid, 0)
sys.stdout.write(seen.decode(errors="replace"))
sys.exit(os.waitstatus_to_exitcode(status))
PY
}
out=$(asked n) rc=$? err=
check "on a terminal it asks; 'n': not started, 64" 64 "start $TMP/mark with that option as its own? [y/N]" \
    "not started: not confirmed"
! launched; ok $? "and nothing ran"
out=$(asked y) rc=$? err=
check "'y': the job runs" 0 "[y/N]"
launched; ok $? "and it ran"
run "$RDMARUN" tune -p shm --launcher exec -- /bin/true --metric 'x=([0-9]+)'
check "tune: --metric after the program is refused" 64 \
    "--metric comes after the program, so it goes to /bin/true, not to tune"
run "$RDMARUN" compare -p shm --np 1 --repeat 1 --warmup 0 -o "$TMP/cmp-after" $MPIRUN_ROOT -- \
    "$BUILD/examples/mpi_hello" --verify strict
check "compare: another of rdmarun's options after its program is warned of, and compare runs" 0 \
    "warning: --verify comes after the program" "baseline: shm"
run "$RDMARUN" --dry-run -p shm ./prog --profile x
check_without "--profile after the program (many programs take one): no warning" 0 "comes after" "mpirun "
run "$RDMARUN" tune --help
check "tune --help: --metric before the program" 0 "[--metric REGEX [--higher-is-better]] [MPIRUN OPTIONS]" \
    "[-- PROGRAM [ARGS...]]"
# A count glued to its option: the spelling meant, first.
for w in -np2:"-np 2" -n2:"-n 2" -N4:"-N 4"; do
    run "$RDMARUN" --dry-run -p shm "${w%%:*}" ./prog
    check "${w%%:*}: did you mean ${w#*:}" 64 "did you mean ${w#*:}?"
done
run "$RDMARUN" profiles shwo
check "profiles shwo: did you mean 'show'" 64 "(did you mean 'show'?)"
run "$RDMARUN" --dry-run -p rce ./prog
check "-p rce: did you mean 'roce'" 66 "profile 'rce' not found (did you mean 'roce'?)"
run "$RDMARUN" --help
check "--help lists every command a person runs, and --color" 0 "  report DIR_OR_FILE..." \
    "  judge FILE..." "--color"

# help and version as words.
run "$RDMARUN" version
check "rdmarun version" 0 "rdmarun "
run "$RDMARUN" help
check "rdmarun help" 0 "Usage: rdmarun" "--dry-run"
run "$RDMARUN" help verify
check_without "rdmarun help verify: its usage and options, not the run command's" 0 "--bind-policy" \
    "Usage: rdmarun verify" "--expect"
run "$RDMARUN" help all
check "rdmarun help all: every command's usage and every option" 0 "Usage: rdmarun" \
    "rdmarun verify" "--higher-is-better" "--keep-cpus"
run "$RDMARUN" help prbe
check "rdmarun help prbe" 64 "rdmarun: error: help: no command 'prbe' (did you mean 'probe'?)"
run "$RDMARUN" version extra
check "rdmarun version extra" 64 "unexpected argument 'extra'"

# The command line wins over the profile, and the plan says so.
run "$RDMARUN" --dry-run --mpirun mpirun --sysfs "$NONE" -p shm -x UCX_TLS=tcp,self \
    --mca pml ob1 --bind-to none --set bind.bind-to=core ./prog
check "overrides accepted" 0
line=$(printf '%s\n' "$out" | head -n 1)
[ "$(printf '%s\n' "$line" | grep -o 'UCX_TLS=' | wc -l)" = 1 ]; ok $? "UCX_TLS is passed once, the user's -x"
has "$line" "-x UCX_TLS=tcp,self"; ok $? "the user's -x value is the one passed"
[ "$(printf '%s\n' "$line" | grep -o -- '--mca pml ' | wc -l)" = 1 ]; ok $? "pml is passed once, the user's"
[ "$(printf '%s\n' "$line" | grep -o -- '--bind-to ' | wc -l)" = 1 ]; ok $? "--bind-to is passed once, the user's"
printf '%s\n' "$out" | grep -q "^env *UCX_TLS .*(overridden by the command line)"; ok $? "the plan marks UCX_TLS overridden"
printf '%s\n' "$out" | grep -q "^mca *pml .*(overridden by the command line)"; ok $? "the plan marks pml overridden"
printf '%s\n' "$out" | grep -q "^option *--bind-to .*core .*--set (overridden by the command line)"; ok $? "the plan marks --bind-to overridden"

# Binding from the profile becomes mpirun options.
run "$RDMARUN" --dry-run --mpirun mpirun --sysfs "$NONE" -p shm --set bind.map-by=numa \
    --set bind.bind-to=core --set bind.report-bindings=yes ./prog
check "[bind] becomes mpirun options" 0 "--map-by numa --bind-to core --report-bindings "

# JSON carries the same plan.
run "$RDMARUN" --dry-run --json --mpirun mpirun --sysfs "$NONE" -p tcp -np 2 ./prog
check "--dry-run --json" 0 '"chosen": "tcp"' '"name": "UCX_TLS"' '"origin": "tcp.ini:'
printf '%s' "$out" | python3 -c '
import json, sys
p = json.load(sys.stdin)
assert p["argv"][0] == "mpirun" and p["argv"][-1] == "./prog", p["argv"]
names = {i["name"]: i for i in p["items"]}
assert names["UCX_TLS"]["value"] == "tcp,self"
assert names["pml_ucx_tls"]["origin"] == "rule:ompi-pml-ucx-any-tls"
assert p["status"] == 0
'
ok $? "the JSON plan parses and holds the argv, items and origins"

# A program that starts with '-' after --.
run "$RDMARUN" --dry-run --mpirun mpirun --sysfs "$NONE" -p shm -- -weird-prog
line=$(printf '%s\n' "$out" | head -n 1)
case "$line" in *" -weird-prog") r=0 ;; *) r=1 ;; esac
ok $r "the program after -- is passed as the program"

# A node whose only port is DOWN: an RDMA profile refuses, auto says so.
run "$RDMARUN" --dry-run --mpirun mpirun --sysfs "$DATA/sysfs/ib-down" -p ib -np 2 ./prog
check "an RDMA profile on a node whose port is DOWN: status 69" 69 \
    "profile 'ib' is for InfiniBand but this node has no ACTIVE InfiniBand port (1 RDMA device found)"
run "$RDMARUN" probe --sysfs "$DATA/sysfs/ib-down"
check "probe names the DOWN port" 0 "mlx5_0 port 1 is DOWN, physical state Disabled"

# Output into a closed pipe ends rdmarun quietly, as with any Unix tool.
"$RDMARUN" profiles show nccl-ib 2>"$TMP/pipe.err" | head -n 1 >/dev/null
[ ! -s "$TMP/pipe.err" ]; ok $? "SIGPIPE on output: no error message"

# Control characters in values from the command line or the environment (a
# NUL cannot reach rdmarun through argv or the environment at all).
nl='
'
run "$RDMARUN" --dry-run --sysfs "$NONE" -p shm --set "ucx.TLS=sm${nl}-x EVIL=1" ./prog
check "--set with a newline in the value" 78 "--set ucx.TLS: value contains a control character"
run env "UCX_TLS=sm	self" "$RDMARUN" --dry-run --sysfs "$NONE" -p shm ./prog
check "an environment value with a tab" 78 "UCX_TLS" "value contains a control character"
run "$RDMARUN" --dry-run --sysfs "$NONE" -p shm --set "ucx.TLS=$(head -c 70000 /dev/zero | tr '\0' s)" ./prog
check "an enormous --set value is refused, not truncated" 78 \
    "--set ucx.TLS: value is longer than the 4096 characters"
[ "$(printf '%s' "$err" | wc -c)" -lt 500 ]; ok $? "and the message does not repeat the value"

# A value that is not of its option's type is refused with 64 and the
# option's name; and the messages issue 20 found wanting.
run "$RDMARUN" check --qp-test --gid-index abc
check "check --gid-index abc: not a number" 64 "--gid-index abc: expected a whole number (N)"
run "$RDMARUN" check --qp-test --device mlx5_0:x
check "check --device mlx5_0:x: a port that is no number" 64 \
    "--device mlx5_0:x: expected a device name, optionally :PORT with a port number (mlx5_0:1)"
run "$RDMARUN" check --qp-test --sysfs "$DATA/sysfs/rxe" --device mlx5_9
check "check --device of a device the node lacks names it" 69 "no device or port mlx5_9 on this node to test"
run "$RDMARUN" compare -p shm --np 2 --repeat x -- ./prog
check "compare --repeat x" 64 "--repeat x: expected a whole number (R)"
run "$RDMARUN" check --path-test --path-timeout soon
check "check --path-timeout soon" 64 "--path-timeout soon: expected seconds, a number above 0 (S)"
run "$RDMARUN" --dry-run --sysfs "$NONE" -p shm --threads many ./prog
check "--threads many" 64 "--threads many: expected a whole number or auto (N|auto)"
run "$RDMARUN" compare -p shm --np 2,x -- ./prog
check "compare --np 2,x" 64 "--np 2,x: expected whole numbers above 0, separated by commas"
run "$RDMARUN" --json -p shm ./prog
check "--json without --dry-run is refused, not ignored" 64 "--json prints the plan of a --dry-run"
printf '{"rdmarun_facts": 1,' >"$TMP/cut.json"
run "$RDMARUN" probe --facts "$TMP/cut.json"
check "a cut facts file: why and the hint" 65 "is not valid facts JSON" "(hint: save facts with"
[ "$(printf '%s\n' "$err" | wc -l)" = 1 ]; ok $? "on one line, no newline before the hint"
mkdir -p "$TMP/cyc"
printf '[profile]\ninherit = ./b.ini\n' >"$TMP/cyc/a.ini"
printf '[profile]\ninherit = ./a.ini\n' >"$TMP/cyc/b.ini"
run "$RDMARUN" --dry-run --sysfs "$NONE" -p "$TMP/cyc/a.ini" ./prog
check "a cycle through ./b.ini is a cycle, not 32 levels of ././" 78 "inheritance cycle:"
check_without "no chain 32 levels deep" 78 "levels deep" "inheritance cycle:"
check_without "no ././ chain" 78 "/./././" "inheritance cycle:"
printf '[profile]\ninherit = shm\n' >"$TMP/site.ini"
(cd "$TMP" && "$RDMARUN" --dry-run --sysfs "$NONE" -p site.ini ./prog) >"$TMP/out" 2>"$TMP/err"
rc=$? out=$(cat "$TMP/out") err=$(cat "$TMP/err")
check "-p site.ini with the file in this folder suggests ./site.ini" 66 "say -p ./site.ini"
mkdir -p "$TMP/cmp"
printf 'rdmarun-results compare\n' >"$TMP/cmp/.rdmarun-results"
printf 'profile=shm\nthis line is junk\n' >"$TMP/cmp/compare.conf"
run "$RDMARUN" compare --resume "$TMP/cmp"
check "a junk line in compare.conf is refused with its place" 65 "compare.conf:2: not a NAME=VALUE setting"

# An empty value (a job script's unset variable) is never a silent default.
for o in "-p" "--profile=" "--evidence-dir" "--bind-policy"; do
    case $o in *=) run "$RDMARUN" --dry-run "$o" -np 1 ./app ;; *) run "$RDMARUN" --dry-run "$o" "" -np 1 ./app ;; esac
    check "$o with an empty value: a usage error" 64 "needs a value, not an empty one"
done
run "$RDMARUN" --dry-run -np 99999999999 ./app
check "-np past the limit names the limit" 64 "a whole number from 1 to 1073741824"

done_testing
