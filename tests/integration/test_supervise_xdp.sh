# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# The supervisor's netlink watch of a chain's ports (a kernel firewall in
# front of a user forwarder, chains/tactile-acl.yaml), probes before and
# after each fault:
# - the firewall's XDP program detached by hand from both its ports:
#   the same program (same id) is attached again, probes pass again
#   within 2 s, and its ACL still drops what it dropped, counted on the
#   same counters (its maps kept their state);
# - the pass program on the probe's port (without it the firewall's
#   redirects into that veth are lost) detached: attached again;
# - the hand-over program of the user forwarder's port detached: that VNF
#   is restarted;
# - a port set down: set up again;
# - the user forwarder frozen (cgroup freezer): stalled by its ports'
#   counters (frames in, none out), not killed, running again after;
# - a veth deleted: the chain is failed with the reason, in one event,
#   and status says so;
# - down leaves nothing (namespaces, bpffs pins, processes).
# XDP_DETACHES=N detaches the firewall's program N times (default 3) and
# prints the time from the detach to the program back, p50 and max.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/sup_lib.sh"
require_root
require_netns_xdp
C=t-supx
FW=calvin-$C.fw
SPEC=$(spec_copy chains/tactile-acl.yaml $C)
trap 'cleanup_chain $C; rm -rf "$TMP"' EXIT
# a failure shows what the supervisor saw
fail() {
	echo "FAIL: $*"
	tail -n 12 /run/calvin/$C.d/events.jsonl /run/calvin/$C.d/supervisor.log 2>/dev/null
	exit 1
}
# The id of the XDP program on NS's IFNAME, or nothing.
xdp_id() { ip -n "$1" -d link show dev "$2" 2>/dev/null | grep -o 'prog/xdp id [0-9]*' | grep -o '[0-9]*$'; }
xdp_is() { [ "$(xdp_id "$1" "$2")" = "$3" ]; }
link_event() { # KIND NODE IFNAME: is there such an event?
	grep "\"kind\":\"$1\"" /run/calvin/$C.d/events.jsonl | grep "\"node\":\"$2\"" | grep -q "\"ifname\":\"$3\""
}

$CALVIN up "$SPEC" >/dev/null || fail "calvin up failed"
wait_until "supervisor.json" grep -q '"links":\[' /run/calvin/$C.d/supervisor.json
probes_pass $C 200
acl_denies $C fw "before any fault"
W=$(xdp_id $FW west) E=$(xdp_id $FW east)
[ -n "$W" ] && [ -n "$E" ] || fail "the firewall has no XDP program: $(ip -n $FW -d link)"
echo "fw's programs: west $W, east $E; $DENIED denied so far"

# 1. the firewall's program detached from both ports, probes at 1000/s
probe_start $C 4000
ip -n $FW link set dev west xdp off || fail "could not detach fw's west"
ip -n $FW link set dev east xdp off || fail "could not detach fw's east"
wait_until "fw's west program back" xdp_is $FW west "$W"
wait_until "fw's east program back" xdp_is $FW east "$E"
probe_loss 4000
echo "fw's program detached from both ports: $LOST probes lost, longest loss window $WINDOW ms"
[ "$WINDOW" -lt 2000 ] || fail "probes did not pass again within 2 s: lost for $WINDOW ms"
link_event xdp-detached fw west && link_event xdp-reattached fw west &&
	link_event xdp-reattached fw east || fail "events: $(cat /run/calvin/$C.d/events.jsonl)"
probes_pass $C 200
before=$DENIED
acl_denies $C fw "after the re-attach"
[ "$DENIED" -eq $((before + 100)) ] ||
	fail "the acl's counters did not keep their state: $before -> $DENIED"
echo "after the re-attach: same programs, acl drops counted on from $before to $DENIED"

# 2. the pass program on the probe's east (the firewall redirects into it)
P=$(xdp_id calvin-$C.probe east)
[ -n "$P" ] || fail "the probe's east has no pass program"
ip -n calvin-$C.probe link set dev east xdp off
wait_until "the probe's pass program back" xdp_is calvin-$C.probe east "$P"
probes_pass $C 200
echo "the probe's pass program detached: attached again"

# 3. the user forwarder's hand-over program: the VNF is restarted
OLD=$(vnf_pid $C fwd-u)
ip -n calvin-$C.fwd-u link set dev west xdp off
wait_until "fwd-u restarted" eval '[ "$(sup_vnf $C fwd-u restarts)" = 1 ] && sup_state_is $C fwd-u running'
[ "$(vnf_pid $C fwd-u)" != "$OLD" ] || fail "fwd-u was not restarted"
link_event xdp-detached fwd-u west || fail "no event: $(cat /run/calvin/$C.d/events.jsonl)"
probes_pass $C 200
echo "fwd-u's hand-over program detached: fwd-u restarted"

# 4. a port set down: up again
ip -n $FW link set dev east down
wait_until "fw's east up again" eval "ip -n $FW link show dev east | grep -q '<.*,UP'"
wait_until "the link-repaired event" link_event link-repaired fw east
probes_pass $C 200
echo "fw's east set down: set up again"

# the time from a detach to the program back, over XDP_DETACHES detaches
for i in $(seq "${XDP_DETACHES:-3}"); do
	t0=$(date +%s%N)
	ip -n $FW link set dev west xdp off
	until xdp_is $FW west "$W"; do
		sleep 0.005
		[ $(($(date +%s%N) - t0)) -lt 5000000000 ] || fail "detach $i: not back within 5 s"
	done
	echo $((($(date +%s%N) - t0) / 1000))
done | sort -n >"$TMP/heal"
n=$(wc -l <"$TMP/heal")
echo "detach to re-attached over $n detaches: p50 $(sed -n "$(((n + 1) / 2))p" "$TMP/heal") us, max $(tail -n 1 "$TMP/heal") us (ip(8) polled every 5 ms)"
# the supervisor's own view: from the fault heard to the program back
grep '"kind":"xdp-reattached"' /run/calvin/$C.d/events.jsonl | grep -o '"us":[0-9]*' | cut -d: -f2 |
	tail -n "$n" | sort -n >"$TMP/ms"
echo "fault heard to re-attached (supervisor): p50 $(sed -n "$(((n + 1) / 2))p" "$TMP/ms") us, max $(tail -n 1 "$TMP/ms") us"
probes_pass $C 200
$CALVIN status $C >"$TMP/st" || fail "status failed"
grep -Eq "^  links: 6 ports watched, [0-9]+ repairs" "$TMP/st" || fail "status: $(cat "$TMP/st")"

# 5. fwd-u frozen (the cgroup freezer: not stopped, so /proc says nothing
#    of it): frames come in on its ports, none go out: stalled by its
#    counters, not killed; running again once it forwards
FZ=/sys/fs/cgroup/freezer
thaw() { # the frozen cgroup of a failed run goes: its VNF thawed, moved back
	[ -d $FZ/calvin-$C ] || return 0
	echo THAWED >$FZ/calvin-$C/freezer.state
	xargs -r -n 1 <$FZ/calvin-$C/cgroup.procs >$FZ/cgroup.procs 2>/dev/null
	rmdir $FZ/calvin-$C
}
if [ -w $FZ/cgroup.procs ]; then
	PID=$(vnf_pid $C fwd-u) restarts=$(sup_vnf $C fwd-u restarts)
	mkdir -p $FZ/calvin-$C
	trap 'thaw; cleanup_chain $C; rm -rf "$TMP"' EXIT
	echo "$PID" >$FZ/calvin-$C/cgroup.procs
	echo FROZEN >$FZ/calvin-$C/freezer.state
	$CALVIN -j probe -c 4000 -r 1000 $C >/dev/null 2>&1 &
	P=$!
	wait_until "fwd-u stalled" sup_state_is $C fwd-u stalled
	grep '"kind":"stalled","vnf":"fwd-u"' /run/calvin/$C.d/events.jsonl | grep -q '"cause":"counters' ||
		fail "no stalled event by counters: $(cat /run/calvin/$C.d/events.jsonl)"
	echo THAWED >$FZ/calvin-$C/freezer.state
	echo "$PID" >$FZ/cgroup.procs
	rmdir $FZ/calvin-$C
	wait $P
	probes_pass $C 200
	wait_until "fwd-u running again" sup_state_is $C fwd-u running
	[ "$(vnf_pid $C fwd-u)" = "$PID" ] && [ "$(sup_vnf $C fwd-u restarts)" = "$restarts" ] ||
		fail "a stalled fwd-u was killed or restarted"
	echo "fwd-u frozen: stalled by its counters, not killed, running again after"
else
	echo "fwd-u frozen: not tried, no cgroup v1 freezer at $FZ"
fi

# 6. a veth deleted: the chain is failed, with the reason, once
ip -n $FW link del dev east || fail "could not delete fw's east"
wait_until "the chain failed" grep -q '"state":"failed"' /run/calvin/$C.d/supervisor.json
[ "$(events_of $C chain-failed)" = 1 ] || fail "chain-failed events: $(cat /run/calvin/$C.d/events.jsonl)"
[ "$(events_of $C link-deleted)" = 1 ] || fail "link-deleted events: $(cat /run/calvin/$C.d/events.jsonl)"
grep '"kind":"chain-failed"' /run/calvin/$C.d/events.jsonl | grep -q "the veth fw:east - fwd-u:west was deleted" ||
	fail "chain-failed without the reason: $(cat /run/calvin/$C.d/events.jsonl)"
$CALVIN status $C >"$TMP/st"
grep -q "^  chain failed: the veth fw:east - fwd-u:west was deleted; run 'calvin down $C'" "$TMP/st" ||
	fail "status does not say the chain failed: $(cat "$TMP/st")"
grep -q "^  link fw:east deleted" "$TMP/st" || fail "status: $(cat "$TMP/st")"
echo "a veth deleted: the chain is failed with the reason"

# 7. down leaves nothing
$CALVIN down $C || fail "calvin down failed"
assert_clean $C
echo ok
