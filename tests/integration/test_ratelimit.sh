# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# The ratelimit VNF (chains/tactile-ratelimit.yaml, 20000 packets/s for the
# whole VNF, both directions together): probes offered at 40000/s are
# admitted at the configured rate, within 10%. Admitted = what the VNF sent
# on (its tx counters, both directions); the time window comes from its own
# t_in stamps of the probes that got through.
. "$(dirname "$0")/lib.sh"
require_root
require_netns_xdp
C=t-rl
SPEC=$(spec_copy chains/tactile-ratelimit.yaml $C)
trap 'cleanup_chain $C; rm -rf "$TMP"' EXIT
tx_sum() { $CALVIN -j status $C | grep -o '"tx_packets":[0-9]*' | awk -F: '{ s += $2 } END { print s }'; }

$CALVIN up "$SPEC" || fail "calvin up failed"
tx0=$(tx_sum)
$CALVIN -j probe -c 40000 -r 40000 --raw "$TMP/raw" $C >"$TMP/p.json" || fail "probe failed"
wait_stable tx1 tx_sum
grep -o '"received": *[0-9]*\|"lost": *[0-9]*' "$TMP/p.json"
# field 7 is the ratelimit VNF's t_in on the way out
awk -v limit=20000 -v admitted=$((tx1 - tx0)) '
	NR == 1 || $7 < first { first = $7 }
	$7 > last { last = $7 }
	END {
		if (NR < 100) { print "only " NR " probes came back"; exit 1 }
		rate = admitted / ((last - first) / 1e9)
		printf "admitted %d packets in %.3f s: %.0f/s (limit %d/s)\n", admitted,
			(last - first) / 1e9, rate, limit
		if (rate < 0.9 * limit || rate > 1.1 * limit) { print "not within 10%"; exit 1 }
	}' "$TMP/raw" || fail "rate not enforced"
$CALVIN -j status $C | grep -q '"drop_ratelimit":[1-9]' || fail "nothing dropped: was 40000/s offered?"

$CALVIN down $C || fail "calvin down failed"
assert_clean $C
echo ok
