#!/bin/sh
# The Debian 13 (trixie) stack for the version-matrix suite, made from
# Debian's own packages with mmdebstrap: Open MPI 5, UCX 1.18, Slurm 24.11,
# hwloc 2.12, rdma-core 56, kernel 6.12 and the tools the suites use. The root
# is cached between runs on one machine and made again when the package list
# (scripts/debian13-packages) changes.
#   scripts/debian13-root.sh [DIR]     (default: $RDMARUN_DEBIAN13_ROOT,
#                                       else /var/cache/rdmarun/debian13)
# Prints the root's path on its last line. Needs root (mmdebstrap, chroot).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=${1:-${RDMARUN_DEBIAN13_ROOT:-/var/cache/rdmarun/debian13}}
mirror=${RDMARUN_DEBIAN_MIRROR:-http://deb.debian.org/debian}
list=$here/debian13-packages
want=$( (grep -v '^#' "$list"; echo "$mirror") | sha256sum | cut -d' ' -f1)
if [ -f "$root/.rdmarun-packages" ] && [ "$(cat "$root/.rdmarun-packages")" = "$want" ]; then
    echo "debian13: cached root $root"
    echo "$root"
    exit 0
fi
command -v mmdebstrap >/dev/null || {
    echo "debian13: mmdebstrap is missing (apt-get install mmdebstrap)" >&2; exit 69; }
packages=$(grep -v '^#' "$list" | tr -s ' \n' ',' | sed 's/^,//; s/,$//')
rm -rf "$root.new"
mkdir -p "$(dirname "$root")"
t0=$(date +%s)
mmdebstrap --variant=apt --include="$packages" --aptopt='Apt::Install-Recommends "false"' \
    --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/man/*' \
    --dpkgopt='path-exclude=/usr/share/locale/*' \
    trixie "$root.new" "$mirror" >&2
echo "$want" >"$root.new/.rdmarun-packages"
rm -rf "$root"
mv "$root.new" "$root"
echo "debian13: made $root in $(($(date +%s) - t0)) s ($(du -sm "$root" | cut -f1) MB)" >&2
echo "$root"
