# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# `calvin bench baseline`, a short run: the chain as calvin deploys it and
# the conventional stack (Linux forwarding, calvin-relay), calvin's probe
# and sockperf through both; the report holds numbers for each and their
# ratio, and nothing is left behind (chains, relays, sockperf, journal).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/bench_lib.sh"
command -v sockperf >/dev/null || skip "sockperf is not installed (make installs it)"
C=t-bbase
SPEC=$(spec_copy chains/tactile-fwd.yaml $C)
trap 'cleanup_chain $C; rm -rf "$TMP"' EXIT

bench_run baseline "$TMP/o" -n 1 -c 20 -t 0.5
check_report "$TMP/o" baseline rtt '(calvin|conventional stack)' calvin linux
for k in calvin linux; do
	awk -F, -v k=$k '$1 == k && $3 == "sockperf-rtt" && $4 ~ /^[0-9]+$/ { n++ }
		END { exit !(n > 0) }' "$TMP/o/samples.csv" || fail "samples.csv: no sockperf samples of $k"
done
grep -qE '^\| calvin, sockperf \| [1-9][0-9]* \| .* \| conventional stack, sockperf \| [0-9.]+ \[' \
	"$TMP/o/report.md" || fail "no sockperf row with a ratio: $(grep '^| ' "$TMP/o/report.md")"
grep -qE '^\| calvin \| 20 \| [0-9]+/20 \| .* \| conventional stack \| [0-9.]+ \[[0-9.]+, [0-9.]+\] \|' \
	"$TMP/o/report.md" || fail "no ratio of calvin to the conventional stack"
grep -q '0.32 ms' "$TMP/o/report.md" || fail "no published figure beside the results"
bench_clean $C
echo ok
