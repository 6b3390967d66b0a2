# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# Ctrl-C and SIGTERM: `calvin up` stops at several moments of a deployment
# and removes everything it made (one line, exit 130 or 143); `calvin run`
# stopped while it deploys does the same, and stopped while it probes
# prints what it measured, marked interrupted, and tears the chain down;
# `calvin probe` stopped prints its partial report. Also: the state
# directory a first `up` makes is 0700 and root's.
. "$(dirname "$0")/lib.sh"
require_root
require_netns_xdp
[ -x build/calvin-vnf ] || fail "build/calvin-vnf missing: run make first"
C=t-sig
export CALVIN_RUN_DIR=$TMP/run
SPEC=$(spec_copy chains/tactile-fwd.yaml $C)
JOURNAL=$CALVIN_RUN_DIR/$C.state
trap 'cleanup_chain $C; rm -rf "$TMP"' EXIT
# Job control: without it a script's background jobs ignore SIGINT, and
# calvin keeps a signal it was started with ignored. A runner started in
# the background hands this script SIGINT ignored already, which set -m
# does not undo: env --default-signal does, for the commands signalled.
set -m

$CALVIN up "$SPEC" >/dev/null || fail "calvin up failed"
[ "$(stat -c %a:%u "$CALVIN_RUN_DIR")" = 700:0 ] ||
	fail "state directory made with mode:owner $(stat -c %a:%u "$CALVIN_RUN_DIR"), want 700:0"
steps=$(wc -l <"$JOURNAL")
$CALVIN down $C || fail "calvin down failed"
assert_clean $C
echo "a deployment journals $steps entries"

journal_len() { if [ -f "$JOURNAL" ]; then wc -l <"$JOURNAL"; else echo 0; fi; }

# Start CMD, wait until the deployment journalled N entries (or CMD ended),
# send SIG. Sets rc; output in $TMP/out and $TMP/err.
signal_at() { # SIG N CMD...
	local sig=$1 n=$2 pid
	shift 2
	env --default-signal=INT "$@" >"$TMP/out" 2>"$TMP/err" &
	pid=$!
	while kill -0 $pid 2>/dev/null && [ "$(journal_len)" -lt "$n" ]; do sleep 0.01; done
	kill -s "$sig" $pid 2>/dev/null
	wait $pid
	rc=$?
}

# Start CMD and signal it once its probe socket is open in the probe node.
signal_probing() { # SIG CMD...
	local sig=$1 pid
	shift
	env --default-signal=INT "$@" >"$TMP/out" 2>"$TMP/err" &
	pid=$!
	wait_probing $C $pid
	kill -s "$sig" $pid
	wait $pid
	rc=$?
}

# The one line of an interrupted up, nothing left. An up that finished
# before the signal came (exit 0) is a deployed chain: taken down.
expect_rolled_back() { # WANT-RC WHAT
	if [ $rc -eq 0 ]; then
		echo "$2: up finished before the signal"
		$CALVIN down $C || fail "down after $2 failed"
		assert_clean $C
		return 1
	fi
	[ $rc -eq "$1" ] || fail "$2: exit $rc, want $1 ($(cat "$TMP/err"))"
	[ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -q "interrupted by SIG" "$TMP/err" ||
		fail "$2: want one line saying it was interrupted, got: $(cat "$TMP/err")"
	assert_clean $C
	echo "$2: $(cat "$TMP/err")"
}

interrupted=0
for n in 1 2 $((steps / 2)) $((steps - 1)) "$steps"; do
	signal_at INT "$n" $CALVIN up "$SPEC"
	expect_rolled_back 130 "SIGINT after journal entry $n" && interrupted=$((interrupted + 1))
done
signal_at TERM $((steps / 2)) $CALVIN up "$SPEC"
expect_rolled_back 143 "SIGTERM after journal entry $((steps / 2))" && interrupted=$((interrupted + 1))
[ $interrupted -gt 0 ] || fail "no up was interrupted"

# run, stopped while it deploys: the same as up.
signal_at INT "$steps" $CALVIN run "$SPEC" -c 100000
if [ $rc -ne 0 ]; then
	expect_rolled_back 130 "run, SIGINT while deploying"
else
	assert_clean $C
fi

# run, stopped while it probes: the report so far, then down.
for sig in INT TERM; do
	signal_probing $sig $CALVIN run "$SPEC" -c 100000 -r 1000
	want=$([ $sig = INT ] && echo 130 || echo 143)
	[ $rc -eq "$want" ] || fail "run, SIG$sig while probing: exit $rc, want $want ($(cat "$TMP/err"))"
	grep -q "^verdict: .*interrupted after [0-9]* of 100000 probes" "$TMP/out" ||
		fail "run, SIG$sig while probing: no partial report: $(cat "$TMP/out")"
	grep -q "interrupted; chain $C is down" "$TMP/err" ||
		fail "run, SIG$sig while probing said: $(cat "$TMP/err")"
	assert_clean $C
	echo "run, SIG$sig while probing: $(grep '^verdict' "$TMP/out")"
done

# probe, stopped: its partial report; the chain stays up.
$CALVIN up "$SPEC" >/dev/null || fail "calvin up failed"
signal_probing INT $CALVIN -j probe $C -c 100000 -r 1000
[ $rc -eq 130 ] || fail "probe, SIGINT: exit $rc, want 130 ($(cat "$TMP/err"))"
grep -q '"interrupted": true' "$TMP/out" || fail "probe, SIGINT: no partial report: $(cat "$TMP/out")"
$CALVIN -j probe $C -c 50 | grep -q '"received": 50' || fail "chain broken after an interrupted probe"
$CALVIN down $C || fail "calvin down failed"
assert_clean $C
echo ok
