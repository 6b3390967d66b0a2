#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# Benchmark: calvin's XDP forward hop against Linux IP forwarding, on one veth topology, one core.
#
#   gen ns A (a0) -- (vw) DUT ns V (ve) -- (b0) sink ns B
#
# XDP: V runs kernel/forward.bpf.o through the real loader (calvin_xdp_forward_attach).
# Linux: the same V with the forwarder detached: addresses, ip_forward=1, static neighbours.
# Both: A has pass.bpf.o (so that a veth accepts redirected frames), B the counting sink
# (bench/sink.bpf.c), which drops load and passes probes to B's stack.
# On veth the whole path runs in the softirq of the sending CPU, so pinning the generator
# to one CPU puts generator, forwarding and sink on that one core.
#
# Writes bench/results/kernel-DATE.md and prints it. Needs root; cleans up on any exit.
# Tunables (environment): BENCH_WINDOW (s, default 5), BENCH_REPS (default 3),
# BENCH_GEN (xdp or trafgen, default xdp: see gen_start), BENCH_CPU (default 1),
# BENCH_PROBE_RATE (pps, default 1000), BENCH_PROBE_SECS (default 2),
# BENCH_KERNEL_SRC (loader sources, default kernel), BENCH_KERNEL_OBJ (BPF objects, default
# build/kernel): to measure another tree's forwarder with this script.
set -u

if [ "$(id -u)" != 0 ]; then
	echo "bench/kernel.sh: needs root for namespaces and XDP (run as root: make bench-kernel)" >&2
	exit 2
fi
cd "$(dirname "$0")/.." || exit 1

WINDOW=${BENCH_WINDOW:-5}
REPS=${BENCH_REPS:-3}
CPU=${BENCH_CPU:-1}
PROBE_RATE=${BENCH_PROBE_RATE:-1000}
PROBE_SECS=${BENCH_PROBE_SECS:-2}
GEN=${BENCH_GEN:-xdp}
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
	local src cflags="-O2 -g -std=gnu11 -Wall -Wextra -Werror -Wno-unused-parameter -Wmissing-prototypes -Wshadow -D_GNU_SOURCE -Iinclude -Iuserspace/lib -I$KSRC"
	mkdir -p $OUT bench/results
	[ -f $KOBJ/forward.bpf.o ] && [ -f $KOBJ/pass.bpf.o ] ||
		die "$KOBJ/forward.bpf.o or pass.bpf.o missing (run: make build)"
	clang -O2 -g -target bpf -Wall -Werror -Iinclude -I/usr/include/"$(gcc -dumpmachine)" \
		-c bench/sink.bpf.c -o $OUT/sink.bpf.o || die "failed to build bench/sink.bpf.c"
	# The loader is several files; an archive lets the linker take only the
	# ones the forwarder needs, so a file it does not need may fail to build
	# (other VNFs' loaders) without stopping the benchmark.
	rm -f $OUT/libloader.a $OUT/loader-*.o
	for src in "$KSRC"/*.c; do
		case $src in *.bpf.c) continue ;; esac
		gcc $cflags -c "$src" -o "$OUT/loader-$(basename "$src" .c).o" 2>>"$TMP/build.log"
	done
	ar rcs $OUT/libloader.a $OUT/loader-*.o 2>>"$TMP/build.log" &&
	gcc $cflags bench/kernel_ctl.c $OUT/libloader.a -o $OUT/kernel-ctl -lxdp -lbpf \
		2>>"$TMP/build.log" || {
		cat "$TMP/build.log" >&2
		die "failed to build bench/kernel_ctl.c with the loader in $KSRC"
	}
	gcc $cflags bench/hop_latency.c -o $OUT/hop-latency || die "failed to build bench/hop_latency.c"
	clang -O2 -g -target bpf -Wall -Werror -Iinclude -I/usr/include/"$(gcc -dumpmachine)" \
		-c bench/gen.bpf.c -o $OUT/gen.bpf.o || die "failed to build bench/gen.bpf.c"
	gcc $cflags bench/gen_xdp.c -o $OUT/gen-xdp -lbpf || die "failed to build bench/gen_xdp.c"
	case $GEN in
	xdp) ;;
	trafgen) command -v trafgen >/dev/null || die "trafgen not found (apt-get install netsniff-ng)" ;;
	*) die "BENCH_GEN=$GEN: use xdp or trafgen" ;;
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
	mkdir -p "$PIN"
	ip -n $NS_A link set dev $IF_A xdpdrv obj $KOBJ/pass.bpf.o sec xdp ||
		die "cannot attach pass.bpf.o to $IF_A"
	in_ns $NS_B $OUT/kernel-ctl sink-attach $OUT/sink.bpf.o $IF_B "$SINK_PIN" $PROBE_PORT ||
		die "cannot attach the sink to $IF_B"
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
		ATTACH_KIND=$(in_ns $NS_V $OUT/kernel-ctl fwd-attach $KOBJ "$PIN/fwd" $IF_VW $IF_VE \
			$MAC_A $MAC_B $PROBE_PORT) || die "cannot attach calvin's forwarder in $NS_V"
		;;
	direct)
		COUNT_PIN=$PIN/direct_count
		in_ns $NS_V $OUT/kernel-ctl sink-attach $OUT/sink.bpf.o $IF_VW "$COUNT_PIN" \
			$PROBE_PORT || die "cannot attach the sink to $IF_VW"
		;;
	esac
}

# The generator, in ns A, bound to CPU: gen-xdp (bench/gen_xdp.c: frames leave as
# xdp_frames, as from a NIC; the default) or trafgen (PF_PACKET socket: socket
# buffers from the start, which the XDP hop must copy into an XDP buffer).
# trafgen pins its worker for CPU i to CPU i (taskset cannot override that), so
# its packet is bound with cpu(N): and it gets N+1 workers. Both in a process
# group of their own, because trafgen's parent does not pass SIGINT on.
gen_start() { # 64-byte UDP frames to B through V, as fast as one CPU sends them
	if [ "$GEN" = trafgen ]; then
		echo "cpu($CPU): { eth(da=$MAC_VW, sa=$MAC_A), ipv4(sa=$IP_A, da=$IP_B, ttl=64)," \
			"udp(sp=4000, dp=9), fill(0, 18) }" >"$TMP/gen.cfg"
		setsid ip netns exec $NS_A trafgen -o $IF_A -i "$TMP/gen.cfg" -P $((CPU + 1)) \
			--no-sock-mem --notouch-irq --no-cpu-stats >"$TMP/gen.log" 2>&1 &
	else
		setsid ip netns exec $NS_A taskset -c "$CPU" $OUT/gen-xdp $OUT/gen.bpf.o $IF_A \
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

# CPU time, in clock ticks, of the generator's worker and of CPU's ksoftirqd: where
# all the work of one packet (send, forward, sink) is charged. The machine is
# shared, so the core is not all ours: packets per CPU-second is the fair figure.
pipeline_ticks() {
	local pid sum=0 t
	for pid in "$GEN_PID" $(pgrep -P "$GEN_PID") $(pgrep -x "ksoftirqd/$CPU"); do
		t=$(awk '{ print $14 + $15 }' "/proc/$pid/stat" 2>/dev/null) || continue
		sum=$((sum + t))
	done
	echo "$sum"
}

# Over WINDOW seconds: forwarded packets per second at the sink, the share of the
# core the pipeline got, and packets per CPU-second; "PPS SHARE PPC" into RESULT
# (no command substitution: a subshell would hide the generator from cleanup).
measure_pps() {
	local c0 c1 t0 t1 k0 k1
	gen_start
	c0=$(sink_count) || exit 1
	k0=$(pipeline_ticks)
	t0=$(date +%s.%N)
	sleep "$WINDOW"
	c1=$(sink_count) || exit 1
	k1=$(pipeline_ticks)
	t1=$(date +%s.%N)
	gen_stop
	RESULT=$(awk -v c0="$c0" -v c1="$c1" -v t0="$t0" -v t1="$t1" -v k="$((k1 - k0))" \
		-v hz="$(getconf CLK_TCK)" 'BEGIN {
		cpu = k / hz; printf "%.0f %.2f %.0f", (c1 - c0) / (t1 - t0),
			cpu / (t1 - t0), (cpu > 0 ? (c1 - c0) / cpu : 0) }')
}

measure_latency() { # LOAD(idle|load): key=value line from hop-latency into RESULT
	[ "$1" = load ] && gen_start
	RESULT=$(taskset -c "$CPU" $OUT/hop-latency /run/netns/$NS_A /run/netns/$NS_B $IP_B \
		$PROBE_PORT "$PROBE_RATE" "$PROBE_SECS") || die "hop-latency failed"
	[ "$1" = load ] && gen_stop
	return 0
}

median() {
	sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
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

pps_section() {
	local r x=() l=() d=() xc=() lc=() dc=()
	echo "## Packets per second (64-byte UDP, counted at the sink, ${WINDOW} s windows)"
	echo
	echo "Each cell: pps at the sink (wall clock) / share of CPU $CPU the pipeline got /"
	echo "packets per CPU-second (pps divided by that share: what a whole core would do)."
	echo
	echo "| rep | XDP (calvin forward) | Linux ip_forward | direct (no hop) |"
	echo "|---|---:|---:|---:|"
	for r in $(seq "$REPS"); do
		echo "| $r | ${PPS[xdp,$r]} / ${SHARE[xdp,$r]} / ${PPC[xdp,$r]}" \
			"| ${PPS[linux,$r]} / ${SHARE[linux,$r]} / ${PPC[linux,$r]}" \
			"| ${PPS[direct,$r]} / ${SHARE[direct,$r]} / ${PPC[direct,$r]} |"
		x+=("${PPS[xdp,$r]}") l+=("${PPS[linux,$r]}") d+=("${PPS[direct,$r]}")
		xc+=("${PPC[xdp,$r]}") lc+=("${PPC[linux,$r]}") dc+=("${PPC[direct,$r]}")
	done
	XDP_MED=$(printf '%s\n' "${x[@]}" | median)
	LIN_MED=$(printf '%s\n' "${l[@]}" | median)
	DIR_MED=$(printf '%s\n' "${d[@]}" | median)
	XDP_CMED=$(printf '%s\n' "${xc[@]}" | median)
	LIN_CMED=$(printf '%s\n' "${lc[@]}" | median)
	DIR_CMED=$(printf '%s\n' "${dc[@]}" | median)
	RATIO=$(awk -v a="$XDP_MED" -v b="$LIN_MED" 'BEGIN { printf "%.2f", b ? a / b : 0 }')
	CRATIO=$(awk -v a="$XDP_CMED" -v b="$LIN_CMED" 'BEGIN { printf "%.2f", b ? a / b : 0 }')
	XDP_HOP=$(hop_ns "$XDP_CMED" "$DIR_CMED")
	LIN_HOP=$(hop_ns "$LIN_CMED" "$DIR_CMED")
	echo "| **median pps** | **$XDP_MED** | **$LIN_MED** | **$DIR_MED** |"
	echo "| spread (max-min)/median | $(spread "${x[@]}")% | $(spread "${l[@]}")% | $(spread "${d[@]}")% |"
	echo "| **median per CPU-s** | **$XDP_CMED** | **$LIN_CMED** | **$DIR_CMED** |"
	echo "| spread (max-min)/median | $(spread "${xc[@]}")% | $(spread "${lc[@]}")% | $(spread "${dc[@]}")% |"
	echo "| hop cost, ns/packet | $XDP_HOP | $LIN_HOP | 0 |"
	echo
	echo "Ratio XDP/Linux: **$RATIO** in pps, **$CRATIO** in packets per CPU-second" \
		"(generator and sink included in both)."
	echo
	echo "Hop cost = 1/ppc - 1/ppc(direct), ppc = packets per CPU-second: the CPU time the"
	echo "forwarding hop adds to a packet, with the generator's and sink's share taken out"
	echo "(direct = the sink on V's west port, no hop). 0 = lost in the noise."
	echo "Linux/XDP hop cost: **$(awk -v a="$XDP_HOP" -v b="$LIN_HOP" \
		'BEGIN { if (a > 0 && b > 0) printf "%.2f", b / a; else printf "n/a" }')**"
	echo
}

latency_section() {
	local cfg load v
	echo "## Hop latency (probes at $PROBE_RATE/s for $PROBE_SECS s, one in flight)"
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

report() {
	local f res_p99 res_idle res_load
	f=bench/results/kernel-$(date +%Y%m%d-%H%M%S).md
	res_idle=$(field res_p99 "${LAT[xdp,idle]}")
	res_load=$(field res_p99 "${LAT[xdp,load]}")
	res_p99=$(printf '%s\n%s\n' "$res_idle" "$res_load" | sort -n | tail -1)
	{
		echo "# Kernel hop: calvin XDP forward vs Linux IP forwarding"
		echo
		echo "$(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
		echo
		echo "## Machine"
		echo
		echo "- CPUs: $(nproc) ($(lscpu | sed -n 's/^Model name: *//p' | head -1))"
		echo "- Kernel: $(uname -r)"
		if [ "$GEN" = trafgen ]; then
			echo "- Generator: $(trafgen -v 2>&1 | head -1 | cut -d' ' -f1-2) (PF_PACKET TX ring, qdisc" \
				"bypass; socket buffers from the start), one worker bound to CPU $CPU (cpu($CPU): binding)"
		else
			echo "- Generator: bench/gen_xdp.c (BPF_PROG_RUN, XDP live frames: xdp_frames into A's veth," \
				"as from a NIC; V's west port has GRO on so that Linux can take them), pinned to CPU $CPU"
		fi
		echo "- One core: veth forwarding and the sink run in the softirq of the sending CPU, so" \
			"generator + DUT + sink share CPU $CPU. Probes: bench/hop_latency.c, pinned to CPU $CPU"
		echo "- DUT: namespace $NS_V; XDP = $KOBJ/forward.bpf.o via calvin_xdp_forward_attach" \
			"(native mode, attached by libxdp as: $ATTACH_KIND); Linux = same namespace, forwarder detached," \
			"ip_forward=1, static neighbours. Order interleaved (XDP, Linux, direct, XDP, ...)"
		echo
		pps_section
		latency_section
		echo "## Targets"
		echo
		echo "- $(verdict "$RATIO >= 3") XDP forwards >= 3x the pps of Linux forwarding:" \
			"${RATIO}x (per CPU-second: ${CRATIO}x, $(verdict "$CRATIO >= 3"))"
		echo "- $(verdict "$res_p99 > 0 && $res_p99 < 2000") XDP residence p99 < 2 us:" \
			"$(us "$res_idle") us idle, $(us "$res_load") us under load"
	} >"$f"
	cat "$f"
	echo "bench/kernel.sh: report written to $f" >&2
}

build
setup
echo "bench/kernel.sh: measuring ($REPS x 3 pps windows of ${WINDOW}s, then latency)" >&2
declare -A PPS SHARE PPC
for r in $(seq "$REPS"); do
	for cfg in xdp linux direct; do
		config $cfg
		measure_pps
		set -- $RESULT
		PPS[$cfg,$r]=$1 SHARE[$cfg,$r]=$2 PPC[$cfg,$r]=$3
		echo "  rep $r $cfg: $1 pps, CPU share $2, $3 packets per CPU-second" >&2
	done
done
declare -A LAT
for cfg in xdp linux; do
	config $cfg
	for load in idle load; do
		measure_latency $load
		LAT[$cfg,$load]=$RESULT
		echo "  latency $cfg $load: ${LAT[$cfg,$load]}" >&2
	done
done
config linux

report
