# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# An encrypt VNF in a VM gets the traffic keys of its own SAs, never the key
# file, and never the same keys twice: the agent refuses a start without
# fresh keys and keys of an epoch it has started with, so a stop and a
# start cannot make calvin-vnf seal under a (key, nonce) pair it used. The
# wire says so: the same frames, sealed before and after a restart under
# the same SPI and the same sequence numbers, are other bytes.
. "$(dirname "$0")/lib.sh"
require_qemu
KERNEL_ARGS=$ISOLATION vm_boot

KEY=$TMP/t.key
SPEC=$TMP/t-crypt.yaml
RND=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')
build/calvin keygen "$KEY" >/dev/null || fail "keygen failed"
sed "s|key-file: tactile-crypt.key|key-file: $KEY|" chains/tactile-crypt.yaml >"$SPEC"

agent configure "$SPEC" enc 1 $WEST_PEER $EAST_PEER || fail "configure failed"
agent start 2>"$TMP/err" && fail "a crypt VNF started without keys"
grep -q "no fresh keys" "$TMP/err" || fail "unclear refusal: $(cat "$TMP/err")"
agent keys "$SPEC" enc "$KEY" "$RND" 1 || fail "keys of epoch 1 refused"
agent start || fail "start failed"
$VMWIRE $W_HOST $W_QEMU $E_HOST $WEST_MAC $EAST_PEER 10 "$TMP/epoch1" ||
	fail "frames west to east did not all come out"
agent stop || fail "stop failed"

# the restart the issue found: stop, start, and the same keys again
agent start 2>"$TMP/err" && fail "a stop and a start reused the keys"
grep -q "no fresh keys" "$TMP/err" || fail "unclear refusal: $(cat "$TMP/err")"
agent keys "$SPEC" enc "$KEY" "$RND" 1 2>"$TMP/err" && fail "keys of epoch 1 taken twice"
grep -q "epoch 1 is not after 1" "$TMP/err" || fail "unclear refusal: $(cat "$TMP/err")"
agent keys "$SPEC" enc "$KEY" "$RND" 2 || fail "keys of epoch 2 refused"
agent start || fail "restart failed"
$VMWIRE $W_HOST $W_QEMU $E_HOST $WEST_MAC $EAST_PEER 10 "$TMP/epoch2" ||
	fail "frames west to east did not all come out after the restart"

# same SPI and sequence number (the header, 16 bytes), other ciphertext
# and tag; no sealed frame of one epoch is a sealed frame of the other
paste -d' ' "$TMP/epoch1" "$TMP/epoch2" | while read -r a b; do
	[ "${a:0:32}" = "${b:0:32}" ] || fail "not the same SPI and seq: ${a:0:32} ${b:0:32}"
	[ "$a" != "$b" ] || fail "a restart sealed a frame to the same bytes: ${a:0:48}..."
done || exit 1
sort "$TMP/epoch1" "$TMP/epoch2" | uniq -d | grep -q . && fail "a sealed frame repeats"
echo "sealed before and after the restart: $(wc -l <"$TMP/epoch1") frames each," \
	"e.g. ${a:-$(head -c 48 "$TMP/epoch1")}... / $(head -c 48 "$TMP/epoch2")..."
# nothing of the long-term key or the deployment random reached the guest
grep -qi -e "$(grep -v '^#' "$KEY")" -e "$RND" "$TMP/console.log" && fail "key material in the guest's log"
grep -q "keyed 2 SAs (aes-256-gcm), epoch 2" "$TMP/console.log" ||
	echo "(the guest's console does not show calvin-vnf's lines; the wire is the check)"
agent stop || fail "stop failed"
agent shutdown >/dev/null
vm_wait_exit 60 || fail "qemu did not exit after shutdown"
echo ok
