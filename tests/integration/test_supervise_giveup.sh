# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# A VNF that dies at once on every start: the supervisor tries as often
# as the chain file's supervise: section allows (3 starts within 20 s,
# backoff 200ms..400ms here), then gives up with one vnf-failed event
# naming that limit and marks the VNF failed; no fork storm (3 starts, no
# more, over the backoff). The VNF is made to die by holding its DPDK
# runtime's config lock, as a second primary process would (its EAL
# refuses to start); up attaches the supervisor to a chain whose VNF is
# already gone, which it restarts. Before that, `up` of the chain with
# new limits replaces the supervisor and leaves the VNFs alone.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/sup_lib.sh"
require_root
require_netns_xdp
command -v perl >/dev/null || skip "perl is not installed (it holds a POSIX lock here)"
C=t-supg
SPEC=$(spec_copy chains/tactile-fwd.yaml $C)
trap '[ -n "${LOCKER:-}" ] && kill $LOCKER; cleanup_chain $C; rm -rf "$TMP"' EXIT

$CALVIN up "$SPEC" >/dev/null || fail "calvin up failed"
probes_pass $C 200
# new limits on the running chain: a new supervisor, the same VNF
sup1=$(sup_pid $C)
vnf1=$(vnf_pid $C fwd-u)
printf 'supervise:\n  restarts: 3\n  within: 20s\n  backoff: 200ms..400ms\n' >>"$SPEC"
$CALVIN up "$SPEC" >"$TMP/up" || fail "up with new limits failed: $(cat "$TMP/up")"
grep -q "restart limits" "$TMP/up" && grep -q "a new supervisor watches it" "$TMP/up" ||
	fail "up with new limits said: $(cat "$TMP/up")"
wait_until "the new supervisor" eval '[ -n "$(sup_pid $C)" ]'
[ "$(sup_pid $C)" != "$sup1" ] || fail "the supervisor was not replaced"
alive "$sup1" && fail "the old supervisor still runs"
[ "$(vnf_pid $C fwd-u)" = "$vnf1" ] || fail "a new supervisor restarted fwd-u"
probes_pass $C 200
kill -KILL "$(sup_pid $C)"
PID=$(vnf_pid $C fwd-u)
kill -KILL "$PID"
wait_until "fwd-u gone" eval "! alive $PID"
dpdk_lock_hold $C fwd-u
t0=$SECONDS
$CALVIN up "$SPEC" >"$TMP/up" || fail "up (attach) failed: $(cat "$TMP/up")"
wait_until "fwd-u failed" sup_state_is $C fwd-u failed
took=$((SECONDS - t0))
starts=$(events_of $C vnf-start-failed)
echo "gave up after $starts failed starts in about $took s: $(grep vnf-failed /run/calvin/$C.d/events.jsonl)"
[ "$(events_of $C vnf-failed)" = 1 ] || fail "vnf-failed events: $(events_of $C vnf-failed)"
[ "$starts" = 3 ] || fail "$starts starts, want 3"
grep -q '"kind":"vnf-failed",.*"reason":"3 starts within 20 s"' /run/calvin/$C.d/events.jsonl ||
	fail "the give-up event does not name the limit: $(grep vnf-failed /run/calvin/$C.d/events.jsonl)"
sleep 2 # nothing more may happen once it gave up
[ "$(events_of $C vnf-start-failed)" = 3 ] && [ "$(events_of $C vnf-failed)" = 1 ] ||
	fail "the supervisor went on after giving up: $(cat /run/calvin/$C.d/events.jsonl)"
$CALVIN status $C | grep -Eq "^  supervised fwd-u +failed " || fail "status: $($CALVIN status $C)"
kill $LOCKER
LOCKER=
$CALVIN down $C || fail "calvin down failed"
assert_clean $C
echo ok
