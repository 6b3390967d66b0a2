# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# The reference chain end to end: up, 1000 probes, every probe back with its
# four hop records (fwd-k, fwd-u out; fwd-u, fwd-k back) in time order, down
# leaves nothing.
. "$(dirname "$0")/lib.sh"
require_root
require_netns_xdp
C=t-ref
SPEC=$(spec_copy chains/tactile-fwd.yaml $C)
trap 'cleanup_chain $C; rm -rf "$TMP"' EXIT

$CALVIN up "$SPEC" || fail "calvin up failed"
$CALVIN -j probe -c 1000 --raw "$TMP/raw" $C >"$TMP/report.json" || fail "calvin probe failed"
cat "$TMP/report.json"

# Check the raw records independently of the probe's own accounting:
# seq tx rx nhops then per hop: vnf_id dir t_in t_out.
awk -v want=1000 '
	{ n++
	  if ($4 != 4) { print "probe " $1 ": " $4 " hop records, want 4"; bad++; next }
	  path = $5 "/" $6 " " $9 "/" $10 " " $13 "/" $14 " " $17 "/" $18
	  if (path != "0/0 1/0 1/1 0/1") { print "probe " $1 ": path " path; bad++; next }
	  t = $2
	  for (i = 7; i <= 19; i += 4) {
		if ($i < t || $(i + 1) < $i) { print "probe " $1 ": timestamps out of order"; bad++; next }
		t = $(i + 1)
	  }
	  if ($3 < t) { print "probe " $1 ": received before the last hop sent it"; bad++ }
	}
	END {
	  if (n != want) { print n " probes came back, want " want; exit 1 }
	  if (bad) { print bad " bad probes"; exit 1 }
	  print n " probes, all with 4 ordered hop records"
	}' "$TMP/raw" || fail "raw probe records"

grep -q '"verdict"' "$TMP/report.json" || fail "report has no verdict"
$CALVIN status $C || fail "calvin status failed"
$CALVIN down $C || fail "calvin down failed"
assert_clean $C
$CALVIN down $C || fail "second calvin down failed"
echo ok
