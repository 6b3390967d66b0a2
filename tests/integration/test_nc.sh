# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# Network coding (chains/tactile-nc.yaml): nc-encode (k 4, r 2), a link that
# loses 5% at random in each direction (the impair VNF, direction both: this
# kernel has no netem), nc-decode. The pair codes both ways: enc encodes
# toward the server and decodes the replies, dec the reverse. A packet is
# lost only when its generation lost more than the redundancy: with 5% loss
# and 2 repairs per 4 sources that is a residual loss near 0.2% per
# direction, so a probe (which crosses the link twice) must be lost less
# often than 1% (40 of 4000, ~6 sd above the expected ~16), against the ~10%
# the link drops of them; recovered probes arrive intact (the probe checks
# every application byte), and a second flow (sockperf) mixed into the same
# generations completes. Each decoder's count of what it could not recover
# is printed beside the probe's loss: it misses generations of which
# nothing or only sources without repairs arrived (nothing tells it their
# size).
. "$(dirname "$0")/lib.sh"
require_root
require_netns_xdp
command -v sockperf >/dev/null || skip "sockperf is not installed (make deps installs it)"
C=t-nc
SPEC=$(spec_copy chains/tactile-nc.yaml $C)
trap 'cleanup_chain $C; rm -rf "$TMP"' EXIT

$CALVIN up "$SPEC" || fail "calvin up failed"
$CALVIN exec $C server -- sockperf server -i 10.70.0.2 -p 11111 >/dev/null 2>&1 &
wait_listen $C server 11111
# Not ping-pong: one datagram lost for good (a source and every repair of
# its generation lost) would stall it for the rest of the run. Under load,
# every datagram answered, it counts such losses instead.
$CALVIN exec $C probe -- sockperf under-load -i 10.70.0.2 -p 11111 -t 3 --mps 1000 \
	--reply-every 1 >"$TMP/sp.log" 2>&1 &
sp=$!
$CALVIN -j probe -c 4000 -r 2000 $C >"$TMP/p.json" || fail "probe failed"
wait $sp || fail "sockperf through the coded chain failed: $(tail -3 "$TMP/sp.log")"
grep -q "Summary: Latency is" "$TMP/sp.log" || fail "sockperf printed no summary"
sp_sent=$(grep -o 'Total Run.*SentMessages=[0-9]*' "$TMP/sp.log" | grep -o '[0-9]*$')
sp_lost=$(grep -o 'dropped messages = [0-9]*' "$TMP/sp.log" | grep -o '[0-9]*$')
echo "sockperf: $sp_lost of $sp_sent datagrams lost for good"
# what a failure needs to be understood: sockperf's own summary, every
# node's kernel drop counters, the coding VNFs' counters
diag() {
	local n
	grep -E 'Valid Duration|avg-latency|dropped messages|percentile 99.000|MAX' "$TMP/sp.log" | sed 's/\x1b\[[0-9;]*m//g'
	for n in probe enc loss dec server; do
		echo "$n: $(ip netns exec "calvin-$C.$n" sh -c 'cd /sys/class/net && for i in *; do
			[ "$i" = lo ] || printf "%s rx %s dropped %s; " "$i" "$(cat "$i/statistics/rx_packets")" "$(cat "$i/statistics/rx_dropped")"
		done' 2>&1)"
	done
	$CALVIN -j status $C | grep -o '"[a-z_]*\(drop\|fail\|nc_\|full\)[a-z_]*":[1-9][0-9]*' | sort | uniq | tr '\n' ' '
	echo
}
[ "$sp_sent" -gt 1000 ] || { diag; fail "sockperf sent only $sp_sent datagrams"; }
[ $((sp_lost * 100)) -le "$sp_sent" ] || { diag; fail "sockperf lost $sp_lost of $sp_sent: not recovered"; }

lost=$(json_num lost <"$TMP/p.json")
corrupt=$(json_num corrupt <"$TMP/p.json")
for d in fwd rev; do
	eval "dropped_$d=\$(vnf_stat_dir $C loss $d impair_loss)"
done
for v in enc dec; do
	eval "recovered_$v=\$(vnf_stat $C $v nc_recovered)"
	eval "unrecoverable_$v=\$(vnf_stat $C $v nc_unrecoverable)"
done
echo "link dropped $dropped_fwd toward the server, $dropped_rev back;" \
	"dec recovered $recovered_dec (could not: $unrecoverable_dec)," \
	"enc recovered $recovered_enc (could not: $unrecoverable_enc);" \
	"probe lost $lost of 4000, corrupt $corrupt"
[ "$dropped_fwd" -gt 100 ] && [ "$dropped_rev" -gt 100 ] ||
	fail "the impaired link dropped only $dropped_fwd and $dropped_rev packets"
[ "$recovered_dec" -gt 0 ] || fail "nothing recovered toward the server"
[ "$recovered_enc" -gt 0 ] || fail "nothing recovered on the way back"
[ "$corrupt" = 0 ] || fail "$corrupt probes came back altered"
[ "$lost" -le 40 ] || { diag; fail "$lost of 4000 probes lost: network coding did not recover them"; }

$CALVIN down $C || fail "calvin down failed"
assert_clean $C
echo ok
