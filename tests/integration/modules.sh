#!/bin/sh
# Environment modules: rdmarun installed into a prefix of its own, then
# 'module load rdmarun' (Lmod, as a site's users would) puts that rdmarun and
# its man pages on the paths, and 'module load rdmarun-dropin' its drop-in
# launchers, which still answer --version as the real mpirun does.
. "${RDMARUN_SRCDIR:-.}/tests/lib.sh"
init=/usr/share/lmod/lmod/init/sh
[ -f "$init" ] || { echo "1..0 # SKIP Lmod not installed (apt-get install lmod)"; exit 0; }
P=$TMP/prefix
make -C "$BUILD" install prefix="$P" >"$TMP/install.log" 2>&1
ok $? "make install prefix=$P" || sed 's/^/#   /' "$TMP/install.log" | tail -20
MODS=$P/share/rdmarun/modulefiles
[ -n "$(ls "$MODS/rdmarun" 2>/dev/null)" ] && [ -n "$(ls "$MODS/rdmarun-dropin" 2>/dev/null)" ]
ok $? "the modulefiles are installed under share/rdmarun/modulefiles ($(ls "$MODS" | tr '\n' ' '))"

# A fresh login shell's environment: Lmod's init, nothing of the build.
cat >"$TMP/session.sh" <<SESSION
. $init
module use $MODS
module load rdmarun
echo "rdmarun=\$(command -v rdmarun)"
echo "manpath=\$MANPATH"
rdmarun --version
module load rdmarun-dropin
echo "mpirun=\$(command -v mpirun)"
mpirun --version | head -n 1
module unload rdmarun-dropin rdmarun
echo "after=\$(command -v rdmarun || echo none)"
SESSION
run env -i HOME="$HOME" PATH=/usr/local/bin:/usr/bin:/bin sh "$TMP/session.sh"
check "module load rdmarun puts the installed rdmarun on PATH" 0 "rdmarun=$P/bin/rdmarun" "rdmarun 0."
check "and its man pages on MANPATH" 0 "manpath=$P/share/man"
[ -f "$P/share/man/man1/rdmarun.1" ]; ok $? "man1/rdmarun.1 is there"
check "module load rdmarun-dropin puts the drop-in mpirun first" 0 "mpirun=$P/libexec/rdmarun/wrappers/mpirun"
want=$(mpirun --version 2>&1 | head -n 1)
check "the drop-in's mpirun --version is the real mpirun's ($want)" 0 "$want"
check "module unload takes rdmarun off PATH again" 0 "after=none"
make -C "$BUILD" uninstall prefix="$P" >"$TMP/uninstall.log" 2>&1
[ -z "$(find "$P" -type f -o -type l)" ]; ok $? "make uninstall prefix=$P leaves no file"

done_testing
