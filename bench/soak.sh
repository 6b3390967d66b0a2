#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# What a supervised, monitored chain costs over time: chains/tactile-fwd.yaml
# under a name of its own (soak-PID), placement shared (its forwarder waits
# in the kernel instead of busy-polling a core of this shared machine for
# the whole run) and monitoring at 10 probes/s in 10 s windows, runs for
# DURATION seconds (default 1800). Every SAMPLE seconds (default 10) the
# supervisor's and the monitor's RSS (VmRSS) and CPU time (utime + stime)
# go to bench/results/soak-DATE.csv; the report (soak-DATE.md, printed)
# gives start, end and largest RSS, the mean CPU% and the RSS growth after
# the warm-up (WARMUP seconds, default 120). The benchmark fails (exit 1,
# one line saying which process grew) when either grew more than
# GROW_KB (default 1024) kB after the warm-up, or a process it samples was
# replaced or gone. The lock is held for `up` and `down` only (the chain's
# name and namespaces are its own): make bench-soak
set -u
cd "$(dirname "$0")/.." || exit 1
B=$PWD/build
DURATION=${DURATION:-1800}
SAMPLE=${SAMPLE:-10}
WARMUP=${WARMUP:-120}
GROW_KB=${GROW_KB:-1024}
LOCK=${CALVIN_LOCK:-/tmp/calvin-net.lock}
RUN=${CALVIN_RUN_DIR:-/run/calvin}
STAMP=$(date -u +%Y%m%d-%H%M%S)
OUT=bench/results/soak-$STAMP.md
CSV=bench/results/soak-$STAMP.csv
. bench/lib.sh
bench_live_init soak.sh bench-soak
NAME=soak-$$
HZ=$(getconf CLK_TCK)
# down under the lock, whatever ends the run
soak_cleanup() {
	flock "$LOCK" "$B/calvin" down "$NAME" >/dev/null 2>&1
	rm -rf "$TMP"
}
trap soak_cleanup EXIT

# "PID" of the supervisor or the monitor, from the file it keeps
pid_of() { # FILE
	grep -o '"pid": *[0-9]*' "$RUN/$NAME.d/$1" 2>/dev/null | head -n 1 | grep -o '[0-9]*$'
}
# "RSS_KB CPU_TICKS" of PID, or nothing when it is gone
usage() { # PID
	local rss ticks
	rss=$(awk '/^VmRSS:/ { print $2 }' "/proc/$1/status" 2>/dev/null) || return
	# fields 14 and 15 (utime, stime), counted after the command's ")"
	ticks=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | awk '{ print $12 + $13 }') || return
	[ -n "$rss" ] && [ -n "$ticks" ] && echo "$rss $ticks"
}

sed "s/^name: .*/name: $NAME/; s/^placement: .*/placement: shared/" chains/tactile-fwd.yaml >"$TMP/$NAME.yaml"
printf 'monitor:\n  rate: 10\n  window: 10s\n  listen: 127.0.0.1:0\n' >>"$TMP/$NAME.yaml"
if ! flock "$LOCK" "$B/calvin" up "$TMP/$NAME.yaml" >/dev/null 2>"$TMP/err"; then
	echo "bench/soak.sh: calvin up of $NAME failed: $(tail -n 1 "$TMP/err")" >&2
	exit 1
fi
for _ in $(seq 100); do
	[ -n "$(pid_of supervisor.json)" ] && [ -n "$(pid_of monitor.json)" ] && break
	sleep 0.2
done
SUP=$(pid_of supervisor.json)
MON=$(pid_of monitor.json)
if [ -z "$SUP" ] || [ -z "$MON" ]; then
	echo "bench/soak.sh: $NAME has no supervisor ($SUP) or no monitor ($MON) after 20 s" >&2
	exit 1
fi
CMD_SUP=$(tr '\0' ' ' <"/proc/$SUP/cmdline" | cut -c1-60 | sed 's/ *$//')
CMD_MON=$(tr '\0' ' ' <"/proc/$MON/cmdline" | cut -c1-60 | sed 's/ *$//')
LOAD0=$(cut -d' ' -f1-3 /proc/loadavg)
T0=$(date +%s)
echo "t_s,load1,sup_pid,sup_rss_kb,sup_cpu_ticks,mon_pid,mon_rss_kb,mon_cpu_ticks" >"$CSV"
echo "bench/soak.sh: $NAME for $DURATION s (supervisor $SUP, monitor $MON); samples in $CSV" >&2
while :; do
	t=$(($(date +%s) - T0))
	s=$(usage "$SUP") || s=
	m=$(usage "$MON") || m=
	if [ -z "$s" ] || [ -z "$m" ] || [ "$(pid_of supervisor.json)" != "$SUP" ] ||
		[ "$(pid_of monitor.json)" != "$MON" ]; then
		bench_failed soak "at $t s the supervisor ($SUP) or the monitor ($MON) was gone or replaced"
		break
	fi
	set -- $s $m
	echo "$t,$(cut -d' ' -f1 /proc/loadavg),$SUP,$1,$2,$MON,$3,$4" >>"$CSV"
	[ "$t" -ge "$DURATION" ] && break
	sleep "$SAMPLE"
done
LOAD1=$(cut -d' ' -f1-3 /proc/loadavg)
WINDOWS=$(grep -o '"windows": *[0-9]*' "$RUN/$NAME.d/monitor.json" 2>/dev/null | grep -o '[0-9]*$')
BREACHES=$(grep -o '"breaches": *[0-9]*' "$RUN/$NAME.d/monitor.json" 2>/dev/null | grep -o '[0-9]*$')

# "start end max grow slope cpu% cpumax%" of one process (RSS columns RC,
# ticks TC): growth = the largest RSS after the warm-up less the RSS at
# its end; slope: least squares over the samples after it, kB per hour
stats() { # RSS_COLUMN TICKS_COLUMN
	awk -F, -v r="$1" -v c="$2" -v w="$WARMUP" -v hz="$HZ" 'NR > 1 {
		n++; t[n] = $1; rss[n] = $r; tk[n] = $c
		if ($r > max) max = $r
		if (n > 1 && t[n] > t[n - 1]) { p = 100 * (tk[n] - tk[n - 1]) / hz / (t[n] - t[n - 1]); if (p > pmax) pmax = p }
		if ($1 >= w) { if (!base) base = $r; if ($r > lmax) lmax = $r; k++; sx += $1; sy += $r; sxx += $1 * $1; sxy += $1 * $r }
	} END {
		slope = (k > 1 && k * sxx - sx * sx) ? (k * sxy - sx * sy) / (k * sxx - sx * sx) * 3600 : 0
		cpu = t[n] > t[1] ? 100 * (tk[n] - tk[1]) / hz / (t[n] - t[1]) : 0
		printf "%d %d %d %d %.0f %.3f %.2f\n", rss[1], rss[n], max, base ? lmax - base : 0, slope, cpu, pmax
	}' "$CSV"
}
S=$(stats 4 5)
M=$(stats 7 8)
SAMPLES=$(($(wc -l <"$CSV") - 1))
ELAPSED=$(tail -n 1 "$CSV" | cut -d, -f1)
for p in "supervisor $S" "monitor $M"; do
	set -- $p
	if [ "$SAMPLES" -gt 1 ] && [ "$ELAPSED" -gt "$WARMUP" ] && [ "$5" -gt "$GROW_KB" ]; then
		bench_failed soak "the $1's RSS grew by $5 kB after the warm-up of $WARMUP s (more than GROW_KB=$GROW_KB)"
	fi
done
[ "$ELAPSED" -gt "$WARMUP" ] || bench_failed soak "ran $ELAPSED s, not past the warm-up of $WARMUP s"

row() { # LABEL START END MAX GROW SLOPE CPU CPUMAX
	echo "| $1 | $2 | $3 | $4 | $5 | $6 | $7 | $8 |"
}
{
	echo "# calvin benchmark: the supervisor and the monitor over $ELAPSED s, $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo
	echo "Machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), kernel $(uname -r), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)."
	echo "Load average at start: $LOAD0; at end: $LOAD1 (per sample: the CSV's load1 column; median $(cut -d, -f2 "$CSV" | tail -n +2 | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'))."
	echo "Chain: chains/tactile-fwd.yaml as $NAME, placement shared (fwd-u waits in the kernel),"
	echo "monitor at 10 probes/s in 10 s windows ($WINDOWS windows, $BREACHES breaches at the end)."
	echo "Supervisor: PID $SUP ($CMD_SUP); monitor: PID $MON ($CMD_MON)."
	echo "$SAMPLES samples, one every $SAMPLE s: VmRSS of /proc/PID/status, utime + stime of /proc/PID/stat."
	echo "Growth: the largest RSS after the warm-up ($WARMUP s) less the RSS at the warm-up's end; the slope:"
	echo "least squares over the same samples. Fails above GROW_KB=$GROW_KB kB."
	echo
	echo "| process | RSS start kB | RSS end kB | RSS max kB | growth after warm-up kB | slope kB/h | CPU mean % | CPU max % (one sample) |"
	echo "|---|---:|---:|---:|---:|---:|---:|---:|"
	if [ "$SAMPLES" -gt 1 ]; then
		row "supervisor (calvin supervise)" $S
		row "monitor (calvin monitor, 10/s)" $M
	else
		echo "| supervisor, monitor | $(bench_why soak) | - | - | - | - | - | - |"
	fi
	echo
	ls "$TMP"/*.why >/dev/null 2>&1 && echo "Failed: $(cat "$TMP"/soak.why | tr '\n' ' ')" && echo
	echo "Command: make bench-soak (DURATION=$DURATION SAMPLE=$SAMPLE WARMUP=$WARMUP GROW_KB=$GROW_KB); samples: $(basename "$CSV")."
} >"$OUT"
cat "$OUT"
bench_done "$OUT"
