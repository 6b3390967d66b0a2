# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# How co-located user VNFs leave their core (shared-core: yield, a process
# each, "shared" in calvin plan; the loop of shared-core: loop, the
# default, leaves it the same way): each runs, beside its polling thread at SCHED_FIFO 1, one
# process of its own (calvin-vnf --spin-for) pinned to the same core at
# SCHED_IDLE that spins while they leave it (--yield-leave early, the
# default, and spin), so the core's vCPU does not halt in those pieces; with
# --yield-leave socket it has none; calvin down leaves no such process
# behind. No latency assertions: make bench-coloc measures that (and
# tests/unit/guest/test_wakeup.c what early owes the core).
. "$(dirname "$0")/lib.sh"
require_root
require_netns_xdp
trap 'cleanup_chain t-cspin; rm -rf "$TMP"' EXIT

vnf_pids() { # CHAIN
	pgrep -f "calvin-vnf --chain $1 "
}

# threads of PID at policy POLICY (/proc/.../stat field 41: 1 SCHED_FIFO,
# 5 SCHED_IDLE) allowed on CPU core only, one line each
threads_at() { # PID POLICY CORE
	local t
	for t in /proc/"$1"/task/*; do
		[ "$(sed 's/.*) //' "$t/stat" | cut -d' ' -f39)" = "$2" ] || continue
		[ "$(sed -n 's/^Cpus_allowed_list:\s*//p' "$t/status")" = "$3" ] || continue
		echo "${t##*/}"
	done
}

# the spinning processes a VNF started
spinners() { # PID
	pgrep -P "$1" -f 'calvin-vnf --spin-for '
}

one_spinner() { # PID CORE
	local s
	s=$(spinners "$1")
	[ "$(echo "$s" | wc -w)" = 1 ] && [ "$(threads_at "$s" 5 "$2" | wc -l)" = 1 ] &&
		[ "$(threads_at "$1" 1 "$2" | wc -l)" = 1 ]
}

C=t-cspin
$CALVIN keygen "$TMP/tactile-crypt.key" >/dev/null || fail "keygen failed"
SPEC=$(spec_copy chains/tactile-crypt.yaml $C)
sed -i 's/^shared-core: .*/shared-core: yield/' "$SPEC"
$CALVIN plan "$SPEC" >"$TMP/plan.txt" || fail "calvin plan failed"
CORE=$(sed -n 's/^  cpu \([0-9]*\) (enc, dec): shared: VNFs and nothing else.*/\1/p' "$TMP/plan.txt")
[ -n "$CORE" ] || skip "calvin plan gives tactile-crypt's VNFs no shared core here"

$CALVIN up "$SPEC" || fail "calvin up failed"
n=0
for pid in $(vnf_pids $C); do
	wait_until "VNF $pid polls at SCHED_FIFO and spins at SCHED_IDLE on CPU $CORE" \
		one_spinner "$pid" "$CORE"
	n=$((n + 1))
done
[ "$n" = 2 ] || fail "$n user VNFs running, want 2"
$CALVIN -j probe -c 200 $C >"$TMP/p.json" || fail "probe failed"
[ "$(json_num received <"$TMP/p.json")" = 200 ] || fail "probes lost: $(cat "$TMP/p.json")"
pids="$(vnf_pids $C) $(for pid in $(vnf_pids $C); do spinners "$pid"; done)"
$CALVIN down $C || fail "calvin down failed"
assert_clean $C
for pid in $pids; do
	wait_until "VNF or spinning process $pid ended after calvin down" \
		eval "[ ! -e /proc/$pid ]"
done

# --yield-leave socket (the leave before, a frame ends it): no spinning
# thread. calvin runs the calvin-vnf beside itself: a wrapper adds it.
mkdir -p "$TMP/lib"
ln -s "$(cd build && pwd)/kernel" "$TMP/lib/kernel"
cp build/calvin "$TMP/lib/calvin"
printf '#!/bin/sh\nexec %s/calvin-vnf "$@" --yield-leave socket\n' "$(cd build && pwd)" >"$TMP/lib/calvin-vnf"
chmod +x "$TMP/lib/calvin-vnf"
"$TMP/lib/calvin" up "$SPEC" || fail "calvin up (socket leave) failed"
for pid in $(vnf_pids $C); do
	wait_until "VNF $pid polls at SCHED_FIFO on CPU $CORE" eval \
		"[ \"\$(threads_at $pid 1 $CORE | wc -l)\" = 1 ]"
	[ -z "$(spinners "$pid")" ] || fail "VNF $pid spins with --yield-leave socket"
done
$CALVIN down $C || fail "calvin down failed"
assert_clean $C
echo ok
