# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# Shared by the vm tests: the guest image, a qemu VM with two virtio-net
# NICs on UDP socket netdevs (no taps, no root) and the agent's
# virtio-serial channel on a UNIX socket, under TCG. Sourced, not run.
set -u
cd "$(dirname "$0")/../.."
TMP=$(mktemp -d /tmp/calvin-vmtest.XXXXXX)
IMG=build/vm-images/${KERNEL:-cloud}
AGENTCTL=build/tests/tools/agentctl
VMWIRE=build/tests/tools/vmwire
WEST_MAC=52:54:00:ca:00:01
EAST_MAC=52:54:00:ca:00:02
# the far ends of the VNF's links, as the host would configure them
WEST_PEER=02:00:00:00:01:01
EAST_PEER=02:00:00:00:02:02
# the domain's CPU isolation for the VNF's vCPU 1
ISOLATION="isolcpus=1 nohz_full=1 irqaffinity=0"
# UDP ports of the NICs: the host's end and qemu's end of each
BASE=$((20000 + $$ % 20000))
W_HOST=$BASE W_QEMU=$((BASE + 1)) E_HOST=$((BASE + 2)) E_QEMU=$((BASE + 3))
QEMU_PID=
trap vm_cleanup EXIT

skip() { echo "$*"; exit 77; }
fail() { echo "FAIL: $*"; [ -f "$TMP/console.log" ] && sed 's/^/console: /' "$TMP/console.log" | tail -n 30; exit 1; }

require_qemu() {
	command -v qemu-system-x86_64 >/dev/null || skip "qemu-system-x86_64 not installed (make deps installs it)"
	[ -x "$AGENTCTL" ] && [ -x "$VMWIRE" ] || fail "$AGENTCTL or $VMWIRE missing: run make first"
	# rebuilt when calvin's binaries changed, so a guest never runs older ones
	make -C vm-images KERNEL="${KERNEL:-cloud}" >"$TMP/image.log" 2>&1 ||
		{ tail -n 5 "$TMP/image.log"; skip "cannot build the guest image (make vm-image)"; }
}

# Boot the image under TCG; returns once the guest's init says the agent
# is up. KERNEL_ARGS adds to the kernel command line.
vm_boot() {
	local i start=$(date +%s%N)
	qemu-system-x86_64 -accel tcg -cpu max -m 512 -smp 2 -nodefaults -display none -no-reboot \
		-kernel "$IMG/vmlinuz" -initrd "$IMG/initramfs.img" \
		-append "console=ttyS0 quiet panic=-1 ${KERNEL_ARGS:-}" \
		-serial "file:$TMP/console.log" \
		-netdev "socket,id=west,udp=127.0.0.1:$W_HOST,localaddr=127.0.0.1:$W_QEMU" \
		-device "virtio-net-pci,netdev=west,mac=$WEST_MAC" \
		-netdev "socket,id=east,udp=127.0.0.1:$E_HOST,localaddr=127.0.0.1:$E_QEMU" \
		-device "virtio-net-pci,netdev=east,mac=$EAST_MAC" \
		-device virtio-serial-pci \
		-chardev "socket,id=agent,path=$TMP/agent.sock,server=on,wait=off" \
		-device virtserialport,chardev=agent,name=org.calvin.agent.0 \
		>"$TMP/qemu.log" 2>&1 &
	QEMU_PID=$!
	for i in $(seq 1200); do
		if grep -q '^calvin-vm: agent up' "$TMP/console.log" 2>/dev/null; then
			echo "booted to the agent in $((($(date +%s%N) - start) / 1000000)) ms (TCG)"
			return 0
		fi
		kill -0 $QEMU_PID 2>/dev/null || { cat "$TMP/qemu.log"; fail "qemu exited during boot"; }
		sleep 0.1
	done
	fail "no 'calvin-vm: agent up' on the console within 120 s"
}

# Wait for qemu to exit by itself (the guest powered off); its status.
vm_wait_exit() { # SECONDS
	local i
	for i in $(seq $(($1 * 10))); do
		kill -0 $QEMU_PID 2>/dev/null || { wait $QEMU_PID; return $?; }
		sleep 0.1
	done
	return 124
}

vm_cleanup() { # for traps: never fails
	[ -n "$QEMU_PID" ] && kill $QEMU_PID 2>/dev/null
	rm -rf "$TMP"
	true
}

agent() { $AGENTCTL "$TMP/agent.sock" "$@"; }

# One counter from `agentctl status`.
counter() { # NAME
	agent status | awk -v n="$1" '$1 == n { print $2 }'
}
