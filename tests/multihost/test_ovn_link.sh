#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# A link between hosts as calvin makes it (userspace/calvin/ovn/, through
# build/tests/tools/ovnlink until `calvin up` deploys chains across hosts):
# an OVN logical switch with two ports named by UUIDs, addresses unknown
# and no port security, journalled first; both ports bound (one on each
# simulated host) within a deadline and carrying ping; `calvin down`
# removes them. (Crashes, another's switch and a database that does not
# answer: test_ovn_nb.sh, against a database of its own; `calvin plan`
# reading each host's CPUs through its libvirt: test_2host_pin.sh.)
# Run it under the machine lock: flock /tmp/calvin-net.lock bash tests/multihost/test_ovn_link.sh
# shellcheck disable=SC2086 # $SIM is the script with its interpreter
. "$(dirname "$0")/lib.sh"
trap 'rm -rf "$TMP"' EXIT
require_sim
OVN=build/tests/tools/ovnlink
CALVIN=build/calvin
[ -x $OVN ] && [ -x $CALVIN ] || skip "calvin and its test tools are not built (run make)"
trap '$SIM down >/dev/null 2>&1; rm -rf "$TMP"' EXIT
$SIM up 2 >"$TMP/sim" 2>&1 || fail "sim.sh up 2: $(tail -n 3 "$TMP/sim")"
. "$SIM_DIR/env"
export CALVIN_RUN_DIR=$TMP/run
C=t-ovn
LS=calvin-$C-l1
OVERLAY=192.168.98

ours() { nbctl --bare --columns=name find Logical_Switch external_ids:calvin-chain=$C; }
nb_clean() { # WHAT
	[ -z "$(ours)" ] || fail "$1: logical switch left: $(ours)"
	[ -z "$(nbctl --bare --columns=name find Logical_Switch_Port external_ids:calvin-chain=$C)" ] ||
		fail "$1: ports left"
	[ ! -e "$CALVIN_RUN_DIR/$C.state" ] || fail "$1: the journal is left"
}

# --- a link: made, journalled, bound on both hosts, carrying ping -------------
t0=$(now_ms)
$OVN up $C l1 "$CALVIN_SIM_NB" >"$TMP/ports" 2>"$TMP/err" || fail "ovnlink up: $(cat "$TMP/err")"
P1=$(sed -n 1p "$TMP/ports") P2=$(sed -n 2p "$TMP/ports")
[[ $P1 =~ ^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$ ]] || fail "port name $P1 is no UUID"
made=$(($(now_ms) - t0))
[ "$(ours)" = "$LS" ] || fail "no tagged switch $LS: $(nbctl show)"
for p in $P1 $P2; do
	[ "$(nbctl lsp-get-addresses $p)" = unknown ] || fail "$p: addresses $(nbctl lsp-get-addresses $p)"
	[ -z "$(nbctl lsp-get-port-security $p)" ] || fail "$p has port security"
	[ "$(nbctl lsp-get-ls $p | sed 's/.*(\(.*\))/\1/')" = "$LS" ] || fail "$p is not on $LS"
done
grep -q "^ovnls $LS $CALVIN_SIM_NB$" "$CALVIN_RUN_DIR/$C.state" &&
	grep -q "^ovnlsp $P1 $CALVIN_SIM_NB$" "$CALVIN_RUN_DIR/$C.state" ||
	fail "the journal lacks the switch or a port: $(cat "$CALVIN_RUN_DIR/$C.state")"
# not bound yet: the wait ends at its deadline, naming the port
t0=$(now_ms)
$OVN wait "$CALVIN_SIM_NB" 300 $P1 2>"$TMP/err" && fail "an unbound port counted as up"
grep -q "port $P1 is not bound to its chassis after 300 ms" "$TMP/err" || fail "wait said: $(cat "$TMP/err")"
port_up a $P1 $OVERLAY.1 1442
port_up b $P2 $OVERLAY.2 1442
t0=$(now_ms)
$OVN wait "$CALVIN_SIM_NB" 10000 $P1 $P2 2>"$TMP/err" || fail "ports not up: $(cat "$TMP/err")"
bound=$(($(now_ms) - t0))
bound_to $P1 a && bound_to $P2 b || fail "ports are up but not bound to chassis a and b"
t0=$(now_ms)
wait_until "a first ping across the link" in_vnf a ping -c 1 -W 1 $OVERLAY.2
first=$(($(now_ms) - t0))
in_vnf a ping -q -c 20 -i 0.01 -W 1 $OVERLAY.2 >"$TMP/ping" || fail "ping a -> b: $(cat "$TMP/ping")"
echo "ok: link made in ${made} ms, both ports bound ${bound} ms after they were attached, first ping ${first} ms later; $(tail -n 1 "$TMP/ping")"

# --- down removes it ---------------------------------------------------------
$CALVIN down $C 2>"$TMP/err" || fail "down: $(cat "$TMP/err")"
nb_clean "down"
$CALVIN down $C || fail "a second down failed"
wait_until "the ports' bindings to go" eval "unbound $P1 && unbound $P2"
echo "ok: down removed the switch and its ports, and their bindings"

# --- a namespace of this host joins through an OVS port --------------------------
# The simulation's root namespace runs no Open vSwitch: host a's stands for
# this host's (CALVIN_OVS_DB and CALVIN_OVS_NETNS), as `up` uses it for the
# probe and the server of a chain across hosts.
LNS=csim-local.$$
ip netns add $LNS || fail "cannot make namespace $LNS"
trap 'ip netns del $LNS 2>/dev/null; nbctl --if-exists ls-del $LS; $SIM down >/dev/null 2>&1; rm -rf "$TMP"' EXIT
$SIM exec b ovs-vsctl --timeout=10 --if-exists del-port br-int p0
$SIM exec b ip netns del vnf 2>/dev/null
$SIM exec b ip link del p0 2>/dev/null
export CALVIN_OVS_DB=unix:$SIM_DIR/a/root/run/openvswitch/db.sock CALVIN_OVS_NETNS=csim.a
$OVN up $C l1 "$CALVIN_SIM_NB" $LNS >"$TMP/ports" 2>"$TMP/err" || fail "ovnlink up with $LNS: $(cat "$TMP/err")"
P1=$(sed -n 1p "$TMP/ports") P2=$(sed -n 2p "$TMP/ports")
grep -q "^ovsport cvt-join0@csim.a $CALVIN_OVS_DB$" "$CALVIN_RUN_DIR/$C.state" ||
	fail "the journal lacks the OVS port: $(cat "$CALVIN_RUN_DIR/$C.state")"
[ "$($SIM exec a ovs-vsctl get Interface cvt-join0 external_ids:iface-id)" = "\"$P1\"" ] ||
	fail "cvt-join0 on a's br-int does not carry iface-id $P1"
ip -n $LNS addr add $OVERLAY.1/24 dev east && ip -n $LNS link set lo up || fail "cannot address $LNS"
port_up b $P2 $OVERLAY.2 1442
t0=$(now_ms)
$OVN wait "$CALVIN_SIM_NB" 10000 $P1 $P2 2>"$TMP/err" || fail "ports not up: $(cat "$TMP/err")"
bound=$(($(now_ms) - t0))
bound_to $P1 a && bound_to $P2 b || fail "ports are up but not bound to chassis a and b"
wait_until "a first ping from this host's namespace across the link" ip netns exec $LNS ping -c 1 -W 1 $OVERLAY.2
ip netns exec $LNS ping -q -c 20 -i 0.01 -W 1 $OVERLAY.2 >"$TMP/ping" || fail "ping local -> b: $(cat "$TMP/ping")"
echo "ok: a namespace of this host joined through an OVS port, bound ${bound} ms later; $(tail -n 1 "$TMP/ping")"
$CALVIN down $C 2>"$TMP/err" || fail "down: $(cat "$TMP/err")"
nb_clean "down"
$SIM exec a ovs-vsctl list-ports br-int | grep -q cvt-join0 && fail "down left port cvt-join0 on a's br-int"
$SIM exec a ip link show cvt-join0 >/dev/null 2>&1 && fail "down left veth cvt-join0 on a"
ip netns del $LNS
unset CALVIN_OVS_DB CALVIN_OVS_NETNS
echo "ok: down removed the OVS port and its veth, the switch and its ports"

echo PASS
