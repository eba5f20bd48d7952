#!/bin/bash
# Build the Soft-RoCE guest's initramfs from what is installed: busybox-static
# and this kernel's own modules for virtio, 9p and rdma_rxe (dependencies
# resolved with modinfo). Nothing is downloaded.
#   build-initramfs.sh OUT.cpio.gz KVER
set -euo pipefail
out=${1:?output file}
kver=${2:?kernel version}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
want="virtio_pci virtio_net 9pnet_virtio 9p configfs ib_core ib_uverbs ib_umad ib_cm iw_cm
      rdma_cm rdma_ucm udp_tunnel ip6_udp_tunnel crc32_generic rdma_rxe 8021q sch_netem dummy"
mkdir -p "$work"/{bin,proc,sys,dev,newroot,lib/modules}
cp /bin/busybox "$work/bin/busybox"
for a in sh mount umount insmod mkdir cat echo sleep poweroff chroot ip hostname ln cut sync; do
    ln -s busybox "$work/bin/$a"
done
declare -A seen
order=()
visit() {   # dependencies first
    local m=${1//-/_} d
    [[ -n ${seen[$m]:-} ]] && return
    seen[$m]=1
    for d in $(modinfo -k "$kver" -F depends "$m" | tr ',' ' '); do visit "$d"; done
    order+=("$m")
}
for m in $want; do visit "$m"; done
for m in "${order[@]}"; do
    f=$(modinfo -k "$kver" -F filename "$m")
    case $f in
    "(builtin)") continue ;;   # built into this kernel (6.12 has crc32 and others)
    *.ko.xz) xz -dc "$f" >"$work/lib/modules/$m.ko" ;;
    *.ko.zst) zstd -dcq "$f" >"$work/lib/modules/$m.ko" ;;
    *) cp "$f" "$work/lib/modules/$m.ko" ;;
    esac
    echo "$m" >>"$work/lib/modules/load-order"
done
cp "$here/init" "$work/init"
chmod +x "$work/init"
(cd "$work" && find . | cpio -o -H newc --quiet | gzip -1) >"$out.tmp"
mv "$out.tmp" "$out"
