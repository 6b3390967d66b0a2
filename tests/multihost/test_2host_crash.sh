#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# The two-host chain (chains/tactile-2host.yaml) when things go wrong:
# - SIGKILL of `up` right after EVERY step it journals (CALVIN_CRASH_AFTER=K
#   for K = 1..the number of steps of a whole up with empty image pools,
#   so the uploads are among them), then `down`: nothing of the chain is
#   left on this host, on a, on b or in OVN, and every guest image left in
#   a pool is complete (has its sidecar): a half-uploaded one is removed.
# - `up` while b's libvirtd is stopped: it fails with one line naming b's
#   URI, and leaves nothing on a, in OVN or here (it undoes what it made).
# Run it under the machine lock: flock /tmp/calvin-net.lock bash tests/multihost/test_2host_crash.sh
# shellcheck disable=SC2086 # $SIM is the script with its interpreter
. "$(dirname "$0")/lib.sh"
trap 'rm -rf "$TMP"' EXIT
require_sim
C=tactile-2host
sim_chains_up --images $C

# The volumes of calvin's pool on host H (none when there is no pool).
vols() { virsh -c "$(eval echo "\$CALVIN_SIM_URI_$1")" vol-list calvin 2>/dev/null | awk 'NR > 2 && NF { print $1 }'; }
# Every volume left is a complete image: NAME has NAME.ok beside it.
images_complete() { # WHEN
	local h v
	for h in a b; do
		for v in $(vols $h); do
			case $v in *.ok) continue ;; esac
			vols $h | grep -qx "$v.ok" || fail "$1: a half-uploaded image is left on $h: $v"
		done
	done
}
# Empty both pools (the test's own cache), so the next up uploads again.
pools_empty() {
	local h v
	for h in a b; do
		for v in $(vols $h); do
			virsh -c "$(eval echo "\$CALVIN_SIM_URI_$h")" vol-delete --pool calvin "$v" >/dev/null ||
				fail "cannot delete volume $v on $h"
		done
	done
}

# --- the steps of a whole up with empty pools
$CALVIN up chains/tactile-2host.yaml >/dev/null 2>"$TMP/err" || fail "up: $(cat "$TMP/err")"
cp "$CALVIN_RUN_DIR/$C.state" "$TMP/journal"
$CALVIN down --images $C >/dev/null 2>"$TMP/err" || fail "down --images: $(cat "$TMP/err")"
chain_gone "down --images after a whole up"
[ -z "$(vols a)$(vols b)" ] || fail "down --images left volumes: $(vols a) $(vols b)"
steps=$(grep -c . "$TMP/journal")
grep -q "^lvvol " "$TMP/journal" || fail "a whole up with empty pools journalled no volume"
echo "a whole up journals $steps steps: $(awk '{ print $1 }' "$TMP/journal" | uniq -c | awk '{ printf "%s %s, ", $1, $2 }')"

for k in $(seq 1 "$steps"); do
	what=$(sed -n "${k}p" "$TMP/journal" | cut -d' ' -f1-2)
	# in a subshell: the shell that reaps the killed up says "Killed" to /dev/null
	(CALVIN_CRASH_AFTER=$k $CALVIN up chains/tactile-2host.yaml; exit $?) >/dev/null 2>&1
	rc=$?
	[ $rc -eq 137 ] || fail "up with CALVIN_CRASH_AFTER=$k ($what) was not killed: exit $rc"
	$CALVIN down $C >/dev/null 2>"$TMP/err" || fail "down after SIGKILL at step $k ($what): $(cat "$TMP/err")"
	chain_gone "down after SIGKILL at step $k ($what)"
	images_complete "down after SIGKILL at step $k ($what)"
	pools_empty
done
echo "ok: SIGKILL after each of the $steps steps, then down: nothing left, no half image"

# --- up with b's libvirtd stopped: one line, nothing left on a, in OVN, here
$SIM libvirtd b stop >/dev/null || fail "cannot stop b's libvirtd"
$CALVIN up chains/tactile-2host.yaml >"$TMP/out" 2>"$TMP/err"
rc=$?
$SIM libvirtd b start >/dev/null || fail "cannot start b's libvirtd"
[ $rc -ne 0 ] || fail "up with b's libvirtd stopped succeeded"
grep -q "$CALVIN_SIM_URI_b" "$TMP/err" || fail "up did not name b's URI: $(cat "$TMP/err")"
[ "$(grep -c '^calvin: ' "$TMP/err")" -ge 1 ] || fail "up said no calvin: line: $(cat "$TMP/err")"
echo "ok: up with b's libvirtd stopped: exit $rc, said: $(grep -m1 "$CALVIN_SIM_URI_b" "$TMP/err")"
chain_gone "up with b's libvirtd stopped"
images_complete "up with b's libvirtd stopped"
echo "ok: it left nothing here, on a or in OVN"
echo PASS
