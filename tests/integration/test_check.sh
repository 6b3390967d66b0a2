# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# --check: a chain that misses its budget exits 3 (distinct from failing to
# measure), one within it exits 0; without --check the verdict is only
# printed. Budgets of 1 ns and 10 s make the outcome certain on any host.
. "$(dirname "$0")/lib.sh"
require_root
require_netns_xdp
C=t-check
SPEC=$(spec_copy chains/tactile-fwd.yaml $C)
trap 'cleanup_chain $C; rm -rf "$TMP"' EXIT

sed 's/^budget: .*/budget: 1ns/' "$SPEC" >"$TMP/tight.yaml"
$CALVIN run --check -c 20 "$TMP/tight.yaml" >"$TMP/out" 2>&1
rc=$?
[ $rc -eq 3 ] || fail "over budget with --check exited $rc, want 3: $(tail -2 "$TMP/out")"
grep -q "verdict: over budget" "$TMP/out" || fail "no over-budget verdict printed"
assert_clean $C
$CALVIN run -c 20 "$TMP/tight.yaml" >/dev/null 2>&1 || fail "without --check, over budget is not an error"
sed 's/^budget: .*/budget: 10s/' "$SPEC" >"$TMP/loose.yaml"
$CALVIN run --check -c 20 "$TMP/loose.yaml" >"$TMP/out" 2>&1 || fail "within budget with --check failed: $(tail -2 "$TMP/out")"
assert_clean $C
echo ok
