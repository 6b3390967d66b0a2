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
# reads the remote VNFs' counters through libvirt's channel stream, the
# supervisor restarts a VM destroyed on a and one on b (through their
# libvirt) and redeploys its VNF, and
# `down` with b's libvirtd stopped says what is left there and a later
# `down` finishes, leaving nothing on this host, on a, on b or in OVN
# (SIGKILL at every step: test_2host_crash.sh).
# Run it under the machine lock: flock /tmp/calvin-net.lock bash tests/multihost/test_2host_chain.sh
# shellcheck disable=SC2086 # $SIM is the script with its interpreter
. "$(dirname "$0")/lib.sh"
trap 'rm -rf "$TMP"' EXIT
require_sim
C=tactile-2host
sim_chains_up $C

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
ports=$(chain_lsps)
[ "$(wc -w <<<"$ports")" = 6 ] || fail "not 6 OVN ports of the chain: $ports"
for p in $ports; do
	c=$(sbctl --bare --columns=chassis find Port_Binding logical_port="$p")
	[ -n "$c" ] || fail "port $p is not bound"
done
[ "$(wc -w <<<"$(chain_ovs_ports)")" = 1 ] || fail "not 1 port of this host's namespaces (the probe's) on the OVS: $(chain_ovs_ports)"
grep -q "^ovsport .*@$CALVIN_SIM_NETNS_a $CALVIN_OVS_DB$" "$CALVIN_RUN_DIR/$C.state" || fail "no OVS port journalled"
rc=0
$CALVIN exec $C server -- true >"$TMP/exec" 2>&1 || rc=$?
[ $rc = 2 ] && [ "$(wc -l <"$TMP/exec")" = 1 ] && grep -q "node 'server' of chain $C is a VM on host b" "$TMP/exec" ||
	fail "calvin exec of the server's VM: exit $rc, $(cat "$TMP/exec")"
echo "ok: up in $up_ms ms: VMs on a (fwd-k) and b (fwd-u, server), 6 ports bound, 1 OVS port of this host (the probe's)"

chain_probed 4
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

# --- the supervisor watches the VMs on both hosts and heals them there
sup_vnf() { json_get "vnfs.[name=$1].$2" <"$CALVIN_RUN_DIR/$C.d/supervisor.json" 2>/dev/null; }
restarts_are() { [ "$(sup_vnf "$1" restarts)" = "$2" ]; }
all_back() { [ "$($CALVIN -j probe -c 20 -r 100 $C 2>/dev/null | json_num received)" = 20 ]; }
SUP=$(pgrep -f "calvin supervise $C\$")
[ -n "$SUP" ] || fail "no supervisor runs after up: $(cat "$TMP/up")"
wait_until "the supervisor's report" test -s "$CALVIN_RUN_DIR/$C.d/supervisor.json"
for hv in a:fwd-k b:fwd-u; do
	h=${hv%%:*} v=${hv#*:}
	uri=$(eval echo "\$CALVIN_SIM_URI_$h")
	wait_until "$v running" eval '[ "$(sup_vnf $v state)" = running ]'
	t0=$(now_ms)
	virsh -c "$uri" -q destroy calvin-$C.$v >/dev/null || fail "virsh destroy of $v on $h failed"
	# a TCG boot, the agent, the OVN port bound again
	WAIT_DEADLINE=90 wait_until "$v restarted on $h" restarts_are $v 1
	WAIT_DEADLINE=90 wait_until "probes through the restarted $v" all_back
	echo "ok: $v's VM destroyed on $h: restarted there, probes pass again after $(($(now_ms) - t0)) ms"
	[ "$(sup_vnf $v last_exit)" = "domain destroyed" ] || fail "$v: last exit $(sup_vnf $v last_exit)"
	virsh -c "$uri" domstate calvin-$C.$v | grep -q running || fail "$v's VM does not run on $h"
done
$CALVIN status $C >"$TMP/status.txt" 2>&1 || fail "calvin status: $(cat "$TMP/status.txt")"
for v in fwd-k fwd-u; do
	grep -Eq "^  supervised $v +running +restarts 1  last exit domain destroyed" "$TMP/status.txt" ||
		fail "status does not show $v's restart: $(cat "$TMP/status.txt")"
done
[ "$(pgrep -f "calvin supervise $C\$")" = "$SUP" ] || fail "the supervisor was replaced"

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
chain_gone "down"
$CALVIN down $C || fail "a second down failed"
echo "ok: the later down left nothing here, on a, on b or in OVN (guest images stay in the pools as the cache)"

echo PASS
