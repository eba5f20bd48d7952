#!/bin/sh
# The layout is the architecture (docs/DESIGN.md): src/ holds rdmarun.c and
# one folder per stage, and a stage includes only itself, the stages below it
# and util. Every project include of every source file is checked against
# the floors below; a file outside every floor fails too.
. "${RDMARUN_SRCDIR:-.}/tests/lib.sh"
# Lowest first. A stage may include its own folder and any folder listed before it.
FLOORS="util profile facts plan preflight evidence launch slurm health compare cmd"
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
# configure's answers (HAVE_...) reach only a file that includes config.h: a
# test of one without it is always false, silently (verbs.c's dma-buf probe
# reported "no" on every node until this check).
missing=
for file in */*.c; do
    grep -q '^#if.*HAVE_' "$file" || continue
    grep -q '^#include [<"]config.h[>"]' "$file" || missing="$missing $file"
done
[ -z "$missing" ]; ok $? "every source that asks configure's HAVE_ macros includes config.h (${missing:-none missing})"
# rdmarun.c dispatches: it includes the command table and nothing of the stages.
! grep '^#include "' rdmarun.c | grep -v '"cmd/' | grep -q .
ok $? "rdmarun.c includes only cmd/"
done_testing
