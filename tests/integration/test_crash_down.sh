# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# `calvin down` after the controller was killed half-way through `up`: at
# every journalled step (CALVIN_CRASH_AFTER=N: SIGKILL right after entry N is
# written, before its resource exists) and at random moments; down leaves no
# namespace, veth, pin, process or runtime dir, and is harmless twice.
. "$(dirname "$0")/lib.sh"
require_root
require_netns_xdp
C=t-crash
SPEC=$(spec_copy chains/tactile-fwd.yaml $C)
trap 'cleanup_chain $C; rm -rf "$TMP"' EXIT
dispatchers() { ls -d /sys/fs/bpf/xdp/dispatch-* 2>/dev/null | wc -l; }
before=$(dispatchers)

# How many entries a full deployment journals.
$CALVIN up "$SPEC" >/dev/null || fail "calvin up failed"
steps=$(wc -l <"/run/calvin/$C.state")
$CALVIN down $C || fail "calvin down failed"
assert_clean $C
echo "a deployment journals $steps entries"

for n in $(seq 1 "$steps"); do
	CALVIN_CRASH_AFTER=$n $CALVIN up "$SPEC" >/dev/null 2>&1
	rc=$?
	[ $rc -eq 137 ] || fail "up with CALVIN_CRASH_AFTER=$n exited $rc, want 137 (SIGKILL)"
	$CALVIN down $C || fail "down after a crash at step $n failed"
	$CALVIN down $C || fail "second down after a crash at step $n failed"
	assert_clean $C
done
echo "crash at each of $steps steps: clean"

# Killed from outside at arbitrary moments.
for delay in 0.05 0.2 0.4 0.7 1.0 1.5; do
	$CALVIN up "$SPEC" >/dev/null 2>&1 &
	pid=$!
	sleep $delay
	kill -9 $pid 2>/dev/null
	wait $pid 2>/dev/null
	$CALVIN down $C || fail "down after kill at ${delay}s failed"
	assert_clean $C
done
echo "kill -9 at 6 moments: clean"
after=$(dispatchers)
[ "$after" -le "$before" ] || fail "libxdp dispatcher pins left: $before before, $after after"
echo ok
