#!/bin/sh
# scripts/house.py, the house's measure (issue 48), on a small tree written
# here whose answers are known: a 101-line function and a 61-line one, a
# file of 701 lines, files of two folders calling each other (a cycle
# between folders), a hand-written hash table; a netmask and a static
# function named like another file's are none of these. Then the real tree
# is held to the limits, its figures printed for whoever reads the log.
. "${RDMARUN_SRCDIR:-.}/tests/lib.sh"
command -v python3 >/dev/null || { echo "1..0 # SKIP python3 not installed"; exit 0; }
T=$TMP/tree
mkdir -p "$T/src/a" "$T/src/b" "$T/src/util"
body() { i=0; while [ $i -lt "$1" ]; do echo "    x++;"; i=$((i + 1)); done; }
{
    echo "int b_call(int x);"
    printf 'int a_long(int x)\n{\n'; body 99; printf '    return b_call(x);\n}\n'
    printf 'static int a_mid(int x)\n{\n'; body 59; printf '    return x;\n}\n'
    i=0; while [ $i -lt 540 ]; do echo "/* padding */"; i=$((i + 1)); done
} >"$T/src/a/a.c"
cat >"$T/src/b/b.c" <<'C'
int a_long(int x);
static int helper(int x)
{
    return x;
}
int b_call(int x)
{
    return a_long(helper(x));
}
C
cat >"$T/src/b/netmask.c" <<'C'
unsigned net_of(unsigned addr, unsigned mask)
{
    return addr & mask;
}
C
cat >"$T/src/util/table.c" <<'C'
static unsigned long slot(const long *t, unsigned long cap, long k)
{
    unsigned long i = (unsigned long)k & (cap - 1);
    while (t[i] && t[i] != k)
        i = (i + 1) & (cap - 1);
    return i;
}
static int helper(int x)
{
    return slot(0, 1, x);
}
C
python3 "$SRC/scripts/house.py" "$T" >"$TMP/house" 2>&1
ok $? "house.py reads the tree"
grep -q "^functions over 60 lines: 2; over 100: 1$" "$TMP/house" &&
    grep -q "^   103  a_long (src/a/a.c:2)$" "$TMP/house" && grep -q "^    63  a_mid (src/a/a.c:" "$TMP/house"
ok $? "a 103-line function is over 100, a 63-line one over 60"
grep -q "^files over 700 lines: 1$" "$TMP/house" && grep -q "src/a/a.c$" "$TMP/house"
ok $? "the file of $(wc -l <"$T/src/a/a.c") lines is over 700"
grep -q "^call cycles between folders: 1$" "$TMP/house" && grep -qx "  a <-> b" "$TMP/house"
ok $? "a and b call each other: one cycle between folders"
grep -q "^hash tables outside util/hashtab.c: 1$" "$TMP/house" && grep -qx "  src/util/table.c" "$TMP/house"
ok $? "the open-addressed table is found, the netmask is not"
python3 "$SRC/scripts/house.py" --check "$T" >/dev/null; [ $? = 1 ]
ok $? "--check fails a tree that breaks a limit"
python3 "$SRC/scripts/house.py" --check "$SRC" >"$TMP/real"
ok $? "the real tree holds the limits: no function over 100 lines, no file over 700, no call cycle between files or folders, no hand-written hash table"
sed 's/^/# /' "$TMP/real" | grep -v '^#  ' 
done_testing
