#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# `make bench`: every benchmark, with settings that finish in about
# 16 minutes on a 2-CPU machine (it says so when a run took over 20), then
# bench/REPORT.md from what they measured (bench/report.sh). Not here, each
# a target of its own: bench/clock.sh, bench/updown.sh, bench/heal.sh (about 8 minutes)
# and bench/soak.sh (30 minutes). Runs, in order: bench/kernel.sh,
# bench/user.sh, bench/testpmd.sh, bench/sharing.sh (twice: BENCH_SET=coloc too),
# bench/monitor.sh, and `calvin bench` baseline, pinning, wakeup and throughput on
# chains/tactile-fwd.yaml. Each keeps its own
# report; bench/vm-links.sh and calvin bench pinning on
# chains/tactile-fwd-vm.yaml run in VMs, on the guest images it builds
# first (the cloud and the PREEMPT_RT kernel's: make vm-image). The run's
# folder bench/results/all-DATE/ gets a copy of each, the calvin benches'
# report folders and log.txt (what each printed).
# Exits 0 only when every benchmark ran and measured every figure of
# bench/REPORT.md; otherwise 1, after REPORT.md says "not measured: WHY"
# where a figure would be.
# Needs root; hold the machine's lock: flock /tmp/calvin-net.lock make bench
# Rounds (environment): BENCH_ALL_SCALE=2 doubles every count below.
set -u
cd "$(dirname "$0")/.." || exit 1
if [ "$(id -u)" != 0 ]; then
	echo "bench/all.sh: needs root for namespaces, XDP and chains (run as root: make bench)" >&2
	exit 2
fi
S=${BENCH_ALL_SCALE:-1}
CHAIN=chains/tactile-fwd.yaml
RUN=bench/results/all-$(date -u +%Y%m%d-%H%M%S)
mkdir -p "$RUN"
LOG=$RUN/log.txt
STAMP=$RUN/.start
: >"$STAMP"
T0=$(date +%s)

# One benchmark: its line in the log, its time; a failure is recorded and
# the next one runs (a benchmark never fails the whole run).
step() { # NAME CMD...
	local name=$1 t=$(date +%s) rc
	shift
	echo "== $name: $*" | tee -a "$LOG" >&2
	"$@" >>"$LOG" 2>&1
	rc=$?
	echo "$name $rc $(($(date +%s) - t))" >>"$RUN/steps"
	echo "== $name: exit $rc after $(($(date +%s) - t)) s" | tee -a "$LOG" >&2
}

# The newest report of a script, written during this run, copied as NAME.md.
keep() { # PATTERN NAME
	local f
	f=$(ls -t bench/results/$1 2>/dev/null | head -n 1)
	[ -n "$f" ] && [ "$f" -nt "$STAMP" ] && cp "$f" "$RUN/$2.md"
}

step kernel env BENCH_REPS=$((3 * S)) BENCH_WINDOW=3 bench/kernel.sh
keep 'kernel-*.md' kernel
step user env BENCH_PROBES=$((2000 * S)) bench/user.sh
keep 'user-*.md' user
# every configuration (the attribution of REPORT.md), about 6 s each per round
step testpmd env BENCH_ROUNDS=$((2 * S)) BENCH_SECONDS=2 BENCH_PROBES=$((1000 * S)) bench/testpmd.sh
keep 'testpmd-*.md' testpmd
step sharing env BENCH_ROUNDS=$((3 * S)) BENCH_PROBES=$((2000 * S)) bench/sharing.sh
keep 'sharing-*.md' sharing
step monitor env BENCH_ROUNDS=$((3 * S)) BENCH_PROBES=$((2000 * S)) bench/monitor.sh
keep 'monitor-*.md' monitor
# co-located user VNFs: taking turns (yield) against waking up (~2 min)
step coloc env BENCH_SET=coloc BENCH_ROUNDS=$((3 * S)) BENCH_PROBES=$((2000 * S)) bench/sharing.sh
keep 'coloc-*.md' coloc
# VMs run emulated here (TCG): short runs of the links and of calvin bench
# pinning on chains/tactile-fwd-vm.yaml, on the guest images (built, or
# brought up to date with calvin's binaries: vm-images/Makefile), the
# PREEMPT_RT kernel's too (pinning compares the guest kernels)
step vm-image make -s -C vm-images
step vm-image-rt make -s -C vm-images KERNEL=rt
step vm-links env BENCH_ROUNDS=$((2 * S)) BENCH_PROBES=$((100 * S)) bench/vm-links.sh
keep 'vm-links-*.md' vm-links
# what pinning buys a chain in VMs: one round (VMs boot for every configuration)
step vm-pinning build/calvin bench pinning chains/tactile-fwd-vm.yaml -n $((1 * S)) \
	-c $((50 * S)) -o "$RUN/vm-pinning"
step baseline build/calvin bench baseline $CHAIN -n $((3 * S)) -c $((2000 * S)) -t 3 -o "$RUN/baseline"
step pinning build/calvin bench pinning $CHAIN -n $((3 * S)) -c $((2000 * S)) -o "$RUN/pinning"
step wakeup build/calvin bench wakeup $CHAIN -n $((3 * S)) -t 5 -o "$RUN/wakeup"
# --tput-mtu: bench/report.sh reads the rows of that mtu (its TPUT_MTU)
step throughput build/calvin bench throughput $CHAIN -n $((2 * S)) -t 1 --tput-mtu 3400 \
	-o "$RUN/throughput"
echo "total $(($(date +%s) - T0))" >>"$RUN/steps"
[ $(($(date +%s) - T0)) -le 1200 ] ||
	echo "bench/all.sh: the run took $(($(date +%s) - T0)) s, over the 20 minutes make bench should take; shorten the slowest steps in $RUN/steps" >&2
rm -f "$STAMP"
bench/report.sh "$RUN"
rc=$?
failed=$(awk '$1 != "total" && $2 != 0 { printf "%s%s (exit %s)", n++ ? ", " : "", $1, $2 }' "$RUN/steps")
if [ -n "$failed" ]; then
	echo "bench/all.sh: benchmarks that failed: $failed; $LOG says why" >&2
	rc=1
fi
exit $rc
