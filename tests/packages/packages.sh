#!/bin/bash
# make check-packages: the packages built and installed as a site would.
# Debian: rdmarun and rdmarun-slurm built with dpkg-buildpackage from the
# unpacked 'make dist' tarball, on Debian 12 (this machine) and Debian 13 (the
# version-matrix root, scripts/debian13-root.sh); lintian without errors;
# installed with what they pull in (and openmpi-bin, the launcher) into a
# clean root of the same release made by mmdebstrap, where
# tests/packages/installed.sh runs a job, the health check, the wrappers and
# the Slurm plugin from the installed files only. RPM: rdmarun.spec built
# with rpmbuild -tb from the same tarball, its files checked against the
# Debian packages' layout. Needs root, mmdebstrap, debhelper, lintian, rpm
# and Debian's mirror ($RDMARUN_DEBIAN_MIRROR).
. "$RDMARUN_SRCDIR/tests/lib.sh"
[ "$(id -u)" = 0 ] || { echo "1..0 # SKIP the package tests build roots as root"; exit 0; }
for b in dpkg-buildpackage dh lintian mmdebstrap rpmbuild; do
    command -v $b >/dev/null ||
        { echo "1..0 # SKIP $b is missing (dpkg-dev, debhelper, lintian, mmdebstrap, rpm)"; exit 0; }
done
VERSION=$(sed -n 's/^PACKAGE_VERSION = //p' "$BUILD/Makefile")
TARBALL=$BUILD/rdmarun-$VERSION.tar.gz
[ -f "$TARBALL" ] || { echo "1..0 # SKIP no $TARBALL (make check-packages makes it)"; exit 0; }
MIRROR=${RDMARUN_DEBIAN_MIRROR:-http://deb.debian.org/debian}
JOBS="nocheck parallel=$(nproc)"
# ok_log STATUS DESCRIPTION LOG: a test, with LOG's end when it failed.
ok_log() {
    ok "$1" "$2"
    [ "$1" = 0 ] || tail -30 "$3" | sed 's/^/#   /'
}
# timed COMMAND...: runs it; took prints how long it ran, for the test's name.
timed() { _t0=$(date +%s); "$@"; _s=$?; echo $(($(date +%s) - _t0)) >"$TMP/took"; return $_s; }
took() { echo "$(cat "$TMP/took" 2>/dev/null) s"; }

# in_clean_root SUITE DIR HELLO DEB...: a clean SUITE root in DIR with only
# the DEBs and openmpi-bin (and what they depend on), then installed.sh in
# it, each of its lines one test.
in_clean_root() {
    local suite=$1 dir=$2 hello=$3
    shift 3
    local include=openmpi-bin
    for d in "$@"; do include="$include,$d"; done
    timed mmdebstrap --variant=apt --include="$include" \
        --hook-dir=/usr/share/mmdebstrap/hooks/file-mirror-automount \
        --aptopt='Apt::Install-Recommends "false"' --dpkgopt='path-exclude=/usr/share/locale/*' \
        "$suite" "$dir" "$MIRROR" >"$TMP/mmdebstrap.log" 2>&1
    ok_log $? "$suite: a clean root with the packages installed ($(du -sm "$dir" | cut -f1) MB, $(took))" \
        "$TMP/mmdebstrap.log"
    cp "$SRC/tests/packages/installed.sh" "$dir/root/installed.sh" && cp "$hello" "$dir/root/mpi_hello"
    "$SRC/scripts/chroot-run.sh" "$dir" /bin/sh /root/installed.sh "$VERSION" /root/mpi_hello \
        >"$TMP/installed.out" 2>&1
    relay_tap "$TMP/installed.out" "$suite: "
    grep -q "^ok - purging" "$TMP/installed.out"
    ok_log $? "$suite: installed.sh ran to its end" "$TMP/installed.out"
    rm -rf "$dir"
}

# lintian_report OUTPUT: lintian's errors and warnings as comments; fails on an error.
lintian_report() {
    grep -E '^[EW]: ' "$1" | sed 's/^/# lintian: /'
    ! grep -q '^E: ' "$1"
}

# ---- Debian 12: built on this machine ----
mkdir -p "$TMP/deb12"
tar xzf "$TARBALL" -C "$TMP/deb12"
(cd "$TMP/deb12/rdmarun-$VERSION" && DEB_BUILD_OPTIONS=$JOBS timed dpkg-buildpackage -us -uc -b) \
    >"$TMP/deb12.log" 2>&1
ok_log $? "bookworm: dpkg-buildpackage -us -uc -b ($(took))" "$TMP/deb12.log"
debs12=$(ls "$TMP"/deb12/rdmarun_"$VERSION"_*.deb "$TMP"/deb12/rdmarun-slurm_"$VERSION"_*.deb 2>/dev/null)
ok $([ "$(echo "$debs12" | grep -c .)" = 2 ]; echo $?) "bookworm: two packages, rdmarun and rdmarun-slurm"
lintian --fail-on error "$TMP"/deb12/rdmarun_"$VERSION"_*.changes >"$TMP/lintian12" 2>&1
lintian_report "$TMP/lintian12"
ok $? "bookworm: lintian finds no error"
in_clean_root bookworm "$TMP/root12" "$BUILD/examples/mpi_hello" $debs12

# ---- Debian 13: built in the version-matrix root ----
root13=$("$SRC/scripts/debian13-root.sh" 2>"$TMP/root13.log" | tail -1)
if [ ! -x "$root13/usr/bin/dh" ]; then
    skip "trixie: the packages" "no Debian 13 root with debhelper ($(tail -1 "$TMP/root13.log"))"
else
    rm -rf "$root13/work/packages"
    mkdir -p "$root13/work/packages"
    tar xzf "$TARBALL" -C "$root13/work/packages"
    timed "$SRC/scripts/chroot-run.sh" "$root13" DEB_BUILD_OPTIONS="$JOBS" /bin/sh -c \
        "cd /work/packages/rdmarun-$VERSION && dpkg-buildpackage -us -uc -b &&
         mpicc -O2 -o /work/packages/mpi_hello examples/mpi_hello.c" >"$TMP/deb13.log" 2>&1
    ok_log $? "trixie: dpkg-buildpackage -us -uc -b, in the Debian 13 root ($(took))" "$TMP/deb13.log"
    "$SRC/scripts/chroot-run.sh" "$root13" /bin/sh -c \
        "lintian --fail-on error /work/packages/rdmarun_${VERSION}_*.changes" >"$TMP/lintian13" 2>&1
    lintian_report "$TMP/lintian13"
    ok $? "trixie: lintian $(chroot "$root13" dpkg-query -W -f='${Version}' lintian) finds no error"
    mkdir -p "$TMP/deb13"
    mv "$root13"/work/packages/*.deb "$root13/work/packages/mpi_hello" "$TMP/deb13/" 2>/dev/null
    rm -rf "$root13/work/packages"
    in_clean_root trixie "$TMP/root13" "$TMP/deb13/mpi_hello" \
        "$TMP"/deb13/rdmarun_"$VERSION"_*.deb "$TMP"/deb13/rdmarun-slurm_"$VERSION"_*.deb
fi

# ---- RPM: rdmarun.spec from the tarball ----
# --nodeps: Debian has no RPM database to find BuildRequires in.
timed rpmbuild -tb --nodeps --define "_topdir $TMP/rpm" "$TARBALL" >"$TMP/rpm.log" 2>&1
ok_log $? "rpmbuild -tb on the tarball ($(took))" "$TMP/rpm.log"
rpms=$(ls "$TMP"/rpm/RPMS/*/rdmarun-*"$VERSION"-*.rpm 2>/dev/null)
ok $([ "$(echo "$rpms" | grep -c .)" = 2 ]; echo $?) "two RPMs, rdmarun and rdmarun-slurm"
# files_of KIND PACKAGE...: the files and links a package installs (not
# directories), in one layout: the Debian packages' man pages without .gz,
# their multiarch libdir as lib64, without Debian's changelog and copyright
# or RPM's build-id links.
files_of() {
    local kind=$1
    shift
    for p in "$@"; do
        if [ "$kind" = deb ]; then dpkg-deb -c "$p" | awk '$1 !~ /^d/ {print $6}' | sed 's|^\.||'
        else rpm -qp --qf '[%{FILEMODES:perms} %{FILENAMES}\n]' "$p" | awk '$1 !~ /^d/ {print $2}'; fi
    done | sed -E 's|/usr/lib/x86_64-linux-gnu/|/usr/lib64/|; s|(/man/man[0-9]/.*)\.gz$|\1|' |
        grep -vE '^/usr/share/doc/rdmarun(-slurm)?/(changelog\.gz|copyright)$|^/usr/lib/\.build-id' | sort
}
files_of rpm $rpms >"$TMP/rpm.files"
files_of deb $debs12 >"$TMP/deb.files"
diff "$TMP/deb.files" "$TMP/rpm.files" | sed 's/^/#   /'
ok $([ -s "$TMP/rpm.files" ] && cmp -s "$TMP/deb.files" "$TMP/rpm.files"; echo $?) \
    "the RPMs install the Debian packages' files ($(wc -l <"$TMP/rpm.files") files)"
missing=0
for f in /usr/bin/rdmarun /usr/libexec/rdmarun/wrappers/mpirun /usr/share/rdmarun/profiles/auto.ini \
    /usr/lib64/rdmarun/rdmarun_spank.so /usr/share/man/man1/rdmarun.1; do
    grep -qx "$f" "$TMP/rpm.files" || { echo "# missing: $f"; missing=1; }
done
ok $missing "the RPMs have rdmarun, its wrappers, profiles, the SPANK plugin and man pages"
rpm -qp --qf '[%{FILENAMES} %{FILEFLAGS:fflags}\n]' $rpms | grep -q '^/etc/rdmarun/check.ini cn$'
ok $? "the RPM's check.ini is %config(noreplace)"
slurm_release=$(n=$(($(sed -n 's/^#define SLURM_VERSION_NUMBER *//p' /usr/include/slurm/slurm_version.h)));
    printf %d.%02d $((n >> 16 & 255)) $((n >> 8 & 255)))
rpm -qp --requires $(echo "$rpms" | grep slurm) | grep -qx "slurm >= $slurm_release"
ok $? "rdmarun-slurm's RPM requires Slurm $slurm_release, the release it was built for"
done_testing
