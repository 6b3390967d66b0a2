# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# Checks of `calvin bench`'s report directories and of the processes a
# bench leaves, shared by tests/integration/bench_lib.sh and the VM tests.
# Sourced after lib.sh (or tests/vm/libvirt.sh), with CALVIN_RUN_DIR set.
command -v gnuplot >/dev/null || skip "gnuplot is not installed (make installs gnuplot-nox)"

# The processes a bench of this test started (they inherit CALVIN_RUN_DIR,
# which is the test's own), as "PID COMMAND" lines.
bench_procs() {
	local e p c
	for e in /proc/[0-9]*/environ; do
		p=${e#/proc/}
		p=${p%/environ}
		c=$(cat "/proc/$p/comm" 2>/dev/null) || continue
		case $c in stress-ng* | cyclictest | calvin-relay | sockperf | iperf3 | calvin-vnf) ;;
		*) continue ;;
		esac
		cat "$e" 2>/dev/null | tr '\0' '\n' | grep -qx "CALVIN_RUN_DIR=$CALVIN_RUN_DIR" &&
			echo "$p $c"
	done
	true
}

# The process groups the bench journal names (stress-ng renames its
# workers over its environment, so they are found by their group).
journal_groups() {
	awk '$1 == "proc" { print $2 }' "$CALVIN_RUN_DIR/bench.journal" 2>/dev/null
}

# "PID COMMAND" of every process in the groups given.
group_procs() { # PGID...
	local g
	for g in "$@"; do
		ps -e -o pid=,pgid=,comm= | awk -v g="$g" '$2 == g { print $1, $3 }'
	done
}

# The report directory of MODE: report.md, samples.csv, pictures, a chain
# file per configuration; every configuration KEY has numeric samples of
# METRIC in samples.csv and a row with a number in the report's table.
check_report() { # DIR MODE METRIC LABEL-PATTERN KEY...
	local d=$1 mode=$2 metric=$3 label=$4 k
	shift 4
	for f in report.md samples.csv "$mode.gp" "$mode-cdf.png" "$mode-cdf.svg" "$mode-box.png" \
		"$mode-box.svg"; do
		[ -s "$d/$f" ] || fail "$d/$f is missing or empty"
	done
	[ "$(head -c 4 "$d/$mode-cdf.png" | od -An -c | tr -d ' ')" = "211PNG" ] ||
		fail "$d/$mode-cdf.png is not a PNG"
	grep -q '<svg' "$d/$mode-box.svg" || fail "$d/$mode-box.svg is not SVG"
	head -n 1 "$d/samples.csv" | grep -qx 'config,round,metric,value_ns,count' ||
		fail "samples.csv header: $(head -n 1 "$d/samples.csv")"
	for k in "$@"; do
		[ -s "$d/chains/$k.yaml" ] || [ "$k" = linux ] || fail "no chain file for $k"
		awk -F, -v k="$k" -v m="$metric" '$1 == k && $3 == m && $4 ~ /^[0-9]+$/ && $5 > 0 { n++ }
			END { exit !(n > 0) }' "$d/samples.csv" || fail "samples.csv: no $metric samples of $k"
	done
	# a table row per configuration whose p50 is a number
	[ "$(grep -cE "^\| $label \| [1-9][0-9]* \| [^|]* \| [0-9.]+(ns|us|ms|s) \[" "$d/report.md")" -ge "$#" ] ||
		fail "report.md lacks a row with numbers for each of: $* ($(grep '^| ' "$d/report.md"))"
	grep -q '^- Machine: .*CPUs' "$d/report.md" || fail "report.md does not say the machine"
	grep -q '^- Isolation: ' "$d/report.md" || fail "report.md does not say the isolation"
	grep -q '^- Nodes: ' "$d/report.md" || fail "report.md does not say the accelerator"
	grep -q "]($mode-cdf.svg)" "$d/report.md" || fail "report.md does not show the CDF"
}

# The configurations of pinning and wakeup: their keys and table labels.
POLICY_KEYS="shared-idle pinned-idle isolated-idle shared-stress pinned-stress isolated-stress"
POLICY_LABEL='(shared|pinned|isolated), (idle|stress)'
