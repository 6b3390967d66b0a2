# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# Shared by the libvirt backend's vm tests: skips where no VM can run, a
# chain spec of the test's own, and the check that down leaves nothing: no
# domain, tap, bridge, namespace, pin, log or state file. Sourced, not run.
set -u
cd "$(dirname "$0")/../.."
CALVIN=${CALVIN:-build/calvin}
TMP=$(mktemp -d /tmp/calvin-lvtest.XXXXXX)
IMG=build/vm-images/cloud

skip() { echo "$*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }

# Root, qemu, libvirt's daemons and the guest image (built if missing).
require_libvirt() {
	[ "$(id -u)" = 0 ] || skip "needs root (VMs, taps, namespaces, XDP)"
	command -v qemu-system-x86_64 >/dev/null || skip "qemu-system-x86_64 not installed (make deps)"
	[ -x /usr/sbin/libvirtd ] || skip "libvirtd not installed (make deps: libvirt-daemon-system)"
	[ -e /dev/kvm ] || qemu-system-x86_64 -accel help 2>/dev/null | grep -q tcg ||
		skip "neither /dev/kvm nor TCG: this qemu cannot run a VM"
	[ -x "$CALVIN" ] || fail "$CALVIN missing: run make first"
	# rebuilt when calvin's binaries changed, so a guest never runs older ones
	make -C vm-images >"$TMP/image.log" 2>&1 ||
		{ tail -n 5 "$TMP/image.log"; skip "cannot build the guest image (make vm-image)"; }
	# Where no service manager runs libvirt's daemons (a fresh CI machine),
	# the first calvin to need them starts them and says so in one line of
	# its own. Let that be this plan, not a test that counts error lines.
	$CALVIN plan chains/tactile-fwd-vm.yaml >/dev/null 2>"$TMP/daemons.err" ||
		fail "plan of chains/tactile-fwd-vm.yaml failed: $(cat "$TMP/daemons.err")"
	if [ -s "$TMP/daemons.err" ]; then
		grep -qx "calvin: started libvirtd and virtlogd: no service manager runs them on this host; they keep running after calvin" \
			"$TMP/daemons.err" || fail "plan printed more than the daemons' line: $(cat "$TMP/daemons.err")"
	fi
}

# A copy of a chain spec under another name and with other keys of its
# libvirt section. Prints the copy's path.
spec_copy() { # FILE NAME [KEY VALUE]...
	local out=$TMP/$2.yaml src=$1
	sed "s/^name: .*/name: $2/" "$src" >"$out"
	shift 2
	while [ $# -ge 2 ]; do
		if grep -q "^  $1:" "$out"; then
			sed -i "s|^  $1: .*|  $1: $2|" "$out"
		else
			sed -i "s|^libvirt:.*|&\n  $1: $2|" "$out"
		fi
		shift 2
	done
	echo "$out"
}

# The host interfaces a deployment journals (taps, bridges, veth ends with
# XDP), to check after down that none is left.
journalled_ifs() { # CHAIN
	awk '$1 == "tap" || $1 == "bridge" || $1 == "hostxdp" || $1 == "veth" { print $2 }' \
		"/run/calvin/$1.state" |
		sort -u
}

# Everything a libvirt chain can leave; empty output means nothing.
leftovers() { # CHAIN IFNAMES...
	local c=$1 i
	shift
	virsh -q list --all --name 2>/dev/null | grep -E "^calvin-$c\\." | sed 's/^/domain /'
	for i in "$@"; do
		ip link show "$i" >/dev/null 2>&1 && echo "interface $i"
	done
	ip netns list 2>/dev/null | grep -E "^calvin-$c\\." | sed 's/^/netns /'
	[ -e "/sys/fs/bpf/calvin/$c" ] && echo "pin dir /sys/fs/bpf/calvin/$c"
	ls -d /run/calvin/"$c".* /var/log/libvirt/qemu/calvin-"$c".* 2>/dev/null | sed 's/^/file /'
	true
}

assert_clean() { # CHAIN IFNAMES...
	local left
	left=$(leftovers "$@")
	[ -z "$left" ] || fail "left behind after down: $left"
}

cleanup_chain() { # CHAIN: for traps; never fails
	$CALVIN down "$1" >/dev/null 2>&1 || true
	rm -rf "$TMP"
}

# A number from calvin's JSON output: the first "KEY": N.
json_num() { # KEY < JSON
	grep -o "\"$1\": *[0-9]*" | head -n 1 | grep -o '[0-9]*$'
}

# Poll until CMD succeeds (a VM that boots again: under TCG, seconds), or
# fail after DEADLINE seconds (120 unless set) saying WHAT never came.
DEADLINE=${DEADLINE:-120}
until_ok() { # WHAT CMD...
	local what=$1 end=$((SECONDS + DEADLINE))
	shift
	until "$@"; do
		[ $SECONDS -lt $end ] || fail "$what: not so after $DEADLINE s"
		sleep 0.2
	done
}
