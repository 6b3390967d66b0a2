# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# A user VNF's hop record starts where its node first sees the frame, as a
# kernel VNF's does: the hand-over XDP program on its ports
# (kernel/handover.bpf.c) opens it, calvin-vnf closes it before tx_burst.
# For af_xdp and for af_packet, in the reference chain:
# (a) fwd-u's ports run the program (`calvin status`: west_t_in xdp) and
#     every probe's records at fwd-u were opened there (probes_handover);
# (b) with fwd-u stopped (SIGSTOP), a probe is still handed over to it; a
#     moment T is taken after that and before SIGCONT, and fwd-u's record
#     of the probe has t_in before T and t_out after it. rx_burst could
#     only have returned the probe after SIGCONT, so the record's t_in
#     comes before what rx_burst would have given. An order of events, no
#     timing thresholds.
. "$(dirname "$0")/lib.sh"
require_root
require_netns_xdp
command -v bpftool >/dev/null || skip "bpftool is not installed (make deps installs it)"
MONO=build/tests/tools/monotonic
[ -x $MONO ] || fail "$MONO missing: run make first"
VNF_PID=
trap '[ -n "$VNF_PID" ] && kill -CONT $VNF_PID 2>/dev/null
	cleanup_chain t-hover-xdp; cleanup_chain t-hover-packet; rm -rf "$TMP"' EXIT

# Probes the hand-over program on IFNAME of NODE opened records in so far
# (its handover_stats map, summed over CPUs); "none" without the program.
opened() { # CHAIN NODE IFNAME
	local id m
	id=$(ip -n "calvin-$1.$2" -o link show "$3" | grep -o 'prog/xdp id [0-9]*' | grep -o '[0-9]*$')
	[ -n "$id" ] || { echo none; return; }
	for m in $(bpftool -j prog show id "$id" | grep -o '"map_ids":\[[0-9,]*\]' | grep -o '[0-9][0-9]*'); do
		bpftool -j map show id "$m" | grep -q '"name":"handover_stats"' || continue
		bpftool -j map dump id "$m" | grep -o '"probes":[0-9]*' | cut -d: -f2 |
			awk '{ s += $1 } END { print s + 0 }'
		return
	done
	echo none
}

opened_more() { # CHAIN NODE IFNAME THAN
	local n
	n=$(opened "$1" "$2" "$3")
	[ "$n" != none ] && [ "$n" -gt "$4" ]
}

stopped() { # PID: every thread of it stopped
	local t
	for t in /proc/"$1"/task/*/stat; do
		[ "$(sed 's/.*) //' "$t" | cut -d' ' -f1)" = T ] || return 1
	done
}

# (b) once: 0 if the probe came back and its record at fwd-u (vnf 1, fwd)
# straddles T, 2 if the probe did not come back in time (fwd-u stopped
# longer than the probe waits: try again), 1 (and a message) otherwise.
stopped_probe() { # CHAIN
	local c=$1 before t ppid
	before=$(opened "$c" fwd-u west)
	[ "$before" != none ] || { echo "no hand-over program on fwd-u's west port"; return 1; }
	kill -STOP "$VNF_PID"
	wait_until "fwd-u stopped" stopped "$VNF_PID"
	rm -f "$TMP/one"
	$CALVIN probe -c 1 --raw "$TMP/one" "$c" >"$TMP/one.out" 2>&1 &
	ppid=$!
	wait_until "a probe handed over to the stopped fwd-u" opened_more "$c" fwd-u west "$before"
	t=$($MONO)
	kill -CONT "$VNF_PID"
	wait "$ppid"
	[ -s "$TMP/one" ] || return 2
	awk -v t="$t" '{
		for (i = 5; i + 3 <= NF; i += 4)
			if ($i == 1 && $(i + 1) == 0) {
				if ($(i + 2) < t && t < $(i + 3)) { print "fwd-u: t_in " $(i + 2) " < T " t " < t_out " $(i + 3); exit 0 }
				print "fwd-u: T " t " not between t_in " $(i + 2) " and t_out " $(i + 3); exit 1
			}
		print "no record of fwd-u going forward: " $0; exit 1
	}' "$TMP/one"
}

handover_test() { # PMD
	local c=t-hover-${1#af_} spec side n try=0 rc
	spec=$(spec_copy chains/tactile-fwd.yaml $c)
	sed -i "s/^\(\s*\)pmd: af_xdp /\1pmd: $1 /" "$spec"
	grep -q "pmd: $1 " "$spec" || fail "test could not write the spec"
	$CALVIN up "$spec" || fail "calvin up failed ($1)"

	# (a)
	for side in west east; do
		[ "$(vnf_str $c fwd-u ${side}_pmd)" = "$1" ] || fail "fwd-u's $side port is not on $1"
		[ "$(vnf_str $c fwd-u ${side}_t_in)" = xdp ] ||
			fail "$1: fwd-u's $side records start at '$(vnf_str $c fwd-u ${side}_t_in)', want xdp"
	done
	$CALVIN -j probe -c 200 --raw "$TMP/raw" $c >"$TMP/p.json" || fail "probe failed ($1)"
	check_hops "$TMP/raw" 200 "0/0 1/0 1/1 0/1" || fail "$1: raw probe records"
	for side in west east; do
		wait_stable n vnf_stat $c fwd-u ${side}_probes_handover
		[ "$n" = 200 ] || fail "$1: fwd-u closed $n records its $side hand-over opened, want 200"
	done
	echo "$1: fwd-u's ports run the hand-over program; it opened all 200 records at fwd-u"

	# (b)
	VNF_PID=$(pgrep -f "calvin-vnf --chain $c ") || fail "no calvin-vnf process"
	while :; do
		stopped_probe $c
		rc=$?
		try=$((try + 1))
		[ $rc = 2 ] && [ $try -lt 3 ] && continue
		break
	done
	VNF_PID=
	[ $rc = 2 ] && fail "$1: the probe never came back ($(tail -n 1 "$TMP/one.out"))"
	[ $rc = 0 ] || fail "$1: fwd-u's t_in does not precede the moment it was let go"

	$CALVIN down $c || fail "calvin down failed"
	assert_clean $c
}

handover_test af_xdp
handover_test af_packet
echo ok
