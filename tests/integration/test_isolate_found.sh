# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# The attack: cgroups named like calvin's made before `up`. One that holds
# a task is another's: `up` refuses it in one line before anything exists,
# and it keeps its task. Empty ones `up` uses without journalling them as
# made, and `down` leaves them there, holding what they held.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/isolate_lib.sh"
require_root
require_netns_xdp
require_isolation
# cgroup v2's partition needs no housekeeping cgroup: this test is for the
# v1 cpusets both are made in (this build machine)
if [ -z "$V1" ] || grep -qw cpuset "$V2/cgroup.controllers" 2>/dev/null; then
	skip "isolation here does not use cgroup v1 cpusets"
fi
for cg in calvin-isolated calvin-housekeeping; do
	[ ! -e "$V1/$cg" ] || skip "$V1/$cg exists already (someone else's): not ours to test with"
done
C=t-iso-found
SPEC=$(spec_copy chains/tactile-isolated.yaml $C)
sleep 600 &
MARKER=$!
made=
cleanup() {
	cleanup_chain $C
	kill $MARKER 2>/dev/null
	wait $MARKER 2>/dev/null
	for cg in $made; do
		rmdir "$V1/$cg" 2>/dev/null
	done
	rm -rf "$TMP"
}
trap cleanup EXIT
mems=$(cat "$V1/cpuset.mems")
last=$(($(nproc --all) - 1))

# another's cgroup, with a task in it
mkdir "$V1/calvin-housekeeping" && made=calvin-housekeeping
echo "0-$last" >"$V1/calvin-housekeeping/cpuset.cpus"
echo "$mems" >"$V1/calvin-housekeeping/cpuset.mems"
echo $MARKER >"$V1/calvin-housekeeping/tasks"
expect_bad "cgroup $V1/calvin-housekeeping holds 1 task and 0 cgroups, and calvin did not make it" $CALVIN up "$SPEC"
assert_clean $C
$CALVIN down $C >/dev/null 2>&1
[ -d "$V1/calvin-housekeeping" ] || fail "the other cgroup was removed"
[ "$(cat "/proc/$MARKER/cpuset")" = /calvin-housekeeping ] ||
	fail "the marker task was moved to $(cat "/proc/$MARKER/cpuset")"
[ "$(cat "$V1/calvin-housekeeping/cpuset.cpus")" = "0-$last" ] || fail "the other cgroup's CPUs changed"
[ ! -e /run/calvin/isolation.host ] || fail "a refused up left a host record"
echo "another's cgroup with a task: refused, untouched"

# empty ones, with settings of their own: used, and left as they were
echo $MARKER >"$V1/tasks"
mkdir "$V1/calvin-isolated" && made="$made calvin-isolated"
echo 0 >"$V1/calvin-isolated/cpuset.cpus"
snapshot "$TMP/before"
out=$($CALVIN up "$SPEC") || fail "up beside empty cgroups of calvin's names failed"
grep "^isolation:" <<<"$out"
grep -q "^found $V1/calvin-isolated$" /run/calvin/isolation.host || fail "found cgroup not journalled as found"
grep -q "^mkdir " /run/calvin/isolation.host && fail "a cgroup that was there is journalled as made"
pid=$(awk '$1 == "proc" { print $3 }' "/run/calvin/$C.state")
[ "$(cat "/proc/$pid/cpuset")" = /calvin-isolated ] || fail "VNF is in cpuset $(cat "/proc/$pid/cpuset")"
$CALVIN down $C || fail "down failed"
assert_clean $C
for cg in calvin-isolated calvin-housekeeping; do
	[ -d "$V1/$cg" ] || fail "down removed $V1/$cg, which was there before up"
done
assert_restored "$TMP/before"
[ "$(cat "$V1/calvin-isolated/cpuset.cpus")" = 0 ] ||
	fail "calvin-isolated holds CPUs $(cat "$V1/calvin-isolated/cpuset.cpus"), not its own 0"
echo "empty cgroups of calvin's names: used, still there after down, as they were"
echo ok
