#!/bin/sh
# The layout is the architecture (docs/DESIGN.md): src/ holds rdmarun.c and
# one folder per stage, and a stage includes only itself, the stages below it
# and util. Every project include of every source file is checked against
# the floors below; a file outside every floor fails too.
. "${RDMARUN_SRCDIR:-.}/tests/lib.sh"
# Lowest first. A stage may include its own folder and any folder listed before it.
FLOORS="util profile facts model plan preflight evidence launch slurm health compare tune judge fleet cmd"
floor() {  # floor NAME: its number, or nothing
    _k=0
    for _f in $FLOORS; do
        [ "$_f" = "$1" ] && { echo $_k; return; }
        _k=$((_k + 1))
    done
}
cd "$SRC/src" || exit 1
[ "$(ls ./*.c)" = "./rdmarun.c" ]; ok $? "src/ holds no .c file but rdmarun.c ($(ls ./*.c | tr '\n' ' '))"
for d in */; do
    d=${d%/}
    [ -n "$(floor "$d")" ]; ok $? "src/$d is a stage of the layout"
done
bad=0
for file in */*.c */*.h; do
    stage=${file%%/*}
    mine=$(floor "$stage")
    [ "$file" = slurm/spank.c ] && continue   # loaded into Slurm: includes nothing of ours
    for inc in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$file"); do
        case $inc in */*) ;; *) continue ;; esac   # same folder
        theirs=$(floor "${inc%%/*}")
        if [ -z "$theirs" ] || [ "$theirs" -gt "$mine" ]; then
            echo "# $file includes $inc: ${inc%%/*} is not below $stage"
            bad=$((bad + 1))
        fi
    done
done
[ $bad = 0 ]; ok $? "no include runs from a lower stage to a higher one ($bad found)"
# An include can keep to the order while the code does not: a header of a
# stage declaring what a higher stage defines (compare/compare.h once
# declared cmd/compare.c's functions) makes the stage call up through it.
# backwards [DIR]: "header: NAME defined in FILE" for each function a
# header under DIR declares and a .c file of a higher stage defines.
backwards() (
    cd "${1:-.}" || exit 1
    # top-level definitions: a type and NAME( at the start of a line that
    # does not end a declaration
    for c in */*.c; do
        sed -n '/^\(static\|extern\|typedef\|return\)[ ;]/d
                s|^[A-Za-z_][A-Za-z0-9_ *]*[ *]\([A-Za-z_][A-Za-z0-9_]*\)(.*[^;]$|\1 '"${c%%/*} $c"'|p' "$c"
    done | sort -u >"$TMP/defs"
    for h in */*.h; do
        sed -n '/^\(static\|extern\|typedef\)[ ;]/d
                s/^[A-Za-z_][A-Za-z0-9_ *]*[ *]\([A-Za-z_][A-Za-z0-9_]*\)(.*/\1/p' "$h" | sort -u |
            join - "$TMP/defs" | while read -r name stage file; do
                [ "$(floor "$stage")" -gt "$(floor "${h%%/*}")" ] && echo "$h: $name defined in $file"
            done
    done
)
# The check itself, on a stage that declares a function of the command layer.
mkdir -p "$TMP/src/compare" "$TMP/src/cmd"
printf 'int compare_run(struct compare *c);\n' >"$TMP/src/compare/compare.h"
printf 'int compare_run(struct compare *c)\n{\n    return 0;\n}\n' >"$TMP/src/cmd/compare.c"
[ "$(backwards "$TMP/src")" = "compare/compare.h: compare_run defined in cmd/compare.c" ]
ok $? "a header declaring a function a higher stage defines is found"
found=$(backwards)
[ -z "$found" ]; ok $? "no header declares a function a higher stage defines${found:+: $found}"
# configure's answers (HAVE_...) reach only a file that includes config.h: a
# test of one without it is always false, silently (verbs.c's dma-buf probe
# reported "no" on every node until this check).
missing=
for file in */*.c; do
    grep -q '^#if.*HAVE_' "$file" || continue
    grep -q '^#include [<"]config.h[>"]' "$file" || missing="$missing $file"
done
[ -z "$missing" ]; ok $? "every source that asks configure's HAVE_ macros includes config.h (${missing:-none missing})"
# docs/DESIGN.md's layer table names what each stage may include: a stage
# that includes one its row does not name (rows of "... X", every stage
# below, and "everything" are held by the floors above) is a table out of date.
stale() {  # stale DESIGN.md: "stage→included" for each include its row leaves out
    for d in */; do
        d=${d%/}
        row=$(grep "^| [0-9]* | \`$d/\` |" "$1" | awk -F'|' '{print $(NF-1)}' | tr -d ' ')
        case $row in *everything*|*...*) continue ;; esac
        for used in $(sed -n 's|^#include "\([a-z]*\)/.*|\1|p' "$d"/*.[ch] | sort -u); do
            [ "$used" = "$d" ] && continue
            case ",$row," in *",$used,"*) ;; *) printf ' %s' "$d→$used" ;; esac
        done
    done
}
sed 's/^\(| 5 | `evidence\/` |.*| \)util, profile, facts |$/\1util, profile |/' \
    "$SRC/docs/DESIGN.md" >"$TMP/design-old.md"
[ "$(stale "$TMP/design-old.md")" = " evidence→facts" ]
ok $? "a row that leaves out an include is found (evidence without facts: $(stale "$TMP/design-old.md"))"
found=$(stale "$SRC/docs/DESIGN.md")
[ -z "$found" ]; ok $? "docs/DESIGN.md's layer table names every stage's includes${found:+:$found}"
# rdmarun.c dispatches: it includes the command table and nothing of the stages.
! grep '^#include "' rdmarun.c | grep -v '"cmd/' | grep -q .
ok $? "rdmarun.c includes only cmd/"
done_testing
