# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# `calvin up --no-supervise`: for whoever stops VNFs on purpose (a
# benchmark that runs another forwarder on the same ports). No supervisor
# runs; the journal says the chain is unsupervised and status says why;
# a VNF killed stays dead. A later `up` of the same file without the flag
# attaches a supervisor, which restarts the dead VNF; `up --no-supervise`
# of a supervised chain stops its supervisor (and its monitor).
# `up --monitor --no-supervise` is refused (nobody would start the
# monitor); a chain file's monitor: section with --no-supervise is said
# not to run.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/sup_lib.sh"
require_root
require_netns_xdp
C=t-supoff
RUN=${CALVIN_RUN_DIR:-/run/calvin}
SPEC=$(spec_copy chains/tactile-fwd.yaml $C)
trap 'cleanup_chain $C; rm -rf "$TMP"' EXIT

# 0. --monitor needs the supervisor that runs it: refused before anything is made
expect_bad "monitor asks the chain's supervisor .*--no-supervise runs none" \
	$CALVIN up --monitor --no-supervise "$SPEC"
[ ! -e $RUN/$C.state ] && ! ip netns list | grep -q "^calvin-$C\." ||
	fail "up --monitor --no-supervise left the chain half made"

# 1. deployed unsupervised
$CALVIN up --no-supervise "$SPEC" >"$TMP/up" 2>&1 || fail "up --no-supervise: $(cat "$TMP/up")"
[ -z "$(sup_pid $C)" ] || fail "a supervisor runs after up --no-supervise"
grep -Eq "^supervisor $C 0 [0-9]+$" $RUN/$C.state || fail "not journalled as unsupervised: $(cat $RUN/$C.state)"
$CALVIN status $C >"$TMP/st"
grep -q "^  unsupervised: brought up with --no-supervise" "$TMP/st" || fail "status: $(cat "$TMP/st")"
[ "$($CALVIN -j status $C | json_get 0.supervisor.supervised)" = false ] || fail "-j status: supervised"
probes_pass $C 200

# 2. a VNF killed stays dead: nobody watches
OLD=$(vnf_pid $C fwd-u)
kill -KILL "$OLD"
dead() { ! alive "$OLD"; }
wait_until "fwd-u is gone" dead
[ -z "$(vnf_pid $C fwd-u)" ] && [ -z "$(sup_pid $C)" ] || fail "something restarted fwd-u"

# 3. up without the flag attaches a supervisor, which restarts fwd-u
$CALVIN up "$SPEC" >"$TMP/up" 2>&1 || fail "up: $(cat "$TMP/up")"
grep -q "a new supervisor watches it" "$TMP/up" || fail "up did not attach a supervisor: $(cat "$TMP/up")"
[ -n "$(sup_pid $C)" ] || fail "no supervisor after up"
restarted() { [ -n "$(vnf_pid $C fwd-u)" ] && sup_state_is $C fwd-u running; }
wait_until "the new supervisor restarts fwd-u" restarted
probes_pass $C 200

# 4. up --no-supervise of a supervised chain (with its monitor) stops the supervisor
$CALVIN up --monitor "$SPEC" >"$TMP/up" 2>&1 || fail "up --monitor: $(cat "$TMP/up")"
has_mon() { pgrep -f "calvin monitor $C\$" >/dev/null; }
wait_until "the supervisor's monitor runs" has_mon
SUP=$(sup_pid $C)
VNF=$(vnf_pid $C fwd-u)
$CALVIN up --no-supervise "$SPEC" >"$TMP/up" 2>&1 || fail "up --no-supervise: $(cat "$TMP/up")"
grep -q "its supervisor is stopped" "$TMP/up" || fail "up --no-supervise said: $(cat "$TMP/up")"
! alive "$SUP" || fail "the supervisor $SUP still runs"
! has_mon || fail "the monitor outlived its supervisor"
[ "$(vnf_pid $C fwd-u)" = "$VNF" ] || fail "the data path was touched"
$CALVIN status $C | grep -q "^  unsupervised: brought up with --no-supervise" || fail "status: $($CALVIN status $C)"
probes_pass $C 200
$CALVIN down $C >/dev/null 2>&1 || fail "down failed"
assert_clean $C

# 5. a monitor: section, --no-supervise: up says it does not run
printf 'monitor:\n  rate: 10\n' >>"$SPEC"
$CALVIN up --no-supervise "$SPEC" >"$TMP/up" 2>&1 || fail "up --no-supervise: $(cat "$TMP/up")"
grep -q "^chain $C: its monitor: section is not run" "$TMP/up" || fail "up did not say the monitor does not run: $(cat "$TMP/up")"
has_mon && fail "a monitor runs"
$CALVIN down $C >/dev/null 2>&1 || fail "down failed"
assert_clean $C
echo ok
