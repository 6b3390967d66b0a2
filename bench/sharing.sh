#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# Benchmark of user VNFs that share a core: the two DPDK VNFs of
# chains/tactile-crypt.yaml and chains/tactile-nc.yaml on one CPU, each
# either busy-polling (calvin-vnf --wait busy, what calvin did before) or
# sleeping in the kernel between frames (--wait wakeup), with
# chains/tactile-fwd.yaml (one user VNF, a core of its own) as the control.
# Configurations alternate round by round in one run, so the machine's
# load hits them alike; the RTT percentiles pool every probe of every
# round. Also measured: the CPU time the chain's VNFs use while probed and
# while idle, and how busy their core was.
#
# The wait mode is forced through a calvin-vnf wrapper beside a copy of
# calvin (which runs the calvin-vnf beside itself), so the chains deploy
# exactly as `calvin up` deploys them otherwise.
# BENCH_SET=coloc (make bench-coloc) measures instead what the planner
# chooses for a core the VNFs share with nothing else of calvin's: one
# process polling both VNFs in one loop (loop: --wait loop, "shared loop" in
# calvin plan, the default), against a process each taking turns and
# yielding the core on an empty poll (yield: shared-core: yield, "shared"),
# against waking up, for tactile-crypt and tactile-nc (issue 17); yield
# and loop leave the core 24 us of every 256 (a process spinning at
# SCHED_IDLE meanwhile) unless a frame ends the leave while the VNF has
# left enough (--yield-leave early). nc loop-late is tactile-nc's loop with
# flush-early: false, its coders sending a lone probe's repairs at the
# flush deadline (40 us) instead of on their next quiet turn, as before
# early flush. Writes coloc-DATE.md. Every label but loop* runs with
# shared-core: yield (a process per VNF, as the wrapper's arguments need);
# a label ending in -late sets flush-early: false; BENCH_SET=coloc-f compares
# only those. BENCH_SET=coloc-x, coloc-y, coloc-z and coloc-e are
# the experiments behind that (how the VNFs leave the core, threaded NAPI
# on the VNFs' veths, sched_rt_runtime_us -1 while a configuration whose
# label ends in rtinf runs, yield-fair: at nice -20 under the fair
# scheduler, what --wait yield did first).
# Writes bench/results/sharing-DATE.md and prints it. Needs root; hold the
# machine's lock: flock /tmp/calvin-net.lock make bench-sharing
set -u
cd "$(dirname "$0")/.." || exit 1
B=$PWD/build
SET=${BENCH_SET:-sharing}
OUT=bench/results/$SET-$(date +%Y%m%d-%H%M%S).md
COUNT=${BENCH_PROBES:-2000}
ROUNDS=${BENCH_ROUNDS:-5}
. bench/lib.sh
bench_live_init sharing.sh bench-sharing
mkdir -p "$TMP/lib"
ln -s "$B/kernel" "$TMP/lib/kernel"
cp "$B/calvin" "$TMP/lib/calvin"
# the last --wait on calvin-vnf's command line wins
printf '#!/bin/sh\nexec %s/calvin-vnf "$@" $CALVIN_BENCH_VNF_ARGS\n' "$B" >"$TMP/lib/calvin-vnf"
chmod +x "$TMP/lib/calvin-vnf"

# configurations: "chain label calvin-vnf-args"; the ratios are against REF
CONFIGS=(
	"crypt busy --wait busy"
	"crypt wakeup --wait wakeup"
	"nc busy --wait busy"
	"nc wakeup --wait wakeup"
	"fwd busy --wait busy"
	"fwd wakeup --wait wakeup"
)
REF=busy
TITLE="user VNFs sharing a core"
if [ "$SET" = coloc ]; then
	CONFIGS=(
		"crypt wakeup --wait wakeup"
		"crypt yield --wait yield"
		"crypt loop"
		"nc wakeup --wait wakeup"
		"nc yield --wait yield"
		"nc loop"
		"nc loop-late"
	)
	REF=wakeup
	TITLE="user VNFs co-located on a core: one loop, taking turns (yield), waking up"
fi
if [ "$SET" = coloc-f ]; then
	CONFIGS=(
		"nc loop"
		"nc loop-late"
		"nc yield --wait yield"
		"nc yield-late --wait yield"
	)
	REF=loop-late
	TITLE="tactile-nc co-located: early flush against the flush deadline"
fi
if [ "$SET" = coloc-x ]; then
	CONFIGS=(
		"crypt wakeup --wait wakeup"
		"crypt yield-socket --wait yield --yield-leave socket --yield-window 512,32"
		"crypt yield-timer --wait yield --yield-leave timer --yield-window 512,32"
		"crypt yield-spin --wait yield --yield-leave spin --yield-window 512,32"
		"crypt yield-spin256 --wait yield --yield-leave spin --yield-window 256,24"
		"crypt napi0 --wait yield --yield-leave socket --yield-window 512,32"
		"crypt napirt --wait yield --yield-leave socket --yield-window 512,32"
		"nc wakeup --wait wakeup"
		"nc yield-socket --wait yield --yield-leave socket --yield-window 512,32"
		"nc yield-timer --wait yield --yield-leave timer --yield-window 512,32"
		"nc yield-spin --wait yield --yield-leave spin --yield-window 512,32"
	)
	REF=wakeup
	TITLE="user VNFs co-located on a core: how they leave it"
fi
if [ "$SET" = coloc-z ]; then
	CONFIGS=(
		"crypt yield-socket --wait yield --yield-leave socket --yield-window 512,32"
		"crypt yield-timer --wait yield --yield-leave timer --yield-window 256,24"
		"crypt yield-spin --wait yield --yield-leave spin --yield-window 256,24"
	)
	REF=yield-socket
	TITLE="user VNFs co-located on a core: leaving 24 us of every 256, with and without spinning"
fi
if [ "$SET" = coloc-e ]; then
	CONFIGS=(
		"crypt yield --wait yield"
		"crypt yield-early --wait yield --yield-leave early"
		"crypt yield-socket --wait yield --yield-leave socket --yield-window 512,32"
		"nc yield --wait yield"
		"nc yield-early --wait yield --yield-leave early"
		"nc yield-socket --wait yield --yield-leave socket --yield-window 512,32"
	)
	REF=yield
	TITLE="user VNFs co-located on a core: a frame may end the leave early (credit of 1/8)"
fi
if [ "$SET" = coloc-y ]; then
	CONFIGS=(
		"crypt yield-timer --wait yield --yield-leave timer --yield-window 512,32"
		"crypt yield-spin --wait yield --yield-leave spin --yield-window 512,32"
		"crypt yield-spin-rtinf --wait yield --yield-leave spin --yield-window 512,32"
		"crypt yield-timer-rtinf --wait yield --yield-leave timer --yield-window 512,32"
		"crypt yield-spin256w24 --wait yield --yield-leave spin --yield-window 256,24"
	)
	REF=yield-timer
	TITLE="user VNFs co-located on a core: real-time throttling"
fi
RT0=$(cat /proc/sys/kernel/sched_rt_runtime_us)

# napi0, napirt: threaded NAPI on the veths the VNFs' ports receive from,
# its kthreads on CPU 0 (napi0) or at SCHED_FIFO 2 above the VNFs (napirt)
napi_threaded() { # CHAIN LABEL
	local ns d pid
	case "$2" in napi*) ;; *) return ;; esac
	for ns in $(ip netns list | awk -v p="calvin-$1." 'index($1, p) == 1 { print $1 }'); do
		case "$ns" in *.probe | *.server) continue ;; esac
		for d in west east; do
			ip netns exec "$ns" sh -c "[ -e /sys/class/net/$d ] && echo 1 >/sys/class/net/$d/threaded"
		done
	done
	for pid in $(ps -eo pid=,comm= | awk '$2 ~ /^napi\// { print $1 }'); do
		if [ "$2" = napirt ]; then
			chrt -f -p 2 "$pid"
		else
			taskset -pc 0 "$pid" >/dev/null
		fi
	done
}

# utime + stime of every calvin-vnf of a chain, in clock ticks
vnf_ticks() { # CHAIN
	local pid t=0
	for pid in $(pgrep -f "calvin-vnf --chain $1 "); do
		t=$((t + $(awk '{ print $14 + $15 }' "/proc/$pid/stat")))
	done
	echo $t
}

# busy time of the user VNFs' core (all tasks, interrupts included), in ticks
core_ticks() {
	awk -v c="cpu$CORE" '$1 == c { print $2 + $3 + $4 + $7 + $8 }' /proc/stat
}

# One round of one configuration: up, 1 s idle, probes, down. Appends the
# raw probe lines to TMP/CHAIN-LABEL.raw, the round's p99 to .p99 and
# "idle_ticks probed_ticks probed_seconds core_ticks" to .cpu.
one() { # CHAIN LABEL ARGS...
	local chain=$1 label=$2 name=bs-$1 t0 t1 t2 s0 s1 c0 c1
	shift 2
	# a spec of its own: the copy is kept across rounds
	case "$label" in *-late) name=bs-$chain-late ;; esac
	bench_spec "chains/tactile-$chain.yaml" "$name"
	# a process per VNF, whose command line the wrapper's arguments end
	case "$label" in loop*) ;; *) sed -i 's/^shared-core: .*/shared-core: yield/' "$BENCH_SPEC" ;; esac
	case "$label" in *-late)
		grep -q '^ *flush-early:' "$BENCH_SPEC" ||
			sed -i 's/^\( *\)flush: \([0-9a-z]*\)/\1flush: \2\n\1flush-early: false/' "$BENCH_SPEC"
		;;
	esac
	if ! CALVIN_BENCH_VNF_ARGS="$*" "$TMP/lib/calvin" up "$BENCH_SPEC" \
		>/dev/null 2>"$TMP/err"; then
		bench_failed "$chain-$label" "calvin up failed: $(tail -n 1 "$TMP/err")"
		return
	fi
	napi_threaded "$name" "$label"
	case "$label" in *rtinf) echo -1 >/proc/sys/kernel/sched_rt_runtime_us ;; esac
	t0=$(vnf_ticks "$name")
	sleep 1
	t1=$(vnf_ticks "$name")
	s0=$(date +%s.%N)
	c0=$(core_ticks)
	rm -f "$TMP/round.raw" # a failed probe's round must not count an earlier one's
	$B/calvin probe -c "$COUNT" --raw "$TMP/round.raw" "$name" >/dev/null 2>"$TMP/err" ||
		bench_failed "$chain-$label" "calvin probe failed: $(tail -n 1 "$TMP/err")"
	c1=$(core_ticks)
	s1=$(date +%s.%N)
	t2=$(vnf_ticks "$name")
	$B/calvin down "$name" >/dev/null 2>&1
	echo "$RT0" >/proc/sys/kernel/sched_rt_runtime_us
	if [ -s "$TMP/round.raw" ]; then
		cat "$TMP/round.raw" >>"$TMP/$chain-$label.raw"
		rtt_pct "$TMP/round.raw" 0 | cut -d' ' -f2 >>"$TMP/$chain-$label.p99"
	fi
	echo "$((t1 - t0)) $((t2 - t1)) $(echo "$s1 - $s0" | bc -l) $((c1 - c0))" >>"$TMP/$chain-$label.cpu"
}

# CPU shares, in percent of one CPU: "VNFs-idle VNFs-probed core-probed"
cpu_pct() { # FILE
	awk -v hz="$(getconf CLK_TCK)" '{ i += $1; b += $2; s += $3; c += $4; n++ }
		END { printf "%.0f %.0f %.0f\n", 100 * i / hz / n, 100 * b / hz / s, 100 * c / hz / s }' "$1"
}

budget_us() { # CHAIN
	sed -n 's/^budget: *\([0-9]*\)us.*/\1/p' "chains/tactile-$1.yaml"
}

LOAD0=$(cut -d' ' -f1-3 /proc/loadavg)
FLUSH=$(sed -n 's/^ *flush: *\([0-9a-z]*\).*/\1/p' chains/tactile-nc.yaml | head -n 1)
CORE=$($B/calvin plan chains/tactile-crypt.yaml | sed -n 's/^ *enc *user *cpu \([0-9]*\).*/\1/p')
CORE=${CORE:-1}
for r in $(seq "$ROUNDS"); do
	for c in "${CONFIGS[@]}"; do
		set -- $c
		echo "round $r/$ROUNDS: $1 $2" >&2
		one "$@"
	done
done

# "median worst" of the per-round p99s
rounds_p99() { # FILE
	sort -n "$1" | awk '{ v[NR] = $1 } END { printf "%s %s\n", v[int((NR + 1) / 2)], v[NR] }'
}

ratio() { # A B; "-" when either is no number
	case "$1/$2" in
	*[!0-9./]* | /* | */ | */0 | */0.0) echo - ;;
	*) echo "scale=3; $1 / $2" | bc | sed 's/^\./0./' ;;
	esac
}

{
	echo "# calvin benchmark: $TITLE, $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo
	echo "Machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), kernel $(uname -r)."
	echo "Load average at start: $LOAD0; at end: $(cut -d' ' -f1-3 /proc/loadavg) (a shared machine: read ratios and medians)."
	echo "$ROUNDS rounds x $COUNT probes per configuration (paced, 1000/s, 256 bytes), configurations"
	echo "alternating within each round. p50, p99 and p99.9 pool all probes of a configuration;"
	echo "'p99 of rounds' is the median and the worst of the rounds' own p99s."
	echo "Placement as calvin plans it here: the user VNFs of crypt and nc both on"
	echo "$($B/calvin plan chains/tactile-crypt.yaml | sed -n 's/^ *enc *user *//p') (allow-sharing), fwd-u alone on $($B/calvin plan chains/tactile-fwd.yaml | sed -n 's/^ *fwd-u *user *//p')."
	echo
	echo "| chain | VNFs wait | RTT p50 us | p99 us | p99.9 us | p99 of rounds us | lost | p99 / budget | p50, p99 vs $REF | VNF CPU idle | VNF CPU probed | core $CORE busy probed |"
	echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
	for c in "${CONFIGS[@]}"; do
		set -- $c
		if [ ! -s "$TMP/$1-$2.raw" ]; then
			echo "| $1 | $2 | $(bench_why "$1-$2") | - | - | - | - | - | - | - | - | - |"
			continue
		fi
		read -r p50 p99 p999 n < <(rtt_pct "$TMP/$1-$2.raw" 0)
		read -r b50 b99 _ _ < <(rtt_pct "$TMP/$1-$REF.raw" 0 2>/dev/null)
		read -r rmed rmax < <(rounds_p99 "$TMP/$1-$2.p99")
		read -r idle probed core < <(cpu_pct "$TMP/$1-$2.cpu")
		echo "| $1 | $2 | $p50 | $p99 | $p999 | $rmed, $rmax | $((ROUNDS * COUNT - n)) |" \
			"$(ratio "$p99" "$(budget_us "$1")") | $(ratio "$p50" "$b50"), $(ratio "$p99" "$b99") |" \
			"$idle% | $probed% | $core% |"
	done
	echo
	echo "tactile-nc loses 5% of the frames between its VNFs on purpose; a probe the decoder"
	echo "recovers waits for the generation's repairs. Paced at 1000/s no probe comes within the"
	echo "flush (flush: $FLUSH in chains/tactile-nc.yaml) after another, so its coders, once they"
	echo "have seen that (flush-early: true, the default), send each probe's repairs on their next"
	echo "quiet turn; with flush-early: false (loop-late) the repairs wait for the flush deadline"
	echo "and about 10% of the probes (5% lost each way) wait that long on top of their path."
	echo "The probes that took the full path (not recovered from repairs):"
	echo
	echo "| VNFs wait | RTT p50 us | p99 us | p99.9 us | probes |"
	echo "|---|---:|---:|---:|---:|"
	for c in "${CONFIGS[@]}"; do
		set -- $c
		[ "$1" = nc ] || continue
		if [ ! -s "$TMP/$1-$2.raw" ]; then
			echo "| $2 | $(bench_why "$1-$2") | - | - | 0 |"
			continue
		fi
		read -r p50 p99 p999 n < <(rtt_pct "$TMP/$1-$2.raw" 1)
		echo "| $2 | $p50 | $p99 | $p999 | $n |"
	done
	echo
	echo "Budget: $(budget_us crypt) us for every chain. VNF CPU: utime + stime of the chain's"
	echo "calvin-vnf processes in percent of one CPU, over 1 s without traffic and over the"
	echo "probing; core $CORE busy: everything that ran on the VNFs' core while probing (the"
	echo "VNFs, softirqs, and whatever else this shared machine runs there: above the VNFs'"
	echo "own share it is other load, which shares the core by time slices with a busy-poller"
	echo "and is preempted by a waking VNF, which runs at real-time priority)."
	if [ "$SET" != sharing ]; then
		echo "loop: what calvin plan chooses for a core a chain's VNFs share with nothing else"
		echo "of calvin's (\"shared loop\", shared-core: loop): one calvin-vnf process runs both"
		echo "VNFs, polling each one's ports in turn at real-time priority (SCHED_FIFO 1), so no"
		echo "frame waits for the kernel to switch from one VNF to the other; the core is busy"
		echo "but for the 24 us of every 256 it leaves (a process spins there at SCHED_IDLE"
		echo "meanwhile, so the vCPU does not halt; a frame ends the leave once the loop has left"
		echo "at least 7/8 of its leaves on average)."
		echo "yield: shared-core: yield (\"shared\"): a process each, both at SCHED_FIFO 1, handing"
		echo "the core to each other on every empty poll, leaving it as the loop does."
		[ "$SET" = coloc ] ||
			echo "yield-socket: as yielding VNFs left it before, 32 us of every 512 until a frame came."
		echo "loop-late: loop with flush-early: false in both coders of tactile-nc."
		echo "wakeup: what it chooses beside housekeeping."
	else
		echo "Two user VNFs on dedicated cores need 3 CPUs (one for housekeeping): with $(nproc) CPUs"
		echo "only fwd (one user VNF) runs on a core of its own; its busy row is calvin's default"
		echo "there, its wakeup row what sleeping would cost a VNF that owns its core."
	fi
} | tee "$OUT"
echo "report: $OUT"
bench_done "$OUT"
