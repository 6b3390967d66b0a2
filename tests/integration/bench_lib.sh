# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# Shared by the tests of `calvin bench` (test_bench_*.sh): a state
# directory of the test's own (so a bench journal never meets a user's),
# and checks of a report directory (bench_report.sh, which the VM tests
# share). Sourced after lib.sh.
require_root
require_netns_xdp
. "$(dirname "${BASH_SOURCE[0]}")/bench_report.sh"
export CALVIN_RUN_DIR=$TMP/run
mkdir -m 700 "$CALVIN_RUN_DIR"

# Nothing of the bench left: its chain, journal and processes.
bench_clean() { # CHAIN
	local left
	assert_clean "$1"
	[ ! -e "$CALVIN_RUN_DIR/bench.journal" ] ||
		fail "the bench journal was left: $(cat "$CALVIN_RUN_DIR/bench.journal")"
	left=$(bench_procs)
	[ -z "$left" ] || fail "processes of the bench left: $left"
}

# A bench of the test's chain SPEC without a terminal: it succeeds, says
# where its report is, and prints nothing else.
bench_run() { # MODE DIR ARG...
	local mode=$1 d=$2
	shift 2
	$CALVIN bench "$mode" "$SPEC" "$@" -o "$d" >"$TMP/out" 2>"$TMP/err" ||
		fail "bench $mode failed: $(cat "$TMP/err")"
	grep -q "report in $d/report.md" "$TMP/out" || fail "no report line: $(cat "$TMP/out")"
	[ ! -s "$TMP/err" ] || fail "messages without a terminal: $(cat "$TMP/err")"
}

# calvin's run-time CPU isolation is as it was before the bench (ISO0)
isolation_restored() {
	[ "$(cat /sys/fs/cgroup/cpuset/cpuset.cpus 2>/dev/null)" = "$ISO0" ] ||
		fail "isolation not restored"
	[ ! -e "$CALVIN_RUN_DIR/isolation.host" ] || fail "the isolation record was left"
}
ISO0=$(cat /sys/fs/cgroup/cpuset/cpuset.cpus 2>/dev/null)
