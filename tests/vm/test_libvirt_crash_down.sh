# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# `calvin down` after the controller was killed half-way through `up` of a
# libvirt chain (bridge links, probed once, so both kinds of link are
# used and torn down): at
# every journalled step (CALVIN_CRASH_AFTER=N: SIGKILL right after entry N
# is written, before its resource exists) down leaves no domain, tap,
# bridge, namespace or file, and is harmless twice.
. "$(dirname "$0")/libvirt.sh"
require_libvirt
C=t-lvcrash
SPEC=$(spec_copy chains/tactile-fwd-vm.yaml $C links bridge)
sed -i '/^  - name: fwd-u/,/pmd: af_xdp/d' "$SPEC"
trap 'cleanup_chain $C' EXIT

$CALVIN up "$SPEC" >/dev/null || fail "calvin up failed"
steps=$(wc -l <"/run/calvin/$C.state")
ifs=$(journalled_ifs $C)
grep -q '^bridge ' "/run/calvin/$C.state" || fail "links: bridge journalled no bridge"
# bridges carry the chain as the XDP links do
$CALVIN -j probe -c 20 -r 40 $C >"$TMP/probe.json" || fail "calvin probe failed"
[ "$(json_num received <"$TMP/probe.json")" = 20 ] || fail "probes lost over bridges: $(cat "$TMP/probe.json")"
$CALVIN down $C || fail "calvin down failed"
assert_clean $C $ifs
echo "a deployment journals $steps entries"

for n in $(seq 1 "$steps"); do
	CALVIN_CRASH_AFTER=$n $CALVIN up "$SPEC" >/dev/null 2>&1
	rc=$?
	[ $rc -eq 137 ] || fail "up with CALVIN_CRASH_AFTER=$n exited $rc, want 137 (SIGKILL)"
	$CALVIN down $C || fail "down after a crash at step $n failed"
	$CALVIN down $C || fail "second down after a crash at step $n failed"
	assert_clean $C $ifs
done
echo "crash at each of $steps steps: clean"
echo ok
