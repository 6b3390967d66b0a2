#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# Does this host run the VNF guest under an accelerator? Boots the image
# with -accel ACCEL, nothing attached, and waits up to SECONDS for the
# guest's init to print its first line on the serial console.
#
#   accel-check.sh [ACCEL [SECONDS [IMAGE-DIR]]]    defaults: kvm 10 build/vm-images/cloud
#
# Exit 0: it booted ("kvm: boots, first console line after N ms"); 1: it
# did not (qemu refused, or the guest hangs: "kvm: no console line within
# S s"); 2: cannot test (no qemu, no image). See README.md for why a
# hanging KVM exists at all and why a timeout is the only test.
set -u
accel=${1:-kvm} secs=${2:-10} img=${3:-$(dirname "$0")/../build/vm-images/cloud}
command -v qemu-system-x86_64 >/dev/null || { echo "$accel: cannot test: no qemu-system-x86_64"; exit 2; }
[ -f "$img/initramfs.img" ] || { echo "$accel: cannot test: no image in $img (make vm-image)"; exit 2; }
if [ "$accel" = kvm ] && [ ! -w /dev/kvm ]; then
	echo "kvm: /dev/kvm missing or not writable"
	exit 1
fi
tmp=$(mktemp -d /tmp/calvin-accel.XXXXXX)
trap 'kill $pid 2>/dev/null; rm -rf "$tmp"' EXIT
cpu=${CPU:-max}
[ "$accel" = kvm ] && [ -z "${CPU:-}" ] && cpu=host
start=$(date +%s%N)
qemu-system-x86_64 -accel "$accel" -cpu $cpu -m 256 -smp 1 -nodefaults -display none -no-reboot \
	-kernel "$img/vmlinuz" -initrd "$img/initramfs.img" -append "console=ttyS0 quiet panic=-1" \
	-serial "file:$tmp/console" >"$tmp/qemu.log" 2>&1 &
pid=$!
disown $pid # its abort is our answer, not a job report
while [ $(($(date +%s%N) - start)) -lt $((secs * 1000000000)) ]; do
	if grep -q '^calvin-vm: ' "$tmp/console" 2>/dev/null; then
		echo "$accel: boots, first console line after $((($(date +%s%N) - start) / 1000000)) ms"
		exit 0
	fi
	if ! kill -0 $pid 2>/dev/null; then
		echo "$accel: qemu refused: $(tail -n 1 "$tmp/qemu.log")"
		exit 1
	fi
	sleep 0.05
done
echo "$accel: no console line within $secs s (the guest hangs: use tcg)"
exit 1
