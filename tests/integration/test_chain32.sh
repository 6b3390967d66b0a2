# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# The longest chain: 32 VNFs, each on a node of its own (29 kernel forward
# VNFs and 3 user ones, which share a core where the host has too few),
# deployed in namespaces within a deadline; every probe comes back with 64
# hop records in path order, timestamps in order, in a probe whose size the
# chain file leaves to calvin; down leaves nothing.
. "$(dirname "$0")/lib.sh"
require_root
require_netns_xdp
C=t-chain32
SPEC=$TMP/$C.yaml
export CALVIN_RUN_DIR=$TMP/run
trap 'cleanup_chain $C; rm -rf "$TMP"' EXIT
# up and down of 34 namespaces on a loaded 2-CPU machine take minutes
DEADLINE=${CHAIN32_DEADLINE:-600}

{
	bash tests/integration/spec_chain32.sh $C
	printf 'probe: {count: 1000}\n'
} >"$SPEC"
$CALVIN validate "$SPEC" >/dev/null || fail "calvin validate refused the 32-VNF chain"

start=$SECONDS
timeout --signal=TERM "$DEADLINE" $CALVIN up "$SPEC" >"$TMP/up" 2>&1 ||
	fail "calvin up of 32 VNFs failed or took over $DEADLINE s: $(tail -n 3 "$TMP/up")"
echo "up: $((SECONDS - start)) s"
grep -q "^chain $C is up: probe -> k1 (kernel) -> .* -> u30 (user, cpu [0-9]*.*) -> k31 (kernel) -> k32 (kernel) -> server$" "$TMP/up" ||
	fail "calvin up said: $(cat "$TMP/up")"

start=$SECONDS
timeout --signal=TERM "$DEADLINE" $CALVIN probe $C -c 100 --raw "$TMP/raw" >"$TMP/report" ||
	fail "calvin probe failed: $(cat "$TMP/report")"
echo "probe: $((SECONDS - start)) s"
cat "$TMP/report"
grep -q "^chain $C: 100 probes, paced at 1000/s, 1040-byte payload, 64 hop records" "$TMP/report" ||
	fail "the probe was not sized for 64 hop records: $(head -n 1 "$TMP/report")"
grep -q "^hop records 64\.\.64  overflow 0  misordered 0  path mismatch 0  bad replies 0" "$TMP/report" ||
	fail "hop records: $(grep '^hop records' "$TMP/report")"
path=$( (seq 0 31 | sed 's|$|/0|'; seq 31 -1 0 | sed 's|$|/1|') | tr '\n' ' ' | sed 's/ $//')
check_hops "$TMP/raw" 100 "$path" || fail "probes did not come back with 64 ordered hop records"

start=$SECONDS
timeout --signal=TERM "$DEADLINE" $CALVIN down $C || fail "calvin down failed"
echo "down: $((SECONDS - start)) s"
assert_clean $C
echo ok
