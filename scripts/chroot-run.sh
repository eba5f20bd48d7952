#!/bin/sh
# Runs a command in a Debian root (chroot) with what jobs, Slurm and the VM
# suite need mounted: /proc, /sys (with its mounts, as a slave copy, so that
# unmounting never reaches the host's), /dev, /dev/pts, and fresh tmpfs
# /dev/shm, /tmp and /run; all unmounted again afterwards. The environment is
# emptied but for PATH, HOME, TERM, LANG and any VAR=VALUE given first.
# RDMARUN_CHROOT_RO="DIR..." binds each DIR read-only at its own path
# (self-contained installs, such as the PyPI wheels' virtual environments).
#   scripts/chroot-run.sh ROOT [VAR=VALUE...] COMMAND [ARGS...]
# Exits with COMMAND's status. Needs root.
set -u
root=${1:?root}
shift
mounted=
cleanup() {
    for m in $mounted; do umount -l "$root$m" 2>/dev/null; done
}
trap cleanup EXIT INT TERM
bind() {  # bind SRC TARGET-IN-ROOT
    mkdir -p "$root$2"
    mount --bind "$1" "$root$2" && mounted="$2 $mounted"
}
bind /proc /proc
for d in ${RDMARUN_CHROOT_RO:-}; do
    [ -d "$d" ] && bind "$d" "$d" && mount -o remount,bind,ro "$root$d"
done
# Slurm 24.11's slurmd needs /sys/fs/cgroup, below /sys.
mkdir -p "$root/sys"
mount --rbind /sys "$root/sys" && mount --make-rslave "$root/sys" && mounted="/sys $mounted"
bind /dev /dev
bind /dev/pts /dev/pts
for d in /dev/shm /tmp; do
    mkdir -p "$root$d"
    mount -t tmpfs -o mode=1777 tmpfs "$root$d" && mounted="$d $mounted"
done
mkdir -p "$root/run"
mount -t tmpfs -o mode=755 tmpfs "$root/run" && mounted="/run $mounted"
chroot "$root" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    HOME=/root TERM=dumb LANG=C.UTF-8 "$@"
