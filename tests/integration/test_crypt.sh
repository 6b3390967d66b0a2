# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# The encrypt/decrypt VNFs (chains/tactile-crypt.yaml), with a wiretap (a
# user forward VNF on af_packet) between them and an impair VNF (no loss)
# in front, so the test can see the encrypted link and update the chain:
# - bad key files and mismatched pairs are refused before anything exists:
#   an unsafe mode, another user's key file, a folder others may write;
# - no VNF holds the key file's key or the deployment random: neither is
#   on a command line, and the VNFs read no key file (their keys come
#   through a pipe, derived by calvin);
# - both directions of the link between enc and dec carry no plaintext (the
#   probe's application bytes, a known pattern, never show in a capture),
#   and every probe comes back intact; sockperf runs through;
# - packets injected on that link (tampered, unknown SPI) are dropped,
#   counted, never forwarded;
# - a deployed crypt chain can be updated live (its copy names the same key
#   file);
# - two deployments with the same key file never seal the first probe to
#   the same (SPI, seq, ciphertext, tag), and a packet captured in the first
#   is refused by the second: dropped, counted, not forwarded;
# - direction: fwd leaves the way back in clear, and only that.
. "$(dirname "$0")/lib.sh"
require_root
require_netns_xdp
command -v sockperf >/dev/null || skip "sockperf is not installed (make deps installs it)"
C=t-crypt
KEY=$TMP/tactile-crypt.key
SPEC=$(spec_tap chains/tactile-crypt.yaml $C dec)
sed -i 's/^  - name: enc$/  - name: loss\n    kind: impair\n    loss: 0%\n    seed: 1\n&/' "$SPEC"
trap 'cleanup_chain $C; rm -rf "$TMP"' EXIT
enc() { vnf_stat $C enc "$1"; }
dec() { vnf_stat $C dec "$1"; }

refused() { # WANT-REGEX CMD...: exit 2, one line matching, nothing created
	local want=$1 rc
	shift
	"$@" >/dev/null 2>"$TMP/err"
	rc=$?
	[ $rc -eq 2 ] || fail "'$*' exited $rc, want 2: $(cat "$TMP/err")"
	[ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "not one line: $(cat "$TMP/err")"
	grep -Eq "$want" "$TMP/err" || fail "'$*' said '$(cat "$TMP/err")', want /$want/"
	assert_clean $C
	echo "refused: $(cat "$TMP/err")"
}

# Frames of the probe port a capture saw going one way: "opaque" ones,
# and "plain" ones (the probe's application pattern in clear).
seen() { # FILE sport|dport opaque|plain
	local col=1
	[ "$2" = dport ] && col=2
	awk -v c=$col -v k="$3" '$c == 7357 && $3 == k' "$1" | wc -l
}

# Probe the chain while the tap captures both ways: TMP/fwdN and TMP/revN.
probe_tapped() { # N COUNT
	local c1 c2
	capture_start $C tap west 6 "$TMP/fwd$1"
	c1=$CAPTURE_PID
	capture_start $C tap east 6 "$TMP/rev$1"
	c2=$CAPTURE_PID
	$CALVIN -j probe -c "$2" $C >"$TMP/p.json" || fail "probe failed"
	wait $c1 $c2
	[ "$(json_num corrupt <"$TMP/p.json")" = 0 ] || fail "probes came back altered"
}

# The first probe sealed toward the server: header (SPI, seq), ciphertext, tag.
first_sealed() { # FILE
	awk '$2 == 7357 { print $4; exit }' "$1"
}

# 1. Refused before anything is created, by validate (no root needed) and up.
refused "^$SPEC:[0-9]+:[0-9]+: .*no such key file; make one with 'calvin keygen $KEY'" \
	$CALVIN validate "$SPEC"
expect_bad "folder /tmp may be written by others, who could put a key there" \
	$CALVIN keygen /tmp/calvin-test-$$.key
[ -e /tmp/calvin-test-$$.key ] && fail "keygen wrote a key where up would refuse it"
$CALVIN keygen "$KEY" >/dev/null || fail "keygen failed"
chmod 644 "$KEY"
refused "^$SPEC:[0-9]+:[0-9]+: .*chmod 600" $CALVIN validate "$SPEC"
refused "^$SPEC:[0-9]+:[0-9]+: .*chmod 600" $CALVIN up "$SPEC"
chmod 600 "$KEY"
chown 65534 "$KEY"
refused "^$SPEC:[0-9]+:[0-9]+: .*belongs to uid 65534, not to you" $CALVIN up "$SPEC"
chown 0 "$KEY"
chmod g+w "$TMP"
refused "^$SPEC:[0-9]+:[0-9]+: .*folder $TMP may be written by its group" $CALVIN up "$SPEC"
chmod g-w "$TMP"
$CALVIN validate "$SPEC" >/dev/null || fail "validate refused a good chain"
sed '0,/spi-rev: 0x101/! s/spi-rev: 0x101/spi-rev: 0x102/' "$SPEC" >"$TMP/$C-bad.yaml"
refused "^$TMP/$C-bad.yaml:[0-9]+:5: decrypt 'dec' does not match encrypt 'enc'" \
	$CALVIN up "$TMP/$C-bad.yaml"

# 2. First deployment: no plaintext either way on the encrypted link.
$CALVIN up "$SPEC" || fail "calvin up failed"
rnd1=$(cat /run/calvin/$C.d/deploy-random)
[[ $rnd1 =~ ^[0-9a-f]{64}$ ]] || fail "no deployment random in /run/calvin/$C.d: '$rnd1'"
key_hex=$(grep -v '^#' "$KEY")
for pid in $(pgrep -f "calvin-vnf --chain $C "); do
	cmd=$(tr '\0' ' ' <"/proc/$pid/cmdline")
	# a process may run several VNFs of a core (one loop, --next)
	crypt_vnfs=$((${crypt_vnfs:-0} + $(echo "$cmd" | grep -Eo -- '--transform (en|de)crypt' | wc -l)))
	case "$cmd" in
	*"$rnd1"* | *"$key_hex"* | *"$KEY"* | *--key-file* | *--deploy-random*)
		fail "key material on a VNF's command line: $cmd" ;;
	esac
	ls -l "/proc/$pid/fd" | grep -q "$KEY" && fail "VNF $pid holds the key file open"
done
[ "${crypt_vnfs:-0}" = 2 ] || fail "found ${crypt_vnfs:-0} crypt VNFs, want 2"
grep -h "keyed 2 SAs (aes-256-gcm), epoch 1" /run/calvin/$C.d/*.log | wc -l | grep -qx 2 ||
	fail "the VNFs did not say they were keyed through calvin: $(cat /run/calvin/$C.d/*.log)"
probe_tapped 1 1000
[ "$(json_num received <"$TMP/p.json")" = 1000 ] || fail "probes lost: $(cat "$TMP/p.json")"
echo "on the link: toward the server $(seen "$TMP/fwd1" dport opaque) sealed," \
	"$(seen "$TMP/fwd1" dport plain) in clear; back $(seen "$TMP/rev1" sport opaque) sealed," \
	"$(seen "$TMP/rev1" sport plain) in clear"
[ "$(seen "$TMP/fwd1" dport plain)" = 0 ] || fail "plaintext toward the server"
[ "$(seen "$TMP/rev1" sport plain)" = 0 ] || fail "plaintext on the way back"
[ "$(seen "$TMP/fwd1" dport opaque)" -ge 1000 ] || fail "the tap saw too few probes going out"
[ "$(seen "$TMP/rev1" sport opaque)" -ge 1000 ] || fail "the tap saw too few replies"
[ "$(enc crypt_sealed)" -ge 1000 ] && [ "$(dec crypt_opened)" -ge 1000 ] &&
	[ "$(dec crypt_sealed)" -ge 1000 ] && [ "$(enc crypt_opened)" -ge 1000 ] ||
	fail "not sealed and opened both ways: $($CALVIN status $C)"
first1=$(first_sealed "$TMP/fwd1")

$CALVIN exec $C server -- sockperf server -i 10.70.0.2 -p 11111 >/dev/null 2>&1 &
wait_listen $C server 11111
timeout 60 $CALVIN exec $C probe -- sockperf ping-pong -i 10.70.0.2 -p 11111 -t 2 \
	>"$TMP/sp.log" 2>&1 || fail "sockperf through the encrypted chain failed: $(tail -3 "$TMP/sp.log")"
grep -q "Summary: Latency is" "$TMP/sp.log" || fail "sockperf printed no summary"

# Attacks on the encrypted link: from the tap toward dec.
dec_mac=$(node_mac $C dec west)
inject() { # HEX
	$CALVIN exec $C tap -- build/tests/tools/inject east "$dec_mac" 10.70.0.1 10.70.0.2 \
		40000 11111 "$1" || fail "inject failed"
}
# dec's tampered, unknown-SPI and opened counts, and what it hands on
# toward the server: read once nothing moves them any more
dec_counts() { echo "$(dec crypt_bad_tag) $(dec crypt_bad_spi) $(dec east_tx_packets) $(dec crypt_opened)"; }
wait_stable now dec_counts
read -r bad0 spi0 fwd0 open0 <<<"$now"
hdr="01000000""00000100""00000000000f4240" # version 1, SPI 0x100, seq 1000000
for i in 1 2 3; do
	inject "${hdr}$(printf '%064x' $i)"
done
inject "0100000000000999000000000000000100112233445566778899aabbccddeeff00112233"
wait_stable now dec_counts
read -r bad spi fwd open <<<"$now"
echo "tampered: $((bad - bad0)), unknown SPI: $((spi - spi0))"
[ $((bad - bad0)) -eq 3 ] || fail "tampered packets not counted"
[ $((spi - spi0)) -eq 1 ] || fail "unknown-SPI packet not counted"
[ "$fwd" = "$fwd0" ] || fail "an injected packet was forwarded"

# A live update of the impair VNF: the deployed copy names the same key file.
sed -i 's/^    seed: 1$/    seed: 2/' "$SPEC"
$CALVIN up "$SPEC" >"$TMP/up.log" 2>&1 || fail "live update refused: $(cat "$TMP/up.log")"
grep -q "updated loss" "$TMP/up.log" || fail "no live update: $(cat "$TMP/up.log")"
$CALVIN down $C || fail "calvin down failed"
assert_clean $C

# 3. Second deployment, same key file: fresh keys.
$CALVIN up "$SPEC" || fail "calvin up failed"
rnd2=$(cat /run/calvin/$C.d/deploy-random)
[ "$rnd1" != "$rnd2" ] || fail "the same deployment random twice"
# replayed from the first deployment before anything was sent in this one
wait_stable now dec_counts
read -r bad0 spi0 fwd0 open0 <<<"$now"
inject "$first1"
wait_stable now dec_counts
read -r bad spi fwd open <<<"$now"
echo "replayed from the first deployment: bad tag $((bad - bad0))," \
	"opened $((open - open0)), forwarded $((fwd - fwd0))"
[ $((bad - bad0)) -eq 1 ] || fail "a replayed packet was not refused"
[ "$fwd" = "$fwd0" ] || fail "a replayed packet was forwarded"
probe_tapped 2 100
first2=$(first_sealed "$TMP/fwd2")
echo "first probe sealed: ${first1:0:64}... then ${first2:0:64}..."
[ -n "$first1" ] && [ -n "$first2" ] || fail "no first probe captured"
[ "${first1:0:32}" = "${first2:0:32}" ] || fail "not the same SPI and seq: ${first1:0:32} ${first2:0:32}"
[ "$first1" != "$first2" ] || fail "the same SPI, seq, ciphertext and tag in two deployments"
$CALVIN down $C || fail "calvin down failed"
assert_clean $C

# 4. direction: fwd protects only the way toward the server.
sed -i 's/^\(    direction:\) both/\1 fwd/' "$SPEC"
$CALVIN up "$SPEC" || fail "calvin up failed"
probe_tapped 3 200
echo "direction fwd: toward the server $(seen "$TMP/fwd3" dport plain) in clear," \
	"back $(seen "$TMP/rev3" sport plain) in clear"
[ "$(seen "$TMP/fwd3" dport plain)" = 0 ] || fail "plaintext toward the server"
[ "$(seen "$TMP/rev3" sport plain)" -ge 100 ] || fail "direction fwd sealed the way back"
$CALVIN down $C || fail "calvin down failed"
assert_clean $C
echo ok
