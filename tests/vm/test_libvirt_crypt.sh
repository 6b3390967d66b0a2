# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# The encrypt/decrypt pair with each VNF in a VM of its own: each VM's
# agent gets the traffic keys of its VNF's SAs from calvin (never the key
# file or the deployment random), the probes come back whole through the
# sealed link, and nothing of the long-term key or the random shows in a
# guest; down leaves nothing.
. "$(dirname "$0")/libvirt.sh"
require_libvirt
C=t-lvcrypt
KEY=$TMP/t.key
SPEC=$TMP/$C.yaml
trap 'cleanup_chain $C' EXIT
$CALVIN keygen "$KEY" >/dev/null || fail "keygen failed"
sed -e "s/^name: .*/name: $C/" -e "s|key-file: tactile-crypt.key|key-file: $KEY|" \
	-e "s/^backend: netns/backend: libvirt\nlibvirt: {memory: 512MiB}/" \
	chains/tactile-crypt.yaml >"$SPEC"

$CALVIN up "$SPEC" || fail "calvin up failed"
ifs=$(journalled_ifs $C)
$CALVIN -j probe -c 100 -r 100 $C >"$TMP/probe.json" || fail "calvin probe failed"
[ "$(json_num received <"$TMP/probe.json")" = 100 ] || fail "not every probe came back: $(cat "$TMP/probe.json")"
[ "$(json_num corrupt <"$TMP/probe.json")" = 0 ] || fail "probes came back altered"
rnd=$(cat /run/calvin/$C.d/deploy-random)
for n in enc dec; do
	console=/run/calvin/$C.d/$n.console
	grep -q "keyed 2 SAs (aes-256-gcm), epoch 1" "$console" ||
		fail "$n was not keyed through its agent: $(tail -5 "$console")"
	grep -qi -e "$(grep -v '^#' "$KEY")" -e "$rnd" "$console" && fail "key material in $n's guest"
done
$CALVIN -j status $C >"$TMP/status.json" || fail "calvin status failed"
grep -Eq '"crypt_sealed":[1-9]' "$TMP/status.json" || fail "nothing sealed: $(cat "$TMP/status.json")"
$CALVIN down $C || fail "calvin down failed"
assert_clean $C $ifs
echo ok
