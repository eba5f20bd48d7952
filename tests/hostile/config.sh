#!/bin/bash
# Hostile cases (issue 47): small configuration mistakes, each said where it
# is, and nothing taken silently. A UTF-8 BOM before [profile] is no text;
# an unknown section is said at its own line, keys or none; a sibling
# parent gets its ./ hint; a --sysfs folder that is not there is refused,
# never planned as an empty node; --config takes a path, never a folder or
# a profile name; a hostfile is read in bounded lines and linear time; a
# node with more ports than a plan takes is told which it leaves out.
. "${RDMARUN_SRCDIR:-.}/tests/lib.sh"
NONE=$DATA/sysfs/none
cd "$TMP" || exit 1
plan() { run "$RDMARUN" --dry-run --sysfs "$NONE" -p "$1" ./app; }

printf '\357\273\277[profile]\ninherit = shm\n' >bom.ini
plan ./bom.ini
check "a UTF-8 BOM before [profile]: the profile loads" 0 "UCX_TLS=sm,self"
printf '[profile]\ninherit = shm\n\n[bogus]\n' >empty-section.ini
plan ./empty-section.ini
check "an unknown section with no keys: said at its line, 78" 78 "empty-section.ini:4: unknown section [bogus]"
printf '[profile]\ninherit = shm\n[bogus]\n\nfoo = 1\nbar = 2\n' >keyed-section.ini
plan ./keyed-section.ini
check "an unknown section with keys: said once, at the section's line" 78 \
    "keyed-section.ini:3: unknown section [bogus]"
check_without "not at its keys' lines" 78 "keyed-section.ini:5" "keyed-section.ini:3"
printf '[prolife]\ninherit = shm\n' >typo.ini
plan ./typo.ini
check "a misspelt section: its line and the name meant" 78 "typo.ini:1: unknown section [prolife] (did you mean [profile]?)"
mkdir sib && printf '[profile]\ninherit = b.ini\n' >sib/a.ini && printf '[profile]\ninherit = shm\n' >sib/b.ini
plan sib/a.ini
check "a sibling parent named b.ini: the ./b.ini hint" 66 \
    "sib/a.ini:2: parent profile 'b.ini' not found" "for the file beside sib/a.ini say inherit = ./b.ini"

run "$RDMARUN" --dry-run --sysfs "$TMP/no/such/sysfs" -p shm ./app
check "--sysfs a folder that is not there: 66, never an empty node" 66 "--sysfs $TMP/no/such/sysfs: No such file or directory"
run "$RDMARUN" probe --sysfs "$TMP/bom.ini"
check "--sysfs a file: 66" 66 "--sysfs $TMP/bom.ini: not a folder"

# Hostfiles: read by bounded lines (a 1 GB file of one line is refused as
# it is read, in little memory), a long comment stays one line (its tail is
# no node), 100,000 hosts counted once each in linear time.
truncate -s 1G huge.hosts
# (its peak memory from the kernel's rusage, through Python: no /usr/bin/time
# in every root)
run python3 -c 'import resource, subprocess, sys
r = subprocess.run(sys.argv[1:])
sys.stderr.write("%d KB\n" % resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
sys.exit(r.returncode)' "$RDMARUN" --dry-run --sysfs "$DATA/sysfs/rxe" --hostfile "$TMP/huge.hosts" -np 2 ./app
check "a 1 GB hostfile of one line: refused as read, 65" 65 "huge.hosts:1: a line longer than 64 KiB"
kb=$(printf '%s\n' "$err" | tail -1 | sed -n 's/^\([0-9]*\) KB$/\1/p')
[ -n "$kb" ] && [ "$kb" -lt 102400 ]; ok $? "in bounded memory (${kb:-?} KB at most, the file 1 GB)"
rm -f huge.hosts
{ printf 'a slots=2 # '; head -c 3000 /dev/zero | tr '\0' x; printf ' b\nc\n'; } >comment.hosts
run "$RDMARUN" --dry-run --sysfs "$DATA/sysfs/rxe" --hostfile "$TMP/comment.hosts" -np 2 ./app
check "a 3,000-byte comment: its tail is no node" 0 "path test: 2 nodes"
python3 -c "
with open('many.hosts', 'w') as f:
    for i in range(100000):
        f.write('node%06d slots=4\\nnode%06d:2\\n' % (i, i))"
t0=$(date +%s%N)
run "$RDMARUN" --dry-run --sysfs "$DATA/sysfs/rxe" --hostfile "$TMP/many.hosts" -np 2 ./app
ms=$((($(date +%s%N) - t0) / 1000000))
check "100,000 hosts, each twice: 100,000 nodes" 0 "path test: 100000 nodes"
[ "$ms" -le $((5000 * SLOWDOWN)) ]; ok $? "counted in linear time: $ms ms (were 10.8 s)"

# The dry run asks the program's MPI library its version in a child: its
# constructors (and MPICH's UCX and libfabric) never run in rdmarun itself.
HELLO=$BUILD/examples/mpi_hello
if command -v strace >/dev/null && [ -x "$HELLO" ]; then
    # One trace file a process (-ff): rdmarun's own is the one with its
    # execve (its children fork, or exec other programs). dlopen opens the library
    # O_RDONLY|O_CLOEXEC; reading its file (the ELF's soname) is
    # open_input's O_NONBLOCK.
    rm -f dry.trace.*
    mkdir -m 700 rt
    XDG_RUNTIME_DIR=$TMP/rt strace -ff -qq -e trace=openat,execve -o dry.trace "$RDMARUN" --dry-run --sysfs "$NONE" -p shm \
        -np 2 "$HELLO" >dry.out 2>&1
    dry_rc=$?
    first=$(grep -l "^execve(\"$RDMARUN\"" dry.trace.* 2>/dev/null | sed 's/^dry\.trace\.//' | head -1)
    loads=$(grep -l 'libmpi[^"]*", O_RDONLY|O_CLOEXEC' dry.trace.* 2>/dev/null | sed 's/^dry\.trace\.//' | tr '\n' ' ' | sed 's/ $//')
    why=
    [ "$dry_rc" = 0 ] || why="the dry run's status is $dry_rc"
    [ -n "$first" ] || why="${why:+$why; }no trace of rdmarun's execve"
    [ -n "$loads" ] || why="${why:+$why; }no process loaded libmpi"
    case " $loads " in *" $first "*) why="${why:+$why; }rdmarun itself ($first) loaded it" ;; esac
    grep -q "stack: Open MPI" dry.out || why="${why:+$why; }no 'stack: Open MPI' line"
    [ -z "$why" ]
    ok $? "the dry run loads the MPI library only in a child (${loads:-none}, rdmarun $first), and still names it"
    [ -z "$why" ] || { echo "# $why"; sed 's/^/#   /' dry.out | tail -5; }
    # Asked once per build of the library (util/file_cache.c): the next dry
    # run reads the answer kept under the library's identity, loads nothing.
    rm -f dry.trace.*
    XDG_RUNTIME_DIR=$TMP/rt strace -ff -qq -e trace=openat -o dry.trace "$RDMARUN" --dry-run \
        --sysfs "$NONE" -p shm -np 2 "$HELLO" >dry2.out 2>&1
    ! grep -q 'libmpi[^"]*", O_RDONLY|O_CLOEXEC' dry.trace.* && grep -q "stack: Open MPI" dry2.out
    ok $? "a second dry run loads no MPI library (its answer kept per build), and names it"
    cache=$(ls rt/rdmarun/mpi-library.* 2>/dev/null | head -1)
    dry() { run env XDG_RUNTIME_DIR="$TMP/rt" "$RDMARUN" --dry-run --sysfs "$NONE" -p shm -np 2 "$HELLO"; }
    if [ -f "$cache" ]; then
        head -1 "$cache" >key && printf '%s\nKept MPI 9.9\n' "$(cat key)" >"$cache"
        dry
        check "the answer is read under its key: the kept one said" 0 "stack: Kept MPI 9.9"
        sed -i '1s/ mtime [0-9.]* / mtime 1.000000000 /' "$cache"
        dry
        check_without "a key of another build of the library (its mtime): asked again" 0 \
            "Kept MPI" "stack: Open MPI"
        printf '%s\nLinked MPI 6.6\n' "$(cat key)" >target && rm -f "$cache" && ln -s "$TMP/target" "$cache"
        dry
        check_without "a link in the cache's place is not followed: the library asked" 0 \
            "Linked MPI" "stack: Open MPI"
        grep -q "Linked MPI 6.6" target; ok $? "and the link's target is not written"
    else
        ok 1 "the MPI library's answer kept in rt/rdmarun: no mpi-library.* there ($(ls rt/rdmarun 2>&1 | tr '\n' ' '))"
    fi
else
    skip "the dry run loads the MPI library only in a child" "strace or the example not there"
fi

# More ports than a plan chooses among (MAX_PORTS, 64): a node with 72
# ACTIVE InfiniBand ports (ib-mlx5's recorded tree, its mlx5_1 copied 70
# times) gets a note naming the 8 left out, never a silent cut; 70 names in
# UCX_NET_DEVICES are checked up to 64 with a note, and UCX's own parser
# reads the whole list back (it wrote past a 256-byte buffer and crashed).
cp -r "$DATA/sysfs/ib-mlx5" many
for i in $(seq 2 71); do cp -r many/class/infiniband/mlx5_1 "many/class/infiniband/mlx5_$i"; done
run "$RDMARUN" --dry-run --sysfs "$TMP/many" -p ib -np 2 ./app
check "72 ACTIVE IB ports: the plan says which it leaves out" 0 \
    "this node has 72 ACTIVE InfiniBand ports; the plan chooses among the first" "leaves 8 unused"
run "$RDMARUN" --dry-run --sysfs "$TMP/many" -p ib -np 2 \
    --set "ucx.NET_DEVICES=$(seq -f 'mlx5_%g:1' 0 69 | paste -sd,)" ./app
check "70 names in UCX_NET_DEVICES: read whole, the cap said" 0 \
    "UCX_NET_DEVICES names 70 devices; rdmarun checks the first 64" "mlx5_69:1"

mkdir cfg && printf '[check]\ndevices = rxe0\ntimeout = %s\n' "$(scaled 20)" >cfg/check.ini
run sh -c "cd '$TMP/cfg' && exec '$RDMARUN' check --config check.ini --sysfs '$DATA/sysfs/rxe'"
check "check --config check.ini: the file in this folder, not a profile name" 0 "is healthy: 1 check passed (check.ini)"
run "$RDMARUN" check --config "$TMP/cfg" --sysfs "$DATA/sysfs/rxe"
check "check --config a folder: said to be one, with the file meant" 66 \
    "--config $TMP/cfg is a folder: --config takes the configuration file" "$TMP/cfg/check.ini"
done_testing
