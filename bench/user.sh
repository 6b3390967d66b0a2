#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# Benchmark of the advanced (user-space) VNFs, side by side in one run:
#   1. the network-coding codec per packet against raw ISA-L encoding of the
#      same data (bench/nc_bench.c, k=32, r=8, as in CALVIN's evaluation);
#   2. AEAD seal/open per packet against `openssl speed -evp` and an EVP
#      loop in the same process (bench/aead_bench.c);
#   3. residence time (t_out - t_in from the hop records) of each VNF in live
#      chains (chains/tactile-nc.yaml, chains/tactile-crypt.yaml), beside a
#      plain DPDK forwarder (chains/tactile-fwd.yaml) on the same machine, at
#      256 and 1400 bytes: the difference is what the transform adds.
# Writes bench/results/user-DATE.md and prints it. Needs root for part 3.
set -u
cd "$(dirname "$0")/.." || exit 1
B=build
OUT=bench/results/user-$(date +%Y%m%d-%H%M%S).md
COUNT=${BENCH_PROBES:-2000}
. bench/lib.sh
bench_live_init user.sh bench-user

# residence p50 and p99 (ns) of VNF NAME, direction fwd, from a -j report
residence() { # NAME JSON
	grep "\"name\": \"$1\"" "$2" | grep '"dir": "fwd"' | head -n 1 |
		grep -o '"residence_ns": {[^}]*}' | grep -o '"p50": [0-9]*\|"p99": [0-9]*' |
		grep -o '[0-9]*$' | tr '\n' ' '
}

# One live chain at one probe size: prints "p50 p99" per VNF asked for.
live() { # SPEC SIZE VNF...
	local spec=$1 size=$2 name copy
	shift 2
	name=b-$(basename "$spec" .yaml | sed 's/^tactile-//')
	bench_spec "$spec" "$name"
	copy=$BENCH_SPEC
	if ! $B/calvin -j run -c "$COUNT" -s "$size" "$copy" >"$TMP/$name-$size.json" 2>"$TMP/err"; then
		echo "(failed: $(tail -n 1 "$TMP/err"))"
		return
	fi
	for v in "$@"; do
		printf '%s ' "$v"
		residence "$v" "$TMP/$name-$size.json"
	done
}

{
	echo "# calvin user-space VNF benchmark, $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo
	echo "Machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), kernel $(uname -r)."
	echo "Load average at start: $(cut -d' ' -f1-3 /proc/loadavg) (a shared machine: read ratios and medians)."
	echo
	echo "## 1. Network coding codec (k=32, r=8, GF(2^8), ISA-L)"
	echo
	$B/bench/nc_bench
	echo
	echo "## 2. AEAD per packet against openssl speed"
	echo
	$B/bench/aead_bench
	echo
	echo "## 3. Residence time in live chains (hop records, $COUNT probes, ns)"
	echo
	echo "| chain | bytes | VNF | p50 | p99 |"
	echo "|---|---:|---|---:|---:|"
	for size in 256 1400; do
		for run in "chains/tactile-fwd.yaml fwd-u" "chains/tactile-nc.yaml enc dec" \
			"chains/tactile-crypt.yaml enc dec"; do
			set -- $run
			spec=$1
			shift
			live "$spec" "$size" "$@" | awk -v c="$(basename "$spec" .yaml)" -v s="$size" '
				/^\(failed/ { print "| " c " | " s " | " $0 " | | |"; next }
				{ for (i = 1; i + 2 <= NF; i += 3) print "| " c " | " s " | " $i " | " $(i+1) " | " $(i+2) " |" }'
		done
	done
	echo
	echo "The fwd-u row is a DPDK forwarder with no transform: the transform's own"
	echo "cost is the difference between its row and that one at the same size."
	echo "CALVIN (IEEE JSAC 2019) measured 22.4 us per 1400-byte packet for AES-256"
	echo "(portable C, no AES-NI) and 3.2 us for block network coding (Kodo RLNC)."
} | tee "$OUT"
echo "report: $OUT"
