#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# The user tier against DPDK's own forwarder: one chain (probe -> one user
# VNF -> echo server, namespaces and veths as `calvin up` makes them), its
# middle node forwarding either with calvin-vnf (forward, af_xdp, burst 1)
# or with Debian's dpdk-testpmd (mac forwarding, af_xdp, burst 1, the
# PMD's defaults), on the same interfaces, peers and CPU: for testpmd the
# chain is deployed as for calvin, calvin-vnf stopped and testpmd started
# in its place, so nothing else differs. Every configuration is deployed
# with `up --no-supervise`: the supervisor would restart the calvin-vnf
# testpmd replaces, on the same ports, and it is not what is measured.
# sockperf ping-pong (64-byte
# messages) measures the RTT; calvin's own probe (ping-pong, kernel
# timestamps) too, which also says what the stamping of probes costs
# (testpmd stamps nothing).
#
# To attribute calvin's extra tail, configurations that switch one suspect
# at a time to testpmd's setting (or off) run in the same rounds:
# af_xdp's busy_budget, the rx/tx ring size, the hand-over XDP program,
# and testpmd with calvin's busy_budget; the server's XDP program (common
# to both) is measured by taking it away for both, and the scheduling
# (time slices on a shared core) by running both forwarders at SCHED_FIFO. Configurations
# alternate within each round, their order rotating from round to round,
# so the machine's load hits them alike. Tables (bench/progs/rounds_table):
# pooled percentiles with block-bootstrap intervals and ratios to
# testpmd's, then the median over rounds of each round's p50/p99/p99.9 and
# of the round's p99 over testpmd's p99 of the same round.
#
# Settings (environment): BENCH_ROUNDS (5), BENCH_SECONDS of sockperf per
# round (2), BENCH_PROBES per round (1000), BENCH_CONFIGS (keys of CONFIGS
# below; default all: about 6 s per configuration and round). The
# noserverxdp configurations carry no probes (the server's XDP program is
# what answers them).
# Writes bench/results/testpmd-DATE.md and prints it. Needs root; hold
# the machine's lock: flock /tmp/calvin-net.lock make bench-testpmd
set -u
cd "$(dirname "$0")/.." || exit 1
B=$PWD/build
OUT=bench/results/testpmd-$(date +%Y%m%d-%H%M%S).md
ROUNDS=${BENCH_ROUNDS:-5}
SECS=${BENCH_SECONDS:-2}
COUNT=${BENCH_PROBES:-1000}
NAME=tpcmp
SRV=10.70.0.2
. bench/lib.sh
bench_live_init testpmd.sh bench-testpmd
TESTPMD=$(dpkg -L dpdk-dev 2>/dev/null | grep '/dpdk-testpmd$' | head -n 1)
[ -n "$TESTPMD" ] || TESTPMD="dpdk-testpmd (Debian's dpdk-dev)"
for t in "$TESTPMD" sockperf nsenter; do
	command -v "$t" >/dev/null && continue
	echo "bench/testpmd.sh: $t is not installed (make deps)" >&2
	exit 2
done

# configurations: "key kind calvin-vnf-or-testpmd-args" (kind: calvin,
# bare: calvin-vnf without its hand-over program, testpmd; "-" no args),
# and what each changes
CONFIGS=(
	"testpmd testpmd -"
	"calvin calvin -"
	"calvin-bb64 calvin --busy-budget 64"
	"testpmd-bb0 testpmd ,busy_budget=0"
	"calvin-ring2048 calvin --ring 2048 --mem-mb 256"
	"calvin-nohandover bare -"
	"calvin-noserverxdp calvin -"
	"testpmd-noserverxdp testpmd -"
	"calvin-fifo calvin -"
	"testpmd-fifo testpmd -"
)
declare -A LABEL=(
	[testpmd]="dpdk-testpmd: mac forwarding, PMD defaults (busy_budget 64, rings 2048)"
	[calvin]="calvin-vnf forward, as calvin deploys it (busy_budget 0, rings 512, hand-over program)"
	[calvin-bb64]="calvin-vnf, busy_budget 64 (testpmd's)"
	[testpmd-bb0]="dpdk-testpmd, busy_budget 0 (calvin's)"
	[calvin-ring2048]="calvin-vnf, rings of 2048 (testpmd's)"
	[calvin-nohandover]="calvin-vnf without the hand-over program (libxdp's default program)"
	[calvin-noserverxdp]="calvin-vnf, server without its XDP echo program"
	[testpmd-noserverxdp]="dpdk-testpmd, server without its XDP echo program"
	[calvin-fifo]="calvin-vnf at SCHED_FIFO 50 (the chain's realtime: sched: fifo)"
	[testpmd-fifo]="dpdk-testpmd at SCHED_FIFO 50 (chrt)"
)
WANT=${BENCH_CONFIGS:-}
if [ -n "$WANT" ]; then
	keep=()
	for c in "${CONFIGS[@]}"; do
		case " $WANT " in *" ${c%% *} "*) keep+=("$c") ;; esac
	done
	CONFIGS=("${keep[@]}")
fi

# calvin from a folder of its own, so that calvin-vnf can be a wrapper:
# the kind's binary, with the configuration's options last (they win)
mkdir -p "$TMP/lib" "$TMP/bare"
ln -s "$B/kernel" "$TMP/lib/kernel"
cp "$B/calvin" "$TMP/lib/calvin"
cp "$B/calvin-vnf" "$TMP/bare/calvin-vnf" # no kernel/ beside it: no hand-over program
printf '#!/bin/sh\nexec ${CALVIN_BENCH_VNF:-%s/calvin-vnf} "$@" $CALVIN_BENCH_VNF_ARGS\n' "$B" \
	>"$TMP/lib/calvin-vnf"
chmod +x "$TMP/lib/calvin-vnf"
cat >"$TMP/spec.yaml" <<EOF
name: $NAME
budget: 350us
placement: pinned
allow-sharing: true
backend: netns
vnfs:
  - name: fwd-u
    kind: forward
    space: user
    burst: 1
    pmd: af_xdp
server:
  name: server
  kind: echo
probe:
  port: 7357
  size: 64
EOF
# the -fifo configurations: the forwarder at real-time priority, so that
# no other task on its core takes it time slices
{ sed '/^vnfs:/,$d' "$TMP/spec.yaml"; printf 'realtime:\n  sched: fifo\n'; sed -n '/^vnfs:/,$p' "$TMP/spec.yaml"; } \
	>"$TMP/spec-fifo.yaml"
CHAINS+=("$NAME")
ns() { echo "/run/netns/calvin-$NAME.$1"; }

# The value after OPT on a process's command line.
arg_of() { # PID OPT
	tr '\0' '\n' <"/proc/$1/cmdline" | awk -v o="$2" 'f { print; exit } $0 == o { f = 1 }'
}

# Stop calvin-vnf and start testpmd on its interfaces, peers and lcore
# (its main lcore on another CPU: testpmd forwards on lcores other than
# the main one). 0 when testpmd forwards.
testpmd_start() { # DEVARGS-EXTRA [CMD-PREFIX...]
	local pid w e wp ep lc hk i x=$1
	shift
	pid=$(pgrep -f "calvin-vnf --chain $NAME ") || return 1
	w=$(arg_of "$pid" --west) e=$(arg_of "$pid" --east)
	wp=$(arg_of "$pid" --west-peer) ep=$(arg_of "$pid" --east-peer) lc=$(arg_of "$pid" --lcore)
	hk=$(awk -v lc="$lc" '/^cpu[0-9]/ { c = substr($1, 4); if (c != lc) { print c; exit } }' /proc/stat)
	kill "$pid"
	for i in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
	kill -0 "$pid" 2>/dev/null && return 1
	"$@" nsenter --net="$(ns fwd-u)" "$TESTPMD" --lcores "0@$hk,1@$lc" --no-huge -m 256 --no-pci \
		--file-prefix "calvin-bench-$NAME" \
		--vdev "net_af_xdp0,iface=$w,start_queue=0,queue_count=1$x" \
		--vdev "net_af_xdp1,iface=$e,start_queue=0,queue_count=1$x" -- \
		--forward-mode=mac --eth-peer="0,$wp" --eth-peer="1,$ep" --burst=1 --nb-cores=1 \
		--total-num-mbufs=8192 --stats-period=3600 --no-lsc-interrupt \
		</dev/null >"$TMP/testpmd.log" 2>&1 &
	TPID=$!
	for i in $(seq 200); do
		grep -qs "packet forwarding - ports=2" "$TMP/testpmd.log" && return 0
		kill -0 "$TPID" 2>/dev/null || return 1
		sleep 0.05
	done
	return 1
}

# The server's veth, without its XDP program.
server_xdp_off() {
	local dev
	dev=$(nsenter --net="$(ns server)" ip -o link show | awk -F': ' '$2 !~ /^lo/ { sub(/@.*/, "", $2); print $2; exit }')
	nsenter --net="$(ns server)" ip link set dev "$dev" xdp off
}

# How often the forwarder's threads were preempted so far (involuntary
# context switches: another task took its core; 0 without the process).
preempted() { # PID
	cat /proc/"${1:-0}"/task/*/status 2>/dev/null |
		awk '/^nonvoluntary_ctxt_switches/ { n += $2 } END { print n + 0 }'
}

# One configuration in one round: up, its forwarder, sockperf's server,
# probes, sockperf, down. Logs in TMP/KEY.R.sockperf and TMP/KEY.R.probe.
one() { # ROUND KEY KIND ARGS
	local r=$1 key=$2 kind=$3 args=$4 vnf="$B/calvin-vnf" spec=$TMP/spec.yaml spid prefix= fpid n0
	[ "$args" = - ] && args=
	[ "$kind" = bare ] && vnf=$TMP/bare/calvin-vnf
	[ "${key%-fifo}" != "$key" ] && spec=$TMP/spec-fifo.yaml prefix="chrt -f 50"
	TPID=
	if ! CALVIN_BENCH_VNF=$vnf CALVIN_BENCH_VNF_ARGS="$([ "$kind" = testpmd ] || echo "$args")" \
		"$TMP/lib/calvin" up --no-supervise "$spec" >/dev/null 2>"$TMP/err"; then
		bench_failed "$key" "calvin up failed: $(tail -n 1 "$TMP/err")"
		return
	fi
	if [ "$kind" = testpmd ] && ! testpmd_start "$args" $prefix; then
		bench_failed "$key" "dpdk-testpmd did not start: $(tail -n 1 "$TMP/testpmd.log")"
	elif [ "${key%noserverxdp}" != "$key" ] && ! server_xdp_off; then
		bench_failed "$key" "could not take the server's XDP program away"
	else
		nsenter --net="$(ns server)" sockperf server -i $SRV -p 11111 >/dev/null 2>&1 &
		spid=$!
		# probes need the server's echo: without it none would come back
		[ "${key%noserverxdp}" != "$key" ] ||
			$B/calvin probe -p -c "$COUNT" --raw "$TMP/$key.$r.raw" "$NAME" >/dev/null 2>"$TMP/err" ||
			bench_failed "$key" "calvin probe failed: $(tail -n 1 "$TMP/err")"
		fpid=${TPID:-$(pgrep -f "calvin-vnf --chain $NAME ")}
		n0=$(preempted "$fpid")
		timeout $((SECS + 20)) nsenter --net="$(ns probe)" sockperf ping-pong -i $SRV -p 11111 \
			-t "$SECS" -m 64 --full-rtt --full-log "$TMP/$key.$r.sockperf" >/dev/null 2>&1 ||
			bench_failed "$key" "sockperf ping-pong failed"
		echo "$(($(preempted "$fpid") - n0))" >>"$TMP/$key.preempt"
		kill "$spid" 2>/dev/null
		wait "$spid" 2>/dev/null
	fi
	if [ -n "$TPID" ]; then
		kill "$TPID" 2>/dev/null
		wait "$TPID" 2>/dev/null
	fi
	$B/calvin down "$NAME" >/dev/null 2>&1
}

LOAD0=$(cut -d' ' -f1-3 /proc/loadavg)
T0=$(date +%s)
N=${#CONFIGS[@]}
for r in $(seq "$ROUNDS"); do
	for j in $(seq 0 $((N - 1))); do
		set -- ${CONFIGS[$(( (j + r - 1) % N ))]}
		echo "round $r/$ROUNDS: $1" >&2
		one "$r" "$1" "$2" "$(echo "${*:3}")"
	done
done

# The list rounds_table reads: sockperf logs, or the probe's RTTs (ns)
list() { # sockperf|probe
	local c key r
	for c in "${CONFIGS[@]}"; do
		key=${c%% *}
		for r in $(seq "$ROUNDS"); do
			if [ "$1" = probe ]; then
				[ -s "$TMP/$key.$r.raw" ] || continue
				awk '{ print $3 - $2 }' "$TMP/$key.$r.raw" >"$TMP/$key.$r.ns"
				echo "$key $r $TMP/$key.$r.ns ${LABEL[$key]}"
			elif [ -s "$TMP/$key.$r.sockperf" ]; then
				echo "$key $r $TMP/$key.$r.sockperf ${LABEL[$key]}"
			fi
		done
	done
}

{
	echo "# calvin benchmark: calvin-vnf against dpdk-testpmd, $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo
	echo "Machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), kernel $(uname -r), $($TESTPMD -v --no-huge --no-pci -m 64 --file-prefix calvin-bench-v 2>&1 </dev/null | grep -o 'DPDK [0-9.]*' | head -n 1)."
	echo "Load average at start: $LOAD0; at end: $(cut -d' ' -f1-3 /proc/loadavg) (a shared machine: read the ratios of alternating rounds)."
	echo "$ROUNDS rounds, $N configurations alternating within each (order rotating), $(($(date +%s) - T0)) s."
	echo "Per configuration and round: \`calvin up\` of probe -> fwd-u (user, af_xdp, burst 1, pinned) -> server (XDP echo,"
	echo "sockperf's server in its stack); $COUNT calvin probes in ping-pong (64-byte payload, kernel timestamps), then"
	echo "sockperf ping-pong for $SECS s (64-byte messages, as fast as the replies come); down."
	echo "testpmd: \`dpdk-testpmd --no-huge -m 256 --vdev net_af_xdp0,iface=WEST,start_queue=0,queue_count=1 (and EAST) --"
	echo "--forward-mode=mac --eth-peer=0,PROBE-MAC --eth-peer=1,SERVER-MAC --burst=1 --total-num-mbufs=8192\`, forwarding on"
	echo "calvin-vnf's CPU, its main lcore on another one."
	echo
	echo "## sockperf ping-pong RTT"
	echo
	list sockperf | $B/bench/rounds_table testpmd || bench_why testpmd
	echo
	echo "## calvin probe RTT (ping-pong, kernel timestamps)"
	echo
	echo "Through calvin-vnf probes come back with its hop record; testpmd stamps none, so"
	echo "the difference between calvin and testpmd here includes the stamping."
	echo
	list probe | $B/bench/rounds_table testpmd || bench_why testpmd
	echo
	echo "## How often the forwarder lost its core"
	echo
	echo "Involuntary context switches of the forwarder's threads (another task took the"
	echo "core) while sockperf ran, per second: the median and the largest of the rounds."
	echo
	echo "| configuration | preemptions per s, median of rounds | largest round |"
	echo "|---|---:|---:|"
	for c in "${CONFIGS[@]}"; do
		[ -s "$TMP/${c%% *}.preempt" ] || continue
		sort -n "$TMP/${c%% *}.preempt" | awk -v l="${LABEL[${c%% *}]}" -v s="$SECS" '
			{ v[NR] = $1 } END { printf "| %s | %.1f | %.1f |\n", l, v[int((NR + 1) / 2)] / s, v[NR] / s }'
	done
	for c in "${CONFIGS[@]}"; do
		[ -e "$TMP/${c%% *}.why" ] && echo && echo "${c%% *}: $(bench_why "${c%% *}")"
	done
} | tee "$OUT"
echo "report: $OUT"
bench_done "$OUT"
