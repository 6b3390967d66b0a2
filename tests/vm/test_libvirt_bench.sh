# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# `calvin bench wakeup` and `pinning` with the VNFs in VMs
# (chains/tactile-fwd-vm.yaml), one short round: the six placements and
# loads, the other guest kernel and the other host links; cyclictest runs
# in the guests. Each report holds numbers for every configuration, says
# when VM timings are emulated (TCG), and nothing is left: no domain,
# namespace, stress-ng or cyclictest, no bench journal.
. "$(dirname "$0")/libvirt.sh"
require_libvirt
export CALVIN_RUN_DIR=$TMP/run
mkdir -m 700 "$CALVIN_RUN_DIR"
. tests/integration/bench_report.sh
command -v cyclictest >/dev/null || skip "cyclictest is not installed (rt-tests; make deps)"
C=t-lvbench
SPEC=$(spec_copy chains/tactile-fwd-vm.yaml $C)
trap 'cleanup_chain $C' EXIT
alt=rt
[ -e build/vm-images/rt/vmlinuz ] || make -C vm-images KERNEL=rt >"$TMP/rt.log" 2>&1 ||
	skip "cannot build the PREEMPT_RT guest image: $(tail -n 1 "$TMP/rt.log")"
KEYS="$POLICY_KEYS pinned-idle-$alt pinned-stress-$alt pinned-idle-bridge"
LABEL="$POLICY_LABEL(, guest kernel $alt|, links bridge)?"

bench_vm() { # MODE METRIC ARG...
	local mode=$1 metric=$2 left
	shift 2
	$CALVIN bench $mode "$SPEC" "$@" -o "$TMP/$mode" >"$TMP/out" 2>"$TMP/err" ||
		fail "bench $mode failed: $(cat "$TMP/err")"
	sed -n '/^Configurations/,/^## /p' "$TMP/$mode/report.md" # in the log, for a failure
	check_report "$TMP/$mode" $mode $metric "$LABEL" $KEYS
	grep -q "guest kernel $alt" "$TMP/$mode/report.md" || fail "$mode: no row of the $alt kernel"
	grep -q "links bridge" "$TMP/$mode/report.md" || fail "$mode: no row of bridge links"
	if grep -q "under TCG" "$TMP/$mode/report.md"; then
		grep -qi "emulated" "$TMP/$mode/report.md" || fail "$mode: TCG without the warning"
	fi
	assert_clean $C
	[ ! -e "$CALVIN_RUN_DIR/bench.journal" ] || fail "the bench journal was left"
	left=$(bench_procs)
	[ -z "$left" ] || fail "processes of the bench left: $left"
	echo "$mode: $(grep -c '^| ' "$TMP/$mode/report.md") table rows"
}

bench_vm wakeup wakeup -n 1 -t 1
grep -q "in each VM, on the VNF's vCPU, by calvin-agent" "$TMP/wakeup/report.md" ||
	fail "wakeup: cyclictest did not run in the guests"
bench_vm pinning rtt -n 1 -c 20
echo ok
