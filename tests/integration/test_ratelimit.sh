# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# The ratelimit VNF (chains/tactile-ratelimit.yaml, 20000 packets/s for the
# whole VNF, both directions together): probes offered at 40000/s are
# admitted at the configured rate, within 10%. Admitted = what the VNF sent
# on (its tx counters, both directions); the time window comes from its own
# t_in stamps of the probes that got through and the probe's schedule.
. "$(dirname "$0")/lib.sh"
require_root
require_netns_xdp
C=t-rl
SPEC=$(spec_copy chains/tactile-ratelimit.yaml $C)
trap 'cleanup_chain $C; rm -rf "$TMP"' EXIT
tx_sum() { $CALVIN -j status $C | grep -o '"tx_packets":[0-9]*' | awk -F: '{ s += $2 } END { print s }'; }

$CALVIN up "$SPEC" || fail "calvin up failed"
# The probe is the load generator, and the limiter's rate shows only while
# the VNF is offered more than the limit. A probe the scheduler stops for
# longer than the bucket's depth (burst/pps: 10 ms) lets the bucket fill and
# the surplus go; it then sends what is due in a burst, most of it dropped,
# and fewer are admitted through no fault of the VNF (under stress-ng, at
# nice 0: 12000/s; 20200/s at nice -20, in 6 of 6 runs). So the probe runs
# at nice -20, and a run in which it was seen to fall behind its schedule
# by more than the bucket's depth for over 2% of the time, or in which
# probes did not reach the VNF, is measured again, up to 3 times. (Seen in
# the probes that came back: a stall followed by a burst that catches up
# is not always seen.)
measure() { # 0 within 10%, 1 not, 3 the VNF was not offered the load
	local tx0 tx1 rx0 rx1
	tx0=$(tx_sum)
	rx0=$(vnf_stat $C rl rx_packets)
	nice -n -20 $CALVIN -j probe -c 40000 -r 40000 --raw "$TMP/raw" $C >"$TMP/p.json" ||
		fail "probe failed"
	wait_stable tx1 tx_sum
	rx1=$(vnf_stat $C rl rx_packets)
	grep -o '"received": *[0-9]*\|"lost": *[0-9]*' "$TMP/p.json"
	# Field 1 the sequence number, 2 the probe's send time, 7 the ratelimit
	# VNF's t_in on the way out. The window runs from probe 0 to the last
	# probe as the VNF saw them, taken from the first and last that came
	# back and the probe's schedule between them and the ends: at the
	# load's end the bucket is in debt, so the last ~10 ms of replies, and
	# at nice -20 most replies, are dropped and never seen.
	sort -n "$TMP/raw" | awk -v limit=20000 -v offer=40000 -v count=40000 -v depth=0.01 \
		-v admitted=$((tx1 - tx0)) -v seen=$((rx1 - rx0)) '
	NR == 1 { first = $7 / 1e9 - $1 / offer }
	{ last = $7 / 1e9 + (count - 1 - $1) / offer }
	NR > 1 { late = ($2 - t) / 1e9 - ($1 - seq) / offer; if (late > depth) paused += late - depth }
	{ seq = $1; t = $2 }
	END {
		if (NR < 100) { print "only " NR " probes came back"; exit 1 }
		w = last - first
		rate = admitted / w
		printf "admitted %d packets in %.3f s: %.0f/s (limit %d/s); probe paused %.3f s beyond the bucket\n",
			admitted, w, rate, limit, paused
		if (paused > 0.02 * w) { print "the probe did not keep up"; exit 3 }
		if (seen < 40000) { print seen " of 40000 probes reached the VNF"; exit 3 }
		if (rate < 0.9 * limit || rate > 1.1 * limit) { print "not within 10%"; exit 1 }
	}'
}

for attempt in 1 2 3; do
	measure
	rc=$?
	[ $rc -ne 3 ] && break
done
case $rc in
0) ;;
3) skip "the VNF could not be offered 40000 probes/s steadily on this loaded machine, 3 times" ;;
*) fail "rate not enforced" ;;
esac
$CALVIN -j status $C | grep -q '"drop_ratelimit":[1-9]' || fail "nothing dropped: was 40000/s offered?"

$CALVIN down $C || fail "calvin down failed"
assert_clean $C
echo ok
