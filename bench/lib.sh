# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# Shared by the benchmarks that deploy live chains (user.sh, sharing.sh, vm-links.sh):
# root, a temporary directory, chains under names of the benchmark's own,
# torn down on any exit. Sourced, not run; expects B (the build directory).

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

bench_live_cleanup() {
	local c
	for c in "${CHAINS[@]}"; do $B/calvin down "$c" >/dev/null 2>&1; done
	rm -rf "$TMP"
}

# A copy of SPEC named NAME in TMP, with a fresh key file beside it if the
# spec names one (key files are looked up beside the spec); its path in
# BENCH_SPEC. Not in a subshell: it records the chain for the cleanup.
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
