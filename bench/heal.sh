#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# How fast the supervisor heals: ROUNDS (default 20) SIGKILLs of each user
# VNF kind (forward, encrypt, decrypt, nc-encode, nc-decode) while probes
# run at 1000/s: time from the kill to the supervisor's vnf-restarted
# event (fault to healed), the longest run of probes lost (ms at 1000/s)
# and the probes lost per fault; p50 and max of each. Hold the lock:
#   flock /tmp/calvin-net.lock make bench-heal
# The table goes to stdout and to bench/results/heal.md.
set -u
cd "$(dirname "$0")/.."
B=${B:-build}
CALVIN=$B/calvin
ROUNDS=${ROUNDS:-20}
TMP=$(mktemp -d /tmp/calvin-heal.XXXXXX)
[ -x "$CALVIN" ] || { echo "bench/heal.sh: no $CALVIN (run make)" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "bench/heal.sh: needs root" >&2; exit 2; }
trap '$CALVIN down b-heal-f >/dev/null 2>&1; $CALVIN down b-heal-c >/dev/null 2>&1;
	$CALVIN down b-heal-n >/dev/null 2>&1; rm -rf "$TMP"' EXIT

spec() { # FILE NAME
	sed "s/^name: .*/name: $2/; s/^    loss: 5%/    loss: 0%/" "$1" >"$TMP/$2.yaml"
	echo "$TMP/$2.yaml"
}
now_ns() { date +%s%N; }
# the time of the last vnf-restarted event of VNF, in ns since the epoch
restarted_ns() { # CHAIN VNF
	grep "\"kind\":\"vnf-restarted\",\"vnf\":\"$2\"" "/run/calvin/$1.d/events.jsonl" 2>/dev/null | tail -n 1 |
		sed 's/.*"time":"\([^"]*\)".*/\1/' | xargs -r -I{} date -d {} +%s%N
}
p50_max() { sort -n | awk '{ v[NR] = $1 } END { if (NR) printf "%s %s", v[int((NR + 1) / 2)], v[NR]; else printf "- -" }'; }

one_fault() { # CHAIN VNF: one line "HEAL_MS WINDOW_MS LOST"
	local c=$1 v=$2 pid t0 t1 n=3000 last
	last=$(restarted_ns $c $v)
	$CALVIN probe -c $n -r 1000 --raw "$TMP/raw" $c >/dev/null 2>&1 &
	local probe=$!
	sleep 0.8
	pid=$(pgrep -f "calvin-vnf --chain $c --name $v ")
	t0=$(now_ns)
	kill -KILL "$pid"
	wait $probe
	for _ in $(seq 1 50); do
		t1=$(restarted_ns $c $v)
		[ -n "$t1" ] && [ "$t1" != "$last" ] && break
		sleep 0.1
	done
	sort -n "$TMP/raw" | awk -v n=$n -v h=$(((t1 - t0) / 1000000)) '
		{ if (NR > 1 && $1 - last - 1 > w) w = $1 - last - 1; last = $1; got++ }
		END { if (n - 1 - last > w) w = n - 1 - last; print h, w + 0, n - got }'
}

run_kind() { # FILE CHAIN VNF
	local s
	s=$(spec "$1" "$2")
	$CALVIN up "$s" >/dev/null || { echo "bench/heal.sh: up of $2 failed" >&2; exit 1; }
	for _ in $(seq 1 "$ROUNDS"); do one_fault "$2" "$3"; done >"$TMP/$3.$2"
	$CALVIN down "$2" >/dev/null
}

$CALVIN keygen "$TMP/tactile-crypt.key" >/dev/null
run_kind chains/tactile-fwd.yaml b-heal-f fwd-u
run_kind chains/tactile-crypt.yaml b-heal-c enc
run_kind chains/tactile-crypt.yaml b-heal-c dec
run_kind chains/tactile-nc.yaml b-heal-n enc
run_kind chains/tactile-nc.yaml b-heal-n dec
mkdir -p bench/results
{
	echo "# Supervisor: fault (SIGKILL) to healed, $ROUNDS faults per kind, probes at 1000/s"
	echo
	echo "| VNF (kind) | healed p50 ms | healed max ms | loss window p50 ms | max ms | lost/fault p50 | max |"
	echo "|---|---|---|---|---|---|---|"
	for k in "fwd-u.b-heal-f forward" "enc.b-heal-c encrypt" "dec.b-heal-c decrypt" \
		"enc.b-heal-n nc-encode" "dec.b-heal-n nc-decode"; do
		set -- $k
		echo "| ${1%%.*} ($2) | $(awk '{print $1}' "$TMP/$1" | p50_max | tr ' ' '|' | sed 's/|/ | /') |" \
			"$(awk '{print $2}' "$TMP/$1" | p50_max | sed 's/ / | /') |" \
			"$(awk '{print $3}' "$TMP/$1" | p50_max | sed 's/ / | /') |"
	done
} | tee bench/results/heal.md
