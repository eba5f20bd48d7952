#!/bin/bash
# rdmarun finds its profiles from where its binary is, not from a path
# compiled in: a build tree copied or moved elsewhere reads its own profiles
# (rdmarun-tree holds the source tree relative to the build tree), and so
# does an installation moved to another prefix (BINDIR/../share/rdmarun).
. "$RDMARUN_SRCDIR/tests/lib.sh"
# Only the default search path: no RDMARUN_PROFILE_PATH, an empty HOME.
unset RDMARUN_PROFILE_PATH
export HOME=$TMP/home
mkdir -p "$HOME"

# 1. A build tree, copied: rdmarun, rdmarun-tree and the profiles, as they
# lie in a tree built where it was cloned. (A VPATH build's rdmarun-tree
# names its source tree, relative when configure was called by a relative
# path, so that such a tree copied together with its source works too.)
if [ "$(cat "$BUILD/rdmarun-tree")" = . ]; then
    C=$TMP/copy
    mkdir -p "$C"
    cp "$BUILD/rdmarun" "$BUILD/rdmarun-tree" "$C/" && cp -r "$SRC/profiles" "$C/profiles"
    sed -i 's/^description *=.*/description = the copy'"'"'s own shm/' "$C/profiles/shm.ini"
    run "$C/rdmarun" profiles -v
    check "a copied build tree lists its own profiles" 0 "the copy's own shm" "$C/profiles/shm.ini"
    # The original's profiles out of reach (the copy's rdmarun-tree, were it
    # absolute, would name them): moved aside in a second copy of the source.
    mkdir -p "$TMP/orig" && cp -r "$SRC/profiles" "$TMP/orig/profiles"
    printf '%s\n' "$TMP/orig" >"$TMP/orig/rdmarun-tree"
    cp "$BUILD/rdmarun" "$TMP/orig/"
    mv "$TMP/orig/profiles" "$TMP/orig/profiles.gone"
    run "$C/rdmarun" --dry-run -p shm -np 2 ./app
    check_without "the copy plans from its own profiles" 0 "$TMP/orig" "$C/profiles/shm.ini"
    run "$TMP/orig/rdmarun" profiles show shm
    check_without "and the original, its profiles gone, does not find the copy's" 66 "$C/profiles" "shm"
else
    skip "a copied build tree lists its own profiles" "a VPATH build (rdmarun-tree: $(cat "$BUILD/rdmarun-tree"))"
fi

# 2. An installation, moved: make install prefix=A, then A renamed to B.
A=$TMP/inst-a B=$TMP/inst-b
make -C "$BUILD" install prefix="$A" >"$TMP/install.log" 2>&1
ok $? "make install prefix=$A" || sed 's/^/#   /' "$TMP/install.log" | tail -20
mv "$A" "$B"
run "$B/bin/rdmarun" profiles -v
check_without "the moved installation lists its own profiles" 0 "$A" "$B/share/rdmarun/profiles/shm.ini"
# Not moved: it reads its own prefix's, as compiled in.
make -C "$BUILD" install prefix="$A" >"$TMP/install.log" 2>&1
run "$A/bin/rdmarun" profiles -v
check_without "an installation in place reads its prefix's profiles" 0 "$B" "$A/share/rdmarun/profiles/shm.ini"
done_testing
