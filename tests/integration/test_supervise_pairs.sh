# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# The supervisor's faults on transform pairs, with probes before and after:
# - SIGKILL of decrypt, then of encrypt: both ends restart together,
#   probes pass again within 2 s (loss window counted at 1000/s), under a
#   new epoch each time (the VNFs say which; CHAIN.d/epochs holds it);
# - SIGSTOP of encrypt for 3 s: stalled, not killed, running again after;
# - calvin down during a restart leaves nothing;
# - SIGKILL of nc-encode: both ends of the nc pair restart, probes pass.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/sup_lib.sh"
require_root
require_netns_xdp
C=t-supc
N=t-supn
SPEC=$(spec_copy chains/tactile-crypt.yaml $C)
NSPEC=$(spec_copy chains/tactile-nc.yaml $N)
sed -i 's/^    loss: 5%/    loss: 0%/' "$NSPEC" # every probe back, but for the fault's
# a process per VNF, so that one end of a pair dies alone (test_coloc
# kills the loop that runs both)
sed -i 's/^shared-core: .*/shared-core: yield/' "$SPEC" "$NSPEC"
trap 'cleanup_chain $C; cleanup_chain $N; rm -rf "$TMP"' EXIT
$CALVIN keygen "$TMP/tactile-crypt.key" >/dev/null || fail "keygen failed"

kill_heals() { # CHAIN VNF OTHER
	local old=$(vnf_pid $1 $2) other=$(vnf_pid $1 $3)
	probe_start $1 4000
	kill -KILL "$old"
	probe_loss 4000
	echo "$1: SIGKILL of $2: $LOST probes lost, longest loss window $WINDOW ms"
	[ "$WINDOW" -lt 2000 ] || fail "$2: probes did not pass again within 2 s ($WINDOW ms)"
	[ -n "$(vnf_pid $1 $2)" ] && [ "$(vnf_pid $1 $2)" != "$old" ] || fail "$2 not restarted"
	[ "$(vnf_pid $1 $3)" != "$other" ] || fail "$3, the other end of the pair, was not restarted"
	probes_pass $1 200
}

# 1. crypt pair: new epochs
$CALVIN up "$SPEC" >/dev/null || fail "calvin up failed"
probes_pass $C 200
kill_heals $C dec enc
[ "$(cat /run/calvin/$C.d/epochs)" = 2 ] || fail "epochs: $(cat /run/calvin/$C.d/epochs)"
[ "$(grep -l 'epoch 2$' /run/calvin/$C.d/enc.log /run/calvin/$C.d/dec.log | wc -l)" = 2 ] ||
	fail "not both ends keyed under epoch 2: $(cat /run/calvin/$C.d/*.log)"
kill_heals $C enc dec
[ "$(cat /run/calvin/$C.d/epochs)" = 3 ] || fail "epochs: $(cat /run/calvin/$C.d/epochs)"
grep -q '"kind":"vnf-restarted","vnf":"enc",.*"epoch":"3"' /run/calvin/$C.d/events.jsonl ||
	fail "no restart event with epoch 3: $(cat /run/calvin/$C.d/events.jsonl)"

# 2. SIGSTOP for 3 s: stalled, not killed
PID=$(vnf_pid $C enc)
restarts=$(sup_vnf $C enc restarts)
kill -STOP "$PID"
wait_until "enc stalled" sup_state_is $C enc stalled
sleep 3 # the fault itself lasts 3 s
[ "$(sup_vnf $C enc state)" = stalled ] || fail "enc: $(sup_vnf $C enc state)"
kill -CONT "$PID"
wait_until "enc running again" sup_state_is $C enc running
[ "$(vnf_pid $C enc)" = "$PID" ] && [ "$(sup_vnf $C enc restarts)" = "$restarts" ] ||
	fail "a stalled enc was killed or restarted"
[ "$(events_of $C stalled)" = 1 ] || fail "stalled events: $(events_of $C stalled)"
probes_pass $C 200
echo "SIGSTOP of enc for 3 s: stalled, not killed"

# 3. down during a restart
kill -KILL "$(vnf_pid $C dec)"
wait_until "a restart begun" grep -q '"vnf":"dec",.*"cause":"signal 9"' /run/calvin/$C.d/events.jsonl
$CALVIN down $C || fail "down during a restart failed"
assert_clean $C
echo "down during a restart: nothing left"

# 4. nc pair
$CALVIN up "$NSPEC" >/dev/null || fail "calvin up of the nc chain failed"
probes_pass $N 200
kill_heals $N enc dec
$CALVIN down $N || fail "calvin down failed"
assert_clean $N
echo ok
