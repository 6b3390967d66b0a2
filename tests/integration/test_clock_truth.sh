#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# The in-band clock offset estimator on real replies whose true offsets
# are known: a chain of namespaces stamps every hop on this host's clock
# (offset 0), and bench/progs/clock_truth accounts its `calvin probe --raw`
# again as if each VNF were a clock domain of its own (as a VM is). Every
# link must be estimated, and every estimate must lie within its bound of
# the truth; a negative link time, a wrong sign or a bound that is too
# tight fails it. (make bench-clock reports the errors in rounds.)
. "$(dirname "$0")/lib.sh"
require_root
require_netns_xdp
C=t-clk
SPEC=$(spec_copy chains/tactile-fwd.yaml $C)
trap 'cleanup_chain $C; rm -rf "$TMP"' EXIT
make -s build/bench/clock_truth >"$TMP/make" 2>&1 || fail "cannot build bench/progs/clock_truth: $(tail -n 1 "$TMP/make")"

$CALVIN up "$SPEC" >/dev/null || fail "calvin up failed"
$CALVIN probe -c 500 -r 1000 --raw "$TMP/raw" $C >/dev/null || fail "calvin probe failed"
build/bench/clock_truth "$TMP/raw" >"$TMP/out" 2>&1
rc=$?
cat "$TMP/out"
[ $rc -eq 0 ] || fail "clock_truth exit $rc: an estimate outside its bound of the truth"
# probe -> fwd-k, fwd-k -> fwd-u, fwd-u -> fwd-k, fwd-k -> probe (the
# server's link is within fwd-u's domain)
grep -q "^links 4 .* outside 0$" "$TMP/out" || fail "not 4 links estimated, all within their bounds"
# a file that is not --raw: one line, exit 2
echo "not a raw line" >"$TMP/bad"
build/bench/clock_truth "$TMP/bad" >/dev/null 2>"$TMP/err"
[ $? -eq 2 ] && grep -q "line 1" "$TMP/err" || fail "a bad file: $(cat "$TMP/err")"
$CALVIN down $C || fail "calvin down failed"
echo ok
