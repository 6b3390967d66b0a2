# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# Shared by the benchmarks that deploy live chains (user.sh, sharing.sh, vm-links.sh):
# root, a temporary directory, chains under names of the benchmark's own,
# torn down on any exit; what could not be measured, said where the figure
# would be ("not measured: WHY") and in the exit status. Sourced, not run;
# expects B (the build directory).

# Exits 2 unless root; sets TMP and CHAINS.
bench_live_init() { # SCRIPT MAKE-TARGET
	if [ "$(id -u)" != 0 ]; then
		echo "bench/$1: needs root for the live chains (run as root: make $2)" >&2
		exit 2
	fi
	TMP=$(mktemp -d "/tmp/calvin-$2.XXXXXX")
	CHAINS=()
	trap bench_live_cleanup EXIT
	trap 'exit 130' INT TERM
	mkdir -p bench/results
}

# BENCH_LOCK: the machine's lock, set by a benchmark that takes it itself
# for each step (not for its whole run): its chains go down under it too.
bench_live_cleanup() {
	local c
	for c in "${CHAINS[@]}"; do
		# none to wait for the lock for when its journal is gone
		[ -e "${CALVIN_RUN_DIR:-/run/calvin}/$c.state" ] || continue
		${BENCH_LOCK:+flock "$BENCH_LOCK"} $B/calvin down "$c" >/dev/null 2>&1
	done
	rm -rf "$TMP"
}

# A copy of SPEC named NAME in TMP, with a fresh key file beside it if the
# spec names one (key files are looked up beside the spec); its path in
# BENCH_SPEC. Not in a subshell: it records the chain for the cleanup.
# A measurement of KEY that could not be made, and why: its report says
# so, and the script exits 1 (bench_done).
bench_failed() { # KEY WHY
	echo "$2" >>"$TMP/$1.why"
	echo "$1: $2" >&2
}

# "not measured: WHY" for KEY (the first reason recorded).
bench_why() { # KEY
	echo "not measured: $(head -n 1 "$TMP/$1.why" 2>/dev/null || echo "no data")"
}

# The end of a benchmark whose report is OUT: 1 when a measurement failed
# or the report holds a figure it could not measure, else 0.
bench_done() { # OUT
	if ls "$TMP"/*.why >/dev/null 2>&1 || grep -q 'not measured' "$1"; then
		echo "$(basename "$0"): some figures were not measured; $1 says which and why" >&2
		exit 1
	fi
	exit 0
}

bench_spec() { # SPEC NAME
	local k
	BENCH_SPEC=$TMP/$2.yaml
	[ -e "$BENCH_SPEC" ] && return
	sed "s/^name: .*/name: $2/" "$1" >"$BENCH_SPEC"
	k=$(grep -o 'key-file: *[^ #]*' "$BENCH_SPEC" | head -n 1 | sed 's/key-file: *//')
	[ -z "$k" ] || [ -e "$TMP/$k" ] || $B/calvin keygen "$TMP/$k" >/dev/null
	CHAINS+=("$2")
}

# "p50 p99 p99.9 n" in us of the RTTs of raw lines; full=1: only probes
# with the most hop records (not recovered by a network decoder)
rtt_pct() { # FILE [FULL]
	awk -v full="${2:-0}" '
		{ rtt[NR] = ($3 - $2) / 1000; hops[NR] = $4; if ($4 > maxh) maxh = $4 }
		END { for (i = 1; i <= NR; i++) if (!full || hops[i] == maxh) print rtt[i] }' "$1" |
		sort -n | awk '
		{ v[NR] = $1 }
		function p(q,  i) { i = int(q * NR + 0.999999); if (i < 1) i = 1; return v[i] }
		END { if (NR) printf "%.1f %.1f %.1f %d\n", p(0.5), p(0.99), p(0.999), NR; else print "- - - 0" }'
}
