#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# bench/REPORT.md from a run of bench/all.sh (`make bench`): the machine,
# a headline table of calvin beside CALVIN's published figures and beside
# the baselines measured in the same run, and links to each benchmark's
# report. Every figure is read from the run's reports; where a benchmark
# did not produce one, REPORT.md says "not measured: WHY" (the benchmark's
# own reason, or that it did not run) and this script exits 1 once
# REPORT.md is written. Copies the reports and their pictures (PNG) to
# bench/report/, beside REPORT.md, so the links work in git.
#   bench/report.sh bench/results/all-DATE
# BENCH_REPORT=FILE writes FILE instead, and the copies beside it;
# BENCH_RESULTS=DIR looks for bench-heal's and bench-soak's reports there.
set -u
cd "$(dirname "$0")/.." || exit 1
RUN=${1:?usage: bench/report.sh bench/results/all-DATE}
[ -d "$RUN" ] || { echo "bench/report.sh: no run folder $RUN" >&2; exit 2; }
OUT=${BENCH_REPORT:-bench/REPORT.md} # elsewhere for tests
DEST=$(dirname "$OUT")/report
RESULTS=${BENCH_RESULTS:-bench/results} # where bench-heal and bench-soak write

# Field COL (awk's, split on '|': 2 is the first column) of the first table
# row of FILE that COND (awk) picks: its first word without markup, or the
# row's own "not measured: WHY"; nothing if there is no such row.
pick() { # FILE COND COL
	awk -F'|' -v c="$3" '
		function trim(s) { gsub(/^ +| +$|\*/, "", s); return s }
		'"$2"' {
			for (i = 2; i < NF; i++) if (trim($i) ~ /^not measured/) { print trim($i); exit }
			split(trim($c), w, " "); print w[1]; exit
		}' "$1" 2>/dev/null
}

# pick() of the row whose first column is LABEL; NF, when given, is the
# row's number of fields. "n/a" when there is no such row.
cell() { # FILE LABEL COL [NF]
	local v
	v=$(pick "$1" '/^\|/ && trim($2) == "'"$2"'" && ('"${4:-0}"' == 0 || NF == '"${4:-0}"')' "$3")
	echo "${v:-n/a}"
}

# The whole of that cell up to its interval ("121x as much", "59%").
cellx() { # FILE LABEL COL
	local v
	v=$(awk -F'|' -v l="$2" -v c="$3" '
		function trim(s) { gsub(/^ +| +$|\*/, "", s); return s }
		/^\|/ && trim($2) == l { v = trim($c); sub(/ *\[.*/, "", v); if (v == "-") v = ""; print v; exit }
	' "$1" 2>/dev/null)
	echo "${v:-n/a}"
}

# A line starting with PREFIX, without it, from the first calvin bench
# report that has one (calvin describes the machine at the top of each).
line() { # PREFIX
	local f v
	for f in $P $W $B $T; do
		v=$(grep -m 1 "^$1" "$f" 2>/dev/null | cut -c $((${#1} + 1))-)
		[ -n "$v" ] && break
	done
	echo "${v:-unknown: no calvin bench report says}"
}

# Why a figure of STEP is not in REPORT: the step did not run, failed
# before its report, or its report lacks it.
why() { # STEP REPORT
	local rc
	rc=$(awk -v s="$1" '$1 == s { print $2; exit }' "$RUN/steps" 2>/dev/null)
	if [ -s "$2" ]; then
		echo "benchmark $1's report has no such figure${rc:+ (it exited $rc; log.txt of the run says why)}"
	elif [ -n "$rc" ]; then
		echo "benchmark $1 exited $rc without its report (log.txt of the run says why)"
	else
		echo "benchmark $1 did not run"
	fi
}

# VALUE as it stands, or "not measured: WHY" when it is no figure.
fig() { # VALUE STEP REPORT
	case $1 in
	"not measured"*) echo "$1" ;;
	"" | n/a | - | "- -") echo "not measured: $(why "$2" "$3")" ;;
	*) echo "$1" ;;
	esac
}

# A number with a unit ("8.31us", "1.2ms") in microseconds.
us() {
	case $1 in "not measured"*) echo "$1"; return ;; esac
	awk -v v="$1" 'BEGIN {
		if (v !~ /^[0-9.]+(ns|us|ms|s)$/) { print "n/a"; exit }
		n = v + 0; u = v; sub(/^[0-9.]+/, "", u)
		f = u == "ns" ? 0.001 : u == "us" ? 1 : u == "ms" ? 1000 : 1e6
		x = n * f; printf (x >= 1000 ? "%.0f" : "%.3g"), x }'
}

# A / B to two decimals (two digits below 0.1), or "-" when either is no
# number (its own cell says why).
ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN {
		if (a !~ /^[0-9.]+$/ || b !~ /^[0-9.]+$/ || b == 0) { print "-"; exit }
		r = a / b; printf (r < 0.1 ? "%.2g" : "%.2f"), r }'
}

# ns per 1400-byte packet from MB/s (10^6 bytes), in us.
mbs_us() {
	case $1 in "not measured"*) echo "$1"; return ;; esac
	awk -v m="$1" 'BEGIN { if (m !~ /^[0-9.]+$/ || m == 0) print "n/a"; else printf "%.3g", 1400e3 / m / 1000 }'
}

ns_us() {
	case $1 in "not measured"*) echo "$1"; return ;; esac
	awk -v n="$1" 'BEGIN { if (n !~ /^[0-9.]+$/) print "n/a"; else printf "%.3g", n / 1000 }'
}

# A link to a report of the run, if it exists.
link() { # TEXT PATH-UNDER-DEST
	if [ -e "$DEST/$2" ]; then echo "[$1](report/$2)"; else echo "$1 (did not run)"; fi
}

# heal.md and soak.md (and their samples, heal.tsv and soak.csv) come from
# targets of their own (make bench-heal, make bench-soak), not from the
# run: the newest in RESULTS, or the copy kept beside REPORT.md.
copy_reports() {
	local d f keep
	keep=$(mktemp -d)
	for f in heal soak; do
		# -p: the kept copy keeps its time, or it would always look newest
		cp -p "$DEST/$f".* "$keep/" 2>/dev/null
		d=$(ls -t "$RESULTS"/$f-*.md 2>/dev/null | head -n 1)
		[ -n "$d" ] && { [ ! -e "$keep/$f.md" ] || [ "$d" -nt "$keep/$f.md" ]; } || continue
		rm -f "$keep/$f".*
		cp "$d" "$keep/$f.md"
		# its samples: soak's CSV, heal's TSV
		cp "${d%.md}.csv" "$keep/$f.csv" 2>/dev/null || cp "${d%.md}.tsv" "$keep/$f.tsv" 2>/dev/null
	done
	rm -rf "$DEST"
	mkdir -p "$DEST"
	cp "$keep"/* "$DEST/" 2>/dev/null
	rm -rf "$keep"
	for f in kernel user sharing coloc testpmd monitor vm-links; do
		[ -e "$RUN/$f.md" ] && cp "$RUN/$f.md" "$DEST/$f.md"
	done
	for d in baseline pinning wakeup throughput vm-pinning; do
		[ -e "$RUN/$d/report.md" ] || continue
		mkdir -p "$DEST/$d"
		# the pictures as PNG only, to keep what git holds small (the
		# SVGs of thousands of samples are several times larger)
		sed 's/\(!\[[^]]*\]([^)]*\)\.svg)/\1.png)/; s/, \[SVG\]([^)]*)//' \
			"$RUN/$d/report.md" >"$DEST/$d/report.md"
		cp "$RUN/$d"/*.png "$DEST/$d/" 2>/dev/null
	done
	[ -e "$RUN/steps" ] && cp "$RUN/steps" "$DEST/steps.txt"
}

copy_reports
B=$DEST/baseline/report.md P=$DEST/pinning/report.md W=$DEST/wakeup/report.md
T=$DEST/throughput/report.md U=$DEST/user.md K=$DEST/kernel.md SH=$DEST/sharing.md CO=$DEST/coloc.md
V=$DEST/vm-links.md VP=$DEST/vm-pinning/report.md TP=$DEST/testpmd.md

# Each figure, or "not measured: WHY" (f: fig() with the step and report
# it comes from).
f() { fig "$1" "$2" "$3"; }
fb() { f "$1" baseline "$B"; }
rtt=$(fb "$(us "$(cell $B calvin 5)")") rtt_l=$(fb "$(us "$(cell $B 'conventional stack' 5)")")
sp=$(fb "$(us "$(cell $B 'calvin, sockperf' 5)")")
sp_l=$(fb "$(us "$(cell $B 'conventional stack, sockperf' 5)")")
seal='$2 ~ /AES-256-GCM/ && $3 + 0 == 1400 && $4 ~ /seal/'
aes=$(f "$(ns_us "$(pick $U "$seal" 5)")" user "$U") aes_o=$(f "$(mbs_us "$(pick $U "$seal" 8)")" user "$U")
nc=$(f "$(ns_us "$(cell $U 1400 3)")" user "$U") nc_i=$(f "$(ns_us "$(cell $U 1400 5)")" user "$U")
ft() { f "$1" throughput "$T"; }
b1=$(ft "$(pick $T '$2 ~ /burst 1 / && $3 + 0 == 1400' 5)")
b32=$(ft "$(pick $T '$2 ~ /burst 32 / && $3 + 0 == 1400' 5)")
bl=$(ft "$(pick $T '$2 ~ /conventional stack/ && $3 + 0 == 1400' 5)")
# TCP rows have four columns (NF 6): goodput, rounds, median against
tcp=$(ft "$(cell $T 'calvin, burst 1 (latency mode)' 3 6)")
tcp32=$(ft "$(cell $T 'calvin, burst 32 (throughput mode)' 3 6)")
tcp_l=$(ft "$(cell $T 'conventional stack' 3 6)")
tcpt=$(ft "$(cell $T 'calvin, mode: throughput (tc, GSO; burst 32)' 3 6)")
tcpt_s=$(ft "$(cell $T 'conventional stack, offloads of mode: throughput' 3 6)")
tcpt_d=$(ft "$(cell $T 'conventional stack, default offloads' 3 6)")
# the same three at the larger mtu bench/all.sh gives (--tput-mtu)
TPUT_MTU=3400
tcpm=$(ft "$(cell $T "calvin, mode: throughput (tc, GSO; burst 32), mtu $TPUT_MTU" 3 6)")
tcpm_s=$(ft "$(cell $T "conventional stack, offloads of mode: throughput, mtu $TPUT_MTU" 3 6)")
tcpm_d=$(ft "$(cell $T "conventional stack, default offloads, mtu $TPUT_MTU" 3 6)")
kx=$(f "$(cell $K 'median per CPU-s' 3)" kernel "$K") kl=$(f "$(cell $K 'median per CPU-s' 4)" kernel "$K")
fp() { f "$1" pinning "$P"; }
jr_p=$(fp "$(cellx $P 'pinned, stress' 12)") jr_i=$(fp "$(cellx $P 'isolated, stress' 12)")
p99_s=$(fp "$(us "$(cell $P 'shared, stress' 6)")") p99_p=$(fp "$(us "$(cell $P 'pinned, stress' 6)")")
p99_i=$(fp "$(us "$(cell $P 'isolated, stress' 6)")")
fw() { f "$1" wakeup "$W"; }
wk_s=$(fw "$(us "$(cell $W 'shared, stress' 8)")") wk_p=$(fw "$(us "$(cell $W 'pinned, stress' 8)")")
wk_i=$(fw "$(us "$(cell $W 'isolated, stress' 8)")")
w99_s=$(fw "$(us "$(cell $W 'shared, stress' 6)")") w99_p=$(fw "$(us "$(cell $W 'pinned, stress' 6)")")
w99_i=$(fw "$(us "$(cell $W 'isolated, stress' 6)")")
sh_b=$(f "$(cell $SH crypt 5)" sharing "$SH")
sh_w=$(f "$(pick $SH '$2 ~ /crypt/ && $3 ~ /wakeup/' 5)" sharing "$SH")
# testpmd.md's first table of rounds (sockperf's): p99, median of rounds,
# and the median of the rounds' p99 over testpmd's
tp_row() { pick "$TP" '/^\|/ && NF == 8 && $2 ~ /^ *'"$1"'/' "$2"; }
tp_c=$(f "$(us "$(tp_row 'calvin-vnf forward, as' 5)")" testpmd "$TP")
tp_t=$(f "$(us "$(tp_row 'dpdk-testpmd: mac' 5)")" testpmd "$TP")
tp_r=$(f "$(tp_row 'calvin-vnf forward, as' 7)" testpmd "$TP")
# the wait mode's cell whole: "yield" is not "yield-fair"
co() { f "$(pick $CO "\$2 ~ /$1/ && trim(\$3) == \"$2\"" 5)" coloc "$CO"; }
co_cy=$(co crypt loop) co_cw=$(co crypt wakeup) co_ny=$(co nc loop) co_nw=$(co nc wakeup)
vx=$(f "$(cell $V xdp 3)" vm-links "$V") vb=$(f "$(cell $V bridge 3)" vm-links "$V")
fv() { f "$1" vm-pinning "$VP"; }
vp_s=$(fv "$(us "$(cell $VP 'shared, stress' 6)")") vp_p=$(fv "$(us "$(cell $VP 'pinned, stress' 6)")")
vp_i=$(fv "$(us "$(cell $VP 'isolated, stress' 6)")")
vp_note=$(grep -q 'Timings are emulated' $VP 2>/dev/null && echo ", emulated: TCG")
vm_note=$(grep -q 'emulated (TCG)' $V 2>/dev/null && echo ", emulated: TCG")

# The tables of a report (its lines from the first that starts with
# START to the end of that table), or what is missing.
table_of() { # FILE START
	awk -v s="$2" 'index($0, s) == 1 { t = 1 } t && !/^\|/ { exit } t' "$1" 2>/dev/null | grep .
}
# The issue's supervision figures: monitor.md from this run; heal.md and
# soak.md from their own targets, each with its date, command and load
supervision() {
	local f what
	for f in monitor heal soak; do
		case $f in
		monitor) what="The cost of monitoring (this run's bench/monitor.sh): rounds table" ;;
		heal) what="Fault (SIGKILL) to healed, from the last make bench-heal kept" ;;
		soak) what="The supervisor and the monitor over time, from the last make bench-soak kept" ;;
		esac
		echo "$what ($(link "bench-$f" "$f.md")):"
		echo
		if [ ! -e "$DEST/$f.md" ]; then
			[ $f = monitor ] && echo "not measured: $(why monitor "$DEST/monitor.md")" ||
				echo "(no run kept: make bench-$f writes it)"
			echo
			continue
		fi
		sed -n '1s/^# calvin benchmark: //p' "$DEST/$f.md"
		echo
		case $f in
		monitor) table_of "$DEST/$f.md" '| configuration | rounds' ;;
		heal) table_of "$DEST/$f.md" '| VNF (kind)' ;;
		soak) table_of "$DEST/$f.md" '| process' ;;
		esac || echo "not measured: $(why "$f" "$DEST/$f.md")"
		echo
		grep -h '^Load average\|^Command:\|^Failed:' "$DEST/$f.md"
		echo
	done
}

{
	echo "# calvin benchmarks: the headline figures"
	echo
	echo "Generated by \`make bench\` (bench/all.sh, then bench/report.sh) from run \`$RUN\`,"
	echo "$(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)."
	echo "Every figure below is read from the run's own reports (linked); none is typed in."
	echo
	echo "## Machine"
	echo
	echo "- CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) CPUs online"
	echo "- Kernel: $(uname -r)"
	echo "- Isolation: $(line '- Isolation: ')"
	echo "- Nodes and accelerator (calvin bench): $(line '- Nodes: ')"
	echo "- Load average at the end: $(cut -d' ' -f1-3 /proc/loadavg) (a shared machine: read medians and ratios)"
	[ -e "$DEST/steps.txt" ] &&
		echo "- Duration: $(awk '$1 == "total" { print $2 }' "$DEST/steps.txt") s in all; per benchmark (name, exit status, seconds): $(grep -v '^total' "$DEST/steps.txt" | tr '\n' ';' | sed 's/;$//; s/;/; /g')"
	echo
	echo "## Headline"
	echo
	echo "| measure | calvin, this run | CALVIN (published) | baseline, this run | calvin / baseline | from |"
	echo "|---|---:|---:|---:|---:|---|"
	echo "| chain RTT median, tactile-fwd, calvin's probe (us) | $rtt | 320 | $rtt_l (conventional stack) | $(ratio $rtt $rtt_l) | $(link 'bench baseline' baseline/report.md) |"
	echo "| chain RTT median, sockperf through the same (us) | $sp | 320 | $sp_l (conventional stack) | $(ratio $sp $sp_l) | $(link 'bench baseline' baseline/report.md) |"
	echo "| AES-256-GCM seal per 1400-byte packet (us, CPU) | $aes | 22.4 (AES-256) | $aes_o (\`openssl speed -aead\`) | $(ratio $aes $aes_o) | $(link 'bench-user' user.md) |"
	echo "| network-coding encode per 1400-byte packet (us, CPU) | $nc | 3.2 | $nc_i (ISA-L ec_encode_data) | $(ratio $nc $nc_i) | $(link 'bench-user' user.md) |"
	echo "| latency-mode (burst 1) no-drop rate, 1400 B (Mbit/s) | $b1 | 1.5 | $bl (conventional stack) | $(ratio "$b1" "$bl") | $(link 'bench throughput' throughput/report.md) |"
	echo "| throughput-mode (burst 32) no-drop rate, 1400 B (Mbit/s) | $b32 | - | $bl (conventional stack) | $(ratio "$b32" "$bl") | $(link 'bench throughput' throughput/report.md) |"
	echo "| TCP goodput, iperf3, latency / throughput mode (Gbit/s) | $tcp / $tcp32 | - | $tcp_l (conventional stack) | $(ratio $tcp $tcp_l) / $(ratio $tcp32 $tcp_l) | $(link 'bench throughput' throughput/report.md) |"
	echo "| TCP goodput, iperf3, mode: throughput (Gbit/s), against the same / default offloads | $tcpt | - | $tcpt_s / $tcpt_d (conventional stack) | $(ratio $tcpt $tcpt_s) / $(ratio $tcpt $tcpt_d) | $(link 'bench throughput' throughput/report.md) |"
	echo "| TCP goodput, iperf3, mode: throughput at mtu $TPUT_MTU, every stack (Gbit/s), against the same / default offloads | $tcpm | - | $tcpm_s / $tcpm_d (conventional stack) | $(ratio $tcpm $tcpm_s) / $(ratio $tcpm $tcpm_d) | $(link 'bench throughput' throughput/report.md) |"
	echo "| kernel hop, packets per CPU-second, all on one core | $kx (XDP forward) | - | $kl (Linux ip_forward) | $(ratio $kx $kl) | $(link 'bench-kernel' kernel.md) |"
	echo "| RTT jitter (p99-p50) reduction against shared placement, under stress-ng: pinned / isolated | $jr_p / $jr_i | up to 40% less variability from CPU affinity (Ocampo et al. 2024) | shared placement | - | $(link 'bench pinning' pinning/report.md) |"
	echo "| chain RTT p99 under stress-ng (us): pinned / isolated | $p99_p / $p99_i | - | $p99_s (shared) | $(ratio $p99_p $p99_s) / $(ratio $p99_i $p99_s) | $(link 'bench pinning' pinning/report.md) |"
	echo "| wake-up latency p99 under stress-ng (cyclictest, us): pinned / isolated | $w99_p / $w99_i | - | $w99_s (shared) | $(ratio $w99_p $w99_s) / $(ratio $w99_i $w99_s) | $(link 'bench wakeup' wakeup/report.md) |"
	echo "| worst wake-up latency under stress-ng (cyclictest, us): pinned / isolated | $wk_p / $wk_i | 104 vanilla, 48 PREEMPT_RT, 12 with isolation (arXiv 2412.18104) | $wk_s (shared) | $(ratio $wk_i $wk_s) (isolated) | $(link 'bench wakeup' wakeup/report.md) |"
	echo "| RTT p99 through one user VNF (forward, af_xdp, burst 1), sockperf, median of rounds (us) | $tp_c | - | $tp_t (dpdk-testpmd on the same ports and CPU) | $tp_r (median of the rounds' ratios) | $(link 'bench-testpmd' testpmd.md) |"
	echo "| RTT p99 of two user VNFs sharing a core, tactile-crypt, waking up (us) | $sh_w | - | $sh_b (busy-polling) | $(ratio "$sh_w" "$sh_b") | $(link 'bench-sharing' sharing.md) |"
	echo "| RTT p99 of two user VNFs co-located on a core, one loop: tactile-crypt / tactile-nc (us) | $co_cy / $co_ny | - | $co_cw / $co_nw (waking up) | $(ratio "$co_cy" "$co_cw") / $(ratio "$co_ny" "$co_nw") | $(link 'bench-coloc' coloc.md) |"
	echo "| chain RTT median with the VNFs in VMs$vm_note (us) | $vx (calvin's XDP links) | 320 | $vb (Linux bridges) | $(ratio $vx $vb) | $(link 'bench-vm-links' vm-links.md) |"
	echo "| chain RTT p99 with the VNFs in VMs, under stress-ng$vp_note (us): pinned / isolated | $vp_p / $vp_i | - | $vp_s (shared) | $(ratio $vp_p $vp_s) / $(ratio $vp_i $vp_s) | $(link 'bench pinning, VMs' vm-pinning/report.md) |"
	echo
	echo "CALVIN's figures (Xiang et al., IEEE JSAC 2019) were measured on their testbed:"
	echo "VMs on a physical network, AES-256 in portable C without AES-NI, Kodo RLNC coding."
	echo "calvin's run here on veths in network namespaces of one shared $(nproc)-CPU machine:"
	echo "the published column is context, not a like-for-like comparison. The baselines"
	echo "ran in the same session, alternating with calvin where the benchmark says so."
	echo
	echo "## The user tier against dpdk-testpmd: where calvin's tail comes from"
	echo
	echo "sockperf ping-pong through one user VNF, calvin-vnf or dpdk-testpmd on the same"
	echo "ports and CPU, and calvin with one suspect at a time switched to testpmd's setting"
	echo "or off, in alternating rounds ($(link 'bench-testpmd' testpmd.md) has the pooled"
	echo "percentiles with intervals, and calvin's own probe):"
	echo
	awk '/^\| configuration \| rounds/ { t = 1 } t && !/^\|/ { exit } t' "$TP" 2>/dev/null |
		grep . || echo "not measured: $(why testpmd "$TP")"
	echo
	echo "## Supervision and monitoring"
	echo
	supervision
	echo "## The reports"
	echo
	echo "- $(link 'bench-kernel' kernel.md): calvin's XDP forward hop against Linux IP forwarding"
	echo "- $(link 'bench-user' user.md): network coding and AEAD per packet against ISA-L and OpenSSL, residence time per hop in live chains"
	echo "- $(link 'bench-sharing' sharing.md): user VNFs sharing a core, busy-polling against waking up"
	echo "- $(link 'bench-testpmd' testpmd.md): calvin-vnf against dpdk-testpmd on the same ports and CPU, and the suspects of calvin's tail"
	echo "- $(link 'bench-monitor' monitor.md): the chain's RTT with calvin monitor at 10/s and 100/s against none"
	echo "- $(link 'bench-heal' heal.md): SIGKILL of each user VNF kind to healed (a target of its own: make bench-heal)"
	echo "- $(link 'bench-soak' soak.md): the supervisor's and the monitor's RSS and CPU over 30 minutes (make bench-soak)"
	echo "- $(link 'bench-coloc' coloc.md): user VNFs co-located on a core, one loop (the planner's \"shared loop\") against taking turns (yield) and waking up"
	echo "- $(link 'bench-vm-links' vm-links.md): the links between VNF VMs, calvin's XDP link program against a bridge"
	echo "- $(link 'calvin bench pinning, VMs' vm-pinning/report.md): the same with the VNFs in VMs (chains/tactile-fwd-vm.yaml), with the other guest kernel and host links"
	echo "- $(link 'calvin bench baseline' baseline/report.md): the chain against the conventional stack (RTT, sockperf), with CDF and box plots"
	echo "- $(link 'calvin bench pinning' pinning/report.md): shared, pinned and isolated placement, idle and under stress-ng"
	echo "- $(link 'calvin bench wakeup' wakeup/report.md): cyclictest on the VNF cores under the same conditions"
	echo "- $(link 'calvin bench throughput' throughput/report.md): no-drop rates and TCP goodput against the conventional stack"
	echo
	echo "The settings are short so that the whole run fits in well under 20 minutes on"
	echo "2 CPUs (bench/all.sh lists them; BENCH_ALL_SCALE=N multiplies the rounds and counts);"
	echo "each also runs alone, with its own defaults (\`make bench-kernel\`, \`calvin bench MODE"
	echo "CHAIN\`); log.txt in the run folder holds what each printed."
} >"$OUT"
echo "bench/report.sh: $OUT written" >&2
n=$(grep -o 'not measured' "$OUT" | wc -l)
if [ "$n" -gt 0 ]; then
	echo "bench/report.sh: $n figures of $OUT were not measured; it says why" >&2
	exit 1
fi
