# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# Two kernel VNFs on one node (chains/tactile-multi.yaml: acl then router on
# node "edge"), run in order by libxdp's multi-program dispatcher. Where the
# kernel cannot load the dispatcher, `validate` says so before `up` would:
# both exit 4 (a valid chain this host cannot run, where an invalid file
# exits 2) with the same one line, and create nothing; the data path part
# then skips with that reason. Without root, `validate` cannot load the
# dispatcher and says what it left unchecked.
. "$(dirname "$0")/lib.sh"
require_root
require_netns_xdp
C=t-multi
SPEC=$(spec_copy chains/tactile-multi.yaml $C)
# without root: valid, and what could not be checked is said
pub=$(mktemp /tmp/calvin-multi.XXXXXX.yaml)
trap 'cleanup_chain $C; rm -rf "$TMP" "$pub"' EXIT
cp "$SPEC" "$pub" && chmod 644 "$pub"
out=$(setpriv --reuid=nobody --regid=nogroup --clear-groups $CALVIN validate "$pub") ||
	fail "validate without root exited $?: $out"
grep -q "is valid: .*; whether this kernel loads libxdp's dispatcher, which node 'edge' needs, is checked as root only$" <<<"$out" ||
	fail "validate without root does not say what it left unchecked: $out"

# an invalid file is invalid (2) wherever it is checked, whatever the host
sed 's/^budget: .*/budget: 350/' "$SPEC" >"$TMP/bad.yaml"
expect_bad "^$TMP/bad.yaml:[0-9]+:[0-9]+: .*budget" $CALVIN validate "$TMP/bad.yaml"

$CALVIN validate "$SPEC" >"$TMP/vout" 2>"$TMP/verr"
vrc=$?
$CALVIN up "$SPEC" 2>"$TMP/err"
rc=$?
if [ $rc = 0 ]; then
	[ $vrc = 0 ] || fail "validate exited $vrc for a chain up deploys: $(cat "$TMP/verr")"
	$CALVIN -j probe -c 500 --raw "$TMP/raw" $C >"$TMP/p.json" || fail "probe failed"
	[ "$(json_num received <"$TMP/p.json")" = 500 ] || fail "probes lost: $(cat "$TMP/p.json")"
	# fw, rt, fwd-u out; fwd-u, rt, fw back: 6 records, each VNF its own
	awk '$4 != 6 { bad++ } END { exit bad > 0 }' "$TMP/raw" || fail "not 6 hop records per probe"
	$CALVIN down $C || fail "calvin down failed"
	assert_clean $C
	echo ok
	exit 0
fi
[ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "refusal is not one line: $(cat "$TMP/err")"
grep -q "is valid, but this host cannot run it: node 'edge' (line [0-9]*) holds 2 kernel VNFs, and this kernel cannot load libxdp's multi-program dispatcher" "$TMP/err" ||
	fail "unexpected failure: $(cat "$TMP/err")"
[ $rc = 4 ] || fail "up exited $rc, want 4 (valid, but not on this host)"
[ $vrc = 4 ] || fail "validate exited $vrc where up refuses the chain, want 4: $(cat "$TMP/verr")"
[ ! -s "$TMP/vout" ] || fail "validate printed on stdout: $(cat "$TMP/vout")"
cmp -s "$TMP/err" "$TMP/verr" || fail "validate said '$(cat "$TMP/verr")', up '$(cat "$TMP/err")'"
assert_clean $C
$CALVIN run "$SPEC" >/dev/null 2>"$TMP/err"
rc=$?
[ $rc = 4 ] || fail "run exited $rc, want 4: $(cat "$TMP/err")"
assert_clean $C
skip "refused as it should be, so not run: $(cat "$TMP/err")"
