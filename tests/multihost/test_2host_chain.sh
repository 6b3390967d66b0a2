#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# The two-host chain deployed by `calvin up` (chains/tactile-2host.yaml):
# fwd-k in a VM on simulated host a, fwd-u and the server in VMs on host b
# (the server's VM has one NIC; its agent runs the XDP reflector), the
# probe a namespace of this host joining its link through an Open vSwitch
# port (host a's stands for this host's: the simulation's root namespace
# runs none), each link touching a VM an OVN logical switch. Checks: the
# domains run on their hosts, every port is bound to its chassis, every
# probe comes back with all four hop records (the reflector stamps none:
# an endpoint, not a hop), the links across clock domains are estimated
# with a bound, the turn at the server is timed in fwd-u's VM, `calvin status`
# reads the remote VNFs' counters through libvirt's channel stream, and
# `down` with b's libvirtd stopped says what is left there and a later
# `down` finishes, leaving nothing on this host, on a, on b or in OVN; so
# does `down` after SIGKILL of `up` right after each kind of remote
# resource is journalled.
# Run it under the machine lock: flock /tmp/calvin-net.lock bash tests/multihost/test_2host_chain.sh
# shellcheck disable=SC2086 # $SIM is the script with its interpreter
. "$(dirname "$0")/lib.sh"
trap 'rm -rf "$TMP"' EXIT
require_sim
CALVIN=build/calvin
C=tactile-2host
[ -x $CALVIN ] || skip "calvin is not built (run make)"
# rebuilt when calvin's binaries changed, so the guests never run an older agent
make -C vm-images >"$TMP/image.log" 2>&1 ||
	skip "cannot build the guest image (make vm-image): $(tail -n 1 "$TMP/image.log")"
trap '$CALVIN down $C >/dev/null 2>&1; $SIM down >/dev/null 2>&1; rm -rf "$TMP"' EXIT
$SIM up 2 >"$TMP/sim" 2>&1 || fail "sim.sh up 2: $(tail -n 3 "$TMP/sim")"
. "$SIM_DIR/env"
export CALVIN_RUN_DIR=$TMP/run
export CALVIN_OVS_DB=unix:$SIM_DIR/a/root/run/openvswitch/db.sock CALVIN_OVS_NETNS=$CALVIN_SIM_NETNS_a
ours() { nbctl --bare --columns=name find Logical_Switch_Port external_ids:calvin-chain=$C; }
ovs_ours() { $SIM exec a ovs-vsctl --bare --columns=name find Interface external_ids:calvin-chain=$C; }

t0=$(now_ms)
$CALVIN up chains/tactile-2host.yaml >"$TMP/up" 2>"$TMP/err" || fail "up: $(cat "$TMP/err")"
up_ms=$(($(now_ms) - t0))
cat "$TMP/up"
grep -q "^chain $C is up: probe -> fwd-k (kernel.*) -> fwd-u (user.*) -> server (VM on host b)$" "$TMP/up" ||
	fail "up did not say the server is a VM on b: $(cat "$TMP/up")"
virsh -c "$CALVIN_SIM_URI_a" domstate calvin-$C.fwd-k 2>/dev/null | grep -q running || fail "fwd-k's VM is not running on a"
virsh -c "$CALVIN_SIM_URI_b" domstate calvin-$C.fwd-u 2>/dev/null | grep -q running || fail "fwd-u's VM is not running on b"
virsh -c "$CALVIN_SIM_URI_b" domstate calvin-$C.server 2>/dev/null | grep -q running || fail "the server's VM is not running on b"
grep -q "^domain calvin-$C.server $CALVIN_SIM_URI_b" "$CALVIN_RUN_DIR/$C.state" || fail "the server's domain is not journalled with b's URI"
[ "$(virsh -c "$CALVIN_SIM_URI_b" domiflist calvin-$C.server | grep -c br-int)" = 1 ] ||
	fail "the server's VM has not one NIC on br-int: $(virsh -c "$CALVIN_SIM_URI_b" domiflist calvin-$C.server)"
ip netns list | grep -q "^calvin-$C\.server" && fail "a server namespace was made on this host"
# three links, two ports each: probe-fwd-k, fwd-k-fwd-u, fwd-u-server
ports=$(ours)
[ "$(wc -w <<<"$ports")" = 6 ] || fail "not 6 OVN ports of the chain: $ports"
for p in $ports; do
	c=$(sbctl --bare --columns=chassis find Port_Binding logical_port="$p")
	[ -n "$c" ] || fail "port $p is not bound"
done
[ "$(wc -w <<<"$(ovs_ours)")" = 1 ] || fail "not 1 port of this host's namespaces (the probe's) on the OVS: $(ovs_ours)"
grep -q "^ovsport .*@$CALVIN_SIM_NETNS_a $CALVIN_OVS_DB$" "$CALVIN_RUN_DIR/$C.state" || fail "no OVS port journalled"
rc=0
$CALVIN exec $C server -- true >"$TMP/exec" 2>&1 || rc=$?
[ $rc = 2 ] && [ "$(wc -l <"$TMP/exec")" = 1 ] && grep -q "node 'server' of chain $C is a VM on host b" "$TMP/exec" ||
	fail "calvin exec of the server's VM: exit $rc, $(cat "$TMP/exec")"
echo "ok: up in $up_ms ms: VMs on a (fwd-k) and b (fwd-u, server), 6 ports bound, 1 OVS port of this host (the probe's)"

$CALVIN -j probe -c 200 -r 100 $C >"$TMP/probe.json" || fail "calvin -j probe failed"
$CALVIN probe -c 200 -r 100 $C >"$TMP/probe.txt" || fail "calvin probe failed"
cat "$TMP/probe.txt"
[ "$(json_num received <"$TMP/probe.json")" = 200 ] || fail "not every probe came back: $(json_num received <"$TMP/probe.json") of 200"
[ "$(json_num hop_records_min <"$TMP/probe.json")" = 4 ] || fail "a probe lacks a hop record"
grep -q "n/a" "$TMP/probe.txt" && fail "a link says n/a: $(grep n/a "$TMP/probe.txt")"
[ "$(grep -Ec '^  (probe -> fwd-k|fwd-k -> fwd-u|fwd-u -> fwd-k|fwd-k -> probe) .* ±[0-9.]+[mun]?s estimated$' \
	"$TMP/probe.txt")" = 4 ] || fail "not four estimated links with a bound"
for h in 'fwd-k \(kernel\) +->' 'fwd-u \(user\) +->' 'fwd-u \(user\) +<-' 'fwd-k \(kernel\) +<-'; do
	grep -Eq "^  $h +[0-9.]+[mun]?s" "$TMP/probe.txt" || fail "no hop line '$h'"
done
# the turn at the server's VM: from fwd-u's out to its in, both stamps in fwd-u's VM
grep -Eq '^  fwd-u -> server -> fwd-u +[0-9.]+[mun]?s( +[0-9.]+[mun]?s){3}$' "$TMP/probe.txt" ||
	fail "no measured (not estimated) line for the turn at the server"
echo "ok: 200 of 200 probes back, each with 4 hop records; 4 links across clock domains estimated with a bound; the turn at the server's VM measured in fwd-u's clock"

$CALVIN -j status $C >"$TMP/status.json" 2>"$TMP/err" || fail "calvin status: $(cat "$TMP/err")"
grep -q '"rx_packets":[1-9]' "$TMP/status.json" || fail "fwd-k's counters through the channel: $(cat "$TMP/status.json")"
echo "ok: status read the remote VNFs through libvirt's channel"

# no supervisor yet across hosts: up says so, status too, supervise refuses
grep -q "^chain $C spans hosts: no supervisor watches or monitors it" "$TMP/up" ||
	fail "up did not say the chain runs unsupervised: $(cat "$TMP/up")"
$CALVIN status $C >"$TMP/status.txt" 2>&1 || fail "calvin status: $(cat "$TMP/status.txt")"
grep -q "unsupervised: a chain across hosts" "$TMP/status.txt" ||
	fail "status does not say why it is unsupervised: $(cat "$TMP/status.txt")"
rc=0
$CALVIN supervise $C >"$TMP/sup.out" 2>&1 || rc=$?
[ "$rc" = 4 ] && [ "$(wc -l <"$TMP/sup.out")" = 1 ] && grep -q "spans hosts" "$TMP/sup.out" ||
	fail "calvin supervise of a chain across hosts: exit $rc, $(cat "$TMP/sup.out")"
echo "ok: unsupervised across hosts, said by up and status; supervise refuses it (exit 4)"

# nothing of the chain anywhere: this host, a, b, OVN
assert_gone() { # WHEN
	[ ! -e "$CALVIN_RUN_DIR/$C.state" ] || fail "$1: the journal is left"
	virsh -c "$CALVIN_SIM_URI_a" list --all --name | grep -q "calvin-$C" && fail "$1: a domain is left on a"
	virsh -c "$CALVIN_SIM_URI_b" list --all --name | grep -q "calvin-$C" && fail "$1: a domain is left on b"
	[ -z "$(ours)" ] || fail "$1: OVN ports are left: $(ours)"
	[ -z "$(nbctl --bare --columns=name find Logical_Switch external_ids:calvin-chain=$C)" ] || fail "$1: a switch is left"
	[ -z "$(ovs_ours)" ] || fail "$1: OVS ports are left on a: $(ovs_ours)"
	ip netns list | grep -q "^calvin-$C\." && fail "$1: a namespace is left: $(ip netns list | grep "calvin-$C")"
	return 0
}

# --- a host that does not answer: down says what is left there; a later down finishes
$SIM libvirtd b stop >/dev/null || fail "cannot stop b's libvirtd"
$CALVIN down $C 2>"$TMP/err"
rc=$?
$SIM libvirtd b start >/dev/null || fail "cannot start b's libvirtd"
[ $rc -ne 0 ] || fail "down with b's libvirtd stopped succeeded"
grep -q "$CALVIN_SIM_URI_b" "$TMP/err" || fail "down did not say what is left on b: $(cat "$TMP/err")"
[ -e "$CALVIN_RUN_DIR/$C.state" ] || fail "down dropped the journal with b unreachable"
echo "ok: with b's libvirtd stopped, down said: $(head -n 1 "$TMP/err")"
$CALVIN down $C 2>"$TMP/err" || fail "the later down: $(cat "$TMP/err")"
assert_gone "down"
$CALVIN down $C || fail "a second down failed"
echo "ok: the later down left nothing here, on a, on b or in OVN (guest images stay in the pools as the cache)"

# --- SIGKILL right after the first entry of each kind of remote resource,
# counted in the journal of an up with the images already in the pools
$CALVIN up chains/tactile-2host.yaml >/dev/null 2>"$TMP/err" || fail "up again: $(cat "$TMP/err")"
cp "$CALVIN_RUN_DIR/$C.state" "$TMP/journal"
$CALVIN down $C 2>/dev/null || fail "down after up again failed"
for kind in ovnls ovnlsp lvvol domain ovsport; do
	n=$(grep -n "^$kind " "$TMP/journal" | head -n 1 | cut -d: -f1)
	[ -n "$n" ] || fail "the journal has no $kind entry"
	CALVIN_CRASH_AFTER=$n $CALVIN up chains/tactile-2host.yaml >/dev/null 2>&1
	[ $? -eq 137 ] || fail "up with CALVIN_CRASH_AFTER=$n was not killed"
	$CALVIN down $C 2>"$TMP/err" || fail "down after SIGKILL at $kind (entry $n): $(cat "$TMP/err")"
	assert_gone "down after SIGKILL at $kind (entry $n)"
done
# and right after the server's domain entry: killed before its VM is defined
n=$(grep -n "^domain calvin-$C.server " "$TMP/journal" | cut -d: -f1)
[ -n "$n" ] || fail "the journal has no domain entry for the server"
CALVIN_CRASH_AFTER=$n $CALVIN up chains/tactile-2host.yaml >/dev/null 2>&1
[ $? -eq 137 ] || fail "up with CALVIN_CRASH_AFTER=$n (the server's domain) was not killed"
$CALVIN down $C 2>"$TMP/err" || fail "down after SIGKILL at the server's domain (entry $n): $(cat "$TMP/err")"
assert_gone "down after SIGKILL at the server's domain (entry $n)"
echo "ok: SIGKILL after the first ovnls, ovnlsp, lvvol, domain and ovsport entry, and after the server's domain entry, then down: nothing left"
echo PASS
