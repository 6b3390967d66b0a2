# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# The supervisor of a chain (calvin supervise, started by up), with probes
# before and after each fault:
# - up starts it detached (a session of its own), journalled before it
#   runs; status shows each user VNF's state, restarts, last exit, uptime
#   and the chain's events;
# - SIGKILL of a user forward VNF: restarted on its planned core, probes
#   pass again within 2 s (the loss window counted at 1000 probes/s),
#   status says restarts 1 and last exit signal 9;
# - SIGKILL of the supervisor: status says the chain is unsupervised; up
#   of the same file attaches a new one without touching the data path
#   (the VNF's PID unchanged, no probe lost while it attaches);
# - down stops the supervisor first and leaves nothing.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/sup_lib.sh"
require_root
require_netns_xdp
C=t-sup
SPEC=$(spec_copy chains/tactile-fwd.yaml $C)
trap 'cleanup_chain $C; rm -rf "$TMP"' EXIT

# 1. started by up, journalled, detached
$CALVIN up "$SPEC" >/dev/null || fail "calvin up failed"
SUP=$(sup_pid $C)
[ -n "$SUP" ] || fail "no supervisor runs after up"
grep -q "^supervisor $C $SUP [0-9]*$" /run/calvin/$C.state ||
	fail "the supervisor is not journalled: $(cat /run/calvin/$C.state)"
[ "$(ps -o sid= -p "$SUP" | tr -d ' ')" = "$SUP" ] || fail "the supervisor has no session of its own"
[ "$(readlink /proc/$SUP/fd/0)" = /dev/null ] || fail "the supervisor's stdin is not /dev/null"
wait_until "supervisor.json" test -s /run/calvin/$C.d/supervisor.json
[ "$(sup_vnf $C fwd-u state)" = running ] || fail "fwd-u not running: $(cat /run/calvin/$C.d/supervisor.json)"
$CALVIN status $C >"$TMP/st" || fail "status failed"
grep -q "^  supervisor pid $SUP, heartbeat" "$TMP/st" || fail "status: no supervisor: $(cat "$TMP/st")"
grep -Eq "^  supervised fwd-u +running +restarts 0  last exit -  uptime [0-9]+ s" "$TMP/st" ||
	fail "status: fwd-u not shown running: $(cat "$TMP/st")"
grep -q '"kind":"supervisor-started"' "$TMP/st" || fail "status: no events: $(cat "$TMP/st")"
probes_pass $C 200
echo "supervisor $SUP watches $C"

# 2. SIGKILL of fwd-u, probes running at 1000/s
OLD=$(vnf_pid $C fwd-u)
cpu=$(awk '$1 == "vnf" && $2 == "fwd-u" { print $3 }' /run/calvin/$C.plan)
probe_start $C 4000
kill -KILL "$OLD"
probe_loss 4000
echo "SIGKILL of fwd-u: $LOST probes lost, longest loss window $WINDOW ms"
[ "$WINDOW" -lt 2000 ] || fail "probes did not pass again within 2 s: lost for $WINDOW ms"
NEW=$(vnf_pid $C fwd-u)
[ -n "$NEW" ] && [ "$NEW" != "$OLD" ] || fail "fwd-u was not restarted"
[ "$(taskset -pc "$NEW" | awk '{ print $NF }')" = "$cpu" ] || fail "fwd-u restarted off its core $cpu"
grep -q "^proc calvin-$C.fwd-u $NEW " /run/calvin/$C.state || fail "the new fwd-u is not journalled"
probes_pass $C 200
[ "$(sup_vnf $C fwd-u restarts)" = 1 ] || fail "restarts: $(cat /run/calvin/$C.d/supervisor.json)"
[ "$(sup_vnf $C fwd-u last_exit)" = "signal 9" ] ||
	fail "last exit: $(cat /run/calvin/$C.d/supervisor.json)"
[ "$(events_of $C vnf-exited)" = 1 ] && [ "$(events_of $C vnf-restarted)" = 1 ] ||
	fail "events: $(cat /run/calvin/$C.d/events.jsonl)"
$CALVIN status $C | grep -Eq "^  supervised fwd-u +running +restarts 1  last exit signal 9" ||
	fail "status after the restart: $($CALVIN status $C)"

# 3. SIGKILL of the supervisor, then up attaches a new one
kill -KILL "$SUP"
wait_until "supervisor gone" eval "! alive $SUP"
$CALVIN status $C | grep -q "^  unsupervised: no supervisor runs" ||
	fail "status does not say unsupervised: $($CALVIN status $C)"
$CALVIN -j status $C | grep -q '"supervised": *false' || fail "-j status: supervised is not false"
probe_start $C 3000
$CALVIN up "$SPEC" >"$TMP/up" || fail "up of the same file failed: $(cat "$TMP/up")"
grep -q "a new supervisor watches it" "$TMP/up" || fail "up did not attach a supervisor: $(cat "$TMP/up")"
probe_loss 3000
echo "up attaching a new supervisor: $LOST probes lost"
[ "$LOST" = 0 ] || fail "the data path was touched: $LOST probes lost"
[ "$(vnf_pid $C fwd-u)" = "$NEW" ] || fail "fwd-u was restarted by the attach"
SUP2=$(sup_pid $C)
[ -n "$SUP2" ] && [ "$SUP2" != "$SUP" ] || fail "no new supervisor"
wait_until "the new supervisor's report" grep -q "\"pid\":$SUP2," /run/calvin/$C.d/supervisor.json
$CALVIN status $C | grep -q "^  supervisor pid $SUP2" || fail "status: $($CALVIN status $C)"
probes_pass $C 200

# 4. down: the supervisor first, nothing left
$CALVIN down $C || fail "calvin down failed"
alive "$SUP2" && fail "the supervisor outlived down"
assert_clean $C
echo ok
