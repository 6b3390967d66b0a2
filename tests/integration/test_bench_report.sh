# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# bench/report.sh (make bench's REPORT.md) on a made-up run folder: every
# headline figure is read from the benchmark reports it was given (known
# answers), and the copies of the reports keep their PNG pictures, not the
# SVGs; a complete run exits 0. Then the same run with a benchmark that did
# not run and figures its reports say were not measured: REPORT.md says
# "not measured: WHY" for each of them, never n/a or 0.00, and exits 1, as
# make bench then does. The supervision section: the run's monitor table,
# bench-heal's from where it writes, kept beside REPORT.md for the next
# run, bench-soak's said to be missing. Needs nothing: no root, no chain.
. "$(dirname "$0")/lib.sh"
trap 'rm -rf "$TMP"' EXIT
R=$TMP/run
mkdir -p "$R/baseline" "$R/pinning" "$R/wakeup" "$R/throughput"
H='| configuration | samples | lost | p50 [95% CI] | p99 [95% CI] | p99.9 | max | jitter | stddev | compared with | a | b |'
cat >"$R/baseline/report.md" <<MD
- Isolation: isolcpus= none (test)
- Nodes: network namespaces (test)
$H
| calvin | 20 | 0/20 | 8.31us [8.31us, 8.31us] | 108us [1us, 2us] | 1us | 1us | 1us | 1us | conventional stack | 0.16 | 0.49 |
| conventional stack | 20 | 0/20 | 51.0us [1us, 2us] | 220us [1us, 2us] | 1us | 1us | 1us | 1us | - | - | - |
| calvin, sockperf | 550 | - | 1.20ms [1ms, 2ms] | 1us [1us, 2us] | 1us | 1us | 1us | 1us | x | 1 | 1 |
| conventional stack, sockperf | 549 | - | 80.2us [1us, 2us] | 1us [1us, 2us] | 1us | 1us | 1us | 1us | - | - | - |
![RTT](baseline-cdf.svg)
(RTT: [PNG](baseline-cdf.png), [SVG](baseline-cdf.svg))
MD
echo png >"$R/baseline/baseline-cdf.png"
echo svg >"$R/baseline/baseline-cdf.svg"
cat >"$R/pinning/report.md" <<MD
$H
| shared, stress | 9 | 0/9 | 13.8us [1us, 2us] | 47.4us [1us, 2us] | 1us | 1us | 1us | 1us | - | - | - |
| pinned, stress | 9 | 0/9 | 15.7us [1us, 2us] | 4.06ms [1ms, 2ms] | 1us | 1us | 1us | 1us | shared, stress | 121x as much [101x, 140x] | 1% |
| isolated, stress | 9 | 0/9 | 10.9us [1us, 2us] | 24.7us [1us, 2us] | 1us | 1us | 1us | 1us | shared, stress | 59% [49%, 68%] | 1% |
MD
mkdir -p "$R/vm-pinning"
cat >"$R/vm-pinning/report.md" <<MD
**Timings are emulated**: the VMs ran under TCG
$H
| shared, stress | 9 | 0/9 | 1us [1us, 2us] | 1.00ms [1us, 2us] | 1us | 1us | 1us | 1us | - | - | - |
| pinned, stress | 9 | 0/9 | 1us [1us, 2us] | 500us [1us, 2us] | 1us | 1us | 1us | 1us | x | 1% | 1% |
| isolated, stress | 9 | 0/9 | 1us [1us, 2us] | 250us [1us, 2us] | 1us | 1us | 1us | 1us | x | 1% | 1% |
MD
cat >"$R/wakeup/report.md" <<MD
$H
| shared, stress | 9 | - | 1us [1us, 2us] | 1us [1us, 2us] | 1us | 761us | 1us | 1us | - | - | - |
| pinned, stress | 9 | - | 1us [1us, 2us] | 3.00us [1us, 2us] | 1us | 804us | 1us | 1us | - | - | - |
| isolated, stress | 9 | - | 1us [1us, 2us] | 1us [1us, 2us] | 1us | 39.0us | 1us | 1us | - | - | - |
MD
cat >"$R/throughput/report.md" <<'MD'
| configuration | frame bytes | NDR frames/s (median) | Mbit/s | each round | ceiling | vs |
| calvin, burst 1 (latency mode) | 64 | 1 | 99.8 | 1 | 1 | 1x |
| calvin, burst 1 (latency mode) | 1400 | 1 | 708.4 | 1 | 1 | 1x |
| calvin, burst 32 (throughput mode) | 1400 | 1 | 671.9 | 1 | 1 | 1x |
| conventional stack | 1400 | 1 | 2125.4 | 1 | 1 | - |
| configuration | TCP goodput Gbit/s (median) | each round | median against |
| calvin, burst 1 (latency mode) | 0.84 | 0.84 | 0.35x conventional stack |
| calvin, burst 32 (throughput mode) | 1.94 | 1.94 | 0.82x conventional stack |
| conventional stack | 2.37 | 2.37 | - |
| calvin, mode: throughput (tc, GSO; burst 32) | 4.10 | 4.10 | 1.03x conventional stack, offloads of mode: throughput |
| conventional stack, offloads of mode: throughput | 4.00 | 4.00 | - |
| conventional stack, default offloads | 16.40 | 16.40 | - |
| calvin, mode: throughput (tc, GSO; burst 32), mtu 3400 | 6.30 | 6.30 | 0.61x conventional stack, offloads of mode: throughput, mtu 3400 |
| conventional stack, offloads of mode: throughput, mtu 3400 | 10.33 | 10.33 | - |
| conventional stack, default offloads, mtu 3400 | 24.37 | 24.37 | - |
MD
cat >"$R/user.md" <<'MD'
| payload (B) | nc encode | nc decode | ISA-L ec_encode_data | ISA-L + init |
| 256 | 71 (71) | 31 (31) | 16 (16) | 51 (51) |
| 1400 | 154 (154) | 86 (86) | 87 (87) | 123 (123) |
| cipher | bytes | op | CPU ns/pkt | wall | MB/s | `openssl speed -aead` MB/s |
| AES-256-GCM | 1400 | seal | 405 | 646 | 3234 | 2550 |
MD
cat >"$R/sharing.md" <<'MD'
| chain | VNFs wait | RTT p50 us | p99 us |
| crypt | busy | 7993.3 | 14469.7 |
| crypt | wakeup | 41.9 | 77.8 |
MD
cat >"$R/coloc.md" <<'MD'
| chain | VNFs wait | RTT p50 us | p99 us |
| crypt | wakeup | 77.7 | 342.4 |
| crypt | yield | 18.2 | 83.9 |
| crypt | loop | 14.1 | 61.5 |
| nc | wakeup | 109.4 | 375.7 |
| nc | yield | 17.4 | 223.6 |
| nc | loop | 15.0 | 201.2 |
MD
cat >"$R/kernel.md" <<'MD'
| **median per CPU-s** | **1720138** | **919089** | **2175660** | **1.87** |
MD
cat >"$R/vm-links.md" <<'MD'
**Timings are emulated (TCG): the VMs' time dominates the RTT
| xdp | 463.5 | 6645.4 | 11640.4 | 200 of 200 |
| bridge | 476.8 | 5800.9 | 14062.5 | 200 of 200 |
MD
cat >"$R/testpmd.md" <<'MD'
| configuration | rounds | p50, median of rounds [95% CI] | p99, median of rounds [95% CI] | p99.9, median of rounds [95% CI] | p99 / testpmd's p99 of the same round, median [95% CI] |
|---|---:|---:|---:|---:|---:|
| dpdk-testpmd: mac forwarding, PMD defaults | 3 | 10.5us [1us, 2us] | 29.9us [1us, 2us] | 3.04ms [1ms, 2ms] | (reference) |
| calvin-vnf forward, as calvin deploys it | 3 | 11.0us [1us, 2us] | 36.0us [1us, 2us] | 3.10ms [1ms, 2ms] | 1.21 [1.05, 1.40] |
| calvin-vnf, busy_budget 64 (testpmd's) | 3 | 11.0us [1us, 2us] | 31.0us [1us, 2us] | 3.10ms [1ms, 2ms] | 1.04 [0.95, 1.20] |

| configuration | rounds | p50, median of rounds [95% CI] | p99, median of rounds [95% CI] | p99.9, median of rounds [95% CI] | p99 / testpmd's p99 of the same round, median [95% CI] |
| dpdk-testpmd: mac forwarding, PMD defaults | 3 | 4.5us [1us, 2us] | 12.0us [1us, 2us] | 3.04ms [1ms, 2ms] | (reference) |
| calvin-vnf forward, as calvin deploys it | 3 | 5.1us [1us, 2us] | 99.0us [1us, 2us] | 3.10ms [1ms, 2ms] | 8.25 [1.05, 9.40] |
MD
cat >"$R/monitor.md" <<'MD'
# calvin benchmark: the cost of continuous monitoring, 2026-12-02 09:00 UTC
Load average at start: 1.00 1.00 1.00; at end: 2.00 2.00 2.00
| configuration | rounds | p50, median of rounds [95% CI] | p99, median of rounds [95% CI] | p99.9, median of rounds [95% CI] | p99 / none's p99 of the same round, median [95% CI] |
|---|---:|---:|---:|---:|---:|
| no monitor | 5 | 8.00us [1us, 2us] | 20.0us [1us, 2us] | 1us [1us, 2us] | (reference) |
| calvin monitor at 100/s | 5 | 8.10us [1us, 2us] | 21.0us [1us, 2us] | 1us [1us, 2us] | 1.05 [0.90, 1.20] |
MD
# bench-heal ran on its own (its report and samples where it writes them);
# bench-soak did not
mkdir -p "$TMP/results"
cat >"$TMP/results/heal-20990101-000000.md" <<'MD'
# calvin benchmark: the supervisor, fault (SIGKILL) to healed, 2099-01-01 00:00 UTC
Load average at start: 3.00 3.00 3.00; at end: 4.00 4.00 4.00
| VNF (kind) | faults | healed p50 ms [95%] | max ms |
|---|---:|---:|---:|
| fwd-u (forward) | 20 | 301.5 [290.0, 320.0] | 410.0 |
Command: make bench-heal (ROUNDS=20)
MD
echo "b-heal-f fwd-u 301.5" >"$TMP/results/heal-20990101-000000.tsv"
export BENCH_RESULTS=$TMP/results
printf 'kernel 0 1\nuser 0 58\ntotal 265\n' >"$R/steps"

BENCH_REPORT=$TMP/out/REPORT.md bench/report.sh "$R" 2>"$TMP/err" ||
	fail "bench/report.sh failed on a complete run: $(cat "$TMP/err")"
O=$TMP/out/REPORT.md
grep -q 'not measured\|n/a' "$O" && fail "a complete run: $(grep 'not measured\|n/a' "$O")"
row() { # MEASURE-PREFIX WANT (the rest of the row, up to the link)
	grep -qF "| $1 | $2 |" "$O" || fail "row '$1': want '$2', got: $(grep -F "| $1" "$O")"
}
row "chain RTT median, tactile-fwd, calvin's probe (us)" "8.31 | 320 | 51 (conventional stack) | 0.16"
row "chain RTT median, sockperf through the same (us)" "1200 | 320 | 80.2 (conventional stack) | 14.96"
row "AES-256-GCM seal per 1400-byte packet (us, CPU)" "0.405 | 22.4 (AES-256) | 0.549 (\`openssl speed -aead\`) | 0.74"
row "network-coding encode per 1400-byte packet (us, CPU)" "0.154 | 3.2 | 0.087 (ISA-L ec_encode_data) | 1.77"
row "latency-mode (burst 1) no-drop rate, 1400 B (Mbit/s)" "708.4 | 1.5 | 2125.4 (conventional stack) | 0.33"
row "TCP goodput, iperf3, latency / throughput mode (Gbit/s)" "0.84 / 1.94 | - | 2.37 (conventional stack) | 0.35 / 0.82"
row "TCP goodput, iperf3, mode: throughput (Gbit/s), against the same / default offloads" "4.10 | - | 4.00 / 16.40 (conventional stack) | 1.02 / 0.25"
row "TCP goodput, iperf3, mode: throughput at mtu 3400, every stack (Gbit/s), against the same / default offloads" "6.30 | - | 10.33 / 24.37 (conventional stack) | 0.61 / 0.26"
row "RTT jitter (p99-p50) reduction against shared placement, under stress-ng: pinned / isolated" "121x as much / 59%"
row "chain RTT p99 under stress-ng (us): pinned / isolated" "4060 / 24.7 | - | 47.4 (shared) | 85.65 / 0.52"
row "wake-up latency p99 under stress-ng (cyclictest, us): pinned / isolated" "3 / 1 | - | 1 (shared) | 3.00 / 1.00"
row "worst wake-up latency under stress-ng (cyclictest, us): pinned / isolated" "804 / 39"
row "RTT p99 of two user VNFs sharing a core, tactile-crypt, waking up (us)" "77.8 | - | 14469.7 (busy-polling) | 0.0054"
row "RTT p99 of two user VNFs co-located on a core, one loop: tactile-crypt / tactile-nc (us)" "61.5 / 201.2 | - | 342.4 / 375.7 (waking up) | 0.18 / 0.54"
row "chain RTT p99 with the VNFs in VMs, under stress-ng, emulated: TCG (us): pinned / isolated" "500 / 250 | - | 1000 (shared) | 0.50 / 0.25"
row "kernel hop, packets per CPU-second, all on one core" "1720138 (XDP forward) | - | 919089 (Linux ip_forward) | 1.87"
row "chain RTT median with the VNFs in VMs, emulated: TCG (us)" "463.5 (calvin's XDP links) | 320 | 476.8 (Linux bridges) | 0.97"
row "RTT p99 through one user VNF (forward, af_xdp, burst 1), sockperf, median of rounds (us)" \
	"36 | - | 29.9 (dpdk-testpmd on the same ports and CPU) | 1.21 (median of the rounds' ratios)"
# the attribution: sockperf's table of rounds, every configuration, not the probe's
grep -qF '| calvin-vnf, busy_budget 64 (testpmd'"'"'s) | 3 | 11.0us' "$O" || fail "no attribution table"
grep -qF '8.25 [1.05' "$O" && fail "the probe's table of rounds was copied too"
# supervision: the run's monitor table, heal's from its own run, soak's missing
grep -qF '| calvin monitor at 100/s | 5 | 8.10us' "$O" || fail "no monitor table: $(grep -A3 '^## Supervision' "$O")"
grep -qF '| fwd-u (forward) | 20 | 301.5 [290.0, 320.0] | 410.0 |' "$O" || fail "no heal table"
grep -q '^Command: make bench-heal' "$O" || fail "no heal command line"
grep -qF '(no run kept: make bench-soak writes it)' "$O" || fail "soak: $(grep -i soak "$O")"
[ -s "$TMP/out/report/heal.md" ] && [ -s "$TMP/out/report/heal.tsv" ] || fail "heal's report or samples not kept"
grep -q '^- Isolation: isolcpus= none (test)$' "$O" || fail "the isolation line: $(grep Isolation "$O")"
grep -q '^- Duration: 265 s in all' "$O" || fail "the duration line: $(grep Duration "$O")"
grep -q '\[bench baseline\](report/baseline/report.md)' "$O" || fail "no link to the baseline report"
C=$TMP/out/report/baseline
[ -s "$C/report.md" ] && [ -s "$C/baseline-cdf.png" ] || fail "the baseline report was not copied"
[ ! -e "$C/baseline-cdf.svg" ] || fail "the SVG was copied"
grep -qF '![RTT](baseline-cdf.png)' "$C/report.md" || fail "the copy shows the SVG: $(cat "$C/report.md")"
grep -q 'SVG' "$C/report.md" && fail "the copy links the SVG"

# The same run, incomplete: bench-kernel failed before its report, the
# wakeup and throughput reports say what they could not measure.
rm "$R/kernel.md" "$R/monitor.md"
printf 'kernel 1 1\nuser 0 58\nwakeup 1 30\ntotal 265\n' >"$R/steps"
NM='not measured: cyclictest is not installed: it is in none of /usr/sbin, /usr/bin, /sbin, /bin (Debian package rt-tests; make installs it)'
sed -i "s#^| pinned, stress | 9 | - | .*#| pinned, stress | 0 | - | $NM | - | - | - | - | - | - | - | - |#" "$R/wakeup/report.md"
sed -i 's#^| calvin, burst 32 (throughput mode) | 1.94 | 1.94 | [^|]* |#| calvin, burst 32 (throughput mode) | not measured: iperf3 failed in round 1 | - | - |#' \
	"$R/throughput/report.md"
BENCH_REPORT=$TMP/out/REPORT.md bench/report.sh "$R" 2>"$TMP/err" &&
	fail "bench/report.sh exited 0 with figures not measured"
grep -q 'figures of .* were not measured' "$TMP/err" || fail "report.sh said: $(cat "$TMP/err")"
row "kernel hop, packets per CPU-second, all on one core" "not measured: benchmark kernel exited 1 without its report (log.txt of the run says why) (XDP forward) | - | not measured: benchmark kernel exited 1 without its report (log.txt of the run says why) (Linux ip_forward) | - | bench-kernel (did not run)"
row "wake-up latency p99 under stress-ng (cyclictest, us): pinned / isolated" "$NM / 1 | - | 1 (shared) | - / 1.00"
grep -qx 'not measured: benchmark monitor did not run' "$O" || fail "the missing monitor report: $(grep -A4 '^## Supervision' "$O")"
# heal's report, kept beside REPORT.md, outlives its results folder
rm -r "$TMP/results"
BENCH_REPORT=$TMP/out/REPORT.md bench/report.sh "$R" 2>/dev/null
grep -qF '| fwd-u (forward) | 20 | 301.5' "$O" || fail "heal's table was lost with its results folder"
row "worst wake-up latency under stress-ng (cyclictest, us): pinned / isolated" "$NM / 39"
row "TCP goodput, iperf3, latency / throughput mode (Gbit/s)" "0.84 / not measured: iperf3 failed in round 1 | - | 2.37 (conventional stack) | 0.35 / -"
# no figure stands for one that was not measured
awk -F'|' '/^\| / { for (i = 3; i <= 5; i++) if ($i ~ /(^| )(n\/a|0\.00)( |$)/) { print; bad = 1 } } END { exit bad }' "$O" ||
	fail "n/a or 0.00 as a figure"
echo ok
