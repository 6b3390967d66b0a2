# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# Two kernel VNFs on one node (chains/tactile-multi.yaml: acl then router on
# node "edge"), run in order by libxdp's multi-program dispatcher. Where the
# kernel cannot load the dispatcher, `up` must refuse with one clear line and
# create nothing; the data path part then skips with that reason.
. "$(dirname "$0")/lib.sh"
require_root
require_netns_xdp
C=t-multi
SPEC=$(spec_copy chains/tactile-multi.yaml $C)
trap 'cleanup_chain $C; rm -rf "$TMP"' EXIT

if $CALVIN up "$SPEC" 2>"$TMP/err"; then
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
grep -q "dispatcher" "$TMP/err" || fail "unexpected failure: $(cat "$TMP/err")"
assert_clean $C
skip "refused as it should be, so not run: $(cat "$TMP/err")"
