# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# Server kind reflect: the server node's XDP program bounces every IP packet
# back (addresses and ports swapped, ICMP echo answered): ping gets replies,
# UDP datagrams come back to the sender's node (its stack counts them at
# the closed source port) while the server's own stack never sees them, and
# probes still come back with their hop records.
. "$(dirname "$0")/lib.sh"
require_root
require_netns_xdp
command -v ping >/dev/null || skip "ping is not installed (make deps installs iputils-ping)"
C=t-reflect
SPEC=$(spec_copy chains/tactile-fwd.yaml $C)
sed -i 's/^  kind: echo .*/  kind: reflect/' "$SPEC"
grep -q "kind: reflect" "$SPEC" || fail "test could not write the spec"
trap 'cleanup_chain $C; rm -rf "$TMP"' EXIT

$CALVIN up "$SPEC" || fail "calvin up failed"
$CALVIN -j probe -c 500 $C >"$TMP/p.json" || fail "probe failed"
[ "$(json_num received <"$TMP/p.json")" = 500 ] || fail "probes lost: $(cat "$TMP/p.json")"
$CALVIN exec $C probe -- ping -c 3 -i 0.2 -W 1 10.70.0.2 >"$TMP/ping" || fail "no echo reply: $(cat "$TMP/ping")"
# Datagrams from a port no socket holds, so every reflected one is counted
# at the probe node as a datagram to a closed port: bash's /dev/udp (as in
# udp_send) keeps its socket open for a moment after the write, and a reply
# that beats its close() is queued on it and counted nowhere (seen under
# load: about 1 in 2000).
fwdk_mac=$(ip -n calvin-$C.fwd-k -o link show west | grep -o 'link/ether [0-9a-f:]*' | cut -d' ' -f2)
back0=$(udp_noports $C probe)
srv0=$(udp_noports $C server)
$CALVIN exec $C probe -- bash -c "for i in \$(seq 50); do
	build/tests/tools/inject east $fwdk_mac 10.70.0.1 10.70.0.2 40000 9999 63616c76696e || exit 1
done" || fail "inject failed"
noports() { echo "$(udp_noports $C probe) $(udp_noports $C server)"; }
wait_stable now noports
read -r back srv <<<"$now"
back=$((back - back0))
srv=$((srv - srv0))
echo "50 datagrams: $back came back to the probe node, $srv reached the server's stack"
[ "$back" -eq 50 ] && [ "$srv" -eq 0 ] || fail "not reflected in XDP"
$CALVIN down $C || fail "calvin down failed"
assert_clean $C
echo ok
