#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# Benchmark of the advanced (user-space) VNFs, side by side in one run:
#   1. the network-coding codec per packet against raw ISA-L encoding of the
#      same data (bench/progs/nc_bench.c, k=32, r=8, as in CALVIN's evaluation);
#   2. AEAD seal/open per packet against OpenSSL's per-record mode, `openssl
#      speed -aead`, run in the same session, and the same calls in process
#      (bench/progs/aead_bench.c);
#   3. residence time (t_out - t_in from the hop records) of every hop in live
#      chains (chains/tactile-nc.yaml, chains/tactile-crypt.yaml), beside
#      plain DPDK forwarders placed as they are (two user forward VNFs on one
#      shared core: tactile-fwd2, written below) and chains/tactile-fwd.yaml
#      (one, on a core of its own), at 256 and 1400 bytes: a transform adds
#      the difference to tactile-fwd2's row. Each row says what its window
#      covers, from the tier and, for a user VNF, from its port's PMD and
#      where `calvin status` says its records start.
# Writes bench/results/user-DATE.md and prints it. Needs root for part 3.
set -u
cd "$(dirname "$0")/.." || exit 1
B=build
OUT=bench/results/user-$(date +%Y%m%d-%H%M%S).md
COUNT=${BENCH_PROBES:-2000}
. bench/lib.sh
bench_live_init user.sh bench-user

# calvin's -j output is read by a JSON parser (tests/tools/jsondoc.c).
J=$B/tests/tools/jsondoc

# One string of one user VNF from a `calvin -j status` answer.
status_str() { # STATUS_FILE VNF KEY
	$J "0.vnfs.[name=$2].telemetry./calvin/stats.$3" <"$1" 2>/dev/null
}

# What a hop's residence window covers. A user VNF's frames going fwd come
# in on its west port, rev on its east port.
window() { # STATUS_FILE VNF SPACE DIR
	local port=west pmd t_in
	if [ "$3" = kernel ]; then
		echo "kernel, XDP: its program's first instruction to its verdict (redirect)"
		return
	fi
	[ "$4" = rev ] && port=east
	pmd=$(status_str "$1" "$2" ${port}_pmd)
	t_in=$(status_str "$1" "$2" ${port}_t_in)
	case $t_in/$pmd in
	xdp/af_xdp) echo "user, af_xdp: hand-over XDP program's first instruction, AF_XDP ring," \
		"rx_burst, transform, to just before tx_burst" ;;
	xdp/af_packet) echo "user, af_packet: hand-over XDP program's first instruction, stack," \
		"AF_PACKET ring, rx_burst, transform, to just before tx_burst" ;;
	*) echo "user, ${pmd:-?}: rx_burst's return to just before tx_burst (no hand-over program)" ;;
	esac
}

# Rows of one probe report: every hop, its window, residence p50 and p99.
hop_rows() { # CHAIN_LABEL SIZE JSON STATUS_FILE
	local i n name space dir p50 p99
	n=$($J -n hops <"$3") || return
	for ((i = 0; i < n; i++)); do
		name=$($J hops.$i.name <"$3")
		space=$($J hops.$i.space <"$3")
		dir=$($J hops.$i.dir <"$3")
		p50=$($J hops.$i.residence_ns.p50 <"$3")
		p99=$($J hops.$i.residence_ns.p99 <"$3")
		echo "| $1 | $2 | $name $dir | $(window "$4" "$name" "$space" "$dir") | $p50 | $p99 |"
	done
}

# One live chain: up, where its user ports' records start, probes at each
# size, down.
live() { # SPEC
	local spec=$1 label name size
	label=$(basename "$spec" .yaml)
	name=b-${label#tactile-}
	bench_spec "$spec" "$name"
	if ! $B/calvin up "$BENCH_SPEC" >/dev/null 2>"$TMP/err"; then
		echo "| $label | - | not measured: calvin up failed: $(tail -n 1 "$TMP/err") | - | - | - |"
		return
	fi
	$B/calvin -j status "$name" >"$TMP/$name.status" 2>/dev/null
	for size in 256 1400; do
		if $B/calvin -j probe -c "$COUNT" -s "$size" "$name" >"$TMP/$name-$size.json" \
			2>"$TMP/err"; then
			hop_rows "$label" "$size" "$TMP/$name-$size.json" "$TMP/$name.status"
		else
			echo "| $label | $size | not measured: calvin probe failed: $(tail -n 1 "$TMP/err") | - | - | - |"
		fi
	done
	$B/calvin down "$name" >/dev/null 2>&1
}

# The control of the transforming chains: the same placement, forwarders.
fwd2_spec() {
	cat >"$TMP/tactile-fwd2.yaml" <<-'SPEC'
	name: tactile-fwd2
	budget: 350us
	placement: pinned
	allow-sharing: true
	vnfs:
	  - name: fwd-a
	    kind: forward
	    space: user
	  - name: fwd-b
	    kind: forward
	    space: user
	server:
	  kind: echo
	SPEC
	echo "$TMP/tactile-fwd2.yaml"
}

{
	echo "# calvin user-space VNF benchmark, $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo
	echo "Machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), kernel $(uname -r)."
	echo "Load average at start: $(cut -d' ' -f1-3 /proc/loadavg) (a shared machine: read ratios and medians)."
	echo "Commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)."
	echo
	echo "## 1. Network coding codec (k=32, r=8, GF(2^8), ISA-L)"
	echo
	$B/bench/nc_bench || echo "not measured: bench/nc_bench exited $?"
	echo
	echo "## 2. AEAD per packet against OpenSSL's per-record mode ($(openssl version | cut -d' ' -f1-2))"
	echo
	$B/bench/aead_bench || echo "not measured: bench/aead_bench exited $?"
	echo
	echo "## 3. Residence time in live chains (hop records, $COUNT probes per size, ns)"
	echo
	echo "| chain | bytes | hop | what the window covers | p50 | p99 |"
	echo "|---|---:|---|---|---:|---:|"
	for spec in chains/tactile-fwd.yaml "$(fwd2_spec)" chains/tactile-nc.yaml \
		chains/tactile-crypt.yaml; do
		live "$spec"
	done
	echo
	echo "Every window starts where its node first sees the frame and ends just"
	echo "before the frame is handed on: a kernel VNF's at its XDP program's first"
	echo "instruction, a user VNF's in the hand-over XDP program on its port"
	echo "(kernel/handover.bpf.c), so it includes the hand-over through the AF_XDP"
	echo "ring (or the stack and AF_PACKET ring), and any wait until the VNF polls."
	echo "Neither includes the transmit after it (the redirect's, tx_burst's)."
	echo "User VNFs that share a core wait for frames in the kernel (wakeup), so"
	echo "their windows include a wake-up; one with a core of its own (tactile-fwd's"
	echo "fwd-u) busy-polls. tactile-fwd2 is two DPDK forwarders placed as the"
	echo "transforming pairs are: a transform's own cost is the difference between"
	echo "its row and tactile-fwd2's at the same position and size."
	echo "CALVIN (IEEE JSAC 2019) measured 22.4 us per 1400-byte packet for AES-256"
	echo "(portable C, no AES-NI) and 3.2 us for block network coding (Kodo RLNC)."
} | tee "$OUT"
echo "report: $OUT"
bench_done "$OUT"
