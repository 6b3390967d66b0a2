# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# calvin-vnf --wait loop: two user VNFs of one core (two forwards, pinned
# with allow-sharing: both on one CPU) run in one process, one EAL, each
# VNF's ports opened in its own node's namespace (--netns), one loop. The
# chain is brought up unsupervised, its two calvin-vnf processes are
# replaced by the one, and then: every probe comes back with both VNFs'
# hop records in order, each VNF answers for its own counters on the
# telemetry socket (/calvin/stats,NAME), and after SIGTERM no XDP program
# is left on either VNF's interfaces. Bad group command lines fail with
# one line and exit 2. (calvin up starts such a process itself, by
# default: test_coloc; this chain asks for a process each, shared-core:
# yield, and the test joins them by hand.)
. "$(dirname "$0")/lib.sh"
require_root
require_netns_xdp
command -v dpdk-telemetry.py >/dev/null || skip "dpdk-telemetry.py is not installed (Debian's dpdk-dev package: make deps)"
C=t-vloop
VNF=build/calvin-vnf
SPEC=$TMP/$C.yaml
GROUP=
trap '[ -n "$GROUP" ] && kill "$GROUP" 2>/dev/null; cleanup_chain $C; rm -rf "$TMP"' EXIT
cat >"$SPEC" <<YAML
name: $C
budget: 350us
placement: pinned
allow-sharing: true
shared-core: yield
backend: netns
vnfs:
  - name: fa
    kind: forward
    space: user
  - name: fb
    kind: forward
    space: user
YAML

# 1. bad command lines: exit 2, the reason on the first line (the usage
# follows), before anything is set up
vnf_bad() { # WANT-REGEX ARGS...
	local want=$1 rc
	shift
	$VNF "$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	[ $rc -eq 2 ] || fail "calvin-vnf $* exited $rc, want 2: $(head -n 1 "$TMP/err")"
	head -n 1 "$TMP/err" | grep -Eq "^calvin-vnf: .*$want" ||
		fail "calvin-vnf $* said '$(head -n 1 "$TMP/err")', want /$want/"
	echo "ok: $(head -n 1 "$TMP/err")"
}
A="--chain $C --name fa --vnf-id 0 --lcore 0 --west west --east east --west-peer 02:00:00:00:00:01 --east-peer 02:00:00:00:00:02 --probe-port 7357"
B="--chain $C --name fb --vnf-id 1 --lcore 0 --west west --east east --west-peer 02:00:00:00:00:03 --east-peer 02:00:00:00:00:04 --probe-port 7357"
vnf_bad "several VNFs \(--next\) need --wait loop" $A --next $B
vnf_bad "one --chain and one --lcore" $A --wait loop --next ${B/--lcore 0/--lcore 1} --wait loop
vnf_bad "given twice" $A --wait loop --next ${B/--name fb/--name fa} --wait loop
vnf_bad "--next is the last argument" $A --wait loop --next
vnf_bad "--netns 'netns/x': expected an absolute path" $A --netns netns/x
vnf_bad "--wait loop needs --lcore CPU" ${A/--lcore 0/--lcore any} --wait loop
# the sharing options the README names (calvin-vnf's own, for benchmarks)
vnf_bad "--yield-window '0,0': expected PERIOD 16..100000 us" $A --wait loop --yield-window 0,0
vnf_bad "--yield-window '256,300': expected PERIOD" $A --wait loop --yield-window 256,300
vnf_bad "--yield-window '256,24x'" $A --wait loop --yield-window 256,24x
vnf_bad "--yield-window 'abc': expected PERIOD,LEAVE in us" $A --wait loop --yield-window abc
vnf_bad "--yield-sched 'rr': expected fifo or normal" $A --wait yield --yield-sched rr
vnf_bad "--yield-leave 'sleep'" $A --wait loop --yield-leave sleep
vnf_bad "--clock '256': expected a number in 0..255" $A --clock 256
vnf_bad "--clock '-1'" $A --clock -1

# 2. the chain, unsupervised; its two VNFs on one core
$CALVIN up --no-supervise "$SPEC" >"$TMP/up" 2>&1 || fail "up: $(cat "$TMP/up")"
declare -A ARGS NS
for v in fa fb; do
	pid=$(pgrep -f "calvin-vnf --chain $C --name $v ")
	[ -n "$pid" ] || fail "no calvin-vnf for $v"
	NS[$v]=/run/netns/$(ip netns identify "$pid")
	# its command line less the program and the controller's ready fd
	ARGS[$v]=$(tr '\0' '\n' <"/proc/$pid/cmdline" | tail -n +2 |
		awk '/^--ready-fd$/ { skip = 1; next } skip { skip = 0; next } { print }' | tr '\n' ' ')
	kill -TERM "$pid"
	gone() { ! kill -0 "$1" 2>/dev/null; }
	wait_until "$v stops" gone "$pid"
done
[ "$(echo "${ARGS[fa]}" | grep -o -- '--lcore [0-9]*')" = "$(echo "${ARGS[fb]}" | grep -o -- '--lcore [0-9]*')" ] ||
	skip "the plan put fa and fb on different cores: ${ARGS[fa]} / ${ARGS[fb]}"

# 3. one process for both
# shellcheck disable=SC2086 # the saved command lines are words
$VNF ${ARGS[fa]} --netns "${NS[fa]}" --wait loop --ready-fd 7 --next \
	${ARGS[fb]} --netns "${NS[fb]}" --wait loop --ready-fd 8 \
	7>"$TMP/ready.fa" 8>"$TMP/ready.fb" 2>"$TMP/group.err" &
GROUP=$!
ready() { grep -q '^ready west=' "$TMP/ready.fa" && grep -q '^ready west=' "$TMP/ready.fb"; }
wait_until "the loop says ready for fa and fb ($(cat "$TMP/group.err"))" ready
[ "$(pgrep -fc "calvin-vnf --chain $C ")" = 1 ] || fail "not one process: $(pgrep -af "calvin-vnf --chain $C ")"

# it polls as yielding VNFs do: at real-time priority (SCHED_FIFO)
cls() { [ "$(ps -o cls= -p "$GROUP" | tr -d ' ')" = FF ]; }
wait_until "the loop polls at SCHED_FIFO (it runs $(ps -o cls= -p "$GROUP"))" cls
$CALVIN probe -c 500 --raw "$TMP/raw" $C >"$TMP/probe" 2>&1 || fail "probe: $(tail -3 "$TMP/probe")"
check_hops "$TMP/raw" 500 "0/0 1/0 1/1 0/1" || fail "hop records through the loop"

# 4. each VNF's own counters, on the one telemetry socket (fa's file prefix)
SOCK=/var/run/dpdk/calvin-$C.fa/dpdk_telemetry.v2
tel() { printf '%s\n' "$1" | dpdk-telemetry.py -f "calvin-$C.fa" 2>/dev/null; }
for v in fa fb; do
	rx=$(tel "/calvin/stats,$v" | grep -o '"west_rx_packets": [0-9]*' | grep -o '[0-9]*$')
	name=$(tel "/calvin/info,$v" | grep -o '"name": "[a-z]*"' | cut -d'"' -f4)
	echo "$v: west_rx_packets $rx, hop records start at $(tel "/calvin/stats,$v" | grep -o '"west_t_in": "[a-z_]*"' | cut -d'"' -f4)"
	[ "$name" = "$v" ] || fail "/calvin/info,$v answered for '$name'"
	[ -n "$rx" ] && [ "$rx" -ge 500 ] || fail "$v counted $rx probes in, want >= 500"
done
[ -S "$SOCK" ] || fail "no telemetry socket $SOCK"
tel "/calvin/stats,nobody" | grep -q '"/calvin/stats": null' ||
	fail "an unknown VNF's counters: $(tel "/calvin/stats,nobody")"

# 5. SIGTERM: each VNF's ports closed in its own namespace, programs gone
kill -TERM "$GROUP"
wait "$GROUP" || fail "the loop exited $?: $(cat "$TMP/group.err")"
GROUP=
for v in fa fb; do
	for i in west east; do
		ip -n "$(basename "${NS[$v]}")" link show "$i" | grep -q 'xdp' &&
			fail "$v: an XDP program is left on $i"
	done
done
$CALVIN down $C >/dev/null 2>&1 || fail "down failed"
assert_clean $C
echo "PASS: two VNFs in one loop, hop records and counters each their own, nothing left"
