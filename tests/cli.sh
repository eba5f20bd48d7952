#!/bin/sh
# The command line: help, usage errors, mpirun pass-through and precedence,
# shell-quoted dry run, JSON.
. "${RDMARUN_SRCDIR:-.}/tests/lib.sh"
NONE=$DATA/sysfs/none

run "$RDMARUN" --help
check "--help prints usage" 0 "Usage: rdmarun" "--dry-run" "--set SECTION.KEY=VALUE"
run "$RDMARUN" --version
check "--version" 0 "rdmarun "
run "$RDMARUN"
check "no program is a usage error" 64 "no program to run"
run "$RDMARUN" -p
check "an option without its value" 64 "option -p needs a value"
run "$RDMARUN" --dry-run --mca pml
check "an mpirun option without its arguments" 64 "mpirun option --mca needs 2 arguments"

# Pass-through: every mpirun option kept, in order, with its arguments.
run "$RDMARUN" --dry-run --mpirun mpirun --sysfs "$NONE" -p shm -np 4 --oversubscribe \
    --tag-output -H a,b --hostfile hosts -N 2 --timeout 30 --foo-unknown ./prog -x arg1 'arg two'
check "dry run succeeds" 0
line=$(printf '%s\n' "$out" | head -n 1)
case "$line" in
"mpirun -np 4 --oversubscribe --tag-output -H a,b --hostfile hosts -N 2 --timeout 30 --foo-unknown "*) r=0 ;;
*) r=1 ;;
esac
ok $r "mpirun options come first, unchanged and in order"
case "$line" in *" ./prog -x arg1 'arg two'") r=0 ;; *) r=1 ;; esac
ok $r "the program's own arguments are untouched and shell-quoted"

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

done_testing
