# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# The impair VNF (chains/tactile-impair.yaml): 5% loss toward the server and
# 5% duplication on the way back, seen by the probe within binomial bounds
# (4 standard deviations), and counted by the VNFs.
. "$(dirname "$0")/lib.sh"
require_root
require_netns_xdp
C=t-impair
SPEC=$(spec_copy chains/tactile-impair.yaml $C)
trap 'cleanup_chain $C; rm -rf "$TMP"' EXIT

$CALVIN up "$SPEC" || fail "calvin up failed"
$CALVIN -j probe -c 10000 -r 5000 $C >"$TMP/p.json" || fail "probe failed"
lost=$(json_num lost <"$TMP/p.json")
dup=$(json_num duplicates <"$TMP/p.json")
echo "10000 probes: $lost lost, $dup duplicated"
# n=10000, p=0.05: mean 500, sd 21.8; duplicates apply to the ~9500 that survive
[ "$lost" -ge 413 ] && [ "$lost" -le 587 ] || fail "loss $lost is not 5% of 10000"
[ "$dup" -ge 390 ] && [ "$dup" -le 560 ] || fail "duplicates $dup are not 5% of the survivors"
$CALVIN -j status $C >"$TMP/s.json"
grep -q '"impair_loss": *[1-9]' "$TMP/s.json" || fail "loss not counted: $(cat "$TMP/s.json")"
grep -q '"impair_dup": *[1-9]' "$TMP/s.json" || fail "duplicates not counted: $(cat "$TMP/s.json")"

$CALVIN down $C || fail "calvin down failed"
assert_clean $C
echo ok
