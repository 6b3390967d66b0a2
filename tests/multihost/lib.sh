# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# shellcheck shell=bash
# Shared by the multi-host tests: the OVN and libvirt checks, ports on the
# simulated hosts, and the proof that sim.sh down left nothing. Built on
# the integration tests' lib.sh (skip, fail, expect_bad, wait_until with
# WAIT_DEADLINE, TMP). Sourced, not run.
. "$(dirname "$0")/../integration/lib.sh"
SIM="bash tests/multihost/sim.sh"
SIM_DIR=${CALVIN_SIM_DIR:-/run/calvin-sim}

now_ms() { echo $(($(date +%s%N) / 1000000)); }

require_sim() {
	local c
	[ "$(id -u)" = 0 ] || skip "needs root (namespaces, Open vSwitch, libvirtd)"
	for c in ovsdb-server:openvswitch-switch ovs-vswitchd:openvswitch-switch \
		ovn-controller:ovn-host ovn-northd:ovn-central libvirtd:libvirt-daemon-system \
		virsh:libvirt-clients qemu-system-x86_64:qemu-system-x86 sockperf:sockperf \
		ethtool:ethtool nsenter:util-linux; do
		command -v "${c%%:*}" >/dev/null ||
			skip "${c%%:*} is not installed (make deps installs the Debian package ${c#*:})"
	done
	[ -c /dev/net/tun ] || skip "no /dev/net/tun: Open vSwitch's userspace datapath needs tap devices"
	ip netns add csim-probe.$$ 2>/dev/null || skip "cannot create network namespaces here"
	ip netns del csim-probe.$$
}

# The OVN ports and the OVS ports (on host a's Open vSwitch, this host's
# stand-in) of chain $C.
chain_lsps() { nbctl --bare --columns=name find Logical_Switch_Port external_ids:calvin-chain=$C; }
chain_ovs_ports() { $SIM exec a ovs-vsctl --bare --columns=name find Interface external_ids:calvin-chain=$C; }

# Nothing of chain $C anywhere: its journal here, its domains on a and b,
# its switches and ports in OVN, its OVS ports, its namespaces.
chain_gone() { # WHEN
	[ ! -e "$CALVIN_RUN_DIR/$C.state" ] || fail "$1: the journal is left"
	virsh -c "$CALVIN_SIM_URI_a" list --all --name | grep -q "calvin-$C" && fail "$1: a domain is left on a"
	virsh -c "$CALVIN_SIM_URI_b" list --all --name | grep -q "calvin-$C" && fail "$1: a domain is left on b"
	[ -z "$(chain_lsps)" ] || fail "$1: OVN ports are left: $(chain_lsps)"
	[ -z "$(nbctl --bare --columns=name find Logical_Switch external_ids:calvin-chain=$C)" ] || fail "$1: a switch is left"
	[ -z "$(chain_ovs_ports)" ] || fail "$1: OVS ports are left on a: $(chain_ovs_ports)"
	ip netns list | grep -q "^calvin-$C\." && fail "$1: a namespace is left: $(ip netns list | grep "calvin-$C")"
	return 0
}

# 200 probes of chain $C through `calvin probe`, as JSON ($TMP/probe.json)
# and as text ($TMP/probe.txt, printed): every one back with RECORDS hop
# records, no link n/a. A text run during which CLOCK_REALTIME (the
# kernel's packet timestamps) stepped against CLOCK_MONOTONIC says so and
# leaves the end links n/a, as it must; nothing here steps that clock
# (the host of this guest did, by 10 ms, once in a make test), so such a
# run is repeated, at most twice.
chain_probed() { # RECORDS
	local try
	$CALVIN -j probe -c 200 -r 100 $C >"$TMP/probe.json" || fail "calvin -j probe failed"
	for try in 1 2 3; do
		$CALVIN probe -c 200 -r 100 $C >"$TMP/probe.txt" || fail "calvin probe failed"
		grep -q "n/a (clock step during the run)" "$TMP/probe.txt" || break
		echo "the realtime clock stepped during probe run $try:" \
			"$(grep -o 'it moved by [^:]*: clock step' "$TMP/probe.txt")"
	done
	cat "$TMP/probe.txt"
	[ "$(json_num received <"$TMP/probe.json")" = 200 ] ||
		fail "not every probe came back: $(json_num received <"$TMP/probe.json") of 200"
	[ "$(json_num hop_records_min <"$TMP/probe.json")" = "$1" ] || fail "a probe lacks a hop record"
	grep -q "n/a" "$TMP/probe.txt" && fail "a link says n/a: $(grep n/a "$TMP/probe.txt")"
	return 0
}

sbctl() { ovn-sbctl --db="$CALVIN_SIM_SB" --timeout=10 "$@"; }
nbctl() { ovn-nbctl --db="$CALVIN_SIM_NB" --timeout=10 "$@"; }

# Is logical port LSP bound to CHASSIS, and up (its flows installed)?
bound_to() { # LSP CHASSIS
	local c
	c=$(sbctl --bare --columns=chassis find Port_Binding logical_port="$1") && [ -n "$c" ] &&
		[ "$(sbctl --bare --columns=name list Chassis "$c")" = "$2" ] &&
		[ "$(sbctl --bare --columns=up find Port_Binding logical_port="$1")" = true ]
}
unbound() { # LSP
	[ -z "$(sbctl --bare --columns=chassis find Port_Binding logical_port="$1")" ]
}

# A port of the logical switch on HOST as a calvin namespace node joins
# one: a veth from a further namespace (vnf, in the host's own /run/netns)
# to br-int, with the logical port's name as iface-id. Checksums are
# computed in software on both ends: OVS's userspace datapath forwards a
# frame as it gets it and never fills in a checksum left to offload.
port_up() { # HOST LSP ADDR MTU
	local h=$1
	$SIM exec "$h" ip netns add vnf &&
		$SIM exec "$h" ip link add p0 mtu "$4" type veth peer name eth0 mtu "$4" netns vnf &&
		$SIM exec "$h" ethtool -K p0 tx off >/dev/null &&
		$SIM exec "$h" ip link set p0 up &&
		$SIM exec "$h" ip netns exec vnf sh -c "ip link set lo up && ethtool -K eth0 tx off >/dev/null &&
			ip addr add $3/24 dev eth0 && ip link set eth0 up" &&
		$SIM exec "$h" ovs-vsctl --timeout=10 add-port br-int p0 \
			-- set Interface p0 external_ids:iface-id="$2" ||
		fail "cannot attach a port of $2 on host $h"
}
# The test's logical switch: a port on host a (OVERLAY.1) and one on host
# b (OVERLAY.2), both with addresses "unknown" and no port security, as
# calvin's links between hosts will be.
switch_up() { # PORT-MTU
	nbctl ls-add "$LS" -- lsp-add "$LS" "$LS-a" -- lsp-set-addresses "$LS-a" unknown \
		-- lsp-add "$LS" "$LS-b" -- lsp-set-addresses "$LS-b" unknown || fail "ovn-nbctl could not make $LS"
	port_up a "$LS-a" "$OVERLAY.1" "$1"
	port_up b "$LS-b" "$OVERLAY.2" "$1"
}
in_vnf() { # HOST CMD...: a command in the vnf namespace on HOST
	local h=$1
	shift
	$SIM exec "$h" ip netns exec vnf "$@"
}

# A tiny domain whose NIC is the OVN port with interface id UUID: the
# project's guest kernel and initramfs where built (make vm-image), else
# no boot image at all (qemu runs its firmware, which is enough for a
# started domain and its port). The console goes to a file in the host.
domain_xml() { # NAME UUID
	local img=$PWD/build/vm-images/cloud boot=""
	[ -f "$img/vmlinuz" ] && [ -f "$img/initramfs.img" ] &&
		boot="<kernel>$img/vmlinuz</kernel><initrd>$img/initramfs.img</initrd>
    <cmdline>console=ttyS0 panic=-1</cmdline>"
	cat <<-EOF
		<domain type='qemu'>
		  <name>$1</name>
		  <memory unit='MiB'>256</memory>
		  <vcpu>1</vcpu>
		  <os><type arch='x86_64'>hvm</type>$boot</os>
		  <on_poweroff>destroy</on_poweroff><on_crash>destroy</on_crash>
		  <devices>
		    <emulator>/usr/bin/qemu-system-x86_64</emulator>
		    <interface type='bridge'>
		      <source bridge='br-int'/>
		      <virtualport type='openvswitch'><parameters interfaceid='$2'/></virtualport>
		      <model type='virtio'/>
		    </interface>
		    <serial type='file'><source path='/var/log/libvirt/qemu/$1.serial'/></serial>
		    <memballoon model='none'/>
		  </devices>
		</domain>
	EOF
}

# What the simulation is made of, read before down: the PIDs it recorded
# (with start times) and its namespaces (as /proc/PID/ns link text).
sim_inventory() {
	awk '$1 == "pid" { print "pid", $4, $5 }' "$SIM_DIR/journal"
	for f in /run/netns/csim.*; do [ -e "$f" ] && echo "ns net:[$(stat -L -c %i "$f")]"; done
	for f in "$SIM_DIR"/ns/*.mnt "$SIM_DIR"/ns/*.uts; do
		[ -e "$f" ] || continue
		case $f in *.mnt) echo "ns mnt:[$(stat -L -c %i "$f")]" ;; *) echo "ns uts:[$(stat -L -c %i "$f")]" ;; esac
	done
}

# Everything of the simulation still there; empty means nothing.
sim_leftovers() { # [INVENTORY]
	local kind a b p l
	[ -e "$SIM_DIR" ] && echo "file $SIM_DIR"
	ip netns list | grep -E '^csim[.-]' | sed 's/^/netns /'
	ip link show csim0 >/dev/null 2>&1 && echo "link csim0"
	findmnt -rn -o TARGET | grep -E 'calvin-sim|/csim' | sed 's/^/mount /'
	[ $# -gt 0 ] || return 0
	while read -r kind a b; do
		case $kind in
		pid) [ "$(sed 's/.*) //' "/proc/$a/stat" 2>/dev/null | cut -d' ' -f20)" = "$b" ] &&
			echo "process $a $(cat "/proc/$a/comm")" ;;
		ns)
			for p in /proc/[0-9]*; do
				for l in net mnt uts; do
					[ "$(readlink "$p/ns/$l" 2>/dev/null)" = "$a" ] &&
						echo "process ${p#/proc/} $(cat "$p/comm" 2>/dev/null) in $a" && break
				done
			done ;;
		esac
	done <"$1"
}

sim_assert_clean() { # [INVENTORY]
	local left
	left=$(sim_leftovers "$@")
	[ -z "$left" ] || fail "left behind after down: $left"
}

# For a test that brings chains up across the simulated hosts: the guest
# image (rebuilt when calvin's binaries changed, so the guests never run
# an older agent), two hosts up, their settings, calvin's run directory
# and the Open vSwitch this host's namespaces join through (host a's). At
# exit CHAIN... are brought down (with --images: their guest images too),
# then the simulation.
sim_chains_up() { # [--images] CHAIN...
	SIM_DOWN_OPTION=
	[ "$1" = --images ] && SIM_DOWN_OPTION=--images && shift
	CALVIN=${CALVIN:-build/calvin}
	[ -x "$CALVIN" ] || skip "calvin is not built (run make)"
	make -C vm-images >"$TMP/image.log" 2>&1 ||
		skip "cannot build the guest image (make vm-image): $(tail -n 1 "$TMP/image.log")"
	SIM_CHAINS="$*"
	trap 'for c in $SIM_CHAINS; do $CALVIN down $SIM_DOWN_OPTION $c >/dev/null 2>&1; done; $SIM down >/dev/null 2>&1; rm -rf "$TMP"' EXIT
	$SIM up 2 >"$TMP/sim" 2>&1 || fail "sim.sh up 2: $(tail -n 3 "$TMP/sim")"
	. "$SIM_DIR/env"
	export CALVIN_RUN_DIR=$TMP/run
	export CALVIN_OVS_DB=unix:$SIM_DIR/a/root/run/openvswitch/db.sock CALVIN_OVS_NETNS=$CALVIN_SIM_NETNS_a
}
