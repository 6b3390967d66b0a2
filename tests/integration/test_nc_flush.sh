# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# Early flush of the network encoder (flush-early, default true):
# tactile-nc with a flush of 20 ms and probes paced at 40/s, 25 ms apart.
# Every generation leaves partial either way, each source with its 2
# repairs; what early flush changes is when. With it the encoder learns
# within a few probes that no source comes within the flush after another
# and sends the repairs right behind their source, so a probe the 5% loss
# took is rebuilt at once: no probe after the first few (the learning)
# takes 10 ms. Without it (flush-early: false) the repairs wait the 20 ms
# and every rebuilt probe takes more than 10 ms. 10 ms is 100 times this
# chain's RTT: the test does not time the data path, only the flush.
# bench/sharing.sh (make bench-coloc) measures what it does to the tail.
. "$(dirname "$0")/lib.sh"
require_root
require_netns_xdp
C=t-ncflush
trap 'cleanup_chain $C; rm -rf "$TMP"' EXIT
N=120

# up with flush 20ms (both coders) and flush-early as given, N probes at
# 40/s; prints "sources repairs recovered lost slow slow-after-8", slow
# being the probes that took over 10 ms
run() { # FLUSH-EARLY
	local spec src rep rec lost slow late
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
	rec=$(vnf_stat $C dec nc_recovered)
	$CALVIN down $C >/dev/null || fail "calvin down failed"
	assert_clean $C
	slow=$(awk '$3 - $2 > 10000000' "$TMP/raw" | wc -l)
	late=$(awk '$1 >= 8 && $3 - $2 > 10000000' "$TMP/raw" | wc -l)
	echo "$src $rep $rec $lost $slow $late"
}

read -r src rep rec lost slow late <<<"$(run true)"
echo "flush-early: true: $src sources, $rep repairs, $rec rebuilt on the way out," \
	"$lost probes lost, $slow over 10 ms ($late after the 8th)"
[ "$src" = $N ] || fail "encoder saw $src sources, want $N"
[ "$rep" -ge $((2 * N - 2)) ] || fail "$rep repairs for $src sources 25 ms apart, want 2 each"
[ "$late" = 0 ] || fail "early flush: $late probes after the 8th took over 10 ms"
[ "$lost" -le 2 ] || fail "$lost of $N probes lost with early flush"

read -r src rep rec lost slow late <<<"$(run false)"
echo "flush-early: false: $src sources, $rep repairs, $rec rebuilt on the way out," \
	"$lost probes lost, $slow over 10 ms"
[ "$src" = $N ] || fail "encoder saw $src sources, want $N"
[ "$rep" -ge $((2 * N - 2)) ] || fail "$rep repairs for $src sources 25 ms apart, want 2 each"
[ "$rec" -ge 1 ] || fail "the decoder rebuilt no probe: the test proves nothing"
[ "$slow" -ge "$rec" ] || fail "without early flush only $slow probes took over 10 ms, $rec were rebuilt"
[ "$lost" -le 2 ] || fail "$lost of $N probes lost without early flush"
echo ok
