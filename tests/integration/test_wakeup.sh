# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# User VNFs that share a core wait in the kernel instead of busy-polling
# (calvin-vnf --wait wakeup): tactile-crypt with its two DPDK VNFs on one
# core (as calvin plans it on a host of 2 or 3 CPUs; placement shared
# elsewhere) runs both with --wait wakeup at real-time priority, they use
# next to no CPU while no traffic flows (two busy-pollers on one core use
# all of it), probes pass intact, under a flood neither starves the other
# (the decryptor opens at least 80% of what the encryptor sealed; 45 to 57%
# when the first never yields the core), and a sleeping VNF leaves on
# SIGTERM.
# Then tactile-nc the same way: an encoder asleep still flushes a partial
# generation at its deadline (one probe, then the repairs, unprompted).
# No latency assertions: bench/sharing.sh measures that.
. "$(dirname "$0")/lib.sh"
require_root
require_netns_xdp
command -v sockperf >/dev/null || skip "sockperf is not installed (make deps installs it)"
HZ=$(getconf CLK_TCK)
trap 'cleanup_chain t-wake; cleanup_chain t-wake-nc; rm -rf "$TMP"' EXIT

# A copy of the spec whose user VNFs share a core.
shared_spec() { # FILE NAME
	local spec
	spec=$(spec_copy "$1" "$2")
	$CALVIN plan "$spec" | grep -q "sharing cores" || sed -i 's/^placement: .*/placement: shared/' "$spec"
	echo "$spec"
}

vnf_pids() { # CHAIN
	pgrep -f "calvin-vnf --chain $1 "
}

# (a) every user VNF of the chain was started with --wait wakeup, and its
# polling thread (the main one) runs SCHED_FIFO (policy 1, /proc/PID/stat
# field 41)
assert_wakeup() { # CHAIN N
	local pid n=0
	for pid in $(vnf_pids "$1"); do
		tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q -- '--wait wakeup ' ||
			fail "VNF $pid not in wakeup mode: $(tr '\0' ' ' <"/proc/$pid/cmdline")"
		[ "$(sed 's/.*) //' "/proc/$pid/stat" | cut -d' ' -f39)" = 1 ] ||
			fail "VNF $pid does not poll at real-time priority"
		n=$((n + 1))
	done
	[ "$n" = "$2" ] || fail "$n user VNFs running, want $2"
}

ticks() { # PID: utime + stime
	awk '{ print $14 + $15 }' "/proc/$1/stat"
}

C=t-wake
$CALVIN keygen "$TMP/tactile-crypt.key" >/dev/null || fail "keygen failed"
SPEC=$(shared_spec chains/tactile-crypt.yaml $C)
$CALVIN up "$SPEC" || fail "calvin up failed"
assert_wakeup $C 2

# (b) idle: CPU time of both VNFs together over 2 s without traffic (two
# busy-pollers sharing a core use all of it, whatever else runs there)
pids=$(vnf_pids $C)
t0=0
for pid in $pids; do t0=$((t0 + $(ticks "$pid"))); done
sleep 2
t1=0
for pid in $pids; do t1=$((t1 + $(ticks "$pid"))); done
pct=$(( (t1 - t0) * 100 / HZ / 2 ))
echo "user VNFs idle: $pct% of a CPU"
[ "$pct" -lt 30 ] || fail "the user VNFs use $pct% of a CPU with no traffic: they do not sleep"

# (c) probes pass intact
$CALVIN -j probe -c 1000 $C >"$TMP/p.json" || fail "probe failed"
[ "$(json_num received <"$TMP/p.json")" = 1000 ] || fail "probes lost: $(cat "$TMP/p.json")"
[ "$(json_num corrupt <"$TMP/p.json")" = 0 ] || fail "probes came back altered"
[ "$(json_num path_mismatch <"$TMP/p.json")" = 0 ] || fail "probes missed hops"
echo "1000 probes back intact"
[ "$(vnf_stat $C enc sleeps)" -gt 0 ] || fail "enc counts no sleeps: $($CALVIN status $C)"

flood_crypt_pair $C 80

# a VNF asleep in the kernel leaves on SIGTERM (10 s: liveness, not speed)
pid=$(vnf_pids $C | head -n 1)
kill -TERM "$pid"
for i in $(seq 100); do
	state=$(awk '{ print $3 }' "/proc/$pid/stat" 2>/dev/null)
	[ -z "$state" ] || [ "$state" = Z ] && break
	sleep 0.1
done
[ -z "$state" ] || [ "$state" = Z ] || fail "VNF $pid still running 10 s after SIGTERM"
$CALVIN down $C || fail "calvin down failed"
assert_clean $C

# tactile-nc: the encoder's flush deadline wakes it
C=t-wake-nc
SPEC=$(shared_spec chains/tactile-nc.yaml $C)
$CALVIN up "$SPEC" || fail "calvin up failed"
assert_wakeup $C 2
$CALVIN probe -c 1 $C >/dev/null 2>&1
# the repairs leave at the flush deadline (200 us): wait until none come
nc_counts() { echo "$(vnf_stat $C enc nc_source) $(vnf_stat $C enc nc_repair_sent)"; }
wait_stable now nc_counts
read -r src rep <<<"$now"
echo "encoder: $src source, $rep repairs sent"
[ "$src" = 1 ] || fail "encoder saw $src source packets, want 1"
[ "$rep" = 2 ] || fail "a partial generation was not flushed while the encoder slept ($rep repairs)"
$CALVIN down $C || fail "calvin down failed"
assert_clean $C
echo ok
