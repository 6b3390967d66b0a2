# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# `calvin up` of a deployed chain compares by meaning: the same file again,
# or a comment line that moves an acl's rules down, is no change (exit 0,
# "chain NAME is up and unchanged", in JSON under -j; nothing updated, the
# hit counters kept, status shows the rules' new lines); a real update says
# what it updated (-j too); a change to the server's kind,
# the probe port or a user VNF's parameters is refused in one line naming
# it. Also the command line on a live chain: options after the chain, and
# everything after `exec ... --` belonging to the command.
. "$(dirname "$0")/lib.sh"
require_root
require_netns_xdp
[ -x build/calvin-vnf ] || fail "build/calvin-vnf missing: run make first"
C=t-upd
export CALVIN_RUN_DIR=$TMP/run
SPEC=$(spec_copy chains/tactile-acl.yaml $C)
trap 'cleanup_chain $C; rm -rf "$TMP"' EXIT
rule_hits() { $CALVIN -j status $C | grep -o '"rule_hits":\[[0-9,]*\]'; }
rule1_line() { $CALVIN status $C | grep -o 'rule 1 (line [0-9]*)' | grep -o '[0-9]*)$' | tr -d ')'; }
variant() { # NAME SED-SCRIPT: a changed copy of the spec
	sed "$2" "$SPEC" >"$TMP/$1.yaml"
	cmp -s "$SPEC" "$TMP/$1.yaml" && fail "test could not write $1.yaml"
	echo "$TMP/$1.yaml"
}

$CALVIN up "$SPEC" >/dev/null || fail "calvin up failed"
$CALVIN -j probe $C -c 200 -r 2000 >"$TMP/p.json" || fail "probe failed"
[ "$(json_num received <"$TMP/p.json")" = 200 ] || fail "probes lost: $(cat "$TMP/p.json")"
hits=$(rule_hits)
line=$(rule1_line)
echo "before: $hits, rule 1 on line $line"
echo "$hits" | grep -q '\[200,' || fail "rule 1 did not count the probes: $hits"

# The same file again: up, unchanged, exit 0, one line (or one JSON document).
out=$($CALVIN up "$SPEC" 2>"$TMP/err") || fail "up of the unchanged chain exited $?: $(cat "$TMP/err")"
[ "$out" = "chain $C is up and unchanged" ] || fail "up of the unchanged chain said: $out"
[ ! -s "$TMP/err" ] || fail "up of the unchanged chain wrote to stderr: $(cat "$TMP/err")"
out=$($CALVIN -j up "$SPEC") || fail "-j up of the unchanged chain exited $?"
[ "$out" = '{"chain":"'$C'","up":true,"unchanged":true,"updated":[],"settings":false}' ] ||
	fail "-j up of the unchanged chain said: $out"
echo "same file: $out"

# A comment above the rules: the same parameters, nothing updated.
moved=$(variant moved '/^    rules:/i\    # a comment that moves the rules down a line')
out=$($CALVIN up "$moved") || fail "up of a chain changed by a comment only exited $?"
[ "$out" = "chain $C is up and unchanged" ] || fail "up after a comment said: $out"
[ "$(rule_hits)" = "$hits" ] || fail "hit counters changed: $hits -> $(rule_hits)"
[ "$(rule1_line)" = $((line + 1)) ] || fail "status shows rule 1 on line $(rule1_line), want $((line + 1))"
echo "comment added: hits kept ($(rule_hits)), rule 1 now on line $(rule1_line)"

# A real change: the budget (taken as it is), said in text and in JSON.
out=$($CALVIN up "$(variant budget 's/^budget: .*/budget: 400us/')") || fail "budget update exited $?"
[ "$out" = "chain $C: updated budget and probe defaults" ] || fail "budget update said: $out"
out=$($CALVIN -j up "$(variant budget2 's/^budget: .*/budget: 450us/')") || fail "-j budget update exited $?"
[ "$out" = '{"chain":"'$C'","up":true,"unchanged":false,"updated":[],"settings":true}' ] ||
	fail "-j budget update said: $out"

# What the running chain cannot take: refused by name, nothing changed.
expect_bad "another server kind \(deployed: echo, file: reflect\); run 'calvin down $C' first" \
	$CALVIN up "$(variant reflect 's/^  kind: echo/  kind: reflect/')"
expect_bad "another probe port \(deployed: 7357, file: 7358\)" \
	$CALVIN up "$(variant port 's/^  port: 7357/  port: 7358/')"
expect_bad "another burst of VNF fwd-u \(deployed: 1, file: 4\)" \
	$CALVIN up "$(variant burst 's/^    burst: 1 /    burst: 4 /')"
expect_bad "another placement \(deployed: pinned, file: shared\)" \
	$CALVIN up "$(variant shared 's/^placement: pinned/placement: shared/')"
[ "$(rule_hits)" = "$hits" ] || fail "a refused update changed the hit counters"
$CALVIN -j probe $C -c 100 -r 2000 >"$TMP/p.json" || fail "probe after the refusals failed"
[ "$(json_num received <"$TMP/p.json")" = 100 ] || fail "probes lost: $(cat "$TMP/p.json")"

# Options after the chain and -j after the command; exec's command keeps
# its own options, "--" included.
$CALVIN probe $C -c 20 -j | grep -q '"received": 20' || fail "calvin probe CHAIN -c 20 -j"
out=$($CALVIN exec $C probe -- echo -j -v --help -- x) || fail "calvin exec failed"
[ "$out" = "-j -v --help -- x" ] || fail "exec passed '$out' to its command"

$CALVIN down $C || fail "calvin down failed"
assert_clean $C
echo ok
