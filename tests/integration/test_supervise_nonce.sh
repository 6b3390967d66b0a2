# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# No (key, nonce) pair twice on the wire across restarts of a crypt pair.
# A wiretap (a user forward VNF on af_packet, spec_tap) between enc and dec
# captures both directions of the encrypted link while probes pass: before
# any fault, across SIGKILL of enc, across SIGKILL of dec (each healed by
# the supervisor). tests/tools/nonce_audit (wire_audit.h) then finds each
# sealed frame's key by trial over (SPI, direction, epoch), as calvin
# derives them, and the test wants:
# - every sealed frame opened by a key of this deployment;
# - no (SPI, direction, epoch, seq), i.e. no (key, nonce), sealing two
#   different frames;
# - three epochs on the wire (up's, and one per restart), each sending
#   seq 1.. again under its own key: had a restart kept its epoch, those
#   would be repeats: the test then sets the epoch file back on purpose,
#   and the audit must find them (unit/codec/test_wire_audit too).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/sup_lib.sh"
require_root
require_netns_xdp
C=t-supw
KEY=$TMP/tactile-crypt.key
SPEC=$(spec_tap chains/tactile-crypt.yaml $C dec)
trap 'cleanup_chain $C; rm -rf "$TMP"' EXIT
$CALVIN keygen "$KEY" >/dev/null || fail "keygen failed"

# Capture both ways for SECONDS in the background (TMP/fwdN, TMP/revN).
tap_start() { # N SECONDS
	capture_start $C tap west "$2" "$TMP/fwd$1"
	CAP1=$CAPTURE_PID
	capture_start $C tap east "$2" "$TMP/rev$1"
	CAP2=$CAPTURE_PID
}

# SIGKILL VNF while probes pass and the tap captures; healed within 2 s.
kill_tapped() { # N VNF
	local old=$(vnf_pid $C $2)
	tap_start "$1" 8
	probe_start $C 3000
	kill -KILL "$old"
	probe_loss 3000
	wait $CAP1 $CAP2
	echo "SIGKILL of $2: $LOST probes lost, longest loss window $WINDOW ms"
	[ "$WINDOW" -lt 2000 ] || fail "$2: probes did not pass again within 2 s ($WINDOW ms)"
	[ -n "$(vnf_pid $C $2)" ] && [ "$(vnf_pid $C $2)" != "$old" ] || fail "$2 not restarted"
}

$CALVIN up "$SPEC" >/dev/null || fail "calvin up failed"
tap_start 1 4
probes_pass $C 500
wait $CAP1 $CAP2
kill_tapped 2 enc
kill_tapped 3 dec
epochs=$(cat /run/calvin/$C.d/epochs)
[ "$epochs" = 3 ] || fail "epochs: $epochs, want 3"

# The audit looks two epochs further than the supervisor went: a frame
# under any of them would be found, not hidden.
cat "$TMP"/fwd[123] "$TMP"/rev[123] >"$TMP/wire"
build/tests/tools/nonce_audit "$KEY" /run/calvin/$C.d/deploy-random $C $((epochs + 2)) \
	<"$TMP/wire" >"$TMP/audit" || fail "the audit failed"
cat "$TMP/audit"
read -r _ frames _ unknown _ repeats _ dups _ reused _ seen <<<"$(head -n 1 "$TMP/audit")"
[ "$frames" -ge 8000 ] || fail "too few sealed frames captured: $frames"
[ "$unknown" = 0 ] || fail "$unknown sealed frames under no key of this deployment"
[ "$repeats" = 0 ] || fail "$repeats (key, nonce) pairs sealed two different frames"
[ "$seen" = 3 ] || fail "$seen epochs on the wire, want 3"
for e in 1 2 3; do
	n=$(awk -v e=$e '$1 == "epoch" && $2 == e { print $4 }' "$TMP/audit")
	[ "${n:-0}" -ge 500 ] || fail "epoch $e sealed ${n:-0} frames captured, want 500 or more"
done
[ "$reused" -ge 1000 ] || fail "seq 1.. not sent again after the restarts ($reused): the test saw no restart"

# The audit can fail: a supervisor that lost the last epoch (its file set
# back by hand, then a new supervisor attached) restarts the pair under
# epoch 3 again, and the audit finds the reused (key, nonce) pairs.
kill -KILL "$(sup_pid $C)"
echo 2 >/run/calvin/$C.d/epochs
$CALVIN up "$SPEC" >/dev/null || fail "up (attach) failed"
kill_tapped 4 enc
cat "$TMP"/fwd[34] "$TMP"/rev[34] | build/tests/tools/nonce_audit "$KEY" \
	/run/calvin/$C.d/deploy-random $C 5 >"$TMP/audit4" || fail "the audit failed"
echo "epoch reused on purpose: $(head -n 1 "$TMP/audit4")"
read -r _ _ _ _ _ repeats _ <<<"$(head -n 1 "$TMP/audit4")"
[ "$repeats" -ge 100 ] || fail "the audit missed a reused epoch: $(cat "$TMP/audit4")"
$CALVIN down $C || fail "calvin down failed"
assert_clean $C
echo ok
