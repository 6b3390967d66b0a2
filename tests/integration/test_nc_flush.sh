# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# Early flush of the network encoder (flush-early, default true):
# tactile-nc with a flush of 20 ms and probes paced at 40/s, 25 ms apart.
# Every generation leaves partial either way, each source with its 2
# repairs; what early flush changes is when. With it the coders learn
# within a few probes that no source comes within the flush after another
# and send the repairs on their next quiet turn, so a probe the 5% loss
# took is rebuilt at once. Without it (flush-early: false) the repairs wait
# for the deadline, and no rebuilt probe can come back in less than the
# 20 ms flush. A rebuilt probe is one with fewer hop records than the
# others (the decoder's is its first). Asserted: without early flush every
# rebuilt probe took over 20 ms (a bound no noise can break); with it the
# median of the rebuilt probes after the learning (the 8th on) is under
# 5 ms, 100 times this chain's RTT (a stall of the machine may delay one,
# not most). bench/sharing.sh (make bench-coloc) measures the RTT tail.
. "$(dirname "$0")/lib.sh"
require_root
require_netns_xdp
C=t-ncflush
trap 'cleanup_chain $C; rm -rf "$TMP"' EXIT
N=200

# up with flush 20ms (both coders) and flush-early as given, N probes at
# 40/s; prints "sources repairs rebuilt lost min-us median-us", of the
# probes rebuilt (fewer hop records) from the 8th on
run() { # FLUSH-EARLY
	local spec src rep lost stats
	spec=$(spec_copy chains/tactile-nc.yaml $C)
	sed -i "s/^\( *\)flush: [0-9a-z]*/\1flush: 20ms\n\1flush-early: $1/" "$spec"
	[ "$(grep -c "flush-early: $1" "$spec")" = 2 ] || fail "spec copy not edited: $(cat "$spec")"
	$CALVIN up "$spec" >/dev/null || fail "calvin up failed (flush-early: $1)"
	rm -f "$TMP/raw"
	$CALVIN -j probe -c $N -r 40 --raw "$TMP/raw" $C >"$TMP/p.json" ||
		fail "probe failed (flush-early: $1)"
	lost=$(json_num lost <"$TMP/p.json")
	# the last partial generation leaves at its deadline: read after it
	sleep 0.1
	src=$(vnf_stat $C enc nc_source)
	rep=$(vnf_stat $C enc nc_repair_sent)
	$CALVIN down $C >/dev/null || fail "calvin down failed"
	assert_clean $C
	stats=$(awk '{ h[NR] = $4; s[NR] = $1; r[NR] = ($3 - $2) / 1000; if ($4 > m) m = $4 }
		END { for (i = 1; i <= NR; i++) if (h[i] < m && s[i] >= 8) print r[i] }' "$TMP/raw" |
		sort -n | awk '{ v[NR] = $1 } END { if (NR) printf "%d %.0f %.0f", NR, v[1], v[int((NR + 1) / 2)]; else print "0 - -" }')
	echo "$src $rep $lost $stats"
}

# run FLUSH-EARLY into src rep lost nreb min med, and check what holds
# either way: every source with its 2 repairs, a probe rebuilt, few lost
run_check() { # FLUSH-EARLY WITH|WITHOUT
	read -r src rep lost nreb min med <<<"$(run "$1")"
	echo "flush-early: $1: $src sources, $rep repairs, $lost probes lost;" \
		"$nreb rebuilt from the 8th on: fastest $min us, median $med us"
	[ "$src" = $N ] || fail "encoder saw $src sources, want $N"
	[ "$rep" -ge $((2 * N - 2)) ] || fail "$rep repairs for $src sources 25 ms apart, want 2 each"
	[ "$nreb" -ge 1 ] || fail "no probe was rebuilt: the test proves nothing"
	[ "$lost" -le 2 ] || fail "$lost of $N probes lost $2 early flush"
}

run_check false without
[ "$min" -ge 20000 ] || fail "without early flush a rebuilt probe came back in $min us, under the 20 ms flush"
run_check true with
[ "$med" -lt 5000 ] || fail "early flush: the rebuilt probes' median RTT is $med us"
echo ok
