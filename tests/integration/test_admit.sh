# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# calvin up --admit, admission by budget: a chain whose budget (1 us) no
# chain can meet is probed, refused with the report (the per-hop table and
# the line naming the hop or link with the largest share of the p99), taken
# down (nothing left) and exit 3; with a generous budget it is admitted and
# stays up. The probe options go with --admit only, and a chain that is
# deployed already is not admitted again (a miss would tear it down).
. "$(dirname "$0")/lib.sh"
require_root
require_netns_xdp
C=t-admit
export CALVIN_RUN_DIR=$TMP/run
trap 'cleanup_chain $C; rm -rf "$TMP"' EXIT
SPEC=$(spec_copy chains/tactile-fwd.yaml $C)

# 1. bad input: one line, exit 2, nothing created
expect_bad "calvin: -c, -r, -p and -s of 'calvin up' set the admission probe; add --admit" \
	$CALVIN up "$SPEC" -c 10
expect_bad "probe size 40 \(-s\) is too small for the 4 hop records of chain $C's 2 VNFs" \
	$CALVIN up --admit -s 40 "$SPEC"
assert_clean $C

# 2. a budget of 1 us: refused, down again, exit 3
sed -i 's/^budget: .*/budget: 1us/' "$SPEC"
$CALVIN up --admit -c 50 "$SPEC" >"$TMP/out" 2>"$TMP/err"
rc=$?
cat "$TMP/out" "$TMP/err"
[ $rc -eq 3 ] || fail "up --admit of a chain over budget exited $rc, want 3"
grep -q "^chain $C is up: " "$TMP/out" || fail "the chain never came up"
grep -q "^chain $C: 50 probes, paced at 1000/s" "$TMP/out" || fail "no admission probe of 50"
grep -q "^hop residence " "$TMP/out" && grep -q "^link " "$TMP/out" || fail "no per-hop table"
grep -Eq "^verdict: over budget: p99 RTT [0-9.]+[num]?s > 1\.00us" "$TMP/out" ||
	fail "verdict: $(grep '^verdict' "$TMP/out")"
grep -Eq "^largest share: (hop [a-z0-9-]+ \((kernel|user)\) (->|<-)|link [a-z0-9 >-]+): p99 [0-9.]+[num]?s, [0-9]+% of the p99 RTT" "$TMP/out" ||
	fail "no line names the hop or link that spent the budget"
[ "$(grep -c '^largest share: ' "$TMP/out")" -eq 1 ] || fail "more than one largest share"
tail -n 1 "$TMP/out" | grep -q "^not admitted: chain $C is down again$" ||
	fail "last line: $(tail -n 1 "$TMP/out")"
assert_clean $C
echo "refused: $(grep '^largest share' "$TMP/out")"

# 3. a generous budget: admitted, stays up
sed -i 's/^budget: .*/budget: 10s/' "$SPEC"
$CALVIN up --admit "$SPEC" >"$TMP/out" 2>"$TMP/err" ||
	fail "up --admit within budget failed: $(cat "$TMP/out" "$TMP/err")"
grep -q "^chain $C: 200 probes, paced at 1000/s" "$TMP/out" || fail "no admission probe of 200"
grep -q "^verdict: within budget" "$TMP/out" || fail "verdict: $(grep '^verdict' "$TMP/out")"
grep -q "^largest share" "$TMP/out" && fail "a chain within budget named a largest share"
tail -n 1 "$TMP/out" | grep -q "^admitted: chain $C is within its budget and stays up$" ||
	fail "last line: $(tail -n 1 "$TMP/out")"
$CALVIN status $C | grep -q "^chain $C " || fail "the admitted chain is not up"
$CALVIN probe $C -c 20 >/dev/null || fail "the admitted chain does not answer probes"

# 4. not again on a deployed chain; it stays as it is
expect_bad "chain '$C' is deployed already; --admit admits a new deployment" \
	$CALVIN up --admit "$SPEC"
$CALVIN status $C | grep -q "^chain $C " || fail "the refused --admit touched the chain"
$CALVIN down $C || fail "calvin down failed"
assert_clean $C

# 5. -j: one document, the report with the admission in it
$CALVIN -j up --admit -p -c 20 "$SPEC" >"$TMP/out" || fail "-j up --admit failed"
json_get <"$TMP/out" || fail "-j up --admit is not one JSON document: $(cat "$TMP/out")"
[ "$(json_get chain <"$TMP/out") $(json_get admitted <"$TMP/out") $(json_get up <"$TMP/out")" = \
	"$C true true" ] || fail "-j up --admit: $(cat "$TMP/out")"
[ "$(json_get probe.mode <"$TMP/out")" = ping-pong ] ||
	fail "-p did not make the admission probe ping-pong"
$CALVIN down $C || fail "calvin down failed"
assert_clean $C
echo ok
