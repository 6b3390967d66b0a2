# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# calvin monitor's breaches and hook: a chain whose budget no RTT meets
# breaches every window; the breach is an event with the report's
# largest-share line, and the hook gets the event JSON on stdin, its
# arguments exactly as written (no shell). A hook that hangs is killed,
# with what it started, at its deadline. Bad monitor input: file:line:col
# and exit 2; a hook program others could change, a symbolic link, a
# non-local listen address without --allow-remote: refused, exit 2. The
# chain files have a monitor section, so the monitor is the supervisor's
# (its window lines in CHAIN.d/monitor.log); the listen checks run one by
# hand on a chain without one.
. "$(dirname "$0")/lib.sh"
require_root
command -v jq >/dev/null || skip "jq is not installed"
C=t-monhook
RUN=${CALVIN_RUN_DIR:-/run/calvin}
MON=
stop() { # PID
	[ -n "$1" ] && kill "$1" 2>/dev/null && wait "$1" 2>/dev/null
	true
}
trap 'stop "$MON"; cleanup_chain $C; rm -rf "$TMP"' EXIT

# bad input, before anything is deployed
base() { sed "s/^name: .*/name: $C/; s/^budget: .*/budget: 1ns/" chains/tactile-fwd.yaml; }
{ base; printf 'monitor:\n  window: 0.5s\n'; } >"$TMP/bad.yaml"
expect_bad "bad.yaml:[0-9]+:[0-9]+: window must be from 1s to 1h" $CALVIN validate "$TMP/bad.yaml"
{ base; printf 'monitor:\n  listen: 0.0.0.0:9357\n'; } >"$TMP/bad.yaml"
expect_bad "bad.yaml:[0-9]+:11: listen 0.0.0.0:9357 is not a loopback address" \
	$CALVIN validate "$TMP/bad.yaml"
{ base; printf 'monitor:\n  hook: "touch /tmp/x; reboot"\n'; } >"$TMP/bad.yaml"
expect_bad "bad.yaml:[0-9]+:9: hook must be a list" $CALVIN validate "$TMP/bad.yaml"
{ base; printf 'monitor:\n  hook: [sh, -c, "touch /tmp/x"]\n'; } >"$TMP/bad.yaml"
expect_bad "not an absolute path" $CALVIN validate "$TMP/bad.yaml"

require_netns_xdp
# the hook: writes its stdin and its arguments where the test reads them
HOOKS=$TMP/hooks # $TMP: root's, 0700
mkdir -m 700 "$HOOKS"
cat >"$HOOKS/record" <<EOF
#!/bin/sh
cat >"$HOOKS/event.json.tmp"
printf '%s\n' "\$@" >"$HOOKS/args"
mv "$HOOKS/event.json.tmp" "$HOOKS/event.json"
EOF
chmod 700 "$HOOKS/record"
{
	base
	printf 'monitor:\n  rate: 50\n  window: 1s\n  listen: 127.0.0.1:0\n'
	printf '  hook: [%s, "$(touch %s/pwned); x", --chain]\n' "$HOOKS/record" "$HOOKS"
} >"$TMP/c.yaml"
$CALVIN up "$TMP/c.yaml" >"$TMP/up" 2>&1 || fail "up: $(cat "$TMP/up")"
wait_until "the hook ran" test -e "$HOOKS/event.json"
jq -e --arg c $C '.kind == "breach" and .chain == $c and .breach == true and
	.p99_over_budget == true and .budget_ns == 1 and (.largest_share | test("% of the p99 RTT"))' \
	"$HOOKS/event.json" >/dev/null || fail "the hook's stdin is not the breach event: $(cat "$HOOKS/event.json")"
[ "$(sed -n 1p "$HOOKS/args")" = "\$(touch $HOOKS/pwned); x" ] || fail "the hook's argument changed: $(cat "$HOOKS/args")"
[ "$(sed -n 2p "$HOOKS/args")" = "--chain" ] || fail "the hook's second argument is missing"
[ ! -e "$HOOKS/pwned" ] || fail "a shell ran the hook's argument"
grep -q "breach (p99 over budget); largest share: " "$RUN/$C.d/monitor.log" ||
	fail "no breach line: $(cat "$RUN/$C.d/monitor.log")"
# the events: the breach, and the hook's end with its exit status
hook_logged() { grep -q '"kind":"hook".*"exit_status":0' "$RUN/$C.d/events.jsonl"; }
wait_until "the hook's end is logged" hook_logged
grep '"kind":"breach"' "$RUN/$C.d/events.jsonl" | head -1 | jq -e '.largest_share and .window >= 1' >/dev/null ||
	fail "no breach event with its largest share"

# a hook that hangs, and a child of its own: both killed at the deadline
MARK=$((RANDOM + 100000))
cat >"$HOOKS/hang" <<EOF
#!/bin/sh
sleep $MARK.5 &
sleep $MARK.25
EOF
chmod 700 "$HOOKS/hang"
{ base; printf 'monitor:\n  rate: 50\n  window: 1s\n  listen: 127.0.0.1:0\n  hook: [%s]\n  hook-timeout: 500ms\n' "$HOOKS/hang"; } >"$TMP/hang.yaml"
$CALVIN down $C >/dev/null 2>&1
$CALVIN up "$TMP/hang.yaml" >"$TMP/up" 2>&1 || fail "up: $(cat "$TMP/up")"
: >"$RUN/$C.d/events.jsonl"
killed() { grep -q '"kind":"hook".*"killed_at_deadline":true' "$RUN/$C.d/events.jsonl"; }
wait_until "the hanging hook is killed" killed
ms=$(grep '"kind":"hook"' "$RUN/$C.d/events.jsonl" | head -1 | jq .ms)
[ "$ms" -ge 450 ] && [ "$ms" -lt 3000 ] || fail "the hook was killed after $ms ms, want about 500"
gone() { ! pgrep -f "sleep $MARK" >/dev/null; }
wait_until "the hook's own child is gone too" gone

# attacks on the hook program: refused at its file:line:col, exit 2, by
# validate and up before anything is created, and by the monitor when the
# program changed after up
hook_spec() { # PROGRAM
	{ base; printf 'monitor:\n  listen: 127.0.0.1:0\n  hook: [%s]\n' "$1"; } >"$TMP/a.yaml"
}
$CALVIN down $C >/dev/null 2>&1
cp "$HOOKS/record" "$HOOKS/open"
chmod 777 "$HOOKS/open"
hook_spec "$HOOKS/open"
expect_bad "a.yaml:[0-9]+:10: hook $HOOKS/open: may be written by others" $CALVIN validate "$TMP/a.yaml"
expect_bad "a.yaml:[0-9]+:10: hook $HOOKS/open: may be written by others" $CALVIN up "$TMP/a.yaml"
assert_clean $C
ln -s /bin/true "$HOOKS/link"
hook_spec "$HOOKS/link"
expect_bad "hook $HOOKS/link: .*symbolic link" $CALVIN validate "$TMP/a.yaml"
mkdir -m 777 "$TMP/shared"
cp "$HOOKS/record" "$TMP/shared/prog"
hook_spec "$TMP/shared/prog"
expect_bad "folder $TMP/shared may be written by others" $CALVIN validate "$TMP/a.yaml"
hook_spec "$HOOKS/record"
$CALVIN up "$TMP/a.yaml" >"$TMP/up" 2>&1 || fail "up: $(cat "$TMP/up")"
chown nobody "$HOOKS/record"
expect_bad "\.yaml:[0-9]+:10: hook $HOOKS/record: the program belongs to uid" $CALVIN monitor $C

# the endpoint binds a non-local address only when asked (a chain whose
# file asks for no monitor: none runs that would hold the chain's lock)
chown root "$HOOKS/record"
$CALVIN down $C >/dev/null 2>&1
base >"$TMP/plain.yaml"
$CALVIN up "$TMP/plain.yaml" >"$TMP/up" 2>&1 || fail "up: $(cat "$TMP/up")"
expect_bad "listen 0.0.0.0:0 is not a loopback address.*--allow-remote" \
	$CALVIN monitor $C --listen 0.0.0.0:0
$CALVIN monitor $C --listen 0.0.0.0:0 --allow-remote >/dev/null 2>"$TMP/err" &
MON=$!
remote() { jq -e '.listen == "0.0.0.0:0" and .port > 0' "$RUN/$C.d/monitor.json"; }
wait_until "the monitor listens on 0.0.0.0 when allowed" remote
stop $MON
MON=
$CALVIN down $C >/dev/null 2>&1 || fail "down failed"
assert_clean $C
echo ok
