# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# `calvin down` of an isolated chain after the controller was killed during
# `up`: right after each journalled step (CALVIN_CRASH_AFTER=N: SIGKILL once
# step N is written, before the change it names), and from outside at
# moments while it moves tasks and IRQs. Each time, down restores every
# setting and every thread of the host as it was, and twice is harmless.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/isolate_lib.sh"
require_root
require_netns_xdp
require_isolation
C=t-iso-crash
SPEC=$(spec_copy chains/tactile-isolated.yaml $C)
trap 'cleanup_chain $C; rm -rf "$TMP"' EXIT
snapshot "$TMP/before"

for n in $(seq 1 200); do
	# (in a subshell, so bash does not report each SIGKILL)
	(CALVIN_CRASH_AFTER=$n exec $CALVIN up "$SPEC" >/dev/null 2>&1)
	rc=$?
	$CALVIN down $C || fail "down after a crash at step $n failed"
	$CALVIN down $C || fail "second down after a crash at step $n failed"
	assert_clean $C
	assert_restored "$TMP/before"
	[ $rc -eq 0 ] && break # n is past the last step: up finished
	[ $rc -eq 137 ] || fail "up with CALVIN_CRASH_AFTER=$n exited $rc, want 137 (SIGKILL)"
done
[ $rc -eq 0 ] || fail "up never finished in 200 steps"
echo "crash after each of $((n - 1)) journalled steps: restored"

# from outside, at moments spread over an up, most of them late in it,
# where isolation happens (once the VNFs run)
t0=$(date +%s%N)
$CALVIN up "$SPEC" >/dev/null || fail "up failed"
took=$((($(date +%s%N) - t0) / 1000000))
$CALVIN down $C || fail "down failed"
during=0
for pct in 10 50 80 85 88 91 94 96 98 100; do
	delay=$(printf '%d.%03d' $((took * pct / 100 / 1000)) $((took * pct / 100 % 1000)))
	$CALVIN up "$SPEC" >/dev/null 2>&1 &
	pid=$!
	sleep $delay
	kill -9 $pid 2>/dev/null
	wait $pid 2>/dev/null
	[ -e /run/calvin/isolation.host ] && during=$((during + 1))
	$CALVIN down $C || fail "down after kill at ${delay}s failed"
	assert_clean $C
	assert_restored "$TMP/before"
done
echo "kill -9 at 10 moments of a ${took}ms up ($during with CPUs isolated or being isolated): restored"
echo ok
