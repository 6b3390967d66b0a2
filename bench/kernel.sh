#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# Benchmark: calvin's XDP forward hop against Linux IP forwarding, on one veth topology.
#
#   gen ns A (a0) -- (vw) DUT ns V (ve) -- (b0) sink ns B
#
# XDP: V runs kernel/forward.bpf.o through the real loader (calvin_xdp_forward_attach).
# Linux: the same V with the forwarder detached: addresses, ip_forward=1, static neighbours.
# Both: A has pass.bpf.o (so that a veth accepts redirected frames), B the counting sink
# (bench/progs/sink.bpf.c), which drops load and passes probes to B's stack. The sink counts
# where both configurations deliver alike (BENCH_SINK=skb, the default: tc ingress, every
# packet a socket buffer, built once in either configuration), or in XDP (BENCH_SINK=xdp:
# cheaper, but Linux-forwarded socket buffers are converted back to XDP buffers there,
# which only the Linux column pays).
#
# Two modes (BENCH_MODE=dedicated, shared or both; default both):
# - dedicated: the DUT on a core of its own. A veth's NAPI runs on the CPU that sends into
#   it, so V's west port gets threaded NAPI and its kthread is pinned to BENCH_DUT_CPU,
#   the generator to BENCH_GEN_CPU. The sink is left in the softirq that V's kthread
#   raises, so the DUT core does V's work plus the (equal, small) sink.
# - shared: generator, forwarding and sink all in the softirq of the generator's CPU
#   (BENCH_CPU): the generator's and sink's cost dilute the ratio.
#
# Writes bench/results/kernel-DATE.md and prints it. Needs root; cleans up on any exit.
# Tunables (environment): BENCH_MODE, BENCH_SINK, BENCH_WINDOW (s, default 4), BENCH_REPS (default 4),
# BENCH_GEN (xdp or trafgen, default xdp: see gen_start), BENCH_CPU (default 1),
# BENCH_GEN_CPU (default 0), BENCH_DUT_CPU (default 1),
# BENCH_PROBE_RATE (pps, default 1000), BENCH_PROBE_SECS (default 2),
# BENCH_KERNEL_SRC (loader sources, default kernel), BENCH_KERNEL_OBJ (BPF objects, default
# build/kernel): to measure another tree's forwarder with this script.
set -u

if [ "$(id -u)" != 0 ]; then
	echo "bench/kernel.sh: needs root for namespaces and XDP (run as root: make bench-kernel)" >&2
	exit 2
fi
cd "$(dirname "$0")/.." || exit 1

WINDOW=${BENCH_WINDOW:-4}
REPS=${BENCH_REPS:-4}
CPU=${BENCH_CPU:-1}
GEN_CPU=${BENCH_GEN_CPU:-0}
DUT_CPU=${BENCH_DUT_CPU:-1}
MODE=${BENCH_MODE:-both}
PROBE_RATE=${BENCH_PROBE_RATE:-1000}
PROBE_SECS=${BENCH_PROBE_SECS:-2}
GEN=${BENCH_GEN:-xdp}
SINK=${BENCH_SINK:-skb}
PROBE_PORT=7357
KSRC=${BENCH_KERNEL_SRC:-kernel}
KOBJ=${BENCH_KERNEL_OBJ:-build/kernel}
OUT=build/bench
P=t-bk-
NS_A=${P}a NS_V=${P}v NS_B=${P}b
IF_A=${P}a0 IF_VW=${P}vw IF_VE=${P}ve IF_B=${P}b0
MAC_A=02:b4:00:00:01:01 MAC_VW=02:b4:00:00:01:fe MAC_VE=02:b4:00:00:02:fe MAC_B=02:b4:00:00:02:01
IP_A=10.201.1.1 IP_VW=10.201.1.254 IP_VE=10.201.2.254 IP_B=10.201.2.1
PIN=/sys/fs/bpf/${P}bench
SINK_PIN=$PIN/sink_count
ATTACH_KIND=unknown
GEN_PID= # the generator's process group, while it runs
GCPU=$CPU  # the generator's CPU in the current mode
DUT_KT=    # V's west port's NAPI kthread, in the dedicated mode
MODE_NOW=shared
TMP=$(mktemp -d /tmp/${P}bench.XXXXXX)

die() {
	echo "bench/kernel.sh: $*" >&2
	exit 1
}

in_ns() { # NS CMD...: nsenter keeps our mount namespace, so /sys/fs/bpf stays visible
	local ns=$1
	shift
	nsenter --net="/run/netns/$ns" "$@"
}

# Remove the topology and the pins; also what a killed run (kill -9) left behind.
teardown() {
	local pid ns
	# Anything still running in our namespaces was started by us.
	for ns in $NS_A $NS_V $NS_B; do
		[ -e /run/netns/$ns ] || continue
		for pid in $(ip netns pids $ns 2>/dev/null); do
			kill -KILL "$pid" 2>/dev/null
		done
	done
	# Detach before deleting, or libxdp's dispatcher pins stay in /sys/fs/bpf/xdp.
	[ -e /run/netns/$NS_V ] && in_ns $NS_V $OUT/kernel-ctl detach $IF_VW $IF_VE 2>/dev/null
	[ -e /run/netns/$NS_A ] && in_ns $NS_A $OUT/kernel-ctl detach $IF_A 2>/dev/null
	[ -e /run/netns/$NS_B ] && in_ns $NS_B $OUT/kernel-ctl detach $IF_B 2>/dev/null
	for ns in $NS_A $NS_V $NS_B; do
		ip netns del $ns 2>/dev/null
	done
	rm -rf "$PIN"
}

cleanup() {
	trap - EXIT INT TERM
	gen_stop
	teardown
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

build() {
	local src cflags="-O2 -g -std=gnu11 -Wall -Wextra -Werror -Wno-unused-parameter -Wmissing-prototypes -Wshadow -D_GNU_SOURCE -Iinclude -Iuserspace/lib -I$KSRC -I$KOBJ -I$OUT"
	mkdir -p $OUT bench/results
	[ -f $KOBJ/forward.bpf.o ] && [ -f $KOBJ/pass.bpf.o ] ||
		die "$KOBJ/forward.bpf.o or pass.bpf.o missing (run: make build)"
	clang -O2 -g -target bpf -Wall -Werror -Iinclude -I/usr/include/"$(gcc -dumpmachine)" \
		-c bench/progs/sink.bpf.c -o $OUT/sink.bpf.o || die "failed to build bench/progs/sink.bpf.c"
	# the loaders' skeletons are make's (KOBJ/NAME.skel.h); the sink's is ours
	bpftool gen skeleton $OUT/sink.bpf.o name sink_bpf >$OUT/sink.skel.h 2>>"$TMP/build.log" ||
		die "bpftool gen skeleton failed for bench/progs/sink.bpf.c: $(tail -n 3 "$TMP/build.log")"
	# The loader is several files; an archive lets the linker take only the
	# ones the forwarder needs, so a file it does not need may fail to build
	# (other VNFs' loaders) without stopping the benchmark.
	rm -f $OUT/libloader.a $OUT/loader-*.o
	for src in "$KSRC"/*.c; do
		case $src in *.bpf.c) continue ;; esac
		gcc $cflags -c "$src" -o "$OUT/loader-$(basename "$src" .c).o" 2>>"$TMP/build.log"
	done
	ar rcs $OUT/libloader.a $OUT/loader-*.o 2>>"$TMP/build.log" &&
	gcc $cflags bench/progs/kernel_ctl.c $OUT/libloader.a -o $OUT/kernel-ctl -lxdp -lbpf \
		2>>"$TMP/build.log" || {
		cat "$TMP/build.log" >&2
		die "failed to build bench/progs/kernel_ctl.c with the loader in $KSRC"
	}
	# the probes' telemetry block is calvin's own codec (userspace/lib/measure/telemetry.c)
	[ -f build/lib/libcalvin.a ] || die "build/lib/libcalvin.a missing (run: make build)"
	gcc $cflags bench/progs/hop_latency.c build/lib/libcalvin.a -o $OUT/hop-latency ||
		die "failed to build bench/progs/hop_latency.c"
	clang -O2 -g -target bpf -Wall -Werror -Iinclude -I/usr/include/"$(gcc -dumpmachine)" \
		-c bench/progs/gen.bpf.c -o $OUT/gen.bpf.o || die "failed to build bench/progs/gen.bpf.c"
	bpftool gen skeleton $OUT/gen.bpf.o name gen_bpf >$OUT/gen.skel.h 2>>"$TMP/build.log" ||
		die "bpftool gen skeleton failed for bench/progs/gen.bpf.c: $(tail -n 3 "$TMP/build.log")"
	gcc $cflags bench/progs/gen_xdp.c -o $OUT/gen-xdp -lbpf || die "failed to build bench/progs/gen_xdp.c"
	case $GEN in
	xdp) ;;
	trafgen) command -v trafgen >/dev/null || die "trafgen not found (apt-get install netsniff-ng)" ;;
	*) die "BENCH_GEN=$GEN: use xdp or trafgen" ;;
	esac
	case $SINK in
	skb | xdp) ;;
	*) die "BENCH_SINK=$SINK: use skb or xdp" ;;
	esac
}

setup() {
	local ns
	mount | grep -q ' /sys/fs/bpf ' || mount -t bpf bpf /sys/fs/bpf || die "cannot mount bpffs"
	teardown
	find /tmp -maxdepth 1 -name "${P}bench.*" ! -path "$TMP" -exec rm -rf {} + 2>/dev/null
	for ns in $NS_A $NS_V $NS_B; do
		ip netns add $ns || die "cannot create namespace $ns"
		ip -n $ns link set lo up
	done
	ip link add $IF_A netns $NS_A address $MAC_A type veth peer $IF_VW netns $NS_V address $MAC_VW &&
	ip link add $IF_VE netns $NS_V address $MAC_VE type veth peer $IF_B netns $NS_B address $MAC_B ||
		die "cannot create veth pairs"
	ip -n $NS_A addr add $IP_A/24 dev $IF_A
	ip -n $NS_V addr add $IP_VW/24 dev $IF_VW
	ip -n $NS_V addr add $IP_VE/24 dev $IF_VE
	ip -n $NS_B addr add $IP_B/24 dev $IF_B
	for ns in "$NS_A $IF_A" "$NS_V $IF_VW" "$NS_V $IF_VE" "$NS_B $IF_B"; do
		set -- $ns
		ip -n "$1" link set "$2" up
		# Redirected frames get no checksum filled in (see DESIGN.md).
		ip netns exec "$1" ethtool -K "$2" tx off >/dev/null 2>&1
	done
	# Static neighbours, so no ARP in either configuration.
	ip -n $NS_A neigh replace $IP_VW lladdr $MAC_VW dev $IF_A nud permanent
	ip -n $NS_A route add $IP_B/32 via $IP_VW
	ip -n $NS_V neigh replace $IP_A lladdr $MAC_A dev $IF_VW nud permanent
	ip -n $NS_V neigh replace $IP_B lladdr $MAC_B dev $IF_VE nud permanent
	ip -n $NS_B neigh replace $IP_VE lladdr $MAC_VE dev $IF_B nud permanent
	ip -n $NS_B route add $IP_A/32 via $IP_VE
	ip netns exec $NS_V sysctl -qw net.ipv4.ip_forward=1 net.ipv4.conf.all.send_redirects=0
	# A veth takes xdp_frames only with XDP or GRO on; GRO lets the Linux
	# configuration receive gen-xdp's frames (as socket buffers built around them).
	[ "$GEN" = xdp ] && ip netns exec $NS_V ethtool -K $IF_VW gro on >/dev/null
	# The same for B with the tc sink: no XDP program there to take the
	# forwarder's frames.
	[ "$SINK" = skb ] && ip netns exec $NS_B ethtool -K $IF_B gro on >/dev/null
	mkdir -p "$PIN"
	ip -n $NS_A link set dev $IF_A xdpdrv obj $KOBJ/pass.bpf.o sec xdp ||
		die "cannot attach pass.bpf.o to $IF_A"
	in_ns $NS_B $OUT/kernel-ctl sink-attach $IF_B "$SINK_PIN" $PROBE_PORT \
		$SINK || die "cannot attach the sink ($SINK) to $IF_B"
}

# The configuration of V: xdp (calvin's forwarder), linux (stack forwarding), or
# direct (no hop: the sink on V's west port, to measure what generator and sink
# alone cost on the core). COUNT_PIN is where that configuration's sink counts.
config() {
	in_ns $NS_V $OUT/kernel-ctl detach $IF_VW $IF_VE || die "cannot detach XDP from $NS_V"
	rm -rf "$PIN/fwd" "$PIN/direct_count"
	COUNT_PIN=$SINK_PIN
	case $1 in
	xdp)
		ATTACH_KIND=$(in_ns $NS_V $OUT/kernel-ctl fwd-attach "$PIN/fwd" $IF_VW $IF_VE \
			$MAC_A $MAC_B $PROBE_PORT) || die "cannot attach calvin's forwarder in $NS_V"
		;;
	direct)
		COUNT_PIN=$PIN/direct_count
		in_ns $NS_V $OUT/kernel-ctl sink-attach $IF_VW "$COUNT_PIN" \
			$PROBE_PORT $SINK || die "cannot attach the sink ($SINK) to $IF_VW"
		;;
	esac
	[ "$MODE_NOW" = dedicated ] && pin_dut
	return 0
}

# The mode: dedicated (V's west port's NAPI in a kthread of its own, pinned to
# DUT_CPU; the generator on GEN_CPU) or shared (everything in the softirq of CPU).
# The threaded setting belongs to the device, so it goes with the namespace.
set_mode() {
	local t=0
	MODE_NOW=$1 GCPU=$CPU DUT_KT=
	[ "$1" = dedicated ] && t=1 GCPU=$GEN_CPU
	ip netns exec $NS_V sh -c "echo $t >/sys/class/net/$IF_VW/threaded" ||
		die "cannot set threaded NAPI on $IF_VW (/sys/class/net/$IF_VW/threaded)"
	[ "$1" = dedicated ] && pin_dut
	return 0
}

# The kthread is named napi/DEV-ID (cut to 15 characters).
pin_dut() {
	DUT_KT=$(ps -eo pid=,comm= | awk -v p="napi/$IF_VW-" 'index($2, p) == 1 { print $1; exit }')
	[ -n "$DUT_KT" ] || die "no NAPI kthread for $IF_VW after enabling threaded NAPI"
	taskset -pc "$DUT_CPU" "$DUT_KT" >/dev/null ||
		die "cannot pin $IF_VW's NAPI kthread $DUT_KT to CPU $DUT_CPU"
}

# The generator, in ns A, bound to CPU: gen-xdp (bench/progs/gen_xdp.c: frames leave as
# xdp_frames, as from a NIC; the default) or trafgen (PF_PACKET socket: socket
# buffers from the start, which the XDP hop must copy into an XDP buffer).
# trafgen pins its worker for CPU i to CPU i (taskset cannot override that), so
# its packet is bound with cpu(N): and it gets N+1 workers. Both in a process
# group of their own, because trafgen's parent does not pass SIGINT on.
gen_start() { # 64-byte UDP frames to B through V, as fast as one CPU sends them
	if [ "$GEN" = trafgen ]; then
		echo "cpu($GCPU): { eth(da=$MAC_VW, sa=$MAC_A), ipv4(sa=$IP_A, da=$IP_B, ttl=64)," \
			"udp(sp=4000, dp=9), fill(0, 18) }" >"$TMP/gen.cfg"
		setsid ip netns exec $NS_A trafgen -o $IF_A -i "$TMP/gen.cfg" -P $((GCPU + 1)) \
			--no-sock-mem --notouch-irq --no-cpu-stats >"$TMP/gen.log" 2>&1 &
	else
		setsid ip netns exec $NS_A taskset -c "$GCPU" $OUT/gen-xdp $IF_A \
			$MAC_VW $MAC_A $IP_A $IP_B >"$TMP/gen.log" 2>&1 &
	fi
	GEN_PID=$!
	sleep 1
	kill -0 "$GEN_PID" 2>/dev/null || die "generator $GEN failed: $(tail -1 "$TMP/gen.log")"
}

stop_group() { # PGID: SIGINT, then SIGKILL after 3 s
	local i
	kill -INT -- -"$1" 2>/dev/null || return 0
	for i in $(seq 30); do
		kill -0 -- -"$1" 2>/dev/null || break
		sleep 0.1
	done
	kill -KILL -- -"$1" 2>/dev/null
	wait "$1" 2>/dev/null
	return 0
}

gen_stop() {
	[ -n "$GEN_PID" ] && stop_group "$GEN_PID"
	GEN_PID=
}

sink_count() {
	in_ns $NS_B $OUT/kernel-ctl count "$COUNT_PIN" || die "cannot read the sink's counter"
}

ticks() { # PID...: their CPU time, in clock ticks
	local pid sum=0 t
	for pid in "$@"; do
		t=$(awk '{ print $14 + $15 }' "/proc/$pid/stat" 2>/dev/null) || continue
		sum=$((sum + t))
	done
	echo "$sum"
}

# CPU time, in clock ticks, of the generator's worker and of CPU's ksoftirqd: where
# all the work of one packet (send, forward, sink) is charged. The machine is
# shared, so the core is not all ours: packets per CPU-second is the fair figure.
pipeline_ticks() {
	ticks "$GEN_PID" $(pgrep -P "$GEN_PID") $(pgrep -x "ksoftirqd/$CPU")
}

# The DUT core, dedicated mode: "RUN WAIT KSOFTIRQD": the NAPI kthread's time on
# the CPU and waiting for it (ns, schedstat), DUT_CPU's ksoftirqd (ticks; softirq
# work the kthread leaves over). The kthread's time includes the sink, whose
# softirq it raises.
dut_sample() {
	local run wait rest
	read -r run wait rest <"/proc/$DUT_KT/schedstat" || die "$IF_VW's NAPI kthread $DUT_KT is gone"
	echo "$run $wait $(ticks $(pgrep -x "ksoftirqd/$DUT_CPU"))"
}

refused() { # frames V's west port refused (ring full), as A's tx dropped
	ip -n $NS_A -s link show $IF_A | awk 'f { print $4; exit } /TX:/ { f = 1 }'
}

gen_ticks() {
	ticks "$GEN_PID" $(pgrep -P "$GEN_PID")
}

# NAME CMD...: CMD's output into NAME, and into NAME_t the time around it ("BEFORE
# AFTER", s), so that each rate is taken over its own counter's interval: the script
# competes for the CPUs it measures and may be held up between two readings.
sample() {
	local -n out=$1 ts=$1_t
	local a
	shift
	a=${EPOCHREALTIME/,/.}
	out=$("$@") || return 1
	ts="$a ${EPOCHREALTIME/,/.}"
}
AWK_MID='function mid(s, x) { split(s, x); return (x[1] + x[2]) / 2 }'

# Dedicated mode, over WINDOW seconds: "PPS SHARE BUSY PPC DROPS GEN_SHARE" into
# RESULT: pps at the sink, the share of DUT_CPU the DUT got, the share of the time
# its kthread was running or runnable (1 = saturated: it never waited for work),
# packets per DUT CPU-second, refused frames per second, the generator's CPU share.
measure_dut() {
	local c0 c1 d0 d1 g0 g1 r0 r1 c0_t c1_t d0_t d1_t g0_t g1_t r0_t r1_t
	gen_start
	sample c0 sink_count || exit 1
	sample d0 dut_sample || exit 1
	sample g0 gen_ticks
	sample r0 refused
	sleep "$WINDOW"
	sample c1 sink_count || exit 1
	sample d1 dut_sample || exit 1
	sample g1 gen_ticks
	sample r1 refused
	gen_stop
	# busy is capped at 1: a reading takes time, the kthread's clock keeps running.
	RESULT=$(awk -v c="$((c1 - c0))" -v g="$((g1 - g0))" -v r="$((${r1:-0} - ${r0:-0}))" \
		-v hz="$(getconf CLK_TCK)" -v d0="$d0" -v d1="$d1" -v c0="$c0_t" -v c1="$c1_t" \
		-v d0t="$d0_t" -v d1t="$d1_t" -v g0="$g0_t" -v g1="$g1_t" -v r0="$r0_t" -v r1="$r1_t" \
		"$AWK_MID"'
		function min(x, y) { return x < y ? x : y }
		BEGIN {
		split(d0, a); split(d1, b); dt = mid(d1t) - mid(d0t)
		cpu = (b[1] - a[1]) / 1e9 + (b[3] - a[3]) / hz
		pps = c / (mid(c1) - mid(c0)); share = cpu / dt
		printf "%.0f %.2f %.2f %.0f %.0f %.2f", pps, share,
			min((b[1] - a[1] + b[2] - a[2]) / 1e9 / dt, 1), (share > 0 ? pps / share : 0),
			r / (mid(r1) - mid(r0)), g / hz / (mid(g1) - mid(g0)) }')
}

# Over WINDOW seconds: forwarded packets per second at the sink, the share of the
# core the pipeline got, and packets per CPU-second; "PPS SHARE PPC" into RESULT
# (no command substitution: a subshell would hide the generator from cleanup).
measure_pps() {
	local c0 c1 k0 k1 c0_t c1_t k0_t k1_t
	gen_start
	sample c0 sink_count || exit 1
	sample k0 pipeline_ticks
	sleep "$WINDOW"
	sample c1 sink_count || exit 1
	sample k1 pipeline_ticks
	gen_stop
	RESULT=$(awk -v c="$((c1 - c0))" -v k="$((k1 - k0))" -v hz="$(getconf CLK_TCK)" \
		-v c0="$c0_t" -v c1="$c1_t" -v k0="$k0_t" -v k1="$k1_t" "$AWK_MID"'
		BEGIN {
		pps = c / (mid(c1) - mid(c0)); share = k / hz / (mid(k1) - mid(k0))
		printf "%.0f %.2f %.0f", pps, share, (share > 0 ? pps / share : 0) }')
}

measure_latency() { # LOAD(idle|load): key=value line from hop-latency into RESULT
	[ "$1" = load ] && gen_start
	RESULT=$(taskset -c "$GCPU" $OUT/hop-latency /run/netns/$NS_A /run/netns/$NS_B $IP_B \
		$PROBE_PORT "$PROBE_RATE" "$PROBE_SECS") || die "hop-latency failed"
	[ "$1" = load ] && gen_stop
	return 0
}

median() {
	sort -n | awk '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf (m >= 1000 ? "%.0f\n" : "%.3g\n"), m }'
}

field() { # KEY LINE
	tr ' ' '\n' <<<"$2" | sed -n "s/^$1=//p"
}

us() {
	awk -v ns="$1" 'BEGIN { printf "%.2f", ns / 1000 }'
}

spread() { # values...: (max - min) / median, in percent
	printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END {
		m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "%.1f", m ? 100 * (v[NR] - v[1]) / m : 0 }'
}

verdict() { # CONDITION(awk expression)
	awk "BEGIN { exit !($1) }" && echo PASS || echo MISS
}

hop_ns() { # PPS PPS_DIRECT: what the hop adds per packet on the core, in ns (0: lost in noise)
	awk -v p="$1" -v d="$2" 'BEGIN { h = (p && d) ? 1e9 / p - 1e9 / d : 0; printf "%.0f", (h > 0 ? h : 0) }'
}

med() { # MODE CFG ARRAY: the median over the reps
	local -n a=$3
	local r
	for r in $(seq "$REPS"); do echo "${a[$1,$2,$r]}"; done | median
}

spr() { # MODE CFG ARRAY: the spread over the reps
	local -n a=$3
	local r v=()
	for r in $(seq "$REPS"); do v+=("${a[$1,$2,$r]}"); done
	spread "${v[@]}"
}

ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b ? a / b : 0 }'
}

# Medians and ratios of MODE into R[MODE,name].
summarize() {
	local m=$1 cfg
	for cfg in xdp linux direct; do
		R[$m,$cfg,pps]=$(med "$m" $cfg PPS)
		R[$m,$cfg,ppc]=$(med "$m" $cfg PPC)
	done
	R[$m,ratio]=$(ratio "${R[$m,xdp,pps]}" "${R[$m,linux,pps]}")
	R[$m,cratio]=$(ratio "${R[$m,xdp,ppc]}" "${R[$m,linux,ppc]}")
	rep_ratios "$m"
}

pps_rows() { # MODE ARRAY LABEL [RATIO_CELL]: median and spread rows of one figure
	echo "| **median $3** | **$(med "$1" xdp "$2")** | **$(med "$1" linux "$2")** |" \
		"**$(med "$1" direct "$2")** | ${4:-} |"
	echo "| spread (max-min)/median | $(spr "$1" xdp "$2")% | $(spr "$1" linux "$2")% |" \
		"$(spr "$1" direct "$2")% | |"
}

# XDP/Linux in packets per CPU-second, rep by rep (the two windows next to each
# other in time), into R[MODE,r,REP]; their median, min and max into R[MODE,rmed/rmin/rmax].
rep_ratios() {
	local m=$1 r v=()
	for r in $(seq "$REPS"); do
		R[$m,r,$r]=$(ratio "${PPC[$m,xdp,$r]}" "${PPC[$m,linux,$r]}")
		v+=("${R[$m,r,$r]}")
	done
	R[$m,rmed]=$(printf '%s\n' "${v[@]}" | median | xargs printf '%.2f')
	R[$m,rmin]=$(printf '%s\n' "${v[@]}" | sort -n | head -1)
	R[$m,rmax]=$(printf '%s\n' "${v[@]}" | sort -n | tail -1)
}

pps_dedicated() {
	local r c cfg MODE_T=dedicated
	echo "## Packets per second, DUT on its own core (64-byte UDP, at the sink, ${WINDOW} s windows)"
	echo
	echo "V's west port has threaded NAPI, its kthread pinned to CPU $DUT_CPU; the generator on"
	echo "CPU $GEN_CPU. CPU $DUT_CPU does V's receive, the hop and V's transmit, plus B's sink"
	echo "($(sink_name)), whose softirq V's kthread raises and runs."
	echo "Each cell: pps at the sink / share of CPU $DUT_CPU the DUT got (kthread + ksoftirqd) /"
	echo "busy (kthread running or runnable; 1.00 = saturated, it never waited for packets) /"
	echo "packets per DUT CPU-second (pps divided by that share: what the whole core would do)."
	echo "The machine is shared with other work, so the kthread may not get all of its CPU:"
	echo "per CPU-second is the fair figure, valid when busy is near 1."
	echo "direct = the sink on V's west port, no hop: what the generator delivers (its ceiling)."
	echo
	echo "| rep | XDP (calvin forward) | Linux ip_forward | direct (no hop) | XDP/Linux per CPU-s |"
	echo "|---|---:|---:|---:|---:|"
	for r in $(seq "$REPS"); do
		c=
		for cfg in xdp linux direct; do
			c+="| ${PPS[dedicated,$cfg,$r]} / ${SHARE[dedicated,$cfg,$r]} /"
			c+=" ${BUSY[dedicated,$cfg,$r]} / ${PPC[dedicated,$cfg,$r]} "
		done
		echo "| $r $c| ${R[$MODE_T,r,$r]} |"
	done
	pps_rows dedicated PPS pps
	pps_rows dedicated PPC "per DUT CPU-s" "**${R[dedicated,rmed]}**"
	echo "| median busy | $(med dedicated xdp BUSY) | $(med dedicated linux BUSY) |" \
		"$(med dedicated direct BUSY) | |"
	echo "| median frames refused at V's west port /s | $(med dedicated xdp DROPS) |" \
		"$(med dedicated linux DROPS) | $(med dedicated direct DROPS) | |"
	echo "| median generator CPU share (CPU $GEN_CPU) | $(med dedicated xdp GSHARE) |" \
		"$(med dedicated linux GSHARE) | $(med dedicated direct GSHARE) | |"
	echo
	echo "Ratio XDP/Linux: **${R[dedicated,cratio]}** in packets per DUT CPU-second (ratio of" \
		"the medians; rep by rep ${R[dedicated,rmin]} to ${R[dedicated,rmax]}, median" \
		"${R[dedicated,rmed]}), **${R[dedicated,ratio]}** in pps (wall clock, which depends on" \
		"how much of CPU $DUT_CPU the other work on this machine left each run)."
	echo
	echo "This mode is noisier than the shared one: the DUT runs at one of two speeds for"
	echo "seconds at a time with the same CPU share (likely where the host puts this VM's two"
	echo "vCPUs: a packet crosses from one to the other), XDP and Linux alike. A rep's XDP and"
	echo "Linux windows are next to each other in time, so the target is judged on the median"
	echo "of the reps' ratios (last column), not on the ratio of the medians, which can pair a"
	echo "fast XDP window with a slow Linux one."
	echo
	if awk -v x="${R[dedicated,xdp,pps]}" -v d="${R[dedicated,direct,pps]}" \
		-v b="$(med dedicated xdp BUSY)" 'BEGIN { exit !(b < 0.9 || x >= 0.9 * d) }'; then
		echo "**The XDP DUT is not saturated, or forwards about what the generator delivers"
		echo "with no hop (direct): the generator is the bottleneck and the XDP figures are a"
		echo "lower bound.**"
		echo
	fi
}

pps_shared() {
	local r c cfg MODE_T=shared
	echo "## Packets per second, all on one core (64-byte UDP, at the sink, ${WINDOW} s windows)"
	echo
	echo "Generator, DUT and sink all in the softirq of CPU $CPU (a veth's NAPI runs on the CPU"
	echo "that sends into it). Each cell: pps at the sink (wall clock) / share of CPU $CPU the"
	echo "pipeline got / packets per CPU-second (pps divided by that share)."
	echo
	echo "| rep | XDP (calvin forward) | Linux ip_forward | direct (no hop) | XDP/Linux per CPU-s |"
	echo "|---|---:|---:|---:|---:|"
	for r in $(seq "$REPS"); do
		c=
		for cfg in xdp linux direct; do
			c+="| ${PPS[shared,$cfg,$r]} / ${SHARE[shared,$cfg,$r]} / ${PPC[shared,$cfg,$r]} "
		done
		echo "| $r $c| ${R[$MODE_T,r,$r]} |"
	done
	pps_rows shared PPS pps
	pps_rows shared PPC "per CPU-s" "**${R[shared,rmed]}**"
	R[shared,xhop]=$(hop_ns "${R[shared,xdp,ppc]}" "${R[shared,direct,ppc]}")
	R[shared,lhop]=$(hop_ns "${R[shared,linux,ppc]}" "${R[shared,direct,ppc]}")
	echo "| hop cost, ns/packet | ${R[shared,xhop]} | ${R[shared,lhop]} | 0 | |"
	echo
	echo "Ratio XDP/Linux: **${R[shared,ratio]}** in pps, **${R[shared,cratio]}** in packets per" \
		"CPU-second (generator and sink included in both)."
	echo
	echo "Hop cost = 1/ppc - 1/ppc(direct), ppc = packets per CPU-second: the CPU time the"
	echo "forwarding hop adds to a packet, with the generator's and sink's share taken out"
	echo "(direct = the sink on V's west port, no hop). 0 = lost in the noise."
	echo "Linux/XDP hop cost: **$(awk -v a="${R[shared,xhop]}" -v b="${R[shared,lhop]}" \
		'BEGIN { if (a > 0 && b > 0) printf "%.2f", b / a; else printf "- (a hop cost of 0 is lost in the noise: no ratio)" }')**"
	echo
}

latency_section() {
	local cfg load v
	echo "## Hop latency (probes at $PROBE_RATE/s for $PROBE_SECS s, one in flight)"
	echo
	if [ "$MODE_NOW" = dedicated ]; then
		echo "Measured with the DUT on its own core (V's NAPI kthread on CPU $DUT_CPU: a probe"
		echo "that finds it asleep waits for its wakeup)."
	else
		echo "Measured with everything on one core (CPU $CPU)."
	fi
	echo
	echo "A->B: A's kernel transmit timestamp to B's kernel receive timestamp (SO_TIMESTAMPING,"
	echo "software, one host clock): V's processing plus both veth crossings and B's receive, the"
	echo "same path for both configurations. Residence: t_out - t_in of the hop record calvin's"
	echo "forwarder stamps (XDP only; Linux forwarding stamps nothing). Times in us."
	echo
	echo "| config | load | sent/received | A->B p50 | A->B p99 | residence p50 | residence p99 |"
	echo "|---|---|---|---:|---:|---:|---:|"
	for cfg in xdp linux; do
		for load in idle load; do
			v=${LAT[$cfg,$load]}
			if [ "$cfg" = xdp ]; then
				res="$(us "$(field res_p50 "$v")") | $(us "$(field res_p99 "$v")")"
			else
				res="- | -"
			fi
			echo "| $cfg | $load | $(field sent "$v")/$(field received "$v") |" \
				"$(us "$(field lat_p50 "$v")") | $(us "$(field lat_p99 "$v")") | $res |"
		done
	done
	echo
	echo "Transmit timestamp used: $(field tx_stamp "${LAT[xdp,idle]}") (driver = veth's" \
		"skb_tx_timestamp, sched = before the device queue)."
	echo
}

targets() {
	local m d=dedicated s=shared
	echo "## Targets"
	echo
	for m in $MODES; do
		if [ $m = $d ]; then
			echo "- $(verdict "${R[$d,rmed]} >= 3") [DUT on its own core] XDP forwards >= 3x" \
				"the packets of Linux forwarding per DUT CPU-second (= pps with the whole core):" \
				"${R[$d,rmed]}x, median of the reps' ratios (${R[$d,rmin]}x to ${R[$d,rmax]}x;" \
				"ratio of the medians ${R[$d,cratio]}x); wall-clock pps ${R[$d,ratio]}x" \
				"($(verdict "${R[$d,ratio]} >= 3"))"
		else
			echo "- $(verdict "${R[$s,ratio]} >= 3") [all on one core: generator + DUT + sink]" \
				"XDP forwards >= 3x the pps of Linux forwarding: ${R[$s,ratio]}x" \
				"(per CPU-second: ${R[$s,cratio]}x, $(verdict "${R[$s,cratio]} >= 3"))"
		fi
	done
	echo "- $(verdict "$RES_P99 > 0 && $RES_P99 < 2000") XDP residence p99 < 2 us:" \
		"$(us "$(field res_p99 "${LAT[xdp,idle]}")") us idle," \
		"$(us "$(field res_p99 "${LAT[xdp,load]}")") us under load"
}

sink_name() {
	if [ "$SINK" = skb ]; then
		echo "BENCH_SINK=skb: counts and drops on tc ingress, where both configurations" \
			"deliver alike, as a socket buffer (an XDP-forwarded frame gets its socket buffer" \
			"at B's veth, a Linux-forwarded one got it at V's west port: once per packet in" \
			"either)"
	else
		echo "BENCH_SINK=xdp: counts and drops in XDP; not alike: Linux-forwarded socket" \
			"buffers are converted back to XDP buffers there, XDP-forwarded frames are not"
	fi
}

machine() {
	local where="pinned to CPU $GEN_CPU (dedicated) or $CPU (shared)"

	[ "$MODES" = dedicated ] && where="pinned to CPU $GEN_CPU"
	[ "$MODES" = shared ] && where="pinned to CPU $CPU"
	echo "## Machine"
	echo
	echo "- CPUs: $(nproc) ($(lscpu | sed -n 's/^Model name: *//p' | head -1))"
	echo "- Kernel: $(uname -r)"
	if [ "$GEN" = trafgen ]; then
		echo "- Generator: $(trafgen -v 2>&1 | head -1 | cut -d' ' -f1-2) (PF_PACKET TX ring, qdisc" \
			"bypass; socket buffers from the start), one worker bound by cpu(N): to the CPU" \
			"below, $where"
	else
		echo "- Generator: bench/progs/gen_xdp.c (BPF_PROG_RUN, XDP live frames: xdp_frames into A's veth," \
			"as from a NIC; V's west port has GRO on so that Linux can take them), $where"
	fi
	echo "- Modes: $MODES (see the tables). Probes: bench/progs/hop_latency.c, on the generator's CPU"
	echo "- Sink (B's veth, and V's west port in the direct column): $(sink_name)"
	echo "- DUT: namespace $NS_V; XDP = $KOBJ/forward.bpf.o via calvin_xdp_forward_attach" \
		"(native mode, attached by libxdp as: $ATTACH_KIND); Linux = same namespace, forwarder detached," \
		"ip_forward=1, static neighbours. Order interleaved (XDP, Linux, direct, XDP, ...)"
	echo
}

report() {
	local f m
	f=bench/results/kernel-$(date +%Y%m%d-%H%M%S).md
	RES_P99=$(printf '%s\n%s\n' "$(field res_p99 "${LAT[xdp,idle]}")" \
		"$(field res_p99 "${LAT[xdp,load]}")" | sort -n | tail -1)
	for m in $MODES; do
		summarize $m
	done
	{
		echo "# Kernel hop: calvin XDP forward vs Linux IP forwarding"
		echo
		echo "$(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
		echo
		machine
		for m in $MODES; do
			pps_$m
		done
		latency_section
		targets
	} >"$f"
	cat "$f"
	echo "bench/kernel.sh: report written to $f" >&2
}

case $MODE in
dedicated | shared) MODES=$MODE ;;
both) MODES="dedicated shared" ;;
*) die "BENCH_MODE=$MODE: use dedicated, shared or both" ;;
esac
if [ "$MODE" != shared ] && { [ "$GEN_CPU" = "$DUT_CPU" ] || [ "$(nproc)" -lt 2 ]; }; then
	die "the dedicated mode needs two CPUs, BENCH_GEN_CPU != BENCH_DUT_CPU (or: BENCH_MODE=shared)"
fi
build
setup
echo "bench/kernel.sh: measuring ($MODES: $REPS x 3 pps windows of ${WINDOW}s each, then latency)" >&2
declare -A PPS SHARE PPC BUSY DROPS GSHARE R LAT
# Modes interleaved too, so that other work on the machine weighs on both alike.
for r in $(seq "$REPS"); do
	for m in $MODES; do
		set_mode $m
		for cfg in xdp linux direct; do
			config $cfg
			if [ $m = dedicated ]; then
				measure_dut
				set -- $RESULT
				PPS[$m,$cfg,$r]=$1 SHARE[$m,$cfg,$r]=$2 BUSY[$m,$cfg,$r]=$3 PPC[$m,$cfg,$r]=$4
				DROPS[$m,$cfg,$r]=$5 GSHARE[$m,$cfg,$r]=$6
				echo "  $m rep $r $cfg: $1 pps, DUT CPU share $2, busy $3, $4 per DUT CPU-s," \
					"$5 refused/s, generator CPU share $6" >&2
			else
				measure_pps
				set -- $RESULT
				PPS[$m,$cfg,$r]=$1 SHARE[$m,$cfg,$r]=$2 PPC[$m,$cfg,$r]=$3
				echo "  $m rep $r $cfg: $1 pps, CPU share $2, $3 packets per CPU-second" >&2
			fi
		done
	done
done
# Latency in the last mode measured (shared unless only dedicated was asked for).
for cfg in xdp linux; do
	config $cfg
	for load in idle load; do
		measure_latency $load
		LAT[$cfg,$load]=$RESULT
		echo "  latency ($MODE_NOW) $cfg $load: ${LAT[$cfg,$load]}" >&2
	done
done
config linux

report
