#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# Benchmark of the host-side links between VNF VMs (the libvirt backend):
# chains/tactile-fwd-vm.yaml with `links: xdp` (calvin's XDP link program
# redirects each frame from one VM's tap to the next one's) against
# `links: bridge` (a two-port Linux bridge per link), the two alternating
# round by round in one run. Each round deploys the chain (the VMs boot),
# probes it and takes it down; RTT percentiles pool every probe of a
# configuration, and the ratio is taken per round (bridge over xdp) and
# given as the median of rounds with its range.
#
# Only the RTT can compare them: a VM is a clock domain of its own, so the
# link times between VMs are not measured (see README, "Chains in VMs").
# Under TCG (this build machine) the VMs are emulated and their time
# dominates the RTT; the report says so at the top. Needs root, the guest
# image (make vm-image) and the machine's lock:
#   flock /tmp/calvin-net.lock make bench-vm-links
# Writes bench/results/vm-links-DATE.md and prints it.
set -u
cd "$(dirname "$0")/.." || exit 1
B=$PWD/build
OUT=bench/results/vm-links-$(date +%Y%m%d-%H%M%S).md
COUNT=${BENCH_PROBES:-400}
ROUNDS=${BENCH_ROUNDS:-4}
RATE=${BENCH_RATE:-200}
. bench/lib.sh
bench_live_init vm-links.sh bench-vm-links
[ -f "$B/vm-images/cloud/initramfs.img" ] ||
	{ echo "bench/vm-links.sh: no guest image; run make vm-image first" >&2; exit 2; }

LINKS=(xdp bridge)

# A copy of the VM chain named NAME with `links: L`.
link_spec() { # L NAME
	bench_spec chains/tactile-fwd-vm.yaml "$2"
	sed -i "s/^\( *links:\) *[a-z]*/\1 $1/" "$BENCH_SPEC"
	grep -q "^ *links: $1" "$BENCH_SPEC" ||
		{ echo "bench/vm-links.sh: cannot set links: $1 in $BENCH_SPEC" >&2; exit 1; }
}

# One round of one configuration: up (VMs boot), probes, down. Appends the
# raw probe lines to TMP/L.raw and the round's p50 to TMP/L.p50.
one() { # L
	local name=bvl-$1
	link_spec "$1" "$name"
	if ! $B/calvin up "$BENCH_SPEC" >"$TMP/up-$1" 2>"$TMP/err"; then
		bench_failed "$1" "calvin up failed: $(tail -n 1 "$TMP/err")"
		return
	fi
	rm -f "$TMP/round.raw" # a failed probe's round must not count an earlier one's
	$B/calvin probe -c "$COUNT" -r "$RATE" --raw "$TMP/round.raw" "$name" \
		>"$TMP/report-$1" 2>"$TMP/err" ||
		bench_failed "$1" "calvin probe failed: $(tail -n 1 "$TMP/err")"
	$B/calvin down "$name" >/dev/null 2>&1
	[ -s "$TMP/round.raw" ] || return
	cat "$TMP/round.raw" >>"$TMP/$1.raw"
	rtt_pct "$TMP/round.raw" | cut -d' ' -f1 >>"$TMP/$1.p50"
}

LOAD0=$(cut -d' ' -f1-3 /proc/loadavg)
for r in $(seq "$ROUNDS"); do
	# the order alternates too, so neither always runs first
	if [ $((r % 2)) = 1 ]; then order=("${LINKS[@]}"); else order=(bridge xdp); fi
	for l in "${order[@]}"; do
		echo "round $r/$ROUNDS: links $l" >&2
		one "$l"
	done
done

# "median min max" of the per-round ratios bridge p50 / xdp p50
round_ratios() {
	paste "$TMP/bridge.p50" "$TMP/xdp.p50" | awk '$2 > 0 { print $1 / $2 }' | sort -n |
		awk '{ v[NR] = $1 } END { if (NR) printf "%.3f %.3f %.3f\n", v[int((NR + 1) / 2)], v[1], v[NR]; else print "- - -" }'
}

{
	echo "# calvin benchmark: links between VNF VMs, XDP against a bridge, $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo
	echo "Machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), kernel $(uname -r)."
	echo "Load average at start: $LOAD0; at end: $(cut -d' ' -f1-3 /proc/loadavg) (a shared machine: read ratios and medians)."
	echo "Nodes, as calvin reported them: $(sed -n 's/^nodes: //p' "$TMP/up-xdp" 2>/dev/null | head -n 1)."
	if grep -q 'under TCG' "$TMP/up-xdp" 2>/dev/null; then
		echo
		echo "**Timings are emulated (TCG): the VMs' time dominates the RTT, and a difference between"
		echo "the links smaller than the rounds' spread is not one. Run this on a KVM host for figures.**"
	fi
	echo
	echo "chains/tactile-fwd-vm.yaml (fwd-k in one VM, fwd-u in another, probe and server in"
	echo "namespaces), $ROUNDS rounds x $COUNT probes at $RATE/s per configuration, alternating, each"
	echo "round a fresh deployment. The links differ only between the two VMs (tap to tap)."
	echo
	echo "| links | RTT p50 us | p99 us | p99.9 us | probes back |"
	echo "|---|---:|---:|---:|---:|"
	for l in "${LINKS[@]}"; do
		if [ ! -s "$TMP/$l.raw" ]; then
			echo "| $l | $(bench_why "$l") | - | - | 0 of $((ROUNDS * COUNT)) |"
			continue
		fi
		read -r p50 p99 p999 n < <(rtt_pct "$TMP/$l.raw")
		echo "| $l | $p50 | $p99 | $p999 | $n of $((ROUNDS * COUNT)) |"
	done
	echo
	read -r med lo hi < <(round_ratios)
	if [ "$med" = - ]; then
		echo "p50 RTT, bridge over xdp, per round: not measured: no round measured both."
	else
		echo "p50 RTT, bridge over xdp, per round: median $med (range $lo to $hi over $ROUNDS rounds)."
	fi
} | tee "$OUT"
echo "report: $OUT"
bench_done "$OUT"
