# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# `calvin plan` on a fake host (CALVIN_HOST_ROOT, no root needed): text,
# JSON, the one-line error, other chains' plan records. Then, as root, the
# plan record of a deployed chain: written by up, seen by the next plan,
# removed by down; and the plan's wait mode on calvin-vnf's command line.
. "$(dirname "$0")/lib.sh"
trap 'cleanup_chain t-plan; rm -rf "$TMP"' EXIT

# 8 CPUs, isolcpus=2, one thread per core, no cgroup cpuset.
H=$TMP/host
cpu=$H/sys/devices/system/cpu
mkdir -p "$cpu" "$H/proc/self" "$TMP/run"
echo 0-7 >"$cpu/online"
echo 2 >"$cpu/isolated"
for c in 0 1 2 3 4 5 6 7; do
	mkdir -p "$cpu/cpu$c/topology"
	echo $c >"$cpu/cpu$c/topology/thread_siblings_list"
done
printf 'Name:\tcalvin\nCpus_allowed_list:\t0-1,3-7\n' >"$H/proc/self/status"
echo '0::/' >"$H/proc/self/cgroup"
: >"$H/proc/self/mountinfo"
plan() { CALVIN_HOST_ROOT=$H CALVIN_RUN_DIR=$TMP/run $CALVIN "$@"; }

# tactile-nc (two user VNFs) with placement isolated: CPU 2 is used
SPEC=$(spec_copy chains/tactile-nc.yaml t-plan)
sed -i 's/^placement: .*/placement: isolated/' "$SPEC"
plan plan "$SPEC" >"$TMP/out" || fail "calvin plan failed: $(cat "$TMP/out")"
cat "$TMP/out"
expect() { grep -qF -- "$1" "$TMP/out" || fail "missing '$1'"; }
expect "  enc              user   cpu 2, owns it, isolated now, wait busy"
expect "  dec              user   cpu 7, owns it, not isolated, wait busy"
expect "degraded from isolated to dedicated: no isolated core left (isolated: 2)"
expect "housekeeping (probe, controller, emulator threads): cpu 0-1,3-6; IRQs stay where they are"
plan -j plan "$SPEC" >"$TMP/out" || fail "calvin -j plan failed"
expect '{"name":"enc","space":"user","cpu":2,"owns":true,"isolation":"now","wait":"busy"'
expect '"housekeeping":[0,1,3,4,5,6]'

# another chain holds CPU 7: dec gets 6
printf 'housekeeping 0\nvnf x 7 owns\n' >"$TMP/run/other.plan"
plan -j plan "$SPEC" >"$TMP/out" || fail "calvin -j plan failed"
expect '{"name":"dec","space":"user","cpu":6,'
expect '"held":[{"chain":"other","vnf":"x","cpu":7,"kind":"owns","isolated":false}]'
rm "$TMP/run/other.plan"

# without allow-sharing: one line, exit 2
sed -i 's/^allow-sharing: .*/allow-sharing: false/' "$SPEC"
plan plan "$SPEC" >/dev/null 2>"$TMP/err"
rc=$?
[ $rc -eq 2 ] || fail "plan that cannot be met exited $rc, want 2"
[ "$(cat "$TMP/err")" = "$SPEC: placement isolated needs 2 isolated cores; 8 online, 1 isolated, 1 for housekeeping; set 'allow-sharing: true' or 'placement: shared', or isolate more CPUs (isolcpus= on the kernel command line)" ] ||
	fail "unexpected error: $(cat "$TMP/err")"
echo "ok: fake host"

require_root
require_netns_xdp
# on this host: fwd-u owns a core, housekeeping keeps another
require_cpus 2 "the rest of this test: one for fwd-u to own, one for housekeeping; the fake hosts above passed"
C=t-plan
SPEC=$(spec_copy chains/tactile-fwd.yaml $C)
planned=$($CALVIN plan "$SPEC" | sed -n 's/^housekeeping (.*): cpu \([0-9,-]*\).*/\1/p')
$CALVIN up "$SPEC" >/dev/null || fail "calvin up failed"
cat "/run/calvin/$C.plan"
grep -q '^housekeeping [0-9]' "/run/calvin/$C.plan" || fail "no housekeeping line in the record"
# plan, its record and status name the same housekeeping CPUs
recorded=$(sed -n 's/^housekeeping //p' "/run/calvin/$C.plan")
shown=$($CALVIN status $C | sed -n 's/.*; housekeeping CPUs \([0-9,-]*\) hold .*/\1/p')
shown_j=$($CALVIN -j status $C | grep -o '"housekeeping":"[0-9,-]*"' | cut -d'"' -f4)
[ -n "$planned" ] && [ "$planned" = "$recorded" ] && [ "$shown" = "$recorded" ] && [ "$shown_j" = "$recorded" ] ||
	fail "housekeeping CPUs: plan '$planned', record '$recorded', status '$shown', status -j '$shown_j'"
echo "housekeeping CPUs $shown in plan, record and status"
# what calvin exec runs is housekeeping too, off the VNF's core
ran=$($CALVIN exec $C server -- sed -n 's/^Cpus_allowed_list:\s*//p' /proc/self/status)
[ "$ran" = "$recorded" ] || fail "calvin exec ran its command on CPUs '$ran', not housekeeping's '$recorded'"
held=$(sed -n 's/^vnf fwd-u \([0-9]*\) .*/\1/p' "/run/calvin/$C.plan")
[ -n "$held" ] || fail "no line for fwd-u in the record"
# the VNF owns its core: it busy-polls
pgrep -af "calvin-vnf --chain $C " | grep -q -- "--lcore $held --wait busy " ||
	fail "fwd-u was not started with --lcore $held --wait busy: $(pgrep -af "calvin-vnf --chain $C ")"
# the next chain's plan sees the core and does not own it
$CALVIN -j plan "$(spec_copy chains/tactile-fwd.yaml t-plan2)" >"$TMP/out" || fail "second plan failed"
expect "{\"chain\":\"$C\",\"vnf\":\"fwd-u\",\"cpu\":$held,"
grep -q "\"name\":\"fwd-u\",\"space\":\"user\",\"cpu\":$held,\"owns\":true" "$TMP/out" &&
	fail "a second chain would own CPU $held too"
$CALVIN down $C || fail "calvin down failed"
assert_clean $C
echo ok
