# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# Links across clock domains on the reference chain in VMs
# (chains/tactile-fwd-vm.yaml: fwd-k and fwd-u each in a VM, the probe and
# the server on the host): the report gives every link a time, those
# across domains estimated with a bound (text, JSON, samples.csv,
# clocks.csv, the pictures), never n/a. What "true" is here: each VM's
# CLOCK_MONOTONIC counts from its own boot, so a VM's offset to the host
# is the moment it booted, which nothing on this host knows better than
# the estimate; but the guests' clocks tick from the host's (QEMU derives
# their timers from it), so that offset holds still between runs. The
# test checks what follows: every run's offset range [t3 - t4, t2 - t1]
# meets every other's, and the estimates of separate runs differ by less
# than their bounds, so the truth lies where every run's offset +- bound
# meets: the test prints that interval and how far from it, at most, any
# run's estimate is (its error against the truth, at most). It prints the
# figure: each pair's offset and bound, the median of the runs.
. "$(dirname "$0")/libvirt.sh"
require_libvirt
C=t-clk
RUNS=${RUNS:-3}
SPEC=$(spec_copy chains/tactile-fwd-vm.yaml $C)
trap 'cleanup_chain $C' EXIT
J=build/tests/tools/jsondoc

$CALVIN up "$SPEC" >"$TMP/up.out" || fail "calvin up failed"
ifs=$(journalled_ifs $C)

for run in $(seq "$RUNS"); do
	$CALVIN -j probe -c 200 -r 200 $C >"$TMP/run$run.json" || fail "calvin probe (run $run) failed"
done
$CALVIN probe -c 200 -r 200 -o "$TMP/out" $C >"$TMP/probe.txt" || fail "calvin probe -o failed"
cat "$TMP/probe.txt"

# text: no link without a time; four estimated with a bound, the
# server's turn-around exact; one offset line per pair of domains
grep -q "n/a" "$TMP/probe.txt" && fail "a link still says n/a: $(grep n/a "$TMP/probe.txt")"
[ "$(grep -Ec '^  (probe -> fwd-k|fwd-k -> fwd-u|fwd-u -> fwd-k|fwd-k -> probe) .* ±[0-9.]+[mun]?s estimated$' \
	"$TMP/probe.txt")" = 4 ] || fail "not four estimated links with a bound"
grep -Eq '^  fwd-u -> server -> fwd-u +[0-9.]+[mun]?s +[^±]*$' "$TMP/probe.txt" ||
	fail "the turn-around within fwd-u's VM is not shown exact"
grep -Eq '^  VM fwd-k - host [-+][0-9]+\.[0-9]{9}s ±[0-9.]+[mun]?s \(in band: smallest round trip' \
	"$TMP/probe.txt" || fail "no offset line for fwd-k's VM and the host"
grep -Eq '^  VM fwd-u - VM fwd-k [-+][0-9]+\.[0-9]{9}s ±' "$TMP/probe.txt" ||
	fail "no offset line for the two VMs"

# JSON: every link valid; those four estimated, each with its bound
R=$TMP/run1.json
n=$($J -n links <"$R")
[ "$n" = 5 ] || fail "$n links in the report, not 5"
est=0
for ((i = 0; i < n; i++)); do
	[ "$($J links.$i.valid <"$R")" = true ] || fail "link $i is not valid: $($J links.$i.reason <"$R")"
	if [ "$($J links.$i.estimated <"$R")" = true ]; then
		est=$((est + 1))
		[ "$($J links.$i.bound_ns <"$R")" -gt 0 ] || fail "link $i has no bound"
	fi
done
[ $est = 4 ] || fail "$est links estimated, not 4"
[ "$($J -n clocks <"$R")" = 2 ] || fail "not two pairs of clock domains in the report"

# the files: clocks.csv has the four links, samples.csv a time for each
O=$TMP/out
[ "$(grep -c ',1,in band,' "$O/clocks.csv")" = 4 ] || fail "clocks.csv: $(cat "$O/clocks.csv")"
head -n 1 "$O/samples.csv" | grep -q ',link_0,link_1,link_2,link_3,link_4$' || fail "samples.csv header"
awk -F, 'NR > 1 && ($10 == "" || $11 == "" || $12 == "" || $13 == "" || $14 == "") { bad++ }
	END { exit bad > 0 }' "$O/samples.csv" || fail "samples.csv has empty link cells"
grep -q "estimated ±" "$O/report.md" || fail "report.md does not mark estimated links"
if [ -s "$O/links.svg" ]; then
	grep -q "probe -&gt; fwd-k (estimated ±\|probe -> fwd-k (estimated ±" "$O/links.svg" ||
		fail "the links picture does not show the estimated links"
fi

# The runs against each other, pair by pair: a constant offset lies in
# every run's range, and two estimates differ by at most their bounds.
echo "pair                 run  offset_ns            bound_ns  rtt_min_ns  moved_ns"
for p in 0 1; do
	name="$($J clocks.$p.to <"$R") - $($J clocks.$p.from <"$R")"
	for run in $(seq "$RUNS"); do
		f=$TMP/run$run.json
		[ "$($J clocks.$p.estimated <"$f")" = true ] || fail "run $run: $name not estimated"
		echo "$name $run $($J clocks.$p.offset_ns <"$f") $($J clocks.$p.bound_ns <"$f") $($J clocks.$p.rtt_min_ns <"$f") $($J clocks.$p.moved_ns <"$f")"
	done >"$TMP/pair$p"
	awk -v name="$name" '{ off[NR] = $(NF - 3); b[NR] = $(NF - 2); rtt[NR] = $(NF - 1); mv[NR] = $NF }
		END {
			for (i = 1; i <= NR; i++) {
				printf "%-20s %3d  %-20s %8s  %10s  %8s\n", name, i, off[i], b[i], rtt[i], mv[i]
				for (j = 1; j < i; j++) {
					d = off[i] - off[j]; if (d < 0) d = -d
					if (d > spread) spread = d
					if (d > b[i] + b[j]) { printf "runs %d and %d differ by %d ns, more than their bounds %d + %d\n", j, i, d, b[i], b[j]; bad = 1 }
				}
			}
			printf "%s: the offsets of the runs lie within %d ns of each other\n", name, spread
			# the constant truth is in the offset +- bound of every run
			for (i = 1; i <= NR; i++) {
				if (i == 1 || off[i] - b[i] > lo) lo = off[i] - b[i]
				if (i == 1 || off[i] + b[i] < hi) hi = off[i] + b[i]
			}
			for (i = 1; i <= NR; i++) {
				e = off[i] - lo; if (hi - off[i] > e) e = hi - off[i]
				if (e > err) err = e
			}
			printf "%s: the truth lies in [%.0f, %.0f] (%d ns wide); no run is further from it than %d ns\n", name, lo, hi, hi - lo, err
			exit bad
		}' "$TMP/pair$p" || fail "$name: the estimates of separate runs disagree beyond their bounds"
	mid=$(((RUNS + 1) / 2))
	echo "figure: $name offset $(awk '{ print $(NF - 3) }' "$TMP/pair$p" | sort -n | sed -n "${mid}p") ns," \
		"bound $(awk '{ print $(NF - 2) }' "$TMP/pair$p" | sort -n | sed -n "${mid}p") ns (medians of $RUNS runs of 200 probes)"
done

$CALVIN down $C || fail "calvin down failed"
assert_clean $C $ifs
echo "PASS: links across clock domains estimated with bounds; offsets agree across $RUNS runs"
