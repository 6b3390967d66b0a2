# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# `-o DIR` written by calvin as root, attacked: a folder of another user, one
# group or others may write, one under a folder others may write, a symlink
# for a folder are refused in one line before anything is deployed; symlinks
# and a FIFO planted in the caller's own folder are replaced, never followed
# (the file they lead to keeps its bytes); a plot script rewritten between
# calvin's write and gnuplot's read changes nothing gnuplot runs; a bench's
# chain file in the report folder cannot change the chain it deploys.
. "$(dirname "$0")/lib.sh"
require_root
require_netns_xdp
command -v gnuplot >/dev/null || skip "gnuplot is not installed (make installs gnuplot-nox)"
command -v perl >/dev/null || skip "perl is not installed (make installs it; the test's attacker is a perl loop)"
C=t-outatk
SPEC=$(spec_copy chains/tactile-fwd.yaml $C)
export CALVIN_RUN_DIR=$TMP/run
mkdir -m 700 "$CALVIN_RUN_DIR"
PIDS=()
# the attackers' loops and their children, by the PIDs this test started
stop_attackers() {
	local p
	for p in "${PIDS[@]}"; do
		pkill -P "$p" 2>/dev/null
		kill "$p" 2>/dev/null
	done
	PIDS=()
}
trap 'stop_attackers; cleanup_chain $C; rm -rf "$TMP"' EXIT
NOBODY=65534

nothing_deployed() {
	local left
	left=$(leftovers $C)
	[ -z "$left" ] || fail "a refused -o deployed: $left"
	[ ! -e "$CALVIN_RUN_DIR/bench.journal" ] || fail "a refused bench left its journal"
}

# 1. Folders calvin must not write as root: one line, exit 2, nothing made.
mkdir "$TMP/foreign" && chown $NOBODY "$TMP/foreign"
expect_bad "report folder $TMP/foreign: it belongs to user $NOBODY, not to you" \
	$CALVIN run -c 10 -o "$TMP/foreign" "$SPEC"
mkdir -m 770 "$TMP/group"
expect_bad "report folder $TMP/group: group or others can write it \(mode 770\): 'chmod go-w'" \
	$CALVIN run -c 10 -o "$TMP/group" "$SPEC"
mkdir -m 777 "$TMP/open"
expect_bad "report folder $TMP/open/new: $TMP/open can be written by group or others and is not sticky" \
	$CALVIN run -c 10 -o "$TMP/open/new" "$SPEC"
[ ! -e "$TMP/open/new" ] || fail "calvin made a folder under a folder anyone can write"
mkdir -m 700 "$TMP/mine" && ln -s "$TMP/mine" "$TMP/link"
expect_bad "report folder $TMP/link: it is a symbolic link" \
	$CALVIN run -c 10 -o "$TMP/link" "$SPEC"
# in a sticky folder anyone may write (as /tmp), another user's link
mkdir -m 1777 "$TMP/sticky" && ln -s /etc "$TMP/sticky/l" && chown -h $NOBODY "$TMP/sticky/l"
expect_bad "report folder $TMP/sticky/l/x: $TMP/sticky/l is a symbolic link of user $NOBODY" \
	$CALVIN run -c 10 -o "$TMP/sticky/l/x" "$SPEC"
[ ! -e /etc/x ] || fail "calvin followed another user's link"
expect_bad "report folder $TMP/foreign: it belongs to user $NOBODY" \
	$CALVIN bench pinning "$SPEC" -n 1 -c 10 -o "$TMP/foreign"
[ -z "$(ls -A "$TMP/foreign")" ] || fail "bench wrote into another user's folder"
nothing_deployed

# 2. The caller's own folder with links planted to a root-only file and a
# FIFO (fopen would wait on it for ever): the links are replaced, what they
# led to keeps its bytes; under a sticky folder (as /tmp) calvin makes one.
mkdir -m 700 "$TMP/secret" "$TMP/own"
echo SECRET >"$TMP/secret/root-only" && chmod 600 "$TMP/secret/root-only"
for f in report.txt report.md samples.csv plot.gp rtt-cdf.png links.svg; do
	ln -s "$TMP/secret/root-only" "$TMP/own/$f"
done
mkfifo "$TMP/own/report.json"
timeout 120 $CALVIN run -c 200 -r 1000 -o "$TMP/own" "$SPEC" >/dev/null 2>"$TMP/err" ||
	fail "run -o over planted links failed: $(cat "$TMP/err")"
[ "$(cat "$TMP/secret/root-only")" = SECRET ] || fail "the link's target was written"
for f in report.txt report.md report.json samples.csv plot.gp rtt-cdf.png links.svg; do
	[ -f "$TMP/own/$f" ] && [ ! -L "$TMP/own/$f" ] && [ -s "$TMP/own/$f" ] ||
		fail "$f is not a new file of calvin's: $(ls -l "$TMP/own/$f")"
done
[ "$(head -c 4 "$TMP/own/rtt-cdf.png" | od -An -c | tr -d ' ')" = "211PNG" ] ||
	fail "rtt-cdf.png is not the picture"
$CALVIN run -c 50 -r 1000 -o "$TMP/sticky/made" "$SPEC" >/dev/null 2>"$TMP/err" ||
	fail "run -o a new folder under a sticky one: $(cat "$TMP/err")"
[ "$(stat -c %a "$TMP/sticky/made")" = 700 ] || fail "the folder calvin made is not 0700"
# under sudo the folder calvin makes is the user's, who ran it
SUDO_UID=$NOBODY SUDO_GID=$NOBODY $CALVIN run -c 50 -r 1000 -o "$TMP/sudo/r" "$SPEC" \
	>/dev/null 2>"$TMP/err" || fail "run -o under sudo: $(cat "$TMP/err")"
[ "$(stat -c %u:%a "$TMP/sudo/r")" = "$NOBODY:700" ] &&
	[ "$(stat -c %u "$TMP/sudo/r/report.md")" = $NOBODY ] ||
	fail "under sudo: $(ls -ln "$TMP/sudo" "$TMP/sudo/r" | head -n 4)"

# 3. plot.gp rewritten the moment it exists, by a loop that writes an evil
# script into it (never making one): gnuplot reads calvin's script from a
# descriptor, so the evil one never runs.
mkdir -m 700 "$TMP/swap"
cat >"$TMP/evil.gp" <<GP
system "touch $TMP/pwned"
GP
perl -e 'my ($p, $evil) = @ARGV; open(my $e, "<", $evil) or die; local $/; my $t = <$e>;
	while (1) { if (open(my $f, "+<", $p)) { print $f $t; truncate($f, tell($f)); close($f) }
	select(undef, undef, undef, 0.0002) }' "$TMP/swap/plot.gp" "$TMP/evil.gp" &
PIDS+=($!)
$CALVIN run -c 200 -r 1000 -o "$TMP/swap" "$SPEC" >/dev/null 2>"$TMP/err" ||
	fail "run -o with plot.gp rewritten failed: $(cat "$TMP/err")"
stop_attackers
[ ! -e "$TMP/pwned" ] || fail "gnuplot ran the script that replaced plot.gp"
[ -s "$TMP/swap/rtt-cdf.png" ] || fail "gnuplot did not draw calvin's pictures"
ls -d "$CALVIN_RUN_DIR"/gnuplot_* 2>/dev/null && fail "gnuplot's folder was left behind"

# 4. A FIFO where bench writes its chain file's copy: the old bench wrote
# it, read it back and deployed that, so whoever fed the FIFO chose the
# chain. Now the copy is for people; the chain deployed is calvin's own.
mkdir -p -m 700 "$TMP/b/chains"
mkfifo "$TMP/b/chains/calvin.yaml"
sed 's/fwd-u/evil/g' "$SPEC" >"$TMP/evil.yaml"
(cat "$TMP/b/chains/calvin.yaml" >/dev/null && cat "$TMP/evil.yaml" >"$TMP/b/chains/calvin.yaml") &
PIDS+=($!)
timeout 120 $CALVIN bench baseline "$SPEC" -n 1 -c 20 -t 1 -o "$TMP/b" >/dev/null 2>"$TMP/err" ||
	fail "bench with a FIFO as its chain file failed: $(cat "$TMP/err")"
grep -q evil "$TMP/b/report.md" && fail "bench deployed the chain fed through its report folder"
[ -f "$TMP/b/chains/calvin.yaml" ] && grep -q 'fwd-u' "$TMP/b/chains/calvin.yaml" ||
	fail "the report's chain file is not calvin's copy"
[ ! -e "$CALVIN_RUN_DIR/bench_chains" ] || fail "bench left its chain files behind"
assert_clean $C
echo ok
