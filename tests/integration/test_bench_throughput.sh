# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# `calvin bench throughput`, a short run: no-drop-rate searches at 64 and
# 1400 bytes through calvin in latency mode (burst 1), throughput mode
# (burst 32) and the conventional stack, and iperf3 through each and
# through calvin in mode: throughput and the conventional stack with the
# same and with default offloads, those three again at --tput-mtu 3000
# (every link of each, the conventional stacks' too); the
# report and its CSV files hold a rate for every configuration and size,
# and nothing is left behind (chains, relays, iperf3, the journal).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/bench_lib.sh"
command -v iperf3 >/dev/null || skip "iperf3 is not installed (make installs it)"
C=t-btput
SPEC=$(spec_copy chains/tactile-fwd.yaml $C)
trap 'cleanup_chain $C; rm -rf "$TMP"' EXIT
D=$TMP/o

bench_run throughput "$D" -n 1 -t 0.2 --tput-mtu 3000
for f in report.md trials.csv tcp.csv throughput.gp throughput-ndr.png throughput-ndr.svg \
	throughput-loss.png throughput-loss.svg chains/calvin-b1.yaml chains/calvin-b32.yaml; do
	[ -s "$D/$f" ] || fail "$D/$f is missing or empty"
done
[ ! -e "$D/samples.csv" ] || fail "samples.csv without samples"
head -n 1 "$D/trials.csv" | grep -qx 'config,frame_size,round,rate_pps,offered_pps,sent,received,loss' ||
	fail "trials.csv header: $(head -n 1 "$D/trials.csv")"
for k in calvin-b1 calvin-b32 linux; do
	for s in 64 1400; do
		awk -F, -v k=$k-$s '$1 == k && $6 ~ /^[1-9][0-9]*$/ && $7 ~ /^[0-9]+$/ { n++ }
			END { exit !(n > 0) }' "$D/trials.csv" || fail "trials.csv: no trial of $k-$s"
	done
done
for k in 'calvin, burst 1 (latency mode)' 'calvin, burst 32 (throughput mode)' 'conventional stack'; do
	for s in 64 1400; do
		grep -qE "^\| $(echo "$k" | sed 's/[()]/\\&/g') \| $s \| [1-9][0-9]* \| [0-9.]+ \|" "$D/report.md" ||
			fail "no no-drop rate of $k at $s bytes: $(grep '^| ' "$D/report.md")"
	done
	grep -qF "$k,1," "$D/tcp.csv" || fail "tcp.csv: no goodput of $k"
	grep -qE "^\| $(echo "$k" | sed 's/[()]/\\&/g') \| [0-9.]+ \|" "$D/report.md" ||
		fail "no TCP goodput of $k in the report"
done
# TCP only: calvin in mode: throughput, the conventional stack with its
# offloads and with Linux's, each with its goodput and the verdict
for k in 'calvin, mode: throughput (tc, GSO; burst 32)' \
	'conventional stack, offloads of mode: throughput' 'conventional stack, default offloads' \
	'calvin, mode: throughput (tc, GSO; burst 32), mtu 3000' \
	'conventional stack, offloads of mode: throughput, mtu 3000' \
	'conventional stack, default offloads, mtu 3000'; do
	grep -qF "$k,1," "$D/tcp.csv" || fail "tcp.csv: no goodput of $k"
	grep -qE "^\| $(echo "$k" | sed 's/[()]/\\&/g') \| [0-9.]+ \|" "$D/report.md" ||
		fail "no TCP goodput of $k in the report"
done
grep -qE '^\| calvin, mode: throughput .* \| [0-9.]+x conventional stack, offloads of mode: throughput \|$' \
	"$D/report.md" || fail "no ratio of mode: throughput to the same offloads"
grep -qE '^- calvin, mode: throughput .* carries [0-9.]+ Gbit/s, [0-9.]+x .*; [0-9.]+x conventional stack, default offloads' \
	"$D/report.md" || fail "no verdict on mode: throughput"
[ -s "$D/chains/calvin-tput.yaml" ] && grep -q '^mode: throughput' "$D/chains/calvin-tput.yaml" ||
	fail "chains/calvin-tput.yaml is not in mode: throughput"
! grep -q '^mtu:' "$D/chains/calvin-tput.yaml" || fail "chains/calvin-tput.yaml has an mtu"
for k in calvin-tput-mtu linux-tput-mtu linux-default-mtu; do
	grep -qx 'mtu: 3000' "$D/chains/$k.yaml" || fail "chains/$k.yaml is not at mtu 3000"
done
grep -qE '^- calvin, mode: throughput .*, mtu 3000 carries [0-9.]+ Gbit/s, [0-9.]+x conventional stack, offloads of mode: throughput, mtu 3000 ' \
	"$D/report.md" || fail "no verdict on mode: throughput at mtu 3000"
grep -q '1.5 Mbit/s' "$D/report.md" || fail "no published figure beside the results"
grep -q '^- Machine: .*CPUs' "$D/report.md" || fail "report.md does not say the machine"
bench_clean $C
echo ok
