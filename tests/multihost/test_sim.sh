#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# Self-test of the simulated edge hosts (sim.sh): down after a crash at each
# step of up; two hosts and central up; a logical switch with a port on
# each host carries ping and UDP across hosts (Geneve through the userspace
# datapath), and the MTU it fits; a VM started through each host's libvirtd
# over qemu+tcp joins OVN through its virtualport; a host whose libvirtd is
# stopped is refused with a clear error; down leaves nothing.
# Run it under the machine lock: flock /tmp/calvin-net.lock bash tests/multihost/test_sim.sh
# shellcheck disable=SC2086 # $SIM is the script with its interpreter
. "$(dirname "$0")/lib.sh"
trap 'rm -rf "$TMP"' EXIT
require_sim
trap '$SIM down >/dev/null 2>&1; rm -rf "$TMP"' EXIT
LS=csim-test
OVERLAY=192.168.99

# --- bad input, and a journal planted by someone else -----------------------
expect_bad 'N must be a number of hosts from 2 to 8' $SIM up 1
expect_bad 'CALVIN_SIM_NET=10.99: give' env CALVIN_SIM_NET=10.99 $SIM up 2
expect_bad 'CALVIN_SIM_MTU=99999: give' env CALVIN_SIM_MTU=99999 $SIM up 2
expect_bad 'CALVIN_SIM_DIR=/: give an absolute path' env CALVIN_SIM_DIR=/ $SIM down
expect_bad "no simulated host '../a'" $SIM exec ../a -- true
# A world-writable state folder whose journal asks down to kill PID 1 and
# delete lo: down must refuse it and touch nothing.
evil=$TMP/calvin-sim-evil
mkdir -m 777 "$evil" && printf 'pid 1 %s\nlink lo\n' "$(sed 's/.*) //' /proc/1/stat | cut -d' ' -f20)" >"$evil/journal"
expect_bad 'not trusted' env CALVIN_SIM_DIR="$evil" $SIM down
[ -f "$evil/journal" ] && ip link show lo >/dev/null || fail "down acted on a planted journal"

# --- a crash at each step of up, then down ---------------------------------
# netns: a namespace recorded, not made; link: the root's veth recorded;
# mntns: a mount namespace bound but not set up; spawned-*: a daemon
# running but not yet recorded (only the namespace sweep finds it).
for at in netns link mntns spawned-ovsdb-nb spawned-ovs-vswitchd spawned-libvirtd; do
	# (through a shell of its own, which says "Killed" to /dev/null)
	CALVIN_SIM_CRASH_AT=$at bash -c '"$@" >"$0" 2>&1; exit $?' "$TMP/crash.log" $SIM up 2 2>/dev/null
	rc=$?
	[ $rc -eq 137 ] || fail "up with a crash at $at exited $rc, not killed: $(tail -n 3 "$TMP/crash.log")"
	[ "$($SIM status)" != "sim: not up" ] || fail "crash at $at: no journal left"
	sim_inventory >"$TMP/inv"
	$SIM down >"$TMP/down.log" 2>&1 || fail "down after a crash at $at: $(cat "$TMP/down.log")"
	sim_assert_clean "$TMP/inv"
	echo "ok: a crash of up at $at, then down: nothing left"
done

# --- a crash of down, then down again ------------------------------------------
# down-stopped: every process ended, nothing else removed; down-unbound: the
# namespace files unmounted, the network namespaces and the folder left.
for at in down-stopped down-unbound; do
	$SIM up 2 >"$TMP/up.log" 2>&1 || fail "up before a crash of down: $(tail -n 3 "$TMP/up.log")"
	sim_inventory >"$TMP/inv"
	CALVIN_SIM_CRASH_AT=$at bash -c '"$@" >"$0" 2>&1; exit $?' "$TMP/crash.log" $SIM down 2>/dev/null
	rc=$?
	[ $rc -eq 137 ] || fail "down with a crash at $at exited $rc, not killed: $(tail -n 3 "$TMP/crash.log")"
	$SIM down >"$TMP/down.log" 2>&1 || fail "down after a crash of down at $at: $(cat "$TMP/down.log")"
	sim_assert_clean "$TMP/inv"
	echo "ok: a crash of down at $at, then down: nothing left"
done

# --- up, twice ---------------------------------------------------------------
t0=$(now_ms)
$SIM up 2 || fail "sim.sh up 2 failed"
up_ms=$(($(now_ms) - t0))
t0=$(now_ms)
$SIM up 2 | grep -q "already up" || fail "a second up 2 did not see the simulation up"
again_ms=$(($(now_ms) - t0))
$SIM status >"$TMP/status" || fail "status after up: $(cat "$TMP/status")"
# shellcheck disable=SC1091
. "$SIM_DIR/env" # CALVIN_SIM_HOSTS, _NB, _SB, _URI_h, _CHASSIS_h, _ADDR_h
: "${CALVIN_SIM_CHASSIS_a:?}" "${CALVIN_SIM_CHASSIS_b:?}" "${CALVIN_SIM_URI_a:?}" "${CALVIN_SIM_URI_b:?}" "${CALVIN_SIM_ADDR_b:?}"
[ "$CALVIN_SIM_HOSTS" = "a b" ] || fail "env names hosts '$CALVIN_SIM_HOSTS', want 'a b'"
expect_bad "the underlay ${CALVIN_SIM_LOCAL_ADDR%.*}.0/24 is in use here" env CALVIN_SIM_DIR=/run/calvin-sim-2 $SIM up 2
echo "ok: up 2 in ${up_ms} ms (both chassis registered, both libvirtds answering), again in ${again_ms} ms"

# --- a logical switch across the hosts -----------------------------------------
switch_up 1500
t0=$(now_ms)
wait_until "$LS-a bound to chassis a" bound_to $LS-a "$CALVIN_SIM_CHASSIS_a"
wait_until "$LS-b bound to chassis b" bound_to $LS-b "$CALVIN_SIM_CHASSIS_b"
bind_ms=$(($(now_ms) - t0))
t0=$(now_ms)
wait_until "a first ping from a to b" in_vnf a ping -c 1 -W 1 $OVERLAY.2
first_ms=$(($(now_ms) - t0))
echo "ok: both ports bound in ${bind_ms} ms; first ping through in ${first_ms} ms"

in_vnf a ping -q -c 200 -i 0.01 -W 1 $OVERLAY.2 >"$TMP/ping" || fail "ping a -> b: $(cat "$TMP/ping")"
grep -q ' 0% packet loss' "$TMP/ping" || fail "ping a -> b lost packets: $(grep loss "$TMP/ping")"
rtt=$(grep -o 'rtt .*' "$TMP/ping")
echo "ok: ping a -> b across hosts, 200 of 200: $rtt"

# UDP both ways (sockperf ping-pong: b echoes), with checksums checked by
# the receiving stacks.
# (the server is started as one exec chain, so $! is its PID)
$SIM exec b ip netns exec vnf sockperf server -i $OVERLAY.2 -p 11111 >"$TMP/sockperf-server" 2>&1 &
server=$!
WAIT_DEADLINE=10 wait_until "sockperf server on b" bash -c "$SIM exec b ip netns exec vnf ss -uln | grep -q ':11111 '"
in_vnf a sockperf ping-pong -i $OVERLAY.2 -p 11111 -t 2 --mps=2000 -m 64 >"$TMP/sockperf" 2>&1 ||
	fail "sockperf a -> b: $(tail -n 3 "$TMP/sockperf")"
kill "$server"
wait "$server" 2>/dev/null
sent=$(grep -o 'SentMessages=[0-9]*' "$TMP/sockperf" | head -n 1 | cut -d= -f2)
got=$(grep -o 'ReceivedMessages=[0-9]*' "$TMP/sockperf" | head -n 1 | cut -d= -f2)
[ -n "$got" ] && [ "$got" -gt 0 ] && [ "$got" -ge $((sent * 99 / 100)) ] ||
	fail "UDP a <-> b: $got of $sent replies"
lat=$(grep -o 'avg-latency=[0-9.]*' "$TMP/sockperf" | head -n 1)
p99=$(grep -o 'percentile 99.000 = *[0-9.]*' "$TMP/sockperf" | grep -o '[0-9.]*$')
echo "ok: UDP a <-> b, $got of $sent replies; sockperf (half the round trip, usec) $lat, p99 $p99"

# --- MTU: Geneve's 58 bytes (outer IPv4 20, UDP 8, Geneve 8, OVN's option
# 8, the inner Ethernet header 14) come out of the underlay's 1500 -------------
in_vnf a ping -c 2 -W 2 -M "do" -s $((1442 - 28)) $OVERLAY.2 >/dev/null ||
	fail "a 1442-byte IP packet does not cross (DF set)"
in_vnf a ping -c 2 -W 1 -M "do" -s $((1443 - 28)) $OVERLAY.2 >/dev/null &&
	fail "a 1443-byte IP packet crossed a 1500-byte underlay: Geneve's overhead is not what the README says"
$SIM exec a ip link set p0 mtu 1442 && in_vnf a ip link set eth0 mtu 1442 || fail "cannot set MTU 1442"
in_vnf a ping -c 1 -W 1 -M "do" -s $((1443 - 28)) $OVERLAY.2 2>"$TMP/mtu" >/dev/null &&
	fail "a 1443-byte packet left a port with MTU 1442"
grep -q 'too long' "$TMP/mtu" || fail "no local 'message too long' with MTU 1442: $(cat "$TMP/mtu")"
in_vnf a ping -c 1 -W 2 -M "do" -s $((1442 - 28)) $OVERLAY.2 >/dev/null || fail "MTU 1442: 1442 does not cross"
echo "ok: MTU over a 1500-byte underlay: 1442 crosses, 1443 is dropped; a port at MTU 1442 refuses 1443 at once"

# --- a VM through each host's libvirtd, its NIC an OVN port ---------------------
for h in $CALVIN_SIM_HOSTS; do
	uri_var=CALVIN_SIM_URI_$h chassis_var=CALVIN_SIM_CHASSIS_$h
	uri=${!uri_var} vm=csim-vm-$h port=$(cat /proc/sys/kernel/random/uuid)
	nbctl lsp-add $LS "$port" -- lsp-set-addresses "$port" unknown || fail "lsp-add $port"
	domain_xml "$vm" "$port" >"$TMP/$vm.xml"
	t0=$(now_ms)
	virsh -q -c "$uri" define "$TMP/$vm.xml" >/dev/null && virsh -q -c "$uri" start "$vm" >/dev/null ||
		fail "cannot define and start $vm through $uri"
	start_ms=$(($(now_ms) - t0))
	[ "$(virsh -c "$uri" domstate "$vm")" = running ] || fail "$vm on $h is not running"
	wait_until "the VM's port on chassis $h" bound_to "$port" "${!chassis_var}"
	bound_ms=$(($(now_ms) - t0))
	$SIM exec "$h" ovs-vsctl --bare --columns=external_ids find Interface \
		"external_ids:iface-id=\"$port\"" | grep -q "vm-id=" || fail "no OVS interface of $vm on $h"
	note="domain without a boot image (build/vm-images/cloud missing: make vm-image)"
	if grep -q '<kernel>' "$TMP/$vm.xml"; then
		WAIT_DEADLINE=180 wait_until "the guest on $h to boot (calvin-vm: agent up)" \
			grep -q 'calvin-vm: agent up' "$SIM_DIR/$h/root/var/log/libvirt/qemu/$vm.serial"
		note="guest booted to 'agent up' in $(($(now_ms) - t0)) ms (TCG)"
	fi
	virsh -q -c "$uri" destroy "$vm" >/dev/null && virsh -q -c "$uri" undefine "$vm" >/dev/null ||
		fail "cannot destroy $vm"
	wait_until "the VM's port to leave chassis $h" unbound "$port"
	echo "ok: VM on $h through $uri: started in ${start_ms} ms, port bound in ${bound_ms} ms, $note; destroyed, port unbound"
done

# --- a host whose libvirtd is stopped ---------------------------------------------
$SIM libvirtd b stop || fail "sim.sh libvirtd b stop"
t0=$(now_ms)
virsh -c "$CALVIN_SIM_URI_b" uri >/dev/null 2>"$TMP/unreach" && fail "libvirt on b answered while stopped"
refuse_ms=$(($(now_ms) - t0))
grep -q "unable to connect to server at '$CALVIN_SIM_ADDR_b:16509': Connection refused" "$TMP/unreach" ||
	fail "the error for a stopped libvirtd is not clear: $(cat "$TMP/unreach")"
[ $refuse_ms -lt 5000 ] || fail "refusal took ${refuse_ms} ms"
virsh -c "$CALVIN_SIM_URI_a" uri >/dev/null || fail "host a stopped answering when b's libvirtd stopped"
$SIM status >"$TMP/status" && fail "status says all runs with b's libvirtd stopped"
grep -q '^b libvirtd STOPPED' "$TMP/status" || fail "status does not name b's libvirtd: $(cat "$TMP/status")"
echo "ok: b's libvirtd stopped: '$(grep -o 'unable to connect.*' "$TMP/unreach")' in ${refuse_ms} ms; status says so"
$SIM libvirtd b start && virsh -c "$CALVIN_SIM_URI_b" uri >/dev/null || fail "libvirtd on b did not start again"
echo "ok: b's libvirtd started again"

# --- down leaves nothing ----------------------------------------------------------
sim_inventory >"$TMP/inv"
grep -c '^pid' "$TMP/inv" | grep -qv '^0$' || fail "the journal records no process"
t0=$(now_ms)
$SIM down || fail "sim.sh down failed"
down_ms=$(($(now_ms) - t0))
sim_assert_clean "$TMP/inv"
$SIM down | grep -q "nothing to remove" || fail "a second down was not a no-op"
echo "ok: down in ${down_ms} ms: no namespace, process, mount, link or file left"
# --- an underlay of 1558 bytes carries 1500-byte packets across hosts ---------------
CALVIN_SIM_MTU=1558 $SIM up 2 >/dev/null || fail "sim.sh up 2 with CALVIN_SIM_MTU=1558 failed"
switch_up 1500
wait_until "both ports bound" bound_to $LS-b "$CALVIN_SIM_CHASSIS_b"
wait_until "a first ping over the 1558-byte underlay" in_vnf a ping -c 1 -W 1 $OVERLAY.2
in_vnf a ping -c 2 -W 2 -M "do" -s $((1500 - 28)) $OVERLAY.2 >/dev/null ||
	fail "a 1500-byte IP packet does not cross a 1558-byte underlay"
sim_inventory >"$TMP/inv"
$SIM down >/dev/null || fail "sim.sh down (MTU 1558) failed"
sim_assert_clean "$TMP/inv"
echo "ok: with CALVIN_SIM_MTU=1558 a 1500-byte packet crosses; down leaves nothing"
echo "measured: up 2 ${up_ms} ms; ping a->b $rtt; sockperf $lat us (p99 $p99); MTU 1442 over 1500; down ${down_ms} ms"
