# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# Network coding (chains/tactile-nc.yaml): nc-encode (k 4, r 2), a link that
# loses 5% at random toward the server (the impair VNF: this kernel has no
# netem), nc-decode. Every packet arrives unless its generation lost more
# than the redundancy: with 5% loss and 2 repairs per 4 sources that is a
# residual loss near 0.2%, so the probe must lose less than a tenth of what
# the link drops (0.5%, ~2.5 sd above the expected 8 of 4000); recovered
# probes arrive intact (the probe checks every application byte), and a
# second flow (sockperf) mixed into the same generations completes. The
# decoder's own count of what it could not recover is printed beside the
# probe's loss: it misses generations of which nothing or only sources
# without repairs arrived (nothing tells it their size).
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
$CALVIN exec $C probe -- sockperf ping-pong -i 10.70.0.2 -p 11111 -t 3 >"$TMP/sp.log" 2>&1 &
sp=$!
$CALVIN -j probe -c 4000 -r 2000 $C >"$TMP/p.json" || fail "probe failed"
wait $sp || fail "sockperf through the coded chain failed: $(tail -3 "$TMP/sp.log")"
grep -q "Summary: Latency is" "$TMP/sp.log" || fail "sockperf printed no summary"

lost=$(json_num lost <"$TMP/p.json")
corrupt=$(json_num corrupt <"$TMP/p.json")
nc_counts() { echo "$(vnf_stat $C loss impair_loss) $(vnf_stat $C dec nc_recovered) $(vnf_stat $C dec nc_unrecoverable)"; }
wait_stable now nc_counts
read -r dropped recovered unrecoverable <<<"$now"
echo "link dropped $dropped; decoder recovered $recovered, could not recover $unrecoverable;" \
	"probe lost $lost of 4000, corrupt $corrupt"
[ "$dropped" -gt 100 ] || fail "the impaired link dropped only $dropped packets"
[ "$recovered" -gt 0 ] || fail "nothing recovered"
[ "$corrupt" = 0 ] || fail "$corrupt probes came back altered"
[ "$lost" -le 20 ] || fail "$lost of 4000 probes lost: network coding did not recover them"

$CALVIN down $C || fail "calvin down failed"
assert_clean $C
echo ok
