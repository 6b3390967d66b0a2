#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# What continuous monitoring costs a chain: the RTT of chains/tactile-fwd.yaml
# measured by `calvin probe` (1000/s) with `calvin monitor` probing the same
# chain at 10/s and at 100/s, against no monitor. One deployment; the three
# configurations alternate within each round (their order rotating from
# round to round), so the machine's load hits them alike. Each probe run
# ignores the other's replies (a session of its own), so the figures are
# what the monitor's probes, its /metrics thread and its collector cost the
# chain's other traffic. Tables (bench/progs/rounds_table): pooled p50 and
# p99 with bootstrap intervals and their ratios to no monitor; the medians
# of the rounds' own, and of each round's p99 over no monitor's p99 of the
# same round, with intervals.
# Writes bench/results/monitor-DATE.md and prints it. Needs root; hold the
# machine's lock: flock /tmp/calvin-net.lock make bench-monitor
set -u
cd "$(dirname "$0")/.." || exit 1
B=$PWD/build
OUT=bench/results/monitor-$(date +%Y%m%d-%H%M%S).md
COUNT=${BENCH_PROBES:-2000}
ROUNDS=${BENCH_ROUNDS:-5}
RUN=${CALVIN_RUN_DIR:-/run/calvin}
. bench/lib.sh
bench_live_init monitor.sh bench-monitor
NAME=bm-fwd
MON=
stop_monitor() {
	[ -n "$MON" ] && kill "$MON" 2>/dev/null && wait "$MON" 2>/dev/null
	MON=
}
trap 'stop_monitor; bench_live_cleanup' EXIT

RATES=(0 10 100) # monitor probes per second; 0: no monitor

# One round of one configuration: the monitor (if any) started and
# probing, then COUNT probes; their RTTs (ns) to TMP/mRATE.ROUND.ns.
one() { # RATE ROUND
	local rate=$1 i
	if [ "$rate" != 0 ]; then
		rm -f "$RUN/$NAME.d/monitor.json"
		$B/calvin monitor "$NAME" --rate "$rate" --window 1 --listen 127.0.0.1:0 \
			>/dev/null 2>"$TMP/mon.err" &
		MON=$!
		# probing: its first window is done
		for i in $(seq 100); do
			grep -q '"windows":[1-9]' "$RUN/$NAME.d/monitor.json" 2>/dev/null && break
			sleep 0.1
		done
		if ! grep -q '"windows":[1-9]' "$RUN/$NAME.d/monitor.json" 2>/dev/null; then
			bench_failed "m$rate" "the monitor did not start: $(tail -n 1 "$TMP/mon.err")"
			stop_monitor
			return
		fi
	fi
	rm -f "$TMP/round.raw"
	if $B/calvin probe -c "$COUNT" --raw "$TMP/round.raw" "$NAME" >/dev/null 2>"$TMP/err"; then
		awk '{ print $3 - $2 }' "$TMP/round.raw" >"$TMP/m$rate.$2.ns"
		wc -l <"$TMP/round.raw" >>"$TMP/m$rate.got"
	else
		bench_failed "m$rate" "calvin probe failed: $(tail -n 1 "$TMP/err")"
	fi
	stop_monitor
}

label() { # RATE
	[ "$1" = 0 ] && echo "no monitor" || echo "calvin monitor at $1/s"
}
# The list rounds_table reads: "CONFIG ROUND FILE LABEL" per round measured
list() {
	local rate r
	for rate in "${RATES[@]}"; do
		for r in $(seq "$ROUNDS"); do
			[ -s "$TMP/m$rate.$r.ns" ] &&
				echo "$([ "$rate" = 0 ] && echo none || echo "m$rate") $r $TMP/m$rate.$r.ns $(label "$rate")"
		done
	done
}

LOAD0=$(cut -d' ' -f1-3 /proc/loadavg)
bench_spec chains/tactile-fwd.yaml "$NAME"
if ! $B/calvin up "$BENCH_SPEC" >/dev/null 2>"$TMP/err"; then
	echo "bench/monitor.sh: calvin up failed: $(tail -n 1 "$TMP/err")" >&2
	exit 1
fi
T0=$(date +%s)
for r in $(seq "$ROUNDS"); do
	cut -d' ' -f1 /proc/loadavg >>"$TMP/load"
	for j in 0 1 2; do
		rate=${RATES[$(((j + r - 1) % 3))]}
		echo "round $r/$ROUNDS: monitor at $rate/s" >&2
		one "$rate" "$r"
	done
done

{
	echo "# calvin benchmark: the cost of continuous monitoring, $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo
	echo "Machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), kernel $(uname -r)."
	echo "Load average at start: $LOAD0; at end: $(cut -d' ' -f1-3 /proc/loadavg); at each round's start (1 min):"
	echo "$(tr '\n' ' ' <"$TMP/load" | sed 's/ $//; s/ /, /g'). A shared machine: read the ratios of alternating rounds."
	echo "Chain: chains/tactile-fwd.yaml, deployed once. $ROUNDS rounds x $COUNT probes (calvin probe,"
	echo "paced at 1000/s, 256 bytes) per configuration, configurations alternating within each"
	echo "round, their order rotating; calvin monitor at the given rate in 1 s windows, started before"
	echo "and stopped after each of its rounds; $(($(date +%s) - T0)) s."
	echo
	if list | grep -q '^none '; then
		list | $B/bench/rounds_table none || bench_why monitor
	else
		echo "$(bench_why m0) (no round without a monitor to compare with)"
	fi
	echo
	echo "Probes lost (of $((ROUNDS * COUNT)) per configuration):"
	for rate in "${RATES[@]}"; do
		echo "$(label "$rate"): $((ROUNDS * COUNT - $(awk '{ n += $1 } END { print n + 0 }' "$TMP/m$rate.got" 2>/dev/null)))"
	done | paste -sd, | sed 's/,/, /g; s/$/./'
	echo
	echo "Command: flock /tmp/calvin-net.lock make bench-monitor (BENCH_ROUNDS=$ROUNDS BENCH_PROBES=$COUNT), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)."
} >"$OUT"
cat "$OUT"
bench_done "$OUT"
