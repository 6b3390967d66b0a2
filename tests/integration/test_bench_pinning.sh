# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# `calvin bench pinning`, a short run: placement shared, pinned and
# isolated, idle and under stress-ng, one round of a few probes; its report
# holds numbers for every configuration, nothing is left behind (chains,
# stress-ng, the bench journal, CPU isolation); progress on a terminal only;
# a configuration the host cannot place is "not measured: WHY", exit 1.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/bench_lib.sh"
C=t-bpin
SPEC=$(spec_copy chains/tactile-fwd.yaml $C)
trap 'cleanup_chain $C; cleanup_chain t-bpin-n; rm -rf "$TMP"' EXIT

bench_run pinning "$TMP/o" -n 1 -c 30
check_report "$TMP/o" pinning rtt "$POLICY_LABEL" $POLICY_KEYS
grep -q '| pinned, stress | 30 | 0/30 |\|| pinned, stress | [0-9]* | [0-9]*/30 |' "$TMP/o/report.md" ||
	fail "the table does not count pinned, stress's probes"
grep -q 'jitter reduction' "$TMP/o/report.md" || fail "no variability reduction"
grep -q 'Ocampo' "$TMP/o/report.md" || fail "no published figures beside the results"
grep -q '^placement: isolated' "$TMP/o/chains/isolated-stress.yaml" || fail "variant not isolated"
bench_clean $C
isolation_restored

# on a terminal, where the run is; -n and -c given land in the report's command
script -qec "$CALVIN bench pinning $SPEC -n 1 -c 10 -o $TMP/t" /dev/null >"$TMP/tty" ||
	fail "bench on a terminal failed: $(tail -n 3 "$TMP/tty")"
grep -q "round 1/1: .*: measuring" "$TMP/tty" || fail "no progress on a terminal: $(cat "$TMP/tty")"
grep -q "^- Command: \`calvin bench pinning $SPEC -n 1 -c 10 " "$TMP/t/report.md" ||
	fail "the command line is not in the report"
bench_clean $C

# configurations this host cannot place (a user VNF per CPU, none may
# share): "not measured: WHY" in their rows, no figure, and exit 1
N=$(nproc)
{
	printf 'name: %s\nbudget: 350us\nplacement: pinned\nvnfs:\n' t-bpin-n
	for i in $(seq "$N"); do printf '  - name: fwd-%s\n    kind: forward\n    space: user\n' "$i"; done
	printf 'server:\n  kind: echo\n'
} >"$TMP/many.yaml"
$CALVIN bench pinning "$TMP/many.yaml" -n 1 -c 10 -o "$TMP/n" >"$TMP/out" 2>"$TMP/err" &&
	fail "bench exited 0 with configurations it could not measure"
grep -q "calvin bench pinning: some figures were not measured; $TMP/n/report.md says why" "$TMP/err" ||
	fail "bench said: $(cat "$TMP/err")"
grep -q '^| pinned, idle | 0 | - | not measured: this host cannot place it' "$TMP/n/report.md" ||
	fail "the row of a configuration not measured: $(grep '^| pinned, idle' "$TMP/n/report.md")"
grep -q '^| shared, idle | [1-9]' "$TMP/n/report.md" || fail "shared, idle was not measured"
bench_clean t-bpin-n

# bad input: one line, exit 2, nothing made
expect_bad "no bench mode 'pinnin'; use baseline, pinning, wakeup or throughput" \
	$CALVIN bench pinnin "$SPEC"
expect_bad "option -t: '0' is not a number of seconds" $CALVIN bench wakeup "$SPEC" -t 0
for m in baseline throughput; do
	expect_bad "tactile-fwd-vm.yaml: chain tactile-fwd-vm runs in VMs \(backend libvirt\); calvin bench $m compares namespaces with the conventional stack only: use pinning or wakeup" \
		$CALVIN bench $m chains/tactile-fwd-vm.yaml
done
$CALVIN up "$SPEC" >/dev/null || fail "up failed"
expect_bad "chain $C is deployed; calvin bench deploys it itself" $CALVIN bench pinning "$SPEC"
$CALVIN down $C
echo ok
