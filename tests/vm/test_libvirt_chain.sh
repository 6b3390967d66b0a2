# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# The libvirt backend end to end: a chain of one kernel forward VNF in a VM
# (XDP links on the host), probes through it with a hop record each way in
# the VM's own clock domain, counters through the agent, vCPU and emulator
# pinning as libvirt reports it equal to the plan, QEMU running as
# libvirt's unprivileged user, and down leaving no domain, tap, namespace
# or file behind.
. "$(dirname "$0")/libvirt.sh"
require_libvirt
C=t-lv1
SPEC=$(spec_copy chains/tactile-fwd-vm.yaml $C links xdp)
sed -i '/^  - name: fwd-u/,/pmd: af_xdp/d' "$SPEC" # one VM: fwd-k
trap 'cleanup_chain $C' EXIT

start=$(date +%s)
$CALVIN up "$SPEC" >"$TMP/up.out" 2>"$TMP/up.err" || { cat "$TMP/up.err"; fail "calvin up failed"; }
echo "up (boot included) took $(($(date +%s) - start)) s"
cat "$TMP/up.out"
grep -q '^nodes: VMs under \(KVM\|TCG\)' "$TMP/up.out" || fail "up does not say which accelerator"
ifs=$(journalled_ifs $C)
[ -n "$ifs" ] || fail "nothing journalled as host interfaces"

# Pinning, read back from libvirt: vCPU 1 on the VNF's core, vCPU 0 and
# the emulator threads on housekeeping.
plan=$($CALVIN -j plan "$SPEC")
hk=$(echo "$plan" | grep -o '"housekeeping":\[[0-9]*' | grep -o '[0-9]*$')
cpu=$(echo "$plan" | grep -o '"cpu":[0-9]*' | head -n 1 | cut -d: -f2)
pins=$(virsh vcpupin calvin-$C.fwd-k | awk '$1 ~ /^[0-9]+$/ { print $1 "=" $2 }' | paste -sd' ')
[ "$pins" = "0=$hk 1=$cpu" ] || fail "vcpupin says '$pins', the plan '0=$hk 1=$cpu'"
emu=$(virsh emulatorpin calvin-$C.fwd-k | awk '$1 == "*:" { print $2 }')
[ "$emu" = "$hk" ] || fail "emulatorpin says '$emu', the plan $hk"
echo "pinning as planned: vCPU 0 and emulator on $hk, vCPU 1 on $cpu"

# QEMU as libvirt's user (its DAC base label), not root, as up said.
uid=$(virsh capabilities | sed -n "s|.*<baselabel type='qemu'>+\([0-9]*\):.*|\1|p" | head -n 1)
[ -n "$uid" ] && [ "$uid" != 0 ] || skip "libvirt here runs QEMU as root (qemu.conf)"
qemu_pid=$(pgrep -f "^/usr/bin/qemu-system-x86_64 -name guest=calvin-$C.fwd-k,")
qemu_uid=$(ps -o uid= -p "$qemu_pid" | tr -d ' ')
[ "$qemu_uid" = "$uid" ] || fail "QEMU runs as uid '$qemu_uid', libvirt's user is $uid"
grep -q "; QEMU runs as $(id -nu "$uid")\$" "$TMP/up.out" || fail "up does not say QEMU's user"
echo "QEMU runs as $(id -nu "$uid") (uid $uid)"

$CALVIN -j probe -c 40 -r 40 $C >"$TMP/probe.json" || fail "calvin probe failed"
$CALVIN probe -c 20 -r 40 $C || fail "calvin probe (text) failed"
[ "$(json_num received <"$TMP/probe.json")" = 40 ] || fail "not every probe came back: $(cat "$TMP/probe.json")"
[ "$(json_num hop_records_min <"$TMP/probe.json")" = 2 ] || fail "a probe lacks a hop record"
grep -q '"clock": 1,' "$TMP/probe.json" || fail "the VM's hops do not carry its clock domain"
grep -q '"reason": "different clock domains: host and a VM"' "$TMP/probe.json" ||
	fail "the report does not say why probe-to-VM links are missing"
grep -q '"platform": "VMs under' "$TMP/probe.json" || fail "the report does not name the accelerator"

$CALVIN -j status $C >"$TMP/status.json" || fail "calvin status failed"
grep -q '"rx_packets":6[0-9]' "$TMP/status.json" || fail "VNF counters through the agent: $(cat "$TMP/status.json")"

$CALVIN exec $C fwd-k -- true 2>"$TMP/err" && fail "exec in a VM node succeeded"
grep -q "is a VM" "$TMP/err" || fail "exec in a VM: $(cat "$TMP/err")"

$CALVIN down $C || fail "calvin down failed"
assert_clean $C $ifs
$CALVIN down $C || fail "second down failed"
echo ok
