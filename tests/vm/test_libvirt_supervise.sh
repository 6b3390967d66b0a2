# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# The supervisor of a libvirt chain (one VM per VNF), with probes before
# and after each fault:
# - up starts it, journalled; it watches every VM (kernel VNFs' too);
# - `virsh destroy` of the VM of each VNF: libvirt's lifecycle event
#   wakes the supervisor, which starts the defined domain again (same
#   pinning) and deploys the VNF through its agent; probes pass again;
#   status shows the restart, "last exit domain destroyed" and the uptime;
#   the time from destroy to probes passing is printed (RUNS=N faults per
#   VNF for a figure);
# - down during a restart, and a destroy during down, leave no domain,
#   namespace, interface, process or file;
# - a VM whose domain is gone (undefined) is given up after 5 starts.
. "$(dirname "$0")/libvirt.sh"
require_libvirt
C=t-lvsup
SPEC=$(spec_copy chains/tactile-fwd-vm.yaml $C)
RUNS=${RUNS:-1}
JSONDOC=build/tests/tools/jsondoc
trap 'cleanup_chain $C' EXIT

sup_pid() { pgrep -f "calvin supervise $C\$"; }
sup_vnf() { # VNF KEY
	$JSONDOC "vnfs.[name=$1].$2" <"/run/calvin/$C.d/supervisor.json" 2>/dev/null
}
events_of() { grep -c "\"kind\":\"$1\"" "/run/calvin/$C.d/events.jsonl" 2>/dev/null; }
probes_back() { # COUNT: how many of COUNT probes came back
	$CALVIN -j probe -c "$1" -r 200 $C 2>/dev/null | json_num received
}
ms() { echo $(($(date +%s%N) / 1000000)); }
# No process of the chain's: supervisor, QEMU, calvin-vnf on the host.
no_process() {
	local p
	p=$(pgrep -af "calvin supervise $C\$|guest=calvin-$C\\.|calvin-vnf --chain $C " || true)
	[ -z "$p" ] || fail "left running after down: $p"
}
all_back() { [ "$(probes_back 20)" = 20 ]; }
state_is() { [ "$(sup_vnf "$1" state)" = "$2" ]; }
restarts_are() { [ "$(sup_vnf "$1" restarts)" = "$2" ]; }
events_are() { [ "$(events_of "$1")" = "$2" ]; }

# 1. up starts the supervisor, which watches both VMs
$CALVIN up "$SPEC" >"$TMP/up" || fail "calvin up failed"
ifs=$(journalled_ifs $C)
SUP=$(sup_pid)
[ -n "$SUP" ] || fail "no supervisor runs after up of a libvirt chain"
grep -q "^supervisor $C $SUP [0-9]*$" /run/calvin/$C.state || fail "the supervisor is not journalled"
until_ok "supervisor.json" test -s /run/calvin/$C.d/supervisor.json
for v in fwd-k fwd-u; do
	state_is $v running || fail "$v not running: $(cat /run/calvin/$C.d/supervisor.json)"
	[ "$(sup_vnf $v vm)" = "calvin-$C.$v" ] || fail "$v: no VM in the report"
done
[ "$(probes_back 100)" = 100 ] || fail "probes lost before any fault"
echo "supervisor $SUP watches the VMs of $C"

# 2. each VM destroyed RUNS times: back, configured, probes pass
times=()
for v in fwd-k fwd-u; do
	cpu=$(virsh vcpupin calvin-$C.$v | awk '$1 == "1" { print $2 }')
	for r in $(seq 1 "$RUNS"); do
		before=$(sup_vnf $v restarts)
		t0=$(ms)
		virsh -q destroy calvin-$C.$v >/dev/null || fail "virsh destroy $v failed"
		until_ok "$v restarted" restarts_are $v $((before + 1))
		until_ok "probes through the restarted $v" all_back
		t=$(($(ms) - t0))
		times+=("$t")
		echo "$v destroyed (run $r): probes pass again after $t ms"
		state_is $v running || fail "$v: $(cat /run/calvin/$C.d/supervisor.json)"
		[ "$(sup_vnf $v last_exit)" = "domain destroyed" ] ||
			fail "$v: last exit $(sup_vnf $v last_exit)"
		[ "$(virsh vcpupin calvin-$C.$v | awk '$1 == "1" { print $2 }')" = "$cpu" ] ||
			fail "$v's VM came back off its pinning (vCPU 1 on $cpu)"
	done
	$CALVIN status $C >"$TMP/st" || fail "status failed"
	grep -Eq "^  supervised $v +running +restarts $RUNS  last exit domain destroyed  uptime [0-9]+ s  vm calvin-$C.$v\$" \
		"$TMP/st" || fail "status does not show $v's restart: $(cat "$TMP/st")"
done
[ "$(events_of vnf-exited)" = $((2 * RUNS)) ] && [ "$(events_of vnf-restarted)" = $((2 * RUNS)) ] ||
	fail "events: $(cat /run/calvin/$C.d/events.jsonl)"
[ "$(sup_pid)" = "$SUP" ] || fail "the supervisor changed"
sorted=$(printf '%s\n' "${times[@]}" | sort -n)
n=${#times[@]}
echo "destroy to probes passing over $n faults: p50 $(echo "$sorted" | sed -n "$(((n + 1) / 2))p") ms, max $(echo "$sorted" | tail -n 1) ms"

# 3. down: the supervisor first, then nothing left
$CALVIN down $C || fail "calvin down failed"
assert_clean $C $ifs
no_process
echo "down after the restarts: clean"

# 4. down during a restart: the supervisor is restarting fwd-u's VM
$CALVIN up "$SPEC" >/dev/null || fail "second up failed"
until_ok "supervisor.json" test -s /run/calvin/$C.d/supervisor.json
virsh -q destroy calvin-$C.fwd-u >/dev/null || fail "virsh destroy failed"
until_ok "fwd-u found destroyed" events_are vnf-exited 1
until_ok "fwd-u restarting in the report" state_is fwd-u restarting
t0=$(ms)
$CALVIN down $C || fail "down during a restart failed"
t=$(($(ms) - t0))
assert_clean $C $ifs
no_process
echo "down during a restart: clean, in $t ms"

# 5. a VM destroyed while down runs
$CALVIN up "$SPEC" >/dev/null || fail "third up failed"
$CALVIN down $C >"$TMP/down" 2>&1 &
down=$!
virsh -q destroy calvin-$C.fwd-k >/dev/null 2>&1
wait $down || fail "down with a destroy during it failed: $(cat "$TMP/down")"
assert_clean $C $ifs
no_process
echo "destroy during down: clean"

# 6. a VM that cannot come back (its domain undefined, then destroyed):
#    the supervisor gives up after 5 starts with one event, down is clean
$CALVIN up "$SPEC" >/dev/null || fail "fourth up failed"
until_ok "supervisor.json" test -s /run/calvin/$C.d/supervisor.json
virsh -q undefine calvin-$C.fwd-u >/dev/null || fail "virsh undefine failed"
virsh -q destroy calvin-$C.fwd-u >/dev/null || fail "virsh destroy failed"
until_ok "fwd-u given up" events_are vnf-failed 1
state_is fwd-u failed || fail "fwd-u not failed: $(cat /run/calvin/$C.d/supervisor.json)"
[ "$(sup_vnf fwd-u last_exit)" = "domain undefined" ] || fail "fwd-u: last exit $(sup_vnf fwd-u last_exit)"
[ "$(events_of vnf-start-failed)" = 5 ] || fail "not 5 failed starts: $(cat /run/calvin/$C.d/events.jsonl)"
state_is fwd-k running || fail "fwd-k was touched"
$CALVIN down $C || fail "down after a give-up failed"
assert_clean $C $ifs
no_process
echo "a VM that cannot come back: given up after 5 starts, down clean"
echo ok
