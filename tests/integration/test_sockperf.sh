# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# A user's own MEC server in the server node, reached through the chain:
# sockperf server started with `calvin exec`, sockperf ping-pong from the
# probe node, through fwd-k (XDP) and fwd-u (DPDK).
. "$(dirname "$0")/lib.sh"
require_root
require_netns_xdp
command -v sockperf >/dev/null || skip "sockperf is not installed (make deps installs it)"
C=t-sockperf
SPEC=$(spec_copy chains/tactile-fwd.yaml $C)
trap 'cleanup_chain $C; rm -rf "$TMP"' EXIT

$CALVIN up "$SPEC" || fail "calvin up failed"
$CALVIN exec $C server -- sockperf server -i 10.70.0.2 -p 11111 >"$TMP/server.log" 2>&1 &
wait_listen $C server 11111
timeout 60 $CALVIN exec $C probe -- sockperf ping-pong -i 10.70.0.2 -p 11111 -t 3 \
	>"$TMP/client.log" 2>&1 || { cat "$TMP/client.log"; fail "sockperf ping-pong failed"; }
cat "$TMP/client.log"
grep -q "Summary: Latency is" "$TMP/client.log" || fail "sockperf printed no latency summary"
grep -Eq "ReceivedMessages=[1-9]" "$TMP/client.log" || fail "sockperf received nothing"
$CALVIN down $C || fail "calvin down failed"
assert_clean $C
echo ok
