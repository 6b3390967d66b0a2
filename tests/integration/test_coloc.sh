# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# User VNFs co-located on a core of their own ("shared" in `calvin plan`):
# tactile-crypt and tactile-nc pinned with allow-sharing on a host with one
# core left for VNFs put both DPDK VNFs on that core; calvin plan says so
# and why, both poll with --wait yield at real-time priority (taking turns,
# yielding the core on an empty poll), probes pass intact, under a flood
# neither starves the other, and tactile-nc's probes come back through its
# lossy link. No latency assertions: bench/sharing.sh (make bench-coloc)
# measures that.
. "$(dirname "$0")/lib.sh"
require_root
require_netns_xdp
command -v sockperf >/dev/null || skip "sockperf is not installed (make deps installs it)"
trap 'cleanup_chain t-coloc; cleanup_chain t-coloc-nc; rm -rf "$TMP"' EXIT

vnf_pids() { # CHAIN
	pgrep -f "calvin-vnf --chain $1 "
}

# The plan puts enc and dec on one core with nothing else of calvin's:
# prints that core.
shared_core() { # SPEC
	$CALVIN plan "$1" >"$TMP/plan.txt" || fail "calvin plan failed"
	sed -n 's/^  cpu \([0-9]*\) (enc, dec): shared: VNFs and nothing else.*/\1/p' "$TMP/plan.txt"
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
grep -q "^  enc  *user   cpu $CORE, shares it with VNF dec, .*wait yield$" "$TMP/plan.txt" ||
	fail "calvin plan does not say enc yields on CPU $CORE: $(cat "$TMP/plan.txt")"
$CALVIN -j plan "$SPEC" | grep -q '"wait":"yield"' || fail "calvin -j plan lacks wait yield"
$CALVIN up "$SPEC" || fail "calvin up failed"
assert_yield $C "$CORE"
probe_intact $C 1000 1000

# 80%, as test_wakeup: at real-time priority the VNFs take turns strictly
# (every 8 polls under a flood), and dec opened 100% of what enc sealed;
# at nice -20 the fair scheduler does not alternate yielders (68 to 99%:
# the threshold had been lowered to 50% for that), and 22% when the VNFs
# yielded on empty polls only
flood_crypt_pair $C 80
$CALVIN down $C || fail "calvin down failed"
assert_clean $C

# tactile-nc: coding, a lossy link between the two, the flush deadline
C=t-coloc-nc
SPEC=$(spec_copy chains/tactile-nc.yaml $C)
[ "$(shared_core "$SPEC")" = "$CORE" ] || fail "tactile-nc is not planned like tactile-crypt: $(cat "$TMP/plan.txt")"
$CALVIN up "$SPEC" || fail "calvin up failed"
assert_yield $C "$CORE"
# 5% of the frames are lost each way on purpose; one whose generation
# cannot be recovered is lost (rarely: a probe or two in a thousand)
probe_intact $C 1000 990 coded
$CALVIN down $C || fail "calvin down failed"
assert_clean $C
echo ok
