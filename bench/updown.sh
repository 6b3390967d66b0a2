#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# What `calvin up` and `calvin down` cost: wall time (median of RUNS) for
# chains/tactile-fwd.yaml and a 32-VNF chain, and how many processes calvin
# starts per up and per down (execve calls under strace -f, calvin's own
# left out). Builds given as arguments are measured side by side, their
# rounds interleaved so that a busy moment of this shared machine falls on
# all of them alike; default: build. Hold the lock:
#   flock /tmp/calvin-net.lock make bench-updown
#   flock /tmp/calvin-net.lock bench/updown.sh /tmp/old-build build
# RUNS (default 10) and CHAINS (default "fwd chain32") choose what runs.
# The table goes to stdout and to bench/results/updown.md.
set -u
cd "$(dirname "$0")/.."
B=${B:-build}
RUNS=${RUNS:-10}
KINDS=${CHAINS:-fwd chain32}
BUILDS=("$@")
[ ${#BUILDS[@]} -eq 0 ] && BUILDS=("$B")
. bench/lib.sh

for b in "${BUILDS[@]}"; do
	[ -x "$b/calvin" ] || { echo "bench/updown.sh: no $b/calvin (run make)" >&2; exit 2; }
done
command -v strace >/dev/null || { echo "bench/updown.sh: strace is not installed (Debian package strace)" >&2; exit 2; }
bench_live_init updown.sh bench-updown
# every chain here is the benchmark's own, under a journal of its own
export CALVIN_RUN_DIR=$TMP/run
# On any exit, whatever is up goes down, by each build (the one that made
# it knows its journal best; the others find nothing to do).
CHAINS_UP=()
down_all() {
	local b c
	for b in "${BUILDS[@]}"; do
		for c in "${CHAINS_UP[@]}"; do "$b/calvin" down "$c" >/dev/null 2>&1; done
	done
	rm -rf "$TMP"
}
trap down_all EXIT

spec_fwd() { # OUT NAME
	sed "s/^name: .*/name: $2/" chains/tactile-fwd.yaml >"$1"
}

spec_chain32() { # OUT NAME
	bash tests/integration/spec_chain32.sh "$2" >"$1"
}

now() { echo "${EPOCHREALTIME/./}"; } # microseconds

# One timed command; its seconds appended to FILE.
timed() { # FILE CMD...
	local f=$1 t0 t1
	shift
	t0=$(now)
	"$@" >"$TMP/out" 2>&1 || { echo "bench/updown.sh: '$*' failed: $(tail -n 2 "$TMP/out")" >&2; return 1; }
	t1=$(now)
	awk -v d=$((t1 - t0)) 'BEGIN { printf "%.4f\n", d / 1e6 }' >>"$f"
}

# Processes started by one command: execve calls of calvin's children
# (each one's own execve; strace lets go of it there, so a VNF that runs
# on does not keep strace waiting).
execs() { # CMD...
	strace -f -b execve -qq -e trace=execve -e signal=none -o "$TMP/strace" "$@" >"$TMP/out" 2>&1 ||
		{ echo "bench/updown.sh: '$*' failed under strace: $(tail -n 2 "$TMP/out")" >&2; return 1; }
	# the first execve is calvin's own
	echo $(($(grep -c 'execve(' "$TMP/strace") - 1))
}

median() { # FILE
	sort -n "$1" | awk '{ v[NR] = $1 } END { if (NR == 0) print "n/a";
		else if (NR % 2) printf "%.3f", v[(NR + 1) / 2];
		else printf "%.3f", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

measure() { # CHAIN-KIND
	local kind=$1 name="b-ud-$1" spec="$TMP/$1.yaml" r i b
	spec_$kind "$spec" "$name"
	CHAINS_UP+=("$name")
	for r in $(seq "$RUNS"); do
		for i in "${!BUILDS[@]}"; do
			b=${BUILDS[$i]}
			timed "$TMP/$kind.$i.up" "$b/calvin" up "$spec" || return 1
			timed "$TMP/$kind.$i.down" "$b/calvin" down "$name" || return 1
		done
	done
	for i in "${!BUILDS[@]}"; do
		b=${BUILDS[$i]}
		execs "$b/calvin" up "$spec" >"$TMP/$kind.$i.xup" || return 1
		execs "$b/calvin" down "$name" >"$TMP/$kind.$i.xdown" || return 1
	done
}

OUT=bench/results/updown.md
{
	echo "# calvin up and down: wall time and processes started"
	echo
	echo "$(date -u +%Y-%m-%dT%H:%MZ), $(nproc) CPUs, kernel $(uname -r); median of $RUNS runs;"
	echo "processes: execve calls under strace -f, calvin's own not counted."
	echo
	printf '| chain | figure |'
	for b in "${BUILDS[@]}"; do printf ' %s |' "$b"; done
	printf '\n| --- | --- |'
	for b in "${BUILDS[@]}"; do printf ' --- |'; done
	echo
} >"$TMP/report"
for kind in $KINDS; do
	declare -F "spec_$kind" >/dev/null || { echo "bench/updown.sh: unknown chain '$kind' (fwd, chain32)" >&2; exit 2; }
	measure "$kind" || bench_failed "$kind" "up or down failed"
	for fig in "up s:up" "down s:down" "processes per up:xup" "processes per down:xdown"; do
		printf '| %s | %s |' "$kind" "${fig%%:*}"
		for i in "${!BUILDS[@]}"; do
			f="$TMP/$kind.$i.${fig##*:}"
			if [ ! -s "$f" ]; then printf ' %s |' "$(bench_why "$kind")"
			elif [ "${fig##*:}" = up ] || [ "${fig##*:}" = down ]; then printf ' %s |' "$(median "$f")"
			else printf ' %s |' "$(cat "$f")"; fi
		done
		echo
	done >>"$TMP/report"
done
cp "$TMP/report" "$OUT"
cat "$OUT"
bench_done "$OUT"
