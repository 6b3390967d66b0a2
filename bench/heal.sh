#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# How fast the supervisor heals: ROUNDS (default 20) SIGKILLs of each user
# VNF kind (forward, encrypt, decrypt, nc-encode, nc-decode) while probes
# run at 1000/s. Each fault is an isolated one: a fresh supervisor is
# attached before it (`up --no-supervise`, then `up`, which leave the data
# path alone), so no restart of an earlier round's counts toward the
# restart backoff (100 ms doubling, for starts within 60 s). Per fault:
# fault to healed (the kill to the supervisor's vnf-restarted event, which
# comes after the VNF's ready line), split into detection (to vnf-exited)
# and start (vnf-exited to vnf-restarted: a pair's both ends, the new
# epoch, the VNF's af_xdp sockets); the loss window (the longest run of
# probes lost, ms at 1000/s) and the probes lost per fault. p50 with its
# 95% interval, and max, over the faults of each kind.
# It takes the machine's lock itself for each kind (up, its faults, down),
# so others can run between kinds: make bench-heal (BENCH_LOCK= when the
# caller holds the lock already). Writes bench/results/heal-DATE.md (and
# each fault's figures in heal-DATE.tsv) and prints it.
set -u
cd "$(dirname "$0")/.." || exit 1
B=$PWD/build
CALVIN=$B/calvin
ROUNDS=${ROUNDS:-20}
COUNT=${HEAL_PROBES:-3000} # per fault, at 1000/s; the kill after 0.5 s
RUN=${CALVIN_RUN_DIR:-/run/calvin}
BENCH_LOCK=${BENCH_LOCK-/tmp/calvin-net.lock}
OUT=bench/results/heal-$(date -u +%Y%m%d-%H%M%S).md
TSV=${OUT%.md}.tsv
[ -x "$CALVIN" ] || { echo "bench/heal.sh: no $CALVIN (run make)" >&2; exit 2; }
. bench/lib.sh
bench_live_init heal.sh bench-heal

now_ns() { date +%s%N; }
# the time (ns since the epoch) of VNF's first KIND event after line FROM
event_ns() { # CHAIN FROM KIND VNF
	tail -n +"$(($2 + 1))" "$RUN/$1.d/events.jsonl" 2>/dev/null |
		grep -m 1 "\"kind\":\"$3\",\"vnf\":\"$4\"" |
		sed 's/.*"time":"\([^"]*\)".*/\1/' | xargs -r -I{} date -d {} +%s%N
}
sup_pid() { # CHAIN
	grep -o '"pid":[0-9]*' "$RUN/$1.d/supervisor.json" 2>/dev/null | head -n 1 | cut -d: -f2
}

# A supervisor of its own for the next fault: the old one stopped, a new
# one attached, and watching (its supervisor.json names every VNF running;
# a VNF's entry is the one whose state is followed by its restarts, the
# chain's own state by its reason)
fresh_supervisor() { # SPEC CHAIN VNFS
	local old i
	old=$(sup_pid "$2")
	$CALVIN up --no-supervise "$1" >/dev/null 2>&1 && $CALVIN up "$1" >/dev/null 2>&1 || return 1
	for i in $(seq 100); do
		[ "$(sup_pid "$2")" != "$old" ] &&
			[ "$(grep -o '"state":"running","restarts"' "$RUN/$2.d/supervisor.json" | wc -l)" = "$3" ] && return 0
		sleep 0.05
	done
	return 1
}

# When the process PID was forked, in ns since the epoch (to 10 ms: its
# start time in clock ticks after boot, and the boot's time from
# /proc/uptime read beside the realtime clock)
fork_ns() { # PID
	local st up now
	st=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | awk '{ print $20 }')
	read -r up _ </proc/uptime
	now=$(now_ns)
	[ -n "$st" ] && awk -v s="$st" -v hz="$(getconf CLK_TCK)" -v up="$up" -v now="$now" \
		'BEGIN { printf "%.0f\n", now - up * 1e9 + s / hz * 1e9 }'
}

# One fault: "HEAL_MS DETECT_MS START_MS WINDOW_MS LOST PREFORK_MS INIT_MS"
# to stdout; start = prefork (the supervisor's work before it forks the
# new process: the partner's stop, the epoch, stale hand-over programs)
# + init (fork to the VNF's ready line: EAL, af_xdp sockets, links)
one_fault() { # SPEC CHAIN VNF NR_VNFS
	local c=$2 v=$3 pid t0 ex re from probe i fk
	fresh_supervisor "$1" "$c" "$4" || { bench_failed "$c.$v" "no fresh supervisor for $c"; return; }
	from=$(wc -l <"$RUN/$c.d/events.jsonl")
	rm -f "$TMP/raw"
	$CALVIN probe -c "$COUNT" -r 1000 --raw "$TMP/raw" "$c" >/dev/null 2>&1 &
	probe=$!
	sleep 0.5
	pid=$(pgrep -f "calvin-vnf --chain $c --name $v ")
	t0=$(now_ns)
	kill -KILL "$pid" || { bench_failed "$c.$v" "no process of $v to kill"; wait $probe; return; }
	wait $probe
	for i in $(seq 100); do
		re=$(event_ns "$c" "$from" vnf-restarted "$v")
		[ -n "$re" ] && break
		sleep 0.1
	done
	ex=$(event_ns "$c" "$from" vnf-exited "$v")
	fk=$(fork_ns "$(pgrep -f "calvin-vnf --chain $c --name $v ")")
	if [ -z "$re" ] || [ -z "$ex" ] || [ -z "$fk" ]; then
		bench_failed "$c.$v" "no vnf-restarted event of $v within 10 s of the kill"
		return
	fi
	sort -n "$TMP/raw" | awk -v n="$COUNT" -v h=$(((re - t0) / 1000)) -v d=$(((ex - t0) / 1000)) \
		-v s=$(((re - ex) / 1000)) -v pf=$(((fk - ex) / 1000)) -v it=$(((re - fk) / 1000)) '
		{ if (NR > 1 && $1 - last - 1 > w) w = $1 - last - 1; last = $1; got++ }
		END { if (n - 1 - last > w) w = n - 1 - last
		      printf "%.1f %.1f %.1f %d %d %.0f %.0f\n", h / 1000, d / 1000, s / 1000, w, n - got, pf / 1000, it / 1000 }'
}

# One kind under the lock: up, ROUNDS faults, down; the load before and after
run_kind() { # FILE CHAIN VNF NR_VNFS
	local f=$TMP/$3.$2
	bench_spec "$1" "$2"
	sed -i 's/^    loss: 5%/    loss: 0%/' "$BENCH_SPEC"
	echo "bench/heal.sh: $ROUNDS faults of $3 in $2" >&2
	(
		[ -z "$BENCH_LOCK" ] || flock 9
		echo "$(cut -d' ' -f1 /proc/loadavg)" >"$f.load"
		if ! $CALVIN up "$BENCH_SPEC" >/dev/null 2>"$TMP/err"; then
			bench_failed "$2.$3" "calvin up of $2 failed: $(tail -n 1 "$TMP/err")"
			exit
		fi
		for _ in $(seq 1 "$ROUNDS"); do one_fault "$BENCH_SPEC" "$2" "$3" "$4"; done >"$f"
		sed "s/^/$2 $3 /" "$f" >>"$TSV"
		echo "$(cut -d' ' -f1 /proc/loadavg)" >>"$f.load"
		$CALVIN down "$2" >/dev/null 2>&1
	) 9>"${BENCH_LOCK:-/dev/null}"
}

# "p50 [lo, hi] | max" of column COL: the interval from the order
# statistics (ranks j and n+1-j, the largest j with P(Bin(n,1/2) < j) <= 2.5%)
p50_ci_max() { # FILE COL
	awk -v c="$2" '{ print $c }' "$1" | sort -g | awk '
		{ v[NR] = $1 }
		END {
			if (!NR) { printf "- | -"; exit }
			p = 0.5 ^ NR; cum = p; j = 0
			for (k = 0; cum <= 0.025 && k < NR; k++) { p = p * (NR - k) / (k + 1); cum += p; j = k + 1 }
			m = v[int((NR + 1) / 2)]
			if (j >= 1) printf "%s [%s, %s] | %s", m, v[j], v[NR + 1 - j], v[NR]
			else printf "%s [-] | %s", m, v[NR]
		}'
}
p50() { # FILE COL
	awk -v c="$2" '{ print $c }' "$1" | sort -g | awk '{ v[NR] = $1 } END { print NR ? v[int((NR + 1) / 2)] : "-" }'
}

LOAD0=$(cut -d' ' -f1-3 /proc/loadavg)
T0=$(date +%s)
echo "chain vnf heal_ms detect_ms start_ms window_ms lost prefork_ms init_ms" >"$TSV"
run_kind chains/tactile-fwd.yaml b-heal-f fwd-u 1
run_kind chains/tactile-crypt.yaml b-heal-c enc 2
run_kind chains/tactile-crypt.yaml b-heal-c dec 2
run_kind chains/tactile-nc.yaml b-heal-n enc 2
run_kind chains/tactile-nc.yaml b-heal-n dec 2
{
	echo "# calvin benchmark: the supervisor, fault (SIGKILL) to healed, $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo
	echo "Machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), kernel $(uname -r), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)."
	echo "Load average at start: $LOAD0; at end: $(cut -d' ' -f1-3 /proc/loadavg); $(($(date +%s) - T0)) s in all, the lock taken per kind."
	echo "Per kind: the chain deployed once, then $ROUNDS isolated faults (a fresh supervisor attached"
	echo "before each), each a SIGKILL 0.5 s into $COUNT probes at 1000/s. Healed: the kill to the"
	echo "vnf-restarted event (written after the new process's ready line); detect: to vnf-exited;"
	echo "start: vnf-exited to vnf-restarted (both ends of a pair), split at the new process's fork"
	echo "(its start time, to 10 ms) into prefork (the partner's stop, the epoch, stale programs) and"
	echo "init (to the ready line: EAL, af_xdp sockets, links; a pair's ends start one after the"
	echo "other in chain order, so an encoder's init holds its decoder's start, and a decoder's"
	echo "prefork its encoder's). Window: the longest run of"
	echo "probes lost (ms at 1000/s); it runs to the first probe through the restarted VNF."
	echo "p50 [95% interval from the order statistics] and max over the faults."
	echo
	echo "| VNF (kind) | faults | healed p50 ms [95%] | max ms | detect p50 ms | start p50 ms | prefork p50 ms | init p50 ms | loss window p50 ms [95%] | max ms | lost/fault p50 | max | load1 before, after |"
	echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
	for k in "fwd-u.b-heal-f forward" "enc.b-heal-c encrypt" "dec.b-heal-c decrypt" \
		"enc.b-heal-n nc-encode" "dec.b-heal-n nc-decode"; do
		set -- $k
		f=$TMP/$1
		if [ ! -s "$f" ]; then
			echo "| ${1%%.*} ($2) | 0 | $(bench_why "${1#*.}.${1%%.*}") | - | - | - | - | - | - | - | - | - | - |"
			continue
		fi
		echo "| ${1%%.*} ($2) | $(wc -l <"$f") | $(p50_ci_max "$f" 1) | $(p50 "$f" 2) | $(p50 "$f" 3) | $(p50 "$f" 6) | $(p50 "$f" 7) |" \
			"$(p50_ci_max "$f" 4) | $(p50_ci_max "$f" 5 | sed 's/ \[.*\]//') | $(tr '\n' ' ' <"$f.load" | sed 's/ $//; s/ /, /') |"
	done
	echo
	echo "Command: make bench-heal (ROUNDS=$ROUNDS HEAL_PROBES=$COUNT; it takes /tmp/calvin-net.lock per kind)."
} >"$OUT"
cat "$OUT"
bench_done "$OUT"
