# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# The reference chain in VMs (chains/tactile-fwd-vm.yaml): the XDP
# forwarder in one VM, the DPDK forwarder in another, the echo server on
# the host. Probes come back with all four hop records, each VM's in its own
# clock domain; a user's sockperf goes through the same chain; status reads
# both VNFs through their agents, the DPDK VNF's process in its guest
# included; a paused VM makes status say "not answering" within its
# deadline and go on; down leaves nothing.
. "$(dirname "$0")/libvirt.sh"
require_libvirt
command -v sockperf >/dev/null || skip "sockperf is not installed (make deps installs it)"
C=t-lvref
SPEC=$(spec_copy chains/tactile-fwd-vm.yaml $C)
trap 'kill $SERVER 2>/dev/null; cleanup_chain $C' EXIT
SERVER=

$CALVIN up "$SPEC" || fail "calvin up failed"
ifs=$(journalled_ifs $C)

$CALVIN -j probe -c 100 -r 100 $C >"$TMP/probe.json" || fail "calvin probe failed"
[ "$(json_num received <"$TMP/probe.json")" = 100 ] || fail "not every probe came back: $(cat "$TMP/probe.json")"
[ "$(json_num hop_records_min <"$TMP/probe.json")" = 4 ] || fail "a probe lacks a hop record"
hop_clock() { # SPACE DIR: the clock domain of that hop of the report
	local i n
	n=$(build/tests/tools/jsondoc -n hops <"$TMP/probe.json")
	for ((i = 0; i < n; i++)); do
		[ "$(build/tests/tools/jsondoc hops.$i.space <"$TMP/probe.json")" = "$1" ] &&
			[ "$(build/tests/tools/jsondoc hops.$i.dir <"$TMP/probe.json")" = "$2" ] &&
			build/tests/tools/jsondoc hops.$i.clock <"$TMP/probe.json"
	done
}
[ "$(hop_clock user fwd)" = 2 ] || fail "fwd-u's hops do not carry its VM's clock domain"
grep -q '"reason": "different clock domains: two VMs"' "$TMP/probe.json" ||
	fail "the report does not say why the VM-to-VM link is missing"

$CALVIN exec $C server -- sockperf server -i 10.70.0.2 -p 11111 >"$TMP/server.log" 2>&1 &
SERVER=$!
for i in $(seq 50); do
	grep -q "Listen\|listen\|IP = " "$TMP/server.log" 2>/dev/null && break
	sleep 0.1
done
timeout 60 $CALVIN exec $C probe -- sockperf ping-pong -i 10.70.0.2 -p 11111 -t 3 \
	>"$TMP/client.log" 2>&1 || { cat "$TMP/client.log"; fail "sockperf ping-pong failed"; }
cat "$TMP/client.log"
grep -Eq "ReceivedMessages=[1-9]" "$TMP/client.log" || fail "sockperf received nothing"
kill $SERVER 2>/dev/null
wait $SERVER 2>/dev/null

$CALVIN -j status $C >"$TMP/status.json" || fail "calvin status failed"
grep -q '"name":"fwd-u","space":"user","telemetry"' "$TMP/status.json" ||
	fail "no counters of the DPDK VNF through its agent: $(cat "$TMP/status.json")"

# The user VNF's process, read in its guest by the agent (it used to say
# "not running" while its counters grew).
$CALVIN status $C >"$TMP/status.txt" || fail "calvin status (text) failed"
cat "$TMP/status.txt"
grep -Eq "^  fwd-u +pid [1-9][0-9]* in VM calvin-$C.fwd-u  vCPUs 1  last ran on vCPU 1 " \
	"$TMP/status.txt" || fail "status does not show fwd-u running in its VM"
grep -q "\"name\":\"fwd-u\",\"pid\":[1-9][0-9]*,\"running\":true,\"vm\":\"calvin-$C.fwd-u\"" \
	"$TMP/status.json" || fail "status -j does not show fwd-u running: $(cat "$TMP/status.json")"

# A VM that stops answering: libvirt pauses it, so its agent cannot run.
# status gives its agent 2 s, says so in one line, shows the other VNF,
# and exits non-zero.
virsh -q suspend calvin-$C.fwd-u >/dev/null || fail "virsh suspend failed"
start=$(date +%s%N)
$CALVIN status $C >"$TMP/paused.txt" 2>"$TMP/paused.err" && fail "status exited 0 with fwd-u paused"
ms=$((($(date +%s%N) - start) / 1000000))
cat "$TMP/paused.txt" "$TMP/paused.err"
echo "status with a paused VM took $ms ms"
[ $ms -lt 6000 ] || fail "status took $ms ms with one VNF not answering (deadline 2 s)"
grep -qx "  fwd-u: not answering (2 s)" "$TMP/paused.txt" || fail "no 'not answering' line for fwd-u"
grep -q "^  fwd-k  *kernel  fwd " "$TMP/paused.txt" || fail "status did not go on with fwd-k"
[ ! -s "$TMP/paused.err" ] || fail "status printed errors besides: $(cat "$TMP/paused.err")"
$CALVIN -j status $C >"$TMP/paused.json" && fail "status -j exited 0 with fwd-u paused"
grep -q '"name":"fwd-u","space":"user","error":"not answering (2 s)"' "$TMP/paused.json" ||
	fail "status -j does not say fwd-u is not answering: $(cat "$TMP/paused.json")"
virsh -q resume calvin-$C.fwd-u >/dev/null || fail "virsh resume failed"
$CALVIN status $C >/dev/null || fail "status failed after the VM was resumed"

$CALVIN down $C || fail "calvin down failed"
assert_clean $C $ifs
echo ok
