#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# What continuous monitoring costs a chain: the RTT of chains/tactile-fwd.yaml
# measured by `calvin probe` (1000/s) with `calvin monitor` probing the same
# chain at 10/s and at 100/s, against no monitor. One deployment; the three
# configurations alternate within each round, so the machine's load hits
# them alike. Each probe run ignores the other's replies (a session of its
# own), so the figures are what the monitor's probes, its /metrics thread
# and its collector cost the chain's other traffic. Medians of the rounds'
# p50 and p99, and their ratios to no monitor.
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
# probing, then COUNT probes; the round's "p50 p99" (us) to TMP/RATE.rounds.
one() { # RATE
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
		cat "$TMP/round.raw" >>"$TMP/m$rate.raw"
		rtt_pct "$TMP/round.raw" 0 | cut -d' ' -f1,2 >>"$TMP/m$rate.rounds"
	else
		bench_failed "m$rate" "calvin probe failed: $(tail -n 1 "$TMP/err")"
	fi
	stop_monitor
}

median() { # FILE COLUMN
	cut -d' ' -f"$2" "$1" | sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)]; else print "-" }'
}

ratio() { # A B; "-" when either is no number
	case "$1/$2" in
	*[!0-9./]* | /* | */ | */0 | */0.0) echo - ;;
	*) echo "scale=3; $1 / $2" | bc | sed 's/^\./0./' ;;
	esac
}

LOAD0=$(cut -d' ' -f1-3 /proc/loadavg)
bench_spec chains/tactile-fwd.yaml "$NAME"
if ! $B/calvin up "$BENCH_SPEC" >/dev/null 2>"$TMP/err"; then
	echo "bench/monitor.sh: calvin up failed: $(tail -n 1 "$TMP/err")" >&2
	exit 1
fi
for r in $(seq "$ROUNDS"); do
	for rate in "${RATES[@]}"; do
		echo "round $r/$ROUNDS: monitor at $rate/s" >&2
		one "$rate"
	done
done

{
	echo "# calvin benchmark: the cost of continuous monitoring, $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo
	echo "Machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), kernel $(uname -r)."
	echo "Load average at start: $LOAD0; at end: $(cut -d' ' -f1-3 /proc/loadavg). A shared, busy machine:"
	echo "the figures are preliminary; read the ratios and medians, not single values."
	echo "Chain: chains/tactile-fwd.yaml, deployed once. $ROUNDS rounds x $COUNT probes (calvin probe,"
	echo "paced at 1000/s, 256 bytes) per configuration, configurations alternating within each"
	echo "round; calvin monitor at the given rate in 1 s windows, started before and stopped after"
	echo "each of its rounds. p50 and p99: the median of the rounds' own."
	echo
	echo "| monitor | RTT p50 us | p99 us | p50 vs none | p99 vs none | lost |"
	echo "|---|---:|---:|---:|---:|---:|"
	b50=$(median "$TMP/m0.rounds" 1 2>/dev/null)
	b99=$(median "$TMP/m0.rounds" 2 2>/dev/null)
	for rate in "${RATES[@]}"; do
		label=$([ "$rate" = 0 ] && echo none || echo "$rate/s")
		if [ ! -s "$TMP/m$rate.rounds" ]; then
			echo "| $label | $(bench_why "m$rate") | - | - | - | - |"
			continue
		fi
		p50=$(median "$TMP/m$rate.rounds" 1)
		p99=$(median "$TMP/m$rate.rounds" 2)
		n=$(wc -l <"$TMP/m$rate.raw")
		echo "| $label | $p50 | $p99 | $(ratio "$p50" "$b50") | $(ratio "$p99" "$b99") | $((ROUNDS * COUNT - n)) |"
	done
	echo
	echo "Command: flock /tmp/calvin-net.lock make bench-monitor (BENCH_ROUNDS=$ROUNDS BENCH_PROBES=$COUNT)."
} >"$OUT"
cat "$OUT"
bench_done "$OUT"
