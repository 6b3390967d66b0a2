# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# Shared by the test_pmd_* tests, sourced after lib.sh: the reference chain
# (fwd-k in XDP, fwd-u in DPDK) with fwd-u asking for one PMD, carrying
# probes and sockperf, its counters read from `calvin status`.

# What every test_pmd_* needs, and its clean-up.
pmd_test_begin() { # CHAIN
	require_root
	require_netns_xdp
	command -v sockperf >/dev/null || skip "sockperf is not installed (make deps installs it)"
	trap "cleanup_chain $1; rm -rf '$TMP'" EXIT
}

# Counters of fwd-u's two ports, on one line.
fwd_u_counts() { # CHAIN
	local k
	for k in west_rx_packets east_tx_packets east_rx_packets west_tx_packets; do
		printf '%s ' "$(vnf_stat "$1" fwd-u $k)"
	done
}

# Every counter of fwd-u's ports grew by at least MIN since BEFORE.
counts_grew() { # CHAIN BEFORE MIN WHAT
	local now b n i=0
	wait_stable now fwd_u_counts "$1"
	read -ra b <<<"$2"
	for n in $now; do
		[ $((n - ${b[$i]:-0})) -ge "$3" ] ||
			fail "$4: fwd-u's counters went from '$2' to '$now' (west rx, east tx, east rx, west tx), want +$3 each"
		i=$((i + 1))
	done
	echo "$4: fwd-u's counters went from '$2' to '$now'"
}

# Up the chain with fwd-u asking for ASK; both of its ports must end up on
# GOT, their hop records starting where PMD_T_IN says (default xdp: in the
# hand-over program, kernel/handover.bpf.c; rx_burst without it). Extra
# environment for `calvin up` (and so for calvin-vnf) in ENV.
pmd_chain_test() { # CHAIN ASK GOT [ENV...]
	local c=$1 ask=$2 got=$3 spec pid side before got_msgs
	shift 3
	spec=$(spec_copy chains/tactile-fwd.yaml "$c")
	sed -i "s/^\(\s*\)pmd: af_xdp /\1pmd: $ask /" "$spec"
	grep -q "pmd: $ask " "$spec" || fail "test could not write the spec"

	# a descriptor open in whoever runs calvin (flock(1) passes its lock
	# on like this) must not end up in the VNF, or the lock lives as long
	exec 9>"$TMP/held"
	env "$@" $CALVIN up "$spec" 2>"$TMP/up.err" || fail "calvin up failed: $(cat "$TMP/up.err")"
	exec 9>&-
	cat "$TMP/up.err"
	pid=$(pgrep -f "calvin-vnf --chain $c ") || fail "no calvin-vnf process"
	ls -l "/proc/$pid/fd" | grep -q "$TMP/held" && fail "calvin-vnf inherited calvin's descriptors"

	for side in west east; do
		[ "$(vnf_str "$c" fwd-u ${side}_pmd)" = "$got" ] ||
			fail "fwd-u's $side port is on '$(vnf_str "$c" fwd-u ${side}_pmd)', want $got"
		[ "$(vnf_str "$c" fwd-u ${side}_t_in)" = "${PMD_T_IN:-xdp}" ] ||
			fail "fwd-u's $side records start at '$(vnf_str "$c" fwd-u ${side}_t_in)', want ${PMD_T_IN:-xdp}"
	done
	echo "fwd-u asked for $ask, runs $got on both ports, records from ${PMD_T_IN:-xdp} on"
	# as text too, packet counts shown before any packet
	$CALVIN status "$c" >"$TMP/status"
	grep -q "west_pmd $got .*west_rx_packets 0 .*east_pmd $got .*east_rx_packets 0 " "$TMP/status" ||
		fail "calvin status does not show fwd-u's PMDs and packet counts: $(cat "$TMP/status")"
	if [ "$ask" != "$got" ]; then
		grep -q "warning: af_xdp unavailable on west and east; using af_packet" "$TMP/up.err" ||
			fail "calvin up did not say that fwd-u fell back to $got"
	fi

	before=$(fwd_u_counts "$c")
	$CALVIN -j probe -c 500 --raw "$TMP/raw" "$c" >"$TMP/p.json" || fail "probe failed"
	[ "$(json_num received <"$TMP/p.json")" = 500 ] || fail "probes lost: $(cat "$TMP/p.json")"
	check_hops "$TMP/raw" 500 "0/0 1/0 1/1 0/1" || fail "raw probe records"
	counts_grew "$c" "$before" 500 "500 probes"

	before=$(fwd_u_counts "$c")
	$CALVIN exec "$c" server -- sockperf server -i 10.70.0.2 -p 11111 >/dev/null 2>&1 &
	wait_listen "$c" server 11111
	timeout 60 $CALVIN exec "$c" probe -- sockperf ping-pong -i 10.70.0.2 -p 11111 -t 2 \
		>"$TMP/sp.log" 2>&1 || fail "sockperf ping-pong failed: $(tail -3 "$TMP/sp.log")"
	grep -q "Summary: Latency is" "$TMP/sp.log" || fail "sockperf printed no latency summary"
	# each reply sockperf got passed fwd-u twice: request west to east,
	# reply east to west (how many there are depends on the load, not a rate)
	got_msgs=$(grep -o "ReceivedMessages=[0-9]*" "$TMP/sp.log" | cut -d= -f2 | sort -n | tail -n 1)
	[ "${got_msgs:-0}" -gt 0 ] || fail "sockperf received nothing"
	grep -E "Summary: Latency is" "$TMP/sp.log"
	counts_grew "$c" "$before" "$got_msgs" "sockperf ($got_msgs replies)"

	$CALVIN down "$c" || fail "calvin down failed"
	assert_clean "$c"
}
