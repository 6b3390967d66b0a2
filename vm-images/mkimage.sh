#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# Builds a VNF guest from Debian packages and calvin's build: the Debian
# kernel (downloaded and unpacked, never installed on the host) and an
# initramfs with busybox, the modules the guest needs, calvin-agent (the
# kernel VNFs' programs built in), calvin-vnf and its hand-over XDP object,
# and exactly the shared objects they load.
# Same inputs, same bytes: files sorted, owners 0, times SOURCE_DATE_EPOCH.
#
#   mkimage.sh KERNEL OUT BUILD    KERNEL: cloud | rt; OUT: output directory;
#                                  BUILD: calvin's build directory
set -euo pipefail
export LC_ALL=C
flavour=$1 out=$2 build=$3
here=$(cd "$(dirname "$0")" && pwd)
arch=x86_64-linux-gnu
pmds=/usr/lib/$arch/dpdk/pmds-23.0

die() { echo "mkimage: $*" >&2; exit 2; }
case $flavour in cloud | rt) ;; *) die "KERNEL=$flavour: expected cloud or rt" ;; esac
for f in calvin-agent calvin-vnf kernel/handover.bpf.o; do
	[ -e "$build/$f" ] || die "$build/$f missing: run make build first"
done
for t in busybox cpio zstd depmod modprobe llvm-strip; do
	command -v $t >/dev/null || die "$t not found: run make deps (busybox-static, cpio, zstd, kmod)"
done

# 1. The kernel package: the flavour's meta package names the version.
meta=linux-image-$flavour-amd64
pkg=$(apt-cache depends --important "$meta" 2>/dev/null | awk '/Depends: linux-image-[0-9]/ { print $2; exit }')
[ -n "$pkg" ] || die "cannot resolve $meta: run apt-get update"
mkdir -p "$out/debs"
deb=$(ls "$out/debs/${pkg}_"*.deb 2>/dev/null | head -n 1 || true)
if [ -z "$deb" ]; then
	(cd "$out/debs" && apt-get download "$pkg" >/dev/null 2>&1) || die "apt-get download $pkg failed"
	deb=$(ls "$out/debs/${pkg}_"*.deb | head -n 1)
fi
kver=${pkg#linux-image-}
kdir=$out/kernel
rm -rf "$kdir" && mkdir -p "$kdir"
dpkg-deb -x "$deb" "$kdir"
cp "$kdir/boot/vmlinuz-$kver" "$out/vmlinuz"
depmod -b "$kdir" "$kver"

root=$out/root
rm -rf "$root" && mkdir -p "$root"/{proc,sys,dev,run,tmp,etc,usr/bin,usr/sbin,usr/lib/calvin/kernel,usr/lib64}
for d in bin sbin lib lib64; do
	ln -s usr/$d "$root/$d"
done
# DPDK keeps its runtime directory (and telemetry socket) in /var/run/dpdk
mkdir -p "$root/var" && ln -s ../run "$root/var/run"

# 2. Modules, dependencies first. The cloud kernel builds these as modules
# (virtio core, PCI transport, net, console, rng, ptp_kvm); uio_pci_generic
# lets DPDK's virtio PMD own a NIC. A name the kernel builds in is skipped.
mkdir -p "$root/lib/modules"
: >"$root/lib/modules/load.order"
while read -r m; do
	[ -z "$m" ] || [ "${m#\#}" != "$m" ] && continue
	modprobe -d "$kdir" -S "$kver" --show-depends "$m" | while read -r what path _; do
		[ "$what" = insmod ] || continue
		rel=${path#"$kdir"/lib/modules/"$kver"/}
		grep -qxF "$rel" "$root/lib/modules/load.order" && continue
		mkdir -p "$root/lib/modules/$(dirname "$rel")"
		cp "$path" "$root/lib/modules/$rel"
		echo "$rel" >>"$root/lib/modules/load.order"
	done
done <"$here/modules.list"

# 3. A host file into the image at the same path (/lib, /bin are usr/ in
# both): symlinks as symlinks, so DPDK's PMDs keep one inode each.
norm() { case $1 in /lib/* | /lib64/* | /bin/* | /sbin/*) echo "/usr$1" ;; *) echo "$1" ;; esac; }
copy_path() {
	local p t dst
	p=$(norm "$1")
	dst=$root$p
	{ [ -e "$dst" ] || [ -L "$dst" ]; } && return 0
	mkdir -p "$(dirname "$dst")"
	if [ -L "$p" ]; then
		t=$(readlink "$p")
		ln -s "$t" "$dst"
		case $t in /*) copy_path "$t" ;; *) copy_path "$(dirname "$p")/$t" ;; esac
	else
		cp "$p" "$dst"
	fi
}
libs_of() { ldd "$1" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'; }

# 4. calvin's programs, and the DPDK drivers EAL dlopens: Debian's EAL
# loads every *.so and *.so.23.0 in its plugin directory (pmds-23.0) at
# init, so the image's directory holds only the buses, the mempool and the
# three net PMDs calvin uses.
cp "$build/calvin-agent" "$build/calvin-vnf" "$root/usr/lib/calvin/"
strip --strip-unneeded "$root/usr/lib/calvin/calvin-agent" "$root/usr/lib/calvin/calvin-vnf"
# calvin-vnf's hand-over program, which DPDK's af_xdp PMD loads by path.
# DWARF names the build directory; BTF, which libbpf needs, stays.
cp "$build/kernel/handover.bpf.o" "$root/usr/lib/calvin/kernel/"
llvm-strip -g "$root/usr/lib/calvin/kernel/handover.bpf.o"
objs=("$build/calvin-agent" "$build/calvin-vnf")
for d in bus_pci bus_vdev mempool_ring net_af_xdp net_af_packet net_virtio; do
	copy_path "$pmds/librte_$d.so.23.0"
	objs+=("$pmds/librte_$d.so.23.0")
done
for o in "${objs[@]}"; do
	for l in $(libs_of "$o"); do copy_path "$l"; done
done
# libxdp's dispatcher and the AF_XDP PMD's default program (loaded by path)
for o in xdp-dispatcher.o xsk_def_xdp_prog.o xsk_def_xdp_prog_5.3.o; do
	copy_path "/usr/lib/$arch/bpf/$o"
done

# 5. busybox and its applets, the init.
cp "$(command -v busybox)" "$root/usr/bin/busybox"
for a in $(busybox --list); do
	[ "$a" = busybox ] || ln -s busybox "$root/usr/bin/$a"
done
install -m 0755 "$here/init" "$root/init"
{
	echo "calvin $(git -C "$here" describe --always --dirty 2>/dev/null || echo unknown)"
	echo "$pkg $(dpkg-deb -f "$deb" Version)"
} | paste -sd' ' >"$root/etc/calvin-image"

# 6. Normalise and pack: owners 0, modes by kind, one time for all, sorted.
# "." is packed too: it sets the mode of the guest's / (DPDK's EAL refuses
# to load drivers from under a world-writable directory).
epoch=${SOURCE_DATE_EPOCH:-0}
find "$root" -type d -exec chmod 0755 {} +
find "$root" -type f -perm -u+x -exec chmod 0755 {} +
find "$root" -type f ! -perm -u+x -exec chmod 0644 {} +
chmod 1777 "$root/tmp"
find "$root" -exec touch -h -d "@$epoch" {} +
(cd "$root" && find . | sort | cpio --quiet -o -H newc -R 0:0 --reproducible) |
	zstd -q -19 -T1 -f -o "$out/initramfs.img"
cp "$root/etc/calvin-image" "$out/manifest"
