# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# `calvin probe -o DIR` and `calvin run -o DIR`: the report as Markdown, the
# samples as CSV (one row per probe back, with every hop's times), the
# pictures as PNG and SVG. A probe longer than a second shows its progress
# on a terminal, and nothing without one.
. "$(dirname "$0")/lib.sh"
require_root
require_netns_xdp
command -v gnuplot >/dev/null || skip "gnuplot is not installed (make installs gnuplot-nox)"
C=t-repdir
SPEC=$(spec_copy chains/tactile-fwd.yaml $C)
trap 'cleanup_chain $C; rm -rf "$TMP"' EXIT

check_dir() { # DIR PROBES
	local d=$1 f
	for f in report.md report.txt report.json samples.csv plot.gp rtt-cdf.png rtt-cdf.svg \
		residence.png residence.svg links.png links.svg; do
		[ -s "$d/$f" ] || fail "$d/$f is missing or empty"
	done
	[ "$(head -c 8 "$d/rtt-cdf.png" | od -An -c | tr -d ' ')" = "211PNG\r\n032\n" ] ||
		fail "$d/rtt-cdf.png is not a PNG"
	grep -q '<svg' "$d/links.svg" || fail "$d/links.svg is not SVG"
	[ "$(($(wc -l <"$d/samples.csv") - 1))" -eq "$2" ] || fail "$d/samples.csv: not $2 rows"
	# every row of the full path has 4 residences and 5 links, all numbers
	awk -F, 'NR > 1 && $5 == 4 { for (i = 6; i <= 14; i++) if ($i !~ /^[0-9]+$/) bad++ }
		END { exit bad > 0 }' "$d/samples.csv" || fail "$d/samples.csv has empty hop cells"
	# one clock domain (namespaces share the host's clock): no link estimated
	[ "$(cat "$d/clocks.csv")" = "link,link_back,from,to,estimated,source,offset_ns,bound_ns,rtt_min_ns,samples,moved_ns,inconsistent,reason" ] ||
		fail "$d/clocks.csv is not the header alone: $(cat "$d/clocks.csv")"
	grep -q '^\*\*Verdict: ' "$d/report.md" || fail "report.md has no verdict"
	grep -q '](rtt-cdf.svg)' "$d/report.md" || fail "report.md does not show the CDF"
}

$CALVIN up "$SPEC" >/dev/null || fail "calvin up failed"
$CALVIN probe -c 500 -r 1000 -o "$TMP/p" $C >"$TMP/out" 2>"$TMP/err" || fail "probe -o failed"
check_dir "$TMP/p" 500
grep -q "probes:" "$TMP/err" && fail "progress shown without a terminal"
# the host's clock, as chrony keeps it: a line where chrony is installed
# (whether chronyd runs or not), none where it is not
if [ -x /usr/bin/chronyc ] || [ -x /usr/sbin/chronyc ]; then
	grep -q "^host clock: " "$TMP/out" || fail "no host clock line with chrony installed"
else
	grep -q "^host clock" "$TMP/out" && fail "a host clock line without chrony: $(grep '^host clock' "$TMP/out")"
	echo "chrony is not installed here: the report has no host clock line (as it should)"
fi

# on a terminal, a run of 2 s shows its progress
script -qec "$CALVIN probe -c 2000 -r 1000 $C" /dev/null >"$TMP/tty" ||
	fail "probe on a terminal failed"
grep -q "probes: [0-9]*/2000 sent" "$TMP/tty" || fail "no progress on a terminal: $(cat "$TMP/tty")"
$CALVIN down $C || fail "down failed"

$CALVIN run -c 300 -r 1000 -o "$TMP/r" "$SPEC" >/dev/null || fail "run -o failed"
check_dir "$TMP/r" 300
assert_clean $C
echo ok
