#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# A VNF of calvin's own host in a chain across hosts: the layout the issue
# names (probe and fwd-k on one host, fwd-u and the server on another),
# here chains/tactile-2host.yaml with fwd-k on local. fwd-k is a VM of
# this host as in a chain on one host; its east NIC's tap reaches this
# host's Open vSwitch (host a's stands in: the simulation's root namespace
# runs none) through a veth joined to the tap by the XDP link program.
# Checks: fwd-k's domain runs here and nothing of it on a, the veth's
# switch end carries the logical port, every port is bound, every probe
# comes back with all four hop records, the link between hosts is
# estimated with a bound, the supervisor heals fwd-k's VM destroyed here
# and the server's VM destroyed on b, and `down` leaves nothing here (domain, taps, veth, XDP), on a, on b or
# in OVN. Then the same chain with calvin killed (SIGKILL) right after it
# journalled the new veth, and `down`; and a chain out to host a and back
# (fwd-k on a, fwd-u and the server here: fwd-u's west joins the switch).
# Run it under the machine lock: flock /tmp/calvin-net.lock bash tests/multihost/test_2host_local.sh
# shellcheck disable=SC2086 # $SIM is the script with its interpreter
. "$(dirname "$0")/lib.sh"
trap 'rm -rf "$TMP"' EXIT
require_sim
C=tactile-2host
sim_chains_up $C
LOCAL_URI=qemu:///system

sed '/^    host: a$/d' chains/tactile-2host.yaml >"$TMP/loc.yaml"
[ "$(grep -c '^    host: a$' chains/tactile-2host.yaml)" = 1 ] && ! grep -q '^    host: a$' "$TMP/loc.yaml" ||
	fail "chains/tactile-2host.yaml changed: fix this test's sed"

# this host's interfaces of the chain's VMs' hash: the probe's veth, fwd-k's
# taps, the veth's near end
local_ifs() { ip -o link show | grep -o "cv[0-9a-f]\{8\}-[0-9][we][vo]\?" | sort -u; }
local_gone() { # WHEN
	chain_gone "$1"
	virsh -c $LOCAL_URI list --all --name | grep -q "calvin-$C" && fail "$1: a domain is left here"
	[ -z "$(local_ifs)" ] || fail "$1: interfaces are left here: $(local_ifs)"
	return 0
}

$CALVIN validate "$TMP/loc.yaml" >"$TMP/out" 2>"$TMP/err" || fail "validate: $(cat "$TMP/err")"
grep -q '^hosts: local: probe, fwd-k; a (chassis a, [^)]*): no node; b (chassis b' "$TMP/out" ||
	fail "validate did not say fwd-k runs here: $(cat "$TMP/out")"
t0=$(now_ms)
$CALVIN up "$TMP/loc.yaml" >"$TMP/up" 2>"$TMP/err" || fail "up: $(cat "$TMP/err")"
up_ms=$(($(now_ms) - t0))
cat "$TMP/up"
grep -q "^chain $C is up: probe -> fwd-k (kernel, cpu [0-9]*) -> fwd-u (user.* on host b) -> server (VM on host b)$" "$TMP/up" ||
	fail "up did not say fwd-k runs here: $(cat "$TMP/up")"
virsh -c $LOCAL_URI domstate calvin-$C.fwd-k 2>/dev/null | grep -q running || fail "fwd-k's VM is not running here"
virsh -c "$CALVIN_SIM_URI_a" list --all --name | grep -q "calvin-$C" && fail "a domain was defined on a"
virsh -c "$CALVIN_SIM_URI_b" domstate calvin-$C.fwd-u 2>/dev/null | grep -q running || fail "fwd-u's VM is not running on b"
# two links between hosts (fwd-k-fwd-u, fwd-u-server): four ports; probe-fwd-k is this host's
ports=$(chain_lsps)
[ "$(wc -w <<<"$ports")" = 4 ] || fail "not 4 OVN ports of the chain: $ports"
for p in $ports; do
	WAIT_DEADLINE=30 wait_until "port $p bound" eval '[ -n "$(sbctl --bare --columns=chassis find Port_Binding logical_port=$p)" ]'
done
ovsp=$(chain_ovs_ports)
[ "$(wc -w <<<"$ovsp")" = 1 ] && [[ $ovsp = cv*-1eo ]] || fail "not one OVS port, fwd-k's east: $ovsp"
lsp=$($SIM exec a ovs-vsctl get Interface "$ovsp" external_ids:iface-id | tr -d '"')
grep -qw "$lsp" <<<"$ports" || fail "the OVS port carries $lsp, not one of the chain's logical ports"
near=${ovsp%o}v
tap=${ovsp%o}
# the probe's veth, fwd-k's taps, the near end
[ "$(local_ifs | tr '\n' ' ')" = "${tap%-1e}-0e $tap $near ${tap%e}w " ] || fail "this host's interfaces: $(local_ifs | tr '\n' ' ')"
ip -d link show "$near" | grep -q "xdp" || fail "no XDP program on $near"
ip -d link show "$tap" | grep -q "xdp" || fail "no XDP program on $tap"
grep -q "^ovsport $ovsp@$CALVIN_SIM_NETNS_a $CALVIN_OVS_DB$" "$CALVIN_RUN_DIR/$C.state" || fail "the OVS port is not journalled"
echo "ok: up in $up_ms ms: fwd-k's VM here, its east through $near and $ovsp to host a's Open vSwitch; 4 ports bound"

chain_probed 4
grep -Eq '^  fwd-k -> fwd-u .* ±[0-9.]+[mun]?s estimated$' "$TMP/probe.txt" || fail "the link between hosts is not estimated with a bound"
echo "ok: 200 of 200 probes back, each with 4 hop records; the link between hosts estimated with a bound"

# --- the supervisor heals the VM of this host in a chain across hosts
sup_vnf() { json_get "vnfs.[name=$1].$2" <"$CALVIN_RUN_DIR/$C.d/supervisor.json" 2>/dev/null; }
all_back() { [ "$($CALVIN -j probe -c 20 -r 100 $C 2>/dev/null | json_num received)" = 20 ]; }
wait_until "the supervisor's report" test -s "$CALVIN_RUN_DIR/$C.d/supervisor.json"
wait_until "fwd-k running" eval '[ "$(sup_vnf fwd-k state)" = running ]'
t0=$(now_ms)
virsh -c $LOCAL_URI -q destroy calvin-$C.fwd-k >/dev/null || fail "virsh destroy of fwd-k failed"
WAIT_DEADLINE=90 wait_until "fwd-k restarted" eval '[ "$(sup_vnf fwd-k restarts)" = 1 ]'
WAIT_DEADLINE=90 wait_until "probes through the restarted fwd-k" all_back
echo "ok: fwd-k's VM destroyed here: restarted, probes pass again after $(($(now_ms) - t0)) ms"
# the server's VM on b: watched and healed too (its agent attaches the reflector again)
wait_until "the server's VM watched" eval '[ "$(sup_vnf server state)" = running ]'
[ "$(sup_vnf server vm)" = "calvin-$C.server" ] || fail "the server's entry names no VM: $(cat "$CALVIN_RUN_DIR/$C.d/supervisor.json")"
t0=$(now_ms)
virsh -c "$CALVIN_SIM_URI_b" -q destroy calvin-$C.server >/dev/null || fail "virsh destroy of the server on b failed"
WAIT_DEADLINE=90 wait_until "the server restarted" eval '[ "$(sup_vnf server restarts)" = 1 ]'
WAIT_DEADLINE=90 wait_until "probes through the restarted server" all_back
[ "$(sup_vnf server last_exit)" = "domain destroyed" ] || fail "server: last exit $(sup_vnf server last_exit)"
$CALVIN status $C >"$TMP/status.txt" 2>&1 || fail "calvin status: $(cat "$TMP/status.txt")"
grep -Eq "^  supervised server +running +restarts 1  last exit domain destroyed .* vm calvin-$C.server$" "$TMP/status.txt" ||
	fail "status does not show the server's restart: $(cat "$TMP/status.txt")"
echo "ok: the server's VM destroyed on b: restarted there, probes pass again after $(($(now_ms) - t0)) ms"

$CALVIN down $C 2>"$TMP/err" || fail "down: $(cat "$TMP/err")"
local_gone "down"
echo "ok: down left nothing here, on a, on b or in OVN"

# --- SIGKILL right after the veth's switch end is journalled, then down
$CALVIN up --no-supervise "$TMP/loc.yaml" >/dev/null 2>"$TMP/err" || fail "up (to count steps): $(cat "$TMP/err")"
k=$(grep -n "^ovsport " "$CALVIN_RUN_DIR/$C.state" | head -n 1 | cut -d: -f1)
[ -n "$k" ] || fail "no ovsport line in the journal"
$CALVIN down $C 2>"$TMP/err" || fail "down: $(cat "$TMP/err")"
for after in $((k - 1)) $k $((k + 1)); do
	# in a subshell: the shell that reaps the killed up says "Killed" to /dev/null
	(CALVIN_CRASH_AFTER=$after $CALVIN up --no-supervise "$TMP/loc.yaml"; exit $?) >/dev/null 2>&1
	rc=$?
	[ $rc = 137 ] || fail "up with CALVIN_CRASH_AFTER=$after exited $rc, not killed"
	$CALVIN down $C 2>"$TMP/err" || fail "down after SIGKILL at step $after: $(cat "$TMP/err")"
	local_gone "down after SIGKILL at step $after"
done
echo "ok: SIGKILL after journal steps $((k - 1)), $k (the veth's switch end), $((k + 1)), then down: nothing left"

# --- out to a and back: fwd-k on a, fwd-u and the server here
sed -e '/^    host: b$/d' -e 's/^server: {name: server, kind: echo, host: b}.*/server: {name: server, kind: echo}/' \
	chains/tactile-2host.yaml >"$TMP/back.yaml"
grep -q '^server: {name: server, kind: echo}$' "$TMP/back.yaml" || fail "the chain file's server line changed: fix this test's sed"
$CALVIN up --no-supervise "$TMP/back.yaml" >"$TMP/up" 2>"$TMP/err" || fail "up of fwd-k on a, the rest here: $(cat "$TMP/err")"
grep -q "^chain $C is up: probe -> fwd-k (kernel, cpu [0-9]* on host a) -> fwd-u (user, cpu [0-9]*) -> server$" "$TMP/up" ||
	fail "up did not say fwd-u and the server run here: $(cat "$TMP/up")"
# on the switch: the probe's east (its link to fwd-k on a) and fwd-u's west
ovsp=$(chain_ovs_ports | sort | xargs)
[[ $ovsp = cv*-0e\ cv*-2wo ]] || fail "not two OVS ports, the probe's east and fwd-u's west: $ovsp"
chain_probed 4
$CALVIN down $C 2>"$TMP/err" || fail "down: $(cat "$TMP/err")"
local_gone "down of fwd-k on a, the rest here"
echo "ok: probe here, fwd-k on a, fwd-u and the server here: every probe back with 4 hop records; down left nothing"

echo PASS
