# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# The reference chain end to end: up, 1000 probes, every probe back with its
# four hop records (fwd-k, fwd-u out; fwd-u, fwd-k back) in time order, down
# leaves nothing. libbpf and libxdp say nothing of their own while the XDP
# programs load (calvin prints one line of its own where one fails).
. "$(dirname "$0")/lib.sh"
require_root
require_netns_xdp
C=t-ref
SPEC=$(spec_copy chains/tactile-fwd.yaml $C)
trap 'cleanup_chain $C; rm -rf "$TMP"' EXIT

$CALVIN up "$SPEC" 2>"$TMP/up.err" || fail "calvin up failed: $(cat "$TMP/up.err")"
! grep -E '^lib(bpf|xdp):' "$TMP/up.err" || fail "calvin up let libbpf or libxdp speak"
$CALVIN -j probe -c 1000 --raw "$TMP/raw" $C >"$TMP/report.json" || fail "calvin probe failed"
cat "$TMP/report.json"

# Check the raw records independently of the probe's own accounting:
# fwd-k, fwd-u out; fwd-u, fwd-k back.
check_hops "$TMP/raw" 1000 "0/0 1/0 1/1 0/1" || fail "raw probe records"

grep -q '"verdict"' "$TMP/report.json" || fail "report has no verdict"

# the long options as the README and --help spell them: paced at a rate and
# size, then ping-pong; the report says what was asked
$CALVIN --json probe --count 50 --rate 500 --size 300 $C >"$TMP/long.json" ||
	fail "calvin --json probe --count --rate --size failed"
grep -q '"mode": *"paced"' "$TMP/long.json" && [ "$(json_num rate <"$TMP/long.json")" = 500 ] &&
	[ "$(json_num size <"$TMP/long.json")" = 300 ] && [ "$(json_num received <"$TMP/long.json")" = 50 ] ||
	fail "--count 50 --rate 500 --size 300 not what the report says: $(head -c 400 "$TMP/long.json")"
$CALVIN --json probe --ping-pong --count 30 $C >"$TMP/pp.json" || fail "calvin probe --ping-pong failed"
grep -q '"mode": *"ping-pong"' "$TMP/pp.json" && [ "$(json_num received <"$TMP/pp.json")" = 30 ] ||
	fail "--ping-pong --count 30 not what the report says: $(head -c 400 "$TMP/pp.json")"
$CALVIN status $C || fail "calvin status failed"
$CALVIN down $C || fail "calvin down failed"
assert_clean $C
$CALVIN down $C || fail "second calvin down failed"
echo ok
