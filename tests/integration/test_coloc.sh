# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# User VNFs co-located on a core of their own ("shared loop" in `calvin
# plan`): tactile-crypt and tactile-nc pinned with allow-sharing on a host
# with one core left for VNFs put both DPDK VNFs on that core; calvin plan
# says so and why, one calvin-vnf process runs both in one polling loop
# (--wait loop) at real-time priority, probes pass intact, under a flood
# neither starves the other, tactile-nc's probes come back through its
# lossy link, status answers for each VNF, and when the process is killed
# the supervisor starts both again in one new process (a new epoch for the
# crypt pair). With shared-core: yield each VNF has a process of its own
# and they take turns (--wait yield). No latency assertions:
# bench/sharing.sh (make bench-coloc) measures that.
. "$(dirname "$0")/lib.sh"
require_root
require_netns_xdp
command -v sockperf >/dev/null || skip "sockperf is not installed (make deps installs it)"
trap 'cleanup_chain t-coloc; cleanup_chain t-coloc-y; cleanup_chain t-coloc-nc; rm -rf "$TMP"' EXIT

vnf_pids() { # CHAIN
	pgrep -f "calvin-vnf --chain $1 "
}

# The plan puts enc and dec on one core with nothing else of calvin's:
# prints that core.
shared_core() { # SPEC
	$CALVIN plan "$1" >"$TMP/plan.txt" || fail "calvin plan failed"
	sed -n 's/^  cpu \([0-9]*\) (enc, dec): shared\( loop\)\{0,1\}: VNFs and nothing else.*/\1/p' "$TMP/plan.txt"
}

# PID runs on CPU core (/proc/PID/stat field 39) at real-time priority 1
# (field 40) under SCHED_FIFO (1, field 41): its polling thread, the main
# one, switches to both when it starts polling, just after it says ready
polls_fifo() { # PID CORE
	[ "$(sed 's/.*) //' "/proc/$1/stat" | cut -d' ' -f37,38,39)" = "$2 1 1" ]
}

# every user VNF of the chain polls with --wait yield on CPU core, at
# real-time priority
assert_yield() { # CHAIN CORE
	local pid n=0
	for pid in $(vnf_pids "$1"); do
		tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q -- "--lcore $2 .*--wait yield " ||
			fail "VNF $pid not yielding on CPU $2: $(tr '\0' ' ' <"/proc/$pid/cmdline")"
		wait_until "VNF $pid polls on CPU $2 at SCHED_FIFO 1" polls_fifo "$pid" "$2"
		n=$((n + 1))
	done
	[ "$n" = 2 ] || fail "$n user VNFs running, want 2"
}

# one process runs both user VNFs of the chain, one loop on CPU core, at
# real-time priority; prints its PID
assert_loop() { # CHAIN CORE
	local pids
	pids=$(vnf_pids "$1")
	[ "$(echo "$pids" | wc -w)" = 1 ] || fail "not one process: $(pgrep -af "calvin-vnf --chain $1 ")"
	tr '\0' ' ' <"/proc/$pids/cmdline" |
		grep -q -- "--name enc .*--lcore $2 --wait loop .*--next .*--name dec .*--lcore $2 --wait loop " ||
		fail "not one loop of enc and dec on CPU $2: $(tr '\0' ' ' <"/proc/$pids/cmdline")"
	wait_until "the loop $pids polls on CPU $2 at SCHED_FIFO 1" polls_fifo "$pids" "$2"
	echo "$pids"
}

# status counts frames for each VNF of the loop, from its one process
status_each() { # CHAIN
	$CALVIN status "$1" >"$TMP/status" || fail "status failed"
	for v in enc dec; do
		grep -Eq "^  $v +user +west_pmd af_(xdp|packet) .*west_rx_packets [1-9]" "$TMP/status" ||
			fail "status has no counters of $v: $(cat "$TMP/status")"
	done
}

# COUNT probes, at least MIN back, none altered, and unless CODED none
# short of a hop (a probe the decoder rebuilt from repairs carries no hop
# records of the hops before: the coded copy of the block has them zeroed)
probe_intact() { # CHAIN COUNT MIN [CODED]
	local got
	$CALVIN -j probe -c "$2" "$1" >"$TMP/p.json" || fail "probe failed"
	got=$(json_num received <"$TMP/p.json")
	[ "$got" -ge "$3" ] || fail "probes lost: $(cat "$TMP/p.json")"
	[ "$(json_num corrupt <"$TMP/p.json")" = 0 ] || fail "probes came back altered"
	[ -n "${4:-}" ] || [ "$(json_num path_mismatch <"$TMP/p.json")" = 0 ] ||
		fail "probes missed hops"
	echo "$got of $2 probes back intact through $1"
}

C=t-coloc
$CALVIN keygen "$TMP/tactile-crypt.key" >/dev/null || fail "keygen failed"
SPEC=$(spec_copy chains/tactile-crypt.yaml $C)
CORE=$(shared_core "$SPEC")
[ -n "$CORE" ] || skip "calvin plan gives tactile-crypt's VNFs no shared core here: $(grep -A3 '^cores:' "$TMP/plan.txt" | tr '\n' ' ')"
grep -q "^  enc  *user   cpu $CORE, shares it with VNF dec, .*wait loop$" "$TMP/plan.txt" ||
	fail "calvin plan does not say enc runs in a loop on CPU $CORE: $(cat "$TMP/plan.txt")"
grep -q "^  cpu $CORE (enc, dec): shared loop: " "$TMP/plan.txt" || fail "no shared loop core: $(cat "$TMP/plan.txt")"
$CALVIN -j plan "$SPEC" | grep -q '"wait":"loop"' || fail "calvin -j plan lacks wait loop"
$CALVIN up "$SPEC" || fail "calvin up failed"
LOOP=$(assert_loop $C "$CORE")
probe_intact $C 1000 1000
status_each $C

# 80%, as test_wakeup: the loop polls enc and dec in turn, and dec opened
# 100% of what enc sealed (taking turns at real-time priority, 100% too;
# at nice -20 the fair scheduler did not alternate them: 68 to 99%)
flood_crypt_pair $C 80

# killed: the supervisor starts both again, in one process, new keys
kill -KILL "$LOOP"
restarted() {
	$CALVIN status $C >"$TMP/status" 2>&1 &&
		grep -Eq "^  supervised enc +running +restarts 1 +last exit (its loop: )?signal 9 " "$TMP/status" &&
		grep -Eq "^  supervised dec +running +restarts 1 +last exit (its loop: )?signal 9 " "$TMP/status" &&
		grep -Eq "^  supervised (enc|dec) +running +restarts 1 +last exit its loop: signal 9 " "$TMP/status"
}
wait_until "the supervisor restarts enc and dec ($(grep supervised "$TMP/status" 2>/dev/null))" restarted
grep -q '"kind":"vnf-restarted","vnf":"dec",.*"epoch":"2"' "$TMP/status" ||
	fail "dec not restarted under epoch 2: $(grep event "$TMP/status")"
NEW=$(assert_loop $C "$CORE")
[ "$NEW" != "$LOOP" ] || fail "the loop was not started again"
probe_intact $C 500 500
$CALVIN down $C || fail "calvin down failed"
assert_clean $C

# shared-core: yield: a process each, taking turns
C=t-coloc-y
SPEC=$(spec_copy chains/tactile-crypt.yaml $C)
sed -i 's/^shared-core: .*/shared-core: yield/' "$SPEC"
[ "$(shared_core "$SPEC")" = "$CORE" ] || fail "shared-core: yield moved the VNFs: $(cat "$TMP/plan.txt")"
grep -q "^  enc  *user   cpu $CORE, shares it with VNF dec, .*wait yield$" "$TMP/plan.txt" ||
	fail "calvin plan does not say enc yields on CPU $CORE: $(cat "$TMP/plan.txt")"
$CALVIN up "$SPEC" || fail "calvin up failed"
assert_yield $C "$CORE"
probe_intact $C 1000 1000
flood_crypt_pair $C 80
$CALVIN down $C || fail "calvin down failed"
assert_clean $C

# tactile-nc: coding, a lossy link between the two, the flush deadline
C=t-coloc-nc
SPEC=$(spec_copy chains/tactile-nc.yaml $C)
[ "$(shared_core "$SPEC")" = "$CORE" ] || fail "tactile-nc is not planned like tactile-crypt: $(cat "$TMP/plan.txt")"
$CALVIN up "$SPEC" || fail "calvin up failed"
assert_loop $C "$CORE" >/dev/null
# 5% of the frames are lost each way on purpose; one whose generation
# cannot be recovered is lost (rarely: a probe or two in a thousand)
probe_intact $C 1000 990 coded
status_each $C
$CALVIN down $C || fail "calvin down failed"
assert_clean $C
echo ok
