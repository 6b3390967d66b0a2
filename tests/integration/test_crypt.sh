# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# The encrypt/decrypt VNFs (chains/tactile-crypt.yaml): traffic arrives
# decrypted and intact (the probe checks every application byte, sockperf
# runs through), the link between them carries ciphertext, and packets
# injected on that link (tampered, unknown SPI) are dropped and counted,
# never forwarded. A key file others can read is refused.
. "$(dirname "$0")/lib.sh"
require_root
require_netns_xdp
C=t-crypt
SPEC=$(spec_copy chains/tactile-crypt.yaml $C)
trap 'cleanup_chain $C; rm -rf "$TMP"' EXIT
enc() { vnf_stat $C enc "$1"; }
dec() { vnf_stat $C dec "$1"; }

# a key readable by others is refused, and nothing is created
$CALVIN keygen "$TMP/tactile-crypt.key" >/dev/null || fail "keygen failed"
chmod 644 "$TMP/tactile-crypt.key"
$CALVIN up "$SPEC" 2>"$TMP/err" && fail "up accepted a key file of mode 0644"
grep -q "chmod 600" "$TMP/err" && [ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "no one-line refusal: $(cat "$TMP/err")"
assert_clean $C
chmod 600 "$TMP/tactile-crypt.key"

$CALVIN up "$SPEC" || fail "calvin up failed"
$CALVIN -j probe -c 1000 $C >"$TMP/p.json" || fail "probe failed"
[ "$(json_num received <"$TMP/p.json")" = 1000 ] || fail "probes lost: $(cat "$TMP/p.json")"
[ "$(json_num corrupt <"$TMP/p.json")" = 0 ] || fail "probes came back altered"
[ "$(enc crypt_sealed)" -ge 1000 ] && [ "$(dec crypt_opened)" -ge 1000 ] ||
	fail "not sealed and opened: $($CALVIN status $C)"
echo "1000 probes sealed, opened and intact"

$CALVIN exec $C server -- sockperf server -i 10.70.0.2 -p 11111 >/dev/null 2>&1 &
wait_listen $C server 11111
timeout 60 $CALVIN exec $C probe -- sockperf ping-pong -i 10.70.0.2 -p 11111 -t 2 \
	>"$TMP/sp.log" 2>&1 || fail "sockperf through the encrypted chain failed: $(tail -3 "$TMP/sp.log")"
grep -q "Summary: Latency is" "$TMP/sp.log" || fail "sockperf printed no summary"

# Attacks on the encrypted link: from enc's east veth to dec's west.
dec_mac=$(ip -n calvin-$C.dec -o link show west | grep -o 'link/ether [0-9a-f:]*' | cut -d' ' -f2)
# dec's tampered and unknown-SPI drops, and what it hands on toward the server
dec_counts() { echo "$(dec crypt_bad_tag) $(dec crypt_bad_spi) $(dec east_tx_packets)"; }
wait_stable now dec_counts
read -r bad0 spi0 fwd0 <<<"$now"
hdr="01000000""00000100""00000000000f4240" # version 1, SPI 0x100, seq 1000000
for i in 1 2 3; do
	$CALVIN exec $C enc -- build/tests/tools/inject east "$dec_mac" 10.70.0.1 10.70.0.2 \
		40000 11111 "${hdr}$(printf '%064x' $i)" || fail "inject failed"
done
$CALVIN exec $C enc -- build/tests/tools/inject east "$dec_mac" 10.70.0.1 10.70.0.2 \
	40000 11111 "0100000000000999000000000000000100112233445566778899aabbccddeeff00112233" ||
	fail "inject failed"
wait_stable now dec_counts
read -r bad spi fwd <<<"$now"
echo "tampered: $((bad - bad0)), unknown SPI: $((spi - spi0))"
[ $((bad - bad0)) -eq 3 ] || fail "tampered packets not counted"
[ $((spi - spi0)) -eq 1 ] || fail "unknown-SPI packet not counted"
[ "$fwd" = "$fwd0" ] || fail "an injected packet was forwarded"

$CALVIN down $C || fail "calvin down failed"
assert_clean $C
echo ok
