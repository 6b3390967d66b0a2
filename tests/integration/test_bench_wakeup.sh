# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# `calvin bench wakeup`, a short run: cyclictest on the VNF cores under
# shared, pinned and isolated placement, idle and under stress-ng; the
# report holds wake-up latencies for every configuration and the
# reductions against shared, and nothing is left behind (chains,
# cyclictest, stress-ng, the journal, CPU isolation).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/bench_lib.sh"
command -v cyclictest >/dev/null || skip "cyclictest is not installed (rt-tests; make installs it)"
C=t-bwake
SPEC=$(spec_copy chains/tactile-fwd.yaml $C)
trap 'cleanup_chain $C; rm -rf "$TMP"' EXIT

bench_run wakeup "$TMP/o" -n 1 -t 1
check_report "$TMP/o" wakeup wakeup "$POLICY_LABEL" $POLICY_KEYS
grep -qE '^\| pinned, stress \| .* \| shared, stress \| -?[0-9]+% \[|^\| pinned, stress \| .* \| shared, stress \| [0-9.]+x as much \[' \
	"$TMP/o/report.md" || fail "no reduction of pinned, stress against shared"
grep -q 'cyclictest -m --policy=fifo' "$TMP/o/report.md" || fail "the report does not say how"
grep -q '104 us\|104us' "$TMP/o/report.md" || fail "no published figures beside the results"
bench_clean $C
isolation_restored
echo ok
