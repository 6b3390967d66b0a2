# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# `calvin down` while the supervisor heals leaves nothing behind: no
# namespace, bpffs pin, DPDK runtime dir, run dir entry, process of the
# chain or supervisor (assert_clean), and the supervisor starts nothing
# after down returns.
# 1. A VNF that keeps dying (its DPDK config lock held, as in
#    test_supervise_giveup), the supervisor waiting out a 3 s backoff
#    (supervise: backoff 3s..5s): down at once.
# 2. SIGKILL of a VNF and down right after, at three delays (none, 50 ms,
#    300 ms: before, while and after the supervisor restarts it).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/sup_lib.sh"
require_root
require_netns_xdp
command -v perl >/dev/null || skip "perl is not installed (it holds a POSIX lock here)"
C=t-supd
SPEC=$(spec_copy chains/tactile-fwd.yaml $C)
printf 'supervise:\n  restarts: 10\n  within: 60s\n  backoff: 3s..5s\n' >>"$SPEC"
trap '[ -n "${LOCKER:-}" ] && kill $LOCKER; cleanup_chain $C; rm -rf "$TMP"' EXIT

# down, then nothing of the chain, and no supervisor of it starts again
down_clean() { # WHAT
	local sup=$(sup_pid $C)
	$CALVIN down $C || fail "$1: calvin down failed"
	assert_clean $C
	[ -z "$sup" ] || ! alive "$sup" || fail "$1: the supervisor outlived down"
	[ -z "$(leftovers $C)" ] || fail "$1: something came back after down: $(leftovers $C)"
	echo "$1: nothing left"
}

# 1. backoff in progress
$CALVIN up "$SPEC" >/dev/null || fail "calvin up failed"
probes_pass $C 100
kill -KILL "$(sup_pid $C)"
PID=$(vnf_pid $C fwd-u)
kill -KILL "$PID"
wait_until "fwd-u gone" eval "! alive $PID"
dpdk_lock_hold $C fwd-u
$CALVIN up "$SPEC" >"$TMP/up" || fail "up (attach) failed: $(cat "$TMP/up")"
wait_until "a failed start" eval '[ "$(events_of $C vnf-start-failed)" -ge 1 ]'
sup_state_is $C fwd-u restarting || fail "fwd-u is $(sup_vnf $C fwd-u state), not restarting"
t0=$(date +%s%N)
down_clean "down during a 3 s backoff"
echo "down took $((($(date +%s%N) - t0) / 1000000)) ms"
kill $LOCKER
LOCKER=

# 2. SIGKILL, then down at once
for delay in 0 0.05 0.3; do
	$CALVIN up "$SPEC" >/dev/null || fail "calvin up failed"
	probes_pass $C 100
	kill -KILL "$(vnf_pid $C fwd-u)"
	sleep $delay # the fault's timing against the restart, not a wait
	down_clean "SIGKILL of fwd-u, down after ${delay} s"
done
echo ok
