# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# The chain key mtu: in latency mode (fwd-k in XDP) with the user VNF on
# af_packet (its ring slots sized to the links): the endpoints' links get
# the mtu, links between VNFs 100 bytes more; an IP packet of exactly the
# mtu crosses the chain both ways (ping with don't-fragment, answered by
# the server's stack) and one byte more is refused at the sender; probes
# of the largest size that fits keep every hop record; `calvin probe -s`
# above it is refused in one line; a live update that changes the mtu is
# refused, the chain left as it was; down leaves nothing. Then
# tactile-nc at the largest mtu, 3406: probes of the largest size (3378
# bytes) are coded whole (none too big for the codec) and the decoder
# recovers what the chain's impair VNF drops.
. "$(dirname "$0")/lib.sh"
require_root
require_netns_xdp
C=t-mtu
SPEC=$(spec_copy chains/tactile-fwd.yaml $C)
sed -i -e 's/^budget: .*/&\nmtu: 3000/' -e 's/^    pmd: af_xdp .*/    pmd: af_packet/' "$SPEC"
trap 'cleanup_chain $C; rm -rf "$TMP"' EXIT

$CALVIN up "$SPEC" 2>"$TMP/up.err" || fail "calvin up failed: $(cat "$TMP/up.err")"
[ "$(vnf_str $C fwd-u west_pmd)" = af_packet ] || fail "fwd-u west: not af_packet"
assert_link_mtus $C probe/east/3000 fwd-k/west/3000 fwd-k/east/3100 fwd-u/west/3100 fwd-u/east/3000 \
	server/west/3000

# 2972 bytes of ICMP payload: a 3000-byte IP packet, a 3014-byte frame
$CALVIN exec $C probe -- ping -M do -s 2972 -c 20 -i 0.05 -W 2 10.70.0.2 >"$TMP/ping"
grep -q ' 20 received' "$TMP/ping" ||
	fail "not every 3000-byte packet crossed the chain: $(cat "$TMP/ping")"
! $CALVIN exec $C probe -- ping -M do -s 2973 -c 1 -W 1 10.70.0.2 >"$TMP/ping" 2>&1 ||
	fail "a 3001-byte packet with don't-fragment left the probe: $(cat "$TMP/ping")"

$CALVIN probe -c 200 -s 2972 --raw "$TMP/raw" $C >"$TMP/report" ||
	fail "calvin probe -s 2972 failed: $(cat "$TMP/report")"
check_hops "$TMP/raw" 200 "0/0 1/0 1/1 0/1" || fail "raw probe records: $(cat "$TMP/report")"
expect_bad "^calvin: probe size 2973 \(-s\) does not fit chain $C's MTU of 3000 with 28 bytes of IP and UDP headers; give at most 2972\$" \
	$CALVIN probe -c 10 -s 2973 $C

sed 's/^mtu: 3000/mtu: 1500/' "$SPEC" >"$TMP/changed.yaml"
expect_bad "another mtu \(deployed: 3000, file: 1500\); run 'calvin down $C' first" \
	$CALVIN up "$TMP/changed.yaml"
[ "$(link_mtu $C probe east)" = 3000 ] || fail "a refused update changed the probe's link"
$CALVIN probe -c 100 $C >"$TMP/report" || fail "probe after the refusal failed"

$CALVIN down $C || fail "calvin down failed"
assert_clean $C

N=t-mtu-nc
NSPEC=$(spec_copy chains/tactile-nc.yaml $N)
sed -i 's/^budget: .*/&\nmtu: 3406/' "$NSPEC"
trap 'cleanup_chain $C; cleanup_chain $N; rm -rf "$TMP"' EXIT
$CALVIN up "$NSPEC" 2>"$TMP/up.err" || fail "calvin up of $N failed: $(cat "$TMP/up.err")"
assert_link_mtus $N probe/east/3406 enc/east/3506 dec/west/3506 server/west/3406
$CALVIN -j probe -c 300 -s 3378 $N >"$TMP/nc.json" || true
lost=$(json_num lost <"$TMP/nc.json")
[ -n "$lost" ] && [ "$lost" -le 6 ] || fail "$N at mtu 3406: $lost of 300 probes of 3378 bytes lost"
[ "$(vnf_stat $N enc too_big)" = 0 ] || fail "enc: $(vnf_stat $N enc too_big) frames too big to code"
[ "$(vnf_stat $N dec nc_recovered)" -gt 0 ] || fail "dec recovered nothing at mtu 3406"
$CALVIN down $N || fail "calvin down $N failed"
assert_clean $N
echo ok
