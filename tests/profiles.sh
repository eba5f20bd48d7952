#!/bin/sh
# Profiles: parsing, every error class with its file:line, inheritance,
# sizes, UCX's own validation, overrides and their origins.
. "${RDMARUN_SRCDIR:-.}/tests/lib.sh"
P=$DATA/profiles
RDMARUN_PROFILE_PATH=$P:$RDMARUN_PROFILE_PATH; export RDMARUN_PROFILE_PATH
dry() { run "$RDMARUN" --dry-run --mpirun mpirun "$@" prog; }

dry -p "$P/malformed.ini"
check "malformed line: file:line and status 78" 78 "malformed.ini:6: malformed line"
dry -p "$P/unknown-section.ini"
check "unknown section with suggestion, at the section's own line" 78 \
    "unknown-section.ini:4: unknown section [ucxx] (did you mean [ucx]?)"
check_without "an unknown section is reported once, not per key" 78 "unknown-section.ini:5" \
    "unknown-section.ini:4: unknown section [ucxx]"
check_without "nor at its second key" 78 "unknown-section.ini:6" "unknown-section.ini:4: unknown section [ucxx]"
dry -p "$P/unknown-key.ini"
check "unknown key with suggestion" 78 "unknown-key.ini:7: unknown key 'report-binding' in [bind] (did you mean 'report-bindings'?)"
dry -p "$P/no-section.ini"
check "key before any section" 78 "no-section.ini:1: 'TLS' comes before any [section]"
dry -p "$P/duplicate.ini"
check "duplicate key names both lines" 78 "duplicate.ini:5: duplicate key 'TLS' in [ucx] (first set at line 2)"
dry -p "$P/bad-size.ini"
check "bad size" 78 "bad-size.ini:2: [check] memlock = lots: expected a size"
dry -p "$P/bad-bool.ini"
check "bad boolean" 78 "bad-bool.ini:2: [bind] report-bindings = maybe: expected a boolean"
dry -p "$P/bad-enum.ini"
check "bad enum value" 78 "bad-enum.ini:2: [profile] verify = loud: expected one of: off|warn|strict"
dry -p "$P/nccl-unknown.ini"
check "unknown NCCL variable with suggestion" 78 "nccl-unknown.ini:2: unknown NCCL variable NCCL_IB_HCAS" "did you mean NCCL_IB_HCA?"

# UCX checks its own settings.
dry -p "$P/ucx-bad-value.ini"
check "UCX rejects RNDV_THRESH = eight with its own reason" 78 \
    "ucx-bad-value.ini:2: [ucx] RNDV_THRESH = eight: Invalid value for RNDV_THRESH: 'eight'"
dry -p "$P/ucx-removed-var.ini"
check "a variable this UCX does not have (removed in 1.13)" 78 \
    "ucx-removed-var.ini:2: UCX $UCX_VERSION has no configuration variable UCX_SOCKADDR_CM_ENABLE in [ucx]" "did you mean UCX_"
dry -p "$P/ucx-bad-tls.ini"
check "UCX_TLS names a transport UCX does not have" 78 "ucx-bad-tls.ini:2" "no transport or alias 'tcpp' (did you mean 'tcp'?)"
dry --set ucx.TLS=rc_x,sm,self -p shm
check "UCX_TLS aliases (rc_x) are accepted" 0 "UCX_TLS=rc_x,sm,self"
dry --set ucx.TLS=^tcp -p shm
check "UCX_TLS exclusion with ^ is accepted" 0 "UCX_TLS=^tcp"

# Sizes in every spelling users write.
for size in 8388608 8M 8m 8MiB 8mb; do
    dry -p shm --set ucx.RNDV_THRESH=$size
    case $size in 8MiB) want=8388608 ;; *) want=$size ;; esac
    check "size $size accepted (UCX gets $want)" 0 "UCX_RNDV_THRESH=$want"
done
dry -p "$P/ucx-size-mib.ini"
check "8MiB in a file becomes the byte count UCX reads" 0 "UCX_RNDV_THRESH=8388608" "ucx-size-mib.ini:2"

# Inheritance.
dry -p child
check "two parents and a child load" 0
has "$out" "UCX_TLS=sm,self"; ok $? "the later parent wins over the earlier one"
has "$out" "UCX_RNDV_THRESH=16K"; ok $? "the child wins over its parents"
has "$out" "A_ONLY=a" && has "$out" "B_ONLY=b"; ok $? "values only in one parent are kept"
printf '%s\n' "$out" | grep -q "UCX_RNDV_THRESH .*child.ini:6"; ok $? "origin of an overridden value is the child's line"
printf '%s\n' "$out" | grep -q "UCX_TLS .*parent-b.ini:2"; ok $? "origin of an inherited value is the parent's line"
dry -p cycle-a
check "inheritance cycle is detected and shown" 78 "inheritance cycle:" "cycle-a.ini -> " "cycle-b.ini -> "
dry -p missing-parent
check "missing parent names the inherit line" 66 "missing-parent.ini:2: parent profile 'no-such-parent' not found"
dry -p no-such-profile
check "missing profile lists where it looked" 66 "profile 'no-such-profile' not found (searched: $P"
cp "$P/parent-a.ini" "$TMP/unreadable.ini"; chmod 000 "$TMP/unreadable.ini"
blocked=$(as_user_blocked)
if [ -z "$blocked" ]; then
    run as_user "$RDMARUN" --dry-run --mpirun mpirun -p "$TMP/unreadable.ini" prog
    check "unreadable profile" 66 "cannot read profile"
else
    skip "unreadable profile" "$blocked"
fi

# Bad bytes and sizes in a file.
printf '[ucx]\nTLS = tcp\000,self\n' >"$TMP/nul.ini"
dry -p "$TMP/nul.ini"
check "a NUL byte is refused with its line" 78 "nul.ini:2: line contains a NUL byte"
{ printf '[env]\nX = '; head -c 5000 /dev/zero | tr '\0' a; printf '\n'; } >"$TMP/long.ini"
dry -p "$TMP/long.ini"
check "an over-long line is refused, not cut" 78 "long.ini:2: line is longer than 4096 characters"
# inih's buffer off the stack was 200 bytes: a 199-character line was refused.
{ printf '[env]\nX='; head -c 4090 /dev/zero | tr '\0' a; printf '\n'; } >"$TMP/wide.ini"
dry -p "$TMP/wide.ini"
check "a line of 4092 characters is read" 0 "X=$(head -c 4090 /dev/zero | tr '\0' a)"
# What 'profiles show' writes reads back as the same values (tests/fuzz/fuzz_profile.c
# checks the origins too).
"$RDMARUN" profiles show "$TMP/wide.ini" >"$TMP/shown.ini" 2>/dev/null
dry -p "$TMP/shown.ini"
check "and what 'profiles show' writes of it reads back" 0 "X=$(head -c 4090 /dev/zero | tr '\0' a)"
head -c 2000000 /dev/zero | tr '\0' '#' >"$TMP/huge.ini"
dry -p "$TMP/huge.ini"
check "an enormous file is refused" 78 "more than the 1 MiB a profile may have"

# Overrides: --set and the environment, with their origins.
dry -p shm --set ucx.RNDV_THRESH=64K
check "--set adds a value" 0 "UCX_RNDV_THRESH=64K"
printf '%s\n' "$out" | grep -q "UCX_RNDV_THRESH .*--set"; ok $? "--set is the origin"
dry -p shm --set ucx.NO_SUCH_THING=1
check "--set of an unknown UCX variable" 78 "--set ucx.NO_SUCH_THING: UCX $UCX_VERSION has no configuration variable UCX_NO_SUCH_THING"
dry -p shm --set nonsense
check "--set without section.key=value" 64 "expected section.key=value"
UCX_TLS=tcp,self run "$RDMARUN" --dry-run --mpirun mpirun -p shm prog
check "UCX_* in the environment wins over the profile" 0 "UCX_TLS=tcp,self"
printf '%s\n' "$out" | grep -q "UCX_TLS .*environment"; ok $? "environment is the origin"
UCX_RNDV_THRESH=eight run "$RDMARUN" --dry-run --mpirun mpirun -p shm prog
check "a bad UCX value in the environment is caught too" 78 "environment: [ucx] RNDV_THRESH = eight"
# The environment a job inherits is not a profile: what configures nothing
# in UCX or NCCL (Spack's and modules' UCX_ROOT, NCCL_HOME, a typo) passes.
UCX_ROOT=/opt/spack/ucx UCX_HOME=/x UCX_DIR=/x NCCL_HOME=/x NCCL_ROOT=/x UCX_IB_SLL=3 \
    run "$RDMARUN" -p tcp --dry-run --mpirun mpirun -np 1 ./app
check "UCX_ROOT, UCX_HOME, UCX_DIR, NCCL_HOME, NCCL_ROOT from the environment pass through" 0 \
    "note: UCX_ROOT from the environment configures nothing in UCX $UCX_VERSION: passed to the job untouched" \
    "note: NCCL_HOME from the environment configures nothing in NCCL" \
    "UCX_IB_SLL from the environment configures nothing in UCX $UCX_VERSION: passed to the job untouched (did you mean UCX_IB_SL?)"
check_without "and the plan does not set them" 0 "-x UCX_ROOT" "note: UCX_ROOT from the environment"
UCX_IB_SL=3 UCX_RC_TIMEOUT=10s run "$RDMARUN" -p tcp --dry-run --mpirun mpirun -np 1 ./app
check "inherited UCX names from the environment: UCX_IB_SL, UCX_RC_TIMEOUT" 0 "UCX_IB_SL" "environment"
# String variables (UCX_LOG_FILE, UCX_MEMTRACK_DEST, UCX_PROFILE_FILE) are checked against
# UCX's defaults: a field without one crashed UCX's parser, and rdmarun.
UCX_LOG_FILE=stderr UCX_MEMTRACK_DEST=stdout run "$RDMARUN" -p tcp --dry-run --mpirun mpirun \
    --set ucx.PROFILE_FILE=/tmp/p.%p -np 1 ./app
check "UCX_LOG_FILE, UCX_MEMTRACK_DEST and --set ucx.PROFILE_FILE, string variables, are taken" 0 \
    "-x UCX_LOG_FILE=stderr" "-x UCX_MEMTRACK_DEST=stdout" "-x UCX_PROFILE_FILE=/tmp/p.%p"
UCX_RC_TIMEOUT=banana run "$RDMARUN" -p tcp --dry-run --mpirun mpirun -np 1 ./app
check "an inherited name with a bad value is refused, with UCX's reason" 78 \
    "[ucx] RC_TIMEOUT = banana: Invalid value for TIMEOUT"
run "$RDMARUN" -p tcp --dry-run --mpirun mpirun --set ucx.RC_TIMEOUT=10s --set ucx.IB_SL=3 -np 1 ./app
check "--set ucx.RC_TIMEOUT=10s and ucx.IB_SL=3" 0 "-x UCX_RC_TIMEOUT=10s" "-x UCX_IB_SL=3"
run "$RDMARUN" -p tcp --dry-run --mpirun mpirun --set ucx.IB_SLL=3 -np 1 ./app
check "a typo in --set is still refused, with a suggestion" 78 "did you mean UCX_IB_SL?"
# mpirun's -x gets the environment's treatment, and stays mpirun's.
run "$RDMARUN" -p tcp --dry-run --mpirun mpirun -x UCX_FOO=1 -x UCX_IB_SL=3 -np 1 ./app
check "-x UCX_FOO=1: passed through with a note; -x UCX_IB_SL=3 accepted" 0 \
    "note: UCX_FOO from -x configures nothing in UCX $UCX_VERSION: passed to the job untouched" \
    "-x UCX_FOO=1" "-x UCX_IB_SL=3"
run "$RDMARUN" -p tcp --dry-run --mpirun mpirun -x UCX_RC_TIMEOUT=banana -np 1 ./app
check "-x with a value UCX refuses: 78 with UCX's reason" 78 "-x: [ucx] RC_TIMEOUT = banana: Invalid value for TIMEOUT"
OMPI_MCA_pml=ob1 run "$RDMARUN" --dry-run --mpirun mpirun -p shm prog
check "OMPI_MCA_* in the environment overrides [mpi]" 0 "--mca pml ob1"

# Listing and showing.
RDMARUN_PROFILE_PATH=$SRC/profiles run "$RDMARUN" profiles
check "profiles lists the shipped ones with descriptions" 0 "auto " "roce " "pvrdma " "nccl-ib " "tcp " "shm " "RoCE v2"
mkdir -p "$TMP/site"; printf '[profile]\ndescription = site roce\ninherit = ../profiles-shipped/roce.ini\n' >"$TMP/site/roce.ini"
mkdir -p "$TMP/profiles-shipped"; cp "$SRC/profiles/roce.ini" "$TMP/profiles-shipped/"
RDMARUN_PROFILE_PATH=$TMP/site:$SRC/profiles run "$RDMARUN" profiles -v
printf '%s\n' "$out" | grep -A1 "^roce  *site roce$" | grep -q "^  *$TMP/site/roce.ini$"
ok $? "an earlier directory's profile is listed first, its file under it with -v"
printf '%s\n' "$out" | grep -A2 "^roce  *RoCE v2" | grep -q "(shadowed by the one above)" &&
    printf '%s\n' "$out" | grep -q "^  *$SRC/profiles/roce.ini$"
ok $? "the later one is marked shadowed"
# 80 columns: descriptions wrapped, files only with -v (issue 51: was 134 wide)
RDMARUN_PROFILE_PATH=$TMP/site:$SRC/profiles run "$RDMARUN" profiles
w=$(printf '%s\n' "$out" | awk '{ if (length > m) m = length } END { print m + 0 }')
[ "$w" -le 80 ] && ! has "$out" "$SRC/profiles/" && has "$out" "rdmarun profiles -v: each one's file"
ok $? "profiles fits 80 columns ($w), no paths without -v"
# A site's roce.ini that inherits "roce" by name takes the next roce on the
# search path, the shipped one (issue 51: was a bare cycle), and nccl-ib,
# which inherits roce, gets the site's.
mkdir -p "$TMP/site-by-name"
printf '[profile]\ndescription = site roce by name\ninherit = roce\n[ucx]\nRNDV_THRESH = 128K\n' \
    >"$TMP/site-by-name/roce.ini"
RDMARUN_PROFILE_PATH=$TMP/site-by-name:$SRC/profiles run "$RDMARUN" profiles show roce
check "a site roce.ini inheriting 'roce' takes the shipped one below it" 0 \
    "description = site roce by name" "RNDV_THRESH = 128K" "TLS = rc,sm,self" \
    "# file: $SRC/profiles/roce.ini" "# file: $TMP/site-by-name/roce.ini"
RDMARUN_PROFILE_PATH=$TMP/site-by-name:$SRC/profiles run "$RDMARUN" profiles show nccl-ib
check "and nccl-ib, inheriting roce, gets the site's roce over the shipped one" 0 \
    "RNDV_THRESH = 128K" "IB_HCA = auto" "TLS = rc,sm,self"
printf '[profile]\ninherit = lonely\n' >"$TMP/site-by-name/lonely.ini"
RDMARUN_PROFILE_PATH=$TMP/site-by-name run "$RDMARUN" profiles show lonely
check "with none of its name after it on the path: not found after this file, with the fix" 66 \
    "parent profile 'lonely' not found after this file on the search path" "takes the next one"
RDMARUN_PROFILE_PATH=$TMP/site:$SRC/profiles run "$RDMARUN" profiles show roce
check "a site profile inherits the shipped one by relative path" 0 "description = site roce" "IB_GID_INDEX = auto"
run "$RDMARUN" profiles show nccl-ib
check "profiles show merges parents with origins" 0 "[nccl]" "IB_HCA = auto" "; nccl-ib.ini:" "TLS = rc,sm,self" "; roce.ini:"
run "$RDMARUN" profiles show --json pvrdma
check "profiles show --json" 0 '"key": "RNDV_THRESH"' '"origin": "pvrdma.ini:'
printf '%s' "$out" | python3 -m json.tool >/dev/null 2>&1; ok $? "profiles show --json is valid JSON"

# Inheritance that reaches a file many ways (each of 32 files inherits the
# next four times: 4^31 loads when each parent was read anew) reads each
# file once, where it is first reached; a diamond keeps that order.
mkdir -p "$TMP/diamond"
for i in $(seq 1 31); do
    n=$((i + 1))
    printf '[profile]\ninherit = ./p%s.ini, ../diamond/p%s.ini, ./p%s.ini, ../diamond/p%s.ini\n' $n $n $n $n >"$TMP/diamond/p$i.ini"
done
printf '[profile]\nfabric = shm\n[ucx]\nTLS = sm,self\n' >"$TMP/diamond/p32.ini"
run timeout "$(scaled 60)" "$RDMARUN" profiles show "$TMP/diamond/p1.ini"
check "32 files, each inheriting the next four times: loaded" 0 "TLS = sm,self"
[ "$(printf '%s\n' "$out" | grep -c '^# file: ')" = 32 ]
ok $? "each file read once ($(printf '%s\n' "$out" | grep -c '^# file: ') files listed)"
printf '[profile]\ninherit = ./b.ini, ./c.ini\n' >"$TMP/diamond/a.ini"
printf '[profile]\ninherit = ./d.ini\n[ucx]\nRNDV_THRESH = 1M\n' >"$TMP/diamond/b.ini"
printf '[profile]\ninherit = ./d.ini\n' >"$TMP/diamond/c.ini"
printf '[profile]\nfabric = shm\n[ucx]\nTLS = sm,self\nRNDV_THRESH = 8K\n' >"$TMP/diamond/d.ini"
run "$RDMARUN" profiles show "$TMP/diamond/a.ini"
check "a diamond: the shared parent is read where first reached, and b's value over it stays" 0 \
    "RNDV_THRESH = 1M"

# Every error of a file with its own line, no false extra one, and at most
# 20 shown (100,000 duplicate keys once printed 100,000 lines).
printf '[ucx]\nTLS = rc\nbogus line\n[ucx\nTLS = sm\nanother bad\n' >"$TMP/errors.ini"
run "$RDMARUN" profiles show "$TMP/errors.ini"
check "malformed lines: each said with its own line" 78 "errors.ini:3: malformed line" \
    "errors.ini:4: malformed line" "errors.ini:6: malformed line"
[ "$(printf '%s\n' "$err" | grep -c 'error: ')" = 3 ]
ok $? "and nothing else: TLS under the broken section line is no duplicate of [ucx]'s ($(printf '%s\n' "$err" | grep -c 'error: ') errors said)"

# A new user's first profile with four mistakes: every one in one pass, in
# line order, each with its own line; a value error is not held back until
# the names are fixed, and no "malformed line" is invented.
printf '[profile]\ninherit = shm\n[bind]\nreport-binding = yes\nthis is not ini\n[ucx]\nTLS = slef\n[check]\nmemlock = 16Q\n' >"$TMP/four.ini"
run "$RDMARUN" --dry-run --mpirun mpirun -p "$TMP/four.ini" -np 2 prog
check "an unknown key, a malformed line, a bad UCX value and a bad size: all four, 78" 78 \
    "four.ini:4: unknown key 'report-binding' in [bind]" "four.ini:5: malformed line" \
    "four.ini:7: [ucx] TLS = slef: " "four.ini:9: [check] memlock = 16Q: expected a size"
[ "$(printf '%s\n' "$err" | grep -c 'error: ')" = 4 ] && [ -z "$out" ] &&
    [ "$(printf '%s\n' "$err" | grep -o 'four.ini:[0-9]*' | tr '\n' ' ')" = "four.ini:4 four.ini:5 four.ini:7 four.ini:9 " ]
ok $? "and nothing else, in line order" || show_run
# inih's inline comments: ';' after a space ends the line, so these lines
# have no ']' or '=' for it; each is said (one used to be lost after the
# first error), and the keys below a broken section line are not judged
# as the section before's.
printf '[profile]\ninherit = shm\n[bind]\nreport-binding = yes\n[ucx ;x]\nTLS = sm\nfoo ;= 1\n' >"$TMP/comments.ini"
run "$RDMARUN" --dry-run --mpirun mpirun -p "$TMP/comments.ini" -np 2 prog
check_without "a section and a key cut by an inline comment: each a malformed line" 78 "in [bind]:" \
    "comments.ini:4: unknown key 'report-binding'" "comments.ini:5: malformed line" \
    "comments.ini:7: malformed line"
[ "$(printf '%s\n' "$err" | grep -c 'error: ')" = 3 ]
ok $? "and nothing else (TLS is not called unknown in [bind])" || show_run
# A parent refused: the child's own values are said in the same pass.
printf '[profile]\ninherit = nosuch-parent\n[ucx]\nRNDV_THRESH = 16Q\n' >"$TMP/orphan.ini"
run "$RDMARUN" --dry-run --mpirun mpirun -p "$TMP/orphan.ini" -np 2 prog
check "a missing parent and a bad value: both said, 66" 66 "orphan.ini:2: parent profile 'nosuch-parent' not found" \
    "orphan.ini:4: [ucx] RNDV_THRESH = 16Q: "
{ echo '[ucx]'; for i in $(seq 1 5000); do echo 'TLS = rc'; done; } >"$TMP/dups.ini"
run "$RDMARUN" profiles show "$TMP/dups.ini"
check "5,000 duplicate keys: 20 shown, then how many more" 78 "dups.ini:21: duplicate key" \
    "dups.ini: 4979 more errors not shown"
[ "$(printf '%s\n' "$err" | wc -l)" = 21 ]
ok $? "in 21 lines ($(printf '%s\n' "$err" | wc -l))"

# What reaches the terminal: an escape sequence or newline in a profile name
# is shown escaped; a value of 100,000 bytes is cut with its length.
run "$RDMARUN" --dry-run -p "$(printf 'x\033[31mred\nnext')" -np 1 ./app
check "an escape sequence and a newline in -p: shown escaped" 66 'x\x1b[31mred\nnext'
[ "$(printf '%s' "$err" | tr -d '\n' | tr -dc '\033' | wc -c)" = 0 ] && [ "$(printf '%s\n' "$err" | wc -l)" = 1 ]
ok $? "and no raw escape or extra line reaches the terminal"
run "$RDMARUN" --dry-run -p "$(head -c 100000 /dev/zero | tr '\0' A)" -np 1 ./app
check "a 100,000-byte profile name (argv takes 128 KiB at most): cut, with its length" 66 "... (" "bytes)"
[ "${#err}" -lt 8192 ]; ok $? "the message stays short (${#err} bytes)"

# Values that would quietly change the job: a negative number UCX reads
# unsigned (its own parser's read-back says so), a plan-managed variable in
# [env] (the job would get it while the plan showed the section's value).
run "$RDMARUN" --dry-run -p shm --set ucx.RNDV_THRESH=-5 -np 1 ./app
check "RNDV_THRESH = -5: refused, with what UCX would make of it" 78 \
    "UCX reads UCX_RNDV_THRESH as a number of 0 or more: '-5' would become"
run "$RDMARUN" --dry-run -p shm --set ucx.RNDV_THRESH=8K -np 1 ./app
check "RNDV_THRESH = 8K still passes" 0 "UCX_RNDV_THRESH=8K"
printf '[profile]\ninherit = shm\n[env]\nUCX_TLS = tcp\nOMP_PROC_BIND = close\n' >"$TMP/env-managed.ini"
run "$RDMARUN" --dry-run -p "$TMP/env-managed.ini" -np 1 ./app
check "[env] UCX_TLS: refused with the section it belongs in" 78 "env-managed.ini:4" \
    "UCX_TLS belongs in [ucx] as TLS = ..."
check_without "and [env] OMP_PROC_BIND, no plan's variable, is fine" 78 "OMP_PROC_BIND belongs" "UCX_TLS belongs"
run "$RDMARUN" --dry-run -p shm --set env.NCCL_IB_HCA=mlx5_0 -np 1 ./app
check "--set env.NCCL_IB_HCA: refused the same way" 78 "NCCL_IB_HCA belongs in [nccl] as IB_HCA = ..."

# The listing: columns as wide as the widest entry, and a profile that
# cannot be loaded marked with its first error, not listed as fine.
mkdir -p "$TMP/mixed"
printf '[profile]\ndescription = a bad fabric\nfabric = warp\n' >"$TMP/mixed/badfabric.ini"
printf '[profile]\ninherit = nowhere\n' >"$TMP/mixed/orphan.ini"
printf '[profile]\ndescription = fine\ninherit = shm\n' >"$TMP/mixed/a-rather-long-profile-name.ini"
RDMARUN_PROFILE_PATH=$TMP/mixed:$SRC/profiles run "$RDMARUN" profiles -v
check "a broken profile: marked, with its first error, status 78" 78 \
    "$TMP/mixed/badfabric.ini:3:" "$TMP/mixed/orphan.ini:2:" \
    "warning: 2 profiles cannot be loaded"
printf '%s\n' "$out" | grep -A2 "^a-rather-long-profile-name$" | tr -s ' ' | tr '\n' '|' |
    grep -q "^a-rather-long-profile-name| fine| $TMP/mixed/a-rather-long-profile-name.ini|$"
ok $? "the fine one inheriting a shipped profile is not marked (a name past 24 columns: its own line)"
cols=$(printf '%s\n' "$out" | grep "^ *[^ ]*\.ini$" | awk '{print index($0, "/")}' | sort -u)
[ "$(printf '%s\n' "$cols" | wc -l)" = 1 ]; ok $? "with -v every file is under its name, in one column ($cols)"
printf '%s\n' "$out" | grep -q "^shm                       Single node"
ok $? "the name column is as wide as the widest name, 24 at most"
RDMARUN_PROFILE_PATH=$TMP/mixed run "$RDMARUN" profiles --json
printf '%s' "$out" | python3 -c '
import json, sys
d = {p["name"]: p for p in json.load(sys.stdin)}
assert "fabric = warp" in d["badfabric"]["error"], d["badfabric"]
assert d["a-rather-long-profile-name"]["error"] is None
' 2>&1 | sed 's/^/# /'
ok "${PIPESTATUS[1]}" "profiles --json: each profile's error, null when it loads"
run "$RDMARUN" profiles --keys
check "profiles --keys: the fixed keys and the installed UCX's variables" 0 \
    "profile.fabric" "bind.policy" "check.memlock" "ucx.TLS" "ucx.RNDV_THRESH" "nccl.IB_HCA"
ucx_n=$(ucx_info -c 2>/dev/null | grep -c '^UCX_')
keys_n=$(printf '%s\n' "$out" | grep -c '^ucx\.')
[ "$keys_n" -ge "$ucx_n" ]; ok $? "every variable ucx_info -c prints is a key ($keys_n >= $ucx_n)"

done_testing
