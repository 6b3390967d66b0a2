# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# The acl VNF (chains/tactile-acl.yaml): what the rules allow goes through
# (probes, sockperf), what they do not is dropped before the server and
# counted; a rule added on the running chain (re-up of the changed file)
# lets the new flow through without losing a probe of the flow it does not
# touch.
. "$(dirname "$0")/lib.sh"
require_root
require_netns_xdp
C=t-acl
SPEC=$(spec_copy chains/tactile-acl.yaml $C)
trap 'cleanup_chain $C; rm -rf "$TMP"' EXIT

$CALVIN up "$SPEC" || fail "calvin up failed"
$CALVIN -j probe -c 500 $C >"$TMP/p1.json" || fail "probe failed"
[ "$(json_num received <"$TMP/p1.json")" = 500 ] || fail "allowed probes were dropped: $(cat "$TMP/p1.json")"

acl_denies $C fw "denied"
echo "denied: 100 datagrams to port 9999 dropped and counted"

# Allow port 9999 on the running chain while probes flow.
sed 's/^\(\s*\)- {action: allow, proto: icmp}/&\n\1- {action: allow, proto: udp, dport: 9999}/' "$SPEC" >"$TMP/acl2.yaml"
sed -i "s/^name: .*/name: $C/" "$TMP/acl2.yaml"
grep -q 'dport: 9999' "$TMP/acl2.yaml" || fail "test could not write the changed spec"
rx0=$(vnf_stat $C fw rx_packets)
$CALVIN -j probe -c 5000 $C >"$TMP/p2.json" &
probe=$!
# the update must land while probes flow: wait for them, not for a time
flowing() { [ "$(vnf_stat $C fw rx_packets)" -gt $((rx0 + 50)) ]; }
wait_until "probes flowing through fw" flowing
kill -0 $probe 2>/dev/null || fail "the probe ended before the update began"
$CALVIN up "$TMP/acl2.yaml" || fail "live update failed"
wait $probe || fail "probe during the update failed"
[ "$(json_num lost <"$TMP/p2.json")" = 0 ] || fail "probes lost during the update: $(cat "$TMP/p2.json")"
before=$(udp_noports $C server)
udp_send $C probe 10.70.0.2 9999 100
wait_stable after udp_noports $C server
[ $((after - before)) -eq 100 ] || fail "after the update, $((after - before)) of 100 datagrams arrived"
echo "after the live update: 100 of 100 arrived, no probe lost during it"

$CALVIN down $C || fail "calvin down failed"
assert_clean $C
echo ok
