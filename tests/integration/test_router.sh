# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# The router VNF (chains/tactile-router.yaml): routes are followed both
# ways, TTL is decremented (TTL 1 expires), a prefix routed to drop is
# dropped and counted, and a route added live is followed at once.
. "$(dirname "$0")/lib.sh"
require_root
require_netns_xdp
command -v ping >/dev/null || skip "ping is not installed (make deps installs iputils-ping)"
C=t-router
SPEC=$(spec_copy chains/tactile-router.yaml $C)
trap 'cleanup_chain $C; rm -rf "$TMP"' EXIT
stat_num() { $CALVIN -j status $C | json_num "$1"; }

$CALVIN up "$SPEC" || fail "calvin up failed"
$CALVIN -j probe -c 500 $C >"$TMP/p.json" || fail "probe failed"
[ "$(json_num received <"$TMP/p.json")" = 500 ] || fail "probes lost: $(cat "$TMP/p.json")"
$CALVIN exec $C probe -- ping -c 3 -i 0.2 -W 1 10.70.0.2 >"$TMP/ping" ||
	fail "ping through the router failed: $(cat "$TMP/ping")"
grep -q "ttl=63" "$TMP/ping" || fail "the reply's TTL was not decremented once: $(cat "$TMP/ping")"
echo "routed both ways; the server's reply came back with TTL 63"

ttl0=$(stat_num drop_ttl)
$CALVIN exec $C probe -- ping -c 3 -i 0.2 -W 1 -t 1 10.70.0.2 >/dev/null && fail "TTL 1 went through"
wait_stable ttl1 stat_num drop_ttl
[ $((ttl1 - ttl0)) -ge 3 ] || fail "TTL expiry not counted ($ttl0 -> $ttl1)"
echo "TTL 1: dropped and counted"

# 10.70.0.3 is routed to drop; the probe node reaches it through the router's MAC.
mac=$(ip -n calvin-$C.rt -o link show west | grep -o 'link/ether [0-9a-f:]*' | cut -d' ' -f2)
$CALVIN exec $C probe -- ip neigh replace 10.70.0.3 lladdr "$mac" dev east nud permanent
drop0=$(stat_num drop_no_route)
route0=$(stat_num drop_route)
udp_send $C probe 10.70.0.3 9 50
drops() { echo "$(stat_num drop_no_route) $(stat_num drop_route)"; }
wait_stable now drops
read -r drop route <<<"$now"
dropped=$((drop - drop0 + route - route0))
[ "$dropped" -ge 50 ] || fail "datagrams to a dropped prefix: $dropped of 50 counted: $($CALVIN status $C)"
echo "prefix routed to drop: 50 of 50 dropped and counted"

# Route 10.70.0.3 east, live: now the server node's stack sees them.
sed 's|^\(\s*\)- {prefix: 10.70.0.2/32, via: east}.*|&\n\1- {prefix: 10.70.0.3/32, via: east}|' "$SPEC" >"$TMP/rt2.yaml"
grep -q '10.70.0.3/32' "$TMP/rt2.yaml" || fail "test could not write the changed spec"
$CALVIN up "$TMP/rt2.yaml" || fail "live update failed"
$CALVIN exec $C server -- ip addr add 10.70.0.3/32 dev west
before=$(udp_noports $C server)
udp_send $C probe 10.70.0.3 9 50
wait_stable after udp_noports $C server
[ $((after - before)) -eq 50 ] || fail "after the live route, $((after - before)) of 50 arrived"
echo "route added live: 50 of 50 followed it"

$CALVIN down $C || fail "calvin down failed"
assert_clean $C
echo ok
