#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# The in-band clock offset estimate's error against the true offset.
# Links across clock domains (VMs, hosts) are reported as a value with a
# bound, from an offset estimated in band (userspace/lib/measure/clock.c).
# With VMs the true offset is unknown; on namespaces every node stamps the
# host's CLOCK_MONOTONIC, so it is known: 0. Each round probes a chain of
# namespaces (`calvin probe --raw`), and bench/progs/clock_truth accounts
# the replies again as if each VNF were a clock domain of its own: the
# offsets it estimates are its errors. Per chain and link: the median over
# rounds of |error| and of the bound, and how many rounds' errors fell
# outside their bound (must be 0: the benchmark fails otherwise).
# Writes bench/results/clock-DATE.md and prints it. Needs root; hold the
# machine's lock: flock /tmp/calvin-net.lock make bench-clock
set -u
cd "$(dirname "$0")/.." || exit 1
B=$PWD/build
OUT=bench/results/clock-$(date +%Y%m%d-%H%M%S).md
COUNT=${BENCH_PROBES:-1000}
ROUNDS=${BENCH_ROUNDS:-5}
CHAINS_MEASURED=${BENCH_CLOCK_CHAINS:-"tactile-fwd tactile-crypt"}
. bench/lib.sh
bench_live_init clock.sh bench-clock

# One round of chain NAME: its links' lines from clock_truth in TMP/NAME.R.
one() { # NAME ROUND
	rm -f "$TMP/round.raw"
	if ! $B/calvin probe -c "$COUNT" --raw "$TMP/round.raw" "$1" >/dev/null 2>"$TMP/err"; then
		bench_failed "$1" "calvin probe failed: $(tail -n 1 "$TMP/err")"
		return
	fi
	$B/bench/clock_truth "$TMP/round.raw" >"$TMP/$1.$2" 2>"$TMP/err"
	case $? in
	0) ;;
	1) bench_failed "$1" "round $2: an error outside its bound: $(grep 'within no' "$TMP/$1.$2" | head -n 1)" ;;
	*) bench_failed "$1" "clock_truth: $(tail -n 1 "$TMP/err")" ;;
	esac
}

# The median of the numbers on stdin.
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)]; else print "-" }'; }

# Markdown rows of chain NAME: per link, medians over rounds in us.
rows() { # NAME
	local k
	for k in $(cat "$TMP/$1".[0-9]* 2>/dev/null | awk '$1 == "link" { print $2 }' | sort -un); do
		local f="$TMP/$1".[0-9]*
		# shellcheck disable=SC2086 # the rounds' files
		awk -v k="$k" '$1 == "link" && $2 == k' $f >"$TMP/link"
		printf '| %s | %s | %s | %s | %s | %s/%s |\n' "$1" "$(awk '{ print $3 }' "$TMP/link" | head -n 1)" \
			"$(awk '{ o = $5 < 0 ? -$5 : $5; printf "%.2f\n", o / 1000 }' "$TMP/link" | median)" \
			"$(awk '{ printf "%.2f\n", $7 / 1000 }' "$TMP/link" | median)" \
			"$(awk '{ printf "%.2f\n", $9 / 1000 }' "$TMP/link" | median)" \
			"$(grep -c 'within no' "$TMP/link")" "$(wc -l <"$TMP/link")"
	done
}

LOAD0=$(cut -d' ' -f1-3 /proc/loadavg)
T0=$(date +%s)
for c in $CHAINS_MEASURED; do
	name=bk-${c#tactile-}
	bench_spec "chains/$c.yaml" "$name"
	if ! $B/calvin up "$BENCH_SPEC" >/dev/null 2>"$TMP/err"; then
		bench_failed "$name" "calvin up of $c failed: $(tail -n 1 "$TMP/err")"
		continue
	fi
	for r in $(seq "$ROUNDS"); do
		echo "$c: round $r/$ROUNDS" >&2
		one "$name" "$r"
	done
	$B/calvin down "$name" >/dev/null 2>&1
done

{
	echo "# calvin benchmark: the in-band clock offset estimate against the truth, $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo
	echo "Machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), kernel $(uname -r)."
	echo "Load average at start: $LOAD0; at end: $(cut -d' ' -f1-3 /proc/loadavg)."
	echo "Chains of namespaces (every hop stamped on this host's CLOCK_MONOTONIC: true offset 0),"
	echo "$ROUNDS rounds x $COUNT probes (calvin probe --raw, paced at 1000/s, 256 bytes) each;"
	echo "bench/progs/clock_truth accounts each round as if every VNF were a clock domain of its own"
	echo "(links are named by domain: 0 is the probe's, N+1 is VNF N's). $(($(date +%s) - T0)) s."
	echo
	echo "| chain | link (domains) | error, median over rounds (us) | bound, median (us) | rtt_min, median (us) | rounds outside the bound |"
	echo "|---|---|---:|---:|---:|---:|"
	for c in $CHAINS_MEASURED; do
		name=bk-${c#tactile-}
		if ls "$TMP/$name".[0-9]* >/dev/null 2>&1; then
			rows "$name" | sed "s/^| $name /| $c /"
		else
			echo "| $c | $(bench_why "$name") | | | | |"
		fi
	done
	echo
	echo "The error is |offset| as estimated (the truth is 0); the bound is half the smallest round"
	echo "trip of the link and its way back over the run, plus how far the clocks seemed to move."
	echo "The error is half the difference of the two ways' times at the fastest round trip; the"
	echo "bound holds whatever that asymmetry is, as neither way takes less than nothing."
	echo
	echo "Command: flock /tmp/calvin-net.lock make bench-clock (BENCH_ROUNDS=$ROUNDS BENCH_PROBES=$COUNT), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)."
} >"$OUT"
cat "$OUT"
bench_done "$OUT"
