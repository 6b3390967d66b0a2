# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# The supervisor heals an encrypt/decrypt pair of VMs: the VM of enc is
# destroyed; the supervisor starts it again and deploys both ends of the
# pair under a new epoch (dec keeps its VM: its agent stops its VNF and
# starts it with the new epoch's keys, never those of epoch 1 again);
# probes pass again through the sealed link; down leaves nothing.
. "$(dirname "$0")/libvirt.sh"
require_libvirt
C=t-lvsupc
KEY=$TMP/t.key
SPEC=$TMP/$C.yaml
JSONDOC=build/tests/tools/jsondoc
trap 'cleanup_chain $C' EXIT
$CALVIN keygen "$KEY" >/dev/null || fail "keygen failed"
sed -e "s/^name: .*/name: $C/" -e "s|key-file: tactile-crypt.key|key-file: $KEY|" \
	-e "s/^backend: netns/backend: libvirt\nlibvirt: {memory: 512MiB}/" \
	chains/tactile-crypt.yaml >"$SPEC"

sup_vnf() { $JSONDOC "vnfs.[name=$1].$2" <"/run/calvin/$C.d/supervisor.json" 2>/dev/null; }
restarts_are() { [ "$(sup_vnf "$1" restarts)" = "$2" ]; }
all_back() {
	$CALVIN -j probe -c 20 -r 200 $C >"$TMP/p.json" 2>/dev/null
	[ "$(json_num received <"$TMP/p.json")" = 20 ] && [ "$(json_num corrupt <"$TMP/p.json")" = 0 ]
}

$CALVIN up "$SPEC" >/dev/null || fail "calvin up failed"
ifs=$(journalled_ifs $C)
all_back || fail "probes lost before the fault"
until_ok "supervisor.json" test -s /run/calvin/$C.d/supervisor.json
dec_id=$(virsh domid calvin-$C.dec)
start=$(date +%s%N)
virsh -q destroy calvin-$C.enc >/dev/null || fail "virsh destroy failed"
until_ok "enc restarted" restarts_are enc 1
until_ok "dec restarted with its pair" restarts_are dec 1
until_ok "probes through the healed pair" all_back
echo "enc's VM destroyed: probes pass again after $((($(date +%s%N) - start) / 1000000)) ms"
[ "$(sup_vnf enc last_exit)" = "domain destroyed" ] || fail "enc: last exit $(sup_vnf enc last_exit)"
[ "$(sup_vnf dec last_exit)" = "restarted with its pair" ] || fail "dec: last exit $(sup_vnf dec last_exit)"
[ "$(cat /run/calvin/$C.d/epochs)" = 2 ] || fail "epochs: $(cat /run/calvin/$C.d/epochs)"
grep -q '"kind":"vnf-restarted".*"vnf":"dec".*"epoch":"2"' /run/calvin/$C.d/events.jsonl ||
	fail "no restart of dec under epoch 2: $(cat /run/calvin/$C.d/events.jsonl)"
for n in enc dec; do
	grep -q "keyed 2 SAs (aes-256-gcm), epoch 2" /run/calvin/$C.d/$n.console ||
		fail "$n was not keyed under epoch 2: $(tail -5 /run/calvin/$C.d/$n.console)"
done
[ "$(virsh domid calvin-$C.dec)" = "$dec_id" ] || fail "dec's VM was restarted, not only its VNF"
$CALVIN down $C || fail "calvin down failed"
assert_clean $C $ifs
echo ok
