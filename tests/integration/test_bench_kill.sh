# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# A `calvin bench` killed with SIGKILL while its stress-ng runs leaves its
# chain, its journal and stress-ng's workers; the next `calvin down --all`
# removes all of it, and so does the next `calvin bench`, each saying so
# in one line. A bench interrupted with SIGINT leaves nothing.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/bench_lib.sh"
C=t-bkill
SPEC=$(spec_copy chains/tactile-fwd.yaml $C)
pid=

# On any exit, even a failure midway: stop a bench still running, let
# calvin undo what a killed one journalled (the test's own state
# directory), then kill whatever of it is still there.
finish() {
	local p groups
	[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	groups=$(journal_groups)
	case ${CALVIN_RUN_DIR:-} in
	"$TMP"/*) $CALVIN down --all >/dev/null 2>&1 ;; # never a user's chains
	esac
	cleanup_chain $C
	for p in $(bench_procs | cut -d" " -f1) $(group_procs $groups | cut -d" " -f1); do
		kill -9 "$p" 2>/dev/null
	done
	rm -rf "$TMP"
}
trap finish EXIT

stress_running() {
	bench_procs | grep -q stress-ng
}

# Start a long bench, kill it while stress-ng runs; check what it left.
kill_during_stress() { # TAG
	$CALVIN bench pinning "$SPEC" -n 3 -c 3000 -o "$TMP/$1" >/dev/null 2>&1 &
	pid=$!
	WAIT_DEADLINE=120 wait_until "stress-ng started by the bench" stress_running
	kill -KILL $pid
	wait $pid 2>/dev/null
	pid=
	[ -e "$CALVIN_RUN_DIR/bench.journal" ] || fail "no bench journal after SIGKILL"
	grep -q "^proc [0-9]* [0-9]* stress-ng$" "$CALVIN_RUN_DIR/bench.journal" ||
		fail "stress-ng not journalled: $(cat "$CALVIN_RUN_DIR/bench.journal")"
	[ -e "$CALVIN_RUN_DIR/$C.state" ] || fail "the killed bench's chain is not up"
	GROUPS_LEFT=$(journal_groups)
	echo "left by the killed bench: $(bench_procs | tr '\n' ' ')" \
		"$(group_procs $GROUPS_LEFT | tr '\n' ' ')"
}

# Nothing of what the killed bench started is left.
groups_gone() {
	local left
	left=$(group_procs $GROUPS_LEFT)
	[ -z "$left" ] || fail "processes of the killed bench left: $left"
}

# 1. calvin down --all
kill_during_stress k1
$CALVIN down --all 2>"$TMP/err" || fail "down --all failed: $(cat "$TMP/err")"
grep -q "^calvin: a calvin bench was killed: stopped [0-9]* of its processes, took down 1 of its chains$" \
	"$TMP/err" || fail "down --all said: $(cat "$TMP/err")"
bench_clean $C
groups_gone

# 2. the next calvin bench, which then runs as usual
kill_during_stress k2
$CALVIN bench pinning "$SPEC" -n 1 -c 5 -o "$TMP/next" >/dev/null 2>"$TMP/err" ||
	fail "the next bench failed: $(cat "$TMP/err")"
grep -q "a calvin bench was killed: stopped [0-9]* of its processes, took down 1 of its chains" \
	"$TMP/err" || fail "the next bench said: $(cat "$TMP/err")"
[ -s "$TMP/next/report.md" ] || fail "the next bench wrote no report"
bench_clean $C
groups_gone

# 3. a bench that runs is not another's to clean up; Ctrl-C (SIGINT)
# while its stress-ng runs stops all of it and removes its chain
# A script's background job starts with SIGINT ignored, and so does
# everything under a runner started in the background; calvin keeps an
# ignored signal ignored, so it gets SIGINT's default back (env), as from
# a terminal.
env --default-signal=INT $CALVIN bench pinning "$SPEC" -n 1 -c 3000 -o "$TMP/run1" \
	>/dev/null 2>"$TMP/err1" &
pid=$!
WAIT_DEADLINE=120 wait_until "stress-ng started by the bench" stress_running
expect_bad "another calvin bench is running; wait for it to finish" \
	$CALVIN bench wakeup "$SPEC" -n 1 -o "$TMP/run2"
GROUPS_LEFT=$(journal_groups)
kill -INT $pid
wait $pid
rc=$?
pid=
[ $rc -eq 130 ] || fail "an interrupted bench exited $rc, want 130: $(cat "$TMP/err1")"
bench_clean $C
groups_gone
echo ok
