# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# Several chains at once, in this test's own state directory:
# - tactile-fwd, -acl and -crypt up together: no core is owned by two of
#   them; `calvin status` lists each; each answers every probe while the
#   others run; they go down one at a time in another order than they came
#   up, nothing of each is left after its down and the others still answer;
#   up again, `calvin down --all` removes them all;
# - two `calvin up` started together plan one after the other: while the
#   test holds the planning lock both wait on it (/proc/locks) with no plan
#   record written; released, both come up on different cores. On two CPUs
#   (taskset: any host looks so) the second is degraded, and its probe
#   (text and -j) and status say what it asked, what it got and why; the
#   other's say nothing of placement.
. "$(dirname "$0")/lib.sh"
require_root
require_netns_xdp
command -v taskset >/dev/null || skip "taskset is not installed (util-linux)"
[ "$(nproc --all)" -ge 2 ] || skip "needs 2 CPUs"
export CALVIN_RUN_DIR=$TMP/run
mkdir -m 700 "$CALVIN_RUN_DIR"
F=t-mfwd A=t-macl K=t-mcrypt P=t-mlock1 Q=t-mlock2
UPS=
cleanup() {
	exec 9>&- # the planning lock, if the test still holds it
	[ -n "$UPS" ] && wait $UPS
	for c in $F $A $K $P $Q; do cleanup_chain $c; done
	rm -rf "$TMP"
}
trap cleanup EXIT
$CALVIN keygen "$TMP/tactile-crypt.key" >/dev/null || fail "keygen failed"
SF=$(spec_copy chains/tactile-fwd.yaml $F)
SA=$(spec_copy chains/tactile-acl.yaml $A)
SK=$(spec_copy chains/tactile-crypt.yaml $K)

up_three() {
	local s
	for s in "$SF" "$SA" "$SK"; do
		$CALVIN up "$s" >"$TMP/up" 2>&1 || fail "calvin up $s failed: $(cat "$TMP/up")"
	done
}

# every probe back, with the chain's 4 hop records (every chain here has 2 VNFs)
answers() { # CHAIN N
	$CALVIN probe "$1" -c "$2" --raw "$TMP/raw" >"$TMP/report" 2>&1 ||
		fail "probe of $1 failed: $(cat "$TMP/report")"
	check_hops "$TMP/raw" "$2" "0/0 1/0 1/1 0/1" >/dev/null ||
		fail "$1: $(check_hops "$TMP/raw" "$2" "0/0 1/0 1/1 0/1" | tail -n 1)"
}

listed() { $CALVIN status | sed -n 's/^chain \([a-z0-9-]*\) .*/\1/p' | sort | tr '\n' ' '; }

# 1. three chains
up_three
owned=$(cat "$CALVIN_RUN_DIR"/*.plan | awk '$1 == "vnf" && $4 == "owns" { print $3 }')
[ -z "$(echo "$owned" | sort | uniq -d)" ] ||
	fail "a CPU is owned by two chains' VNFs: $(grep -H '^vnf' "$CALVIN_RUN_DIR"/*.plan)"
[ "$(listed)" = "$A $K $F " ] || fail "status lists: $(listed)"
[ "$($CALVIN -j status | grep -o '{"chain":"[a-z0-9-]*"' | sort | tr '\n' ' ')" = \
	"{\"chain\":\"$A\" {\"chain\":\"$K\" {\"chain\":\"$F\" " ] || fail "-j status: $($CALVIN -j status)"
for c in $F $A $K; do
	answers $c 200
	echo "$c answered 200 probes while the others ran"
done
# down in another order than up; the rest stay whole
for c in $A $F $K; do
	$CALVIN down $c || fail "calvin down $c failed"
	assert_clean $c
	for o in $F $A $K; do
		case " $(listed)" in *" $o "*) answers $o 50 ;; esac
	done
	echo "down $c: nothing left of it; up: $(listed)"
done
[ -z "$(listed)" ] || fail "still listed: $(listed)"

up_three
$CALVIN down --all || fail "calvin down --all failed"
for c in $F $A $K; do assert_clean $c; done
[ -z "$(listed)" ] || fail "listed after down --all: $(listed)"
echo "down --all: nothing left"

# 2. two ups at once, while the test holds the planning lock
SP=$(spec_copy chains/tactile-fwd.yaml $P)
SQ=$(spec_copy chains/tactile-fwd.yaml $Q)
LOCK=$CALVIN_RUN_DIR/plan.lock
exec 9>"$LOCK"
flock 9 || fail "cannot take $LOCK"
ino=$(stat -c %i "$LOCK")
# (not passing the lock's descriptor on: a copy would hold the lock too)
taskset -c 0,1 $CALVIN up "$SP" >"$TMP/up-$P" 2>&1 9>&- &
UPS=$!
taskset -c 0,1 $CALVIN up "$SQ" >"$TMP/up-$Q" 2>&1 9>&- &
UPS="$UPS $!"
both_wait() { [ "$(grep -c -- "-> FLOCK .*:$ino " /proc/locks)" -eq 2 ]; }
wait_until "both ups waiting on the planning lock" both_wait
[ ! -e "$CALVIN_RUN_DIR/$P.plan" ] && [ ! -e "$CALVIN_RUN_DIR/$Q.plan" ] ||
	fail "a plan record was written while the planning lock was held"
flock -u 9
exec 9>&-
for pid in $UPS; do wait $pid || fail "a concurrent up failed: $(cat "$TMP/up-$P" "$TMP/up-$Q")"; done
UPS=
cpu() { sed -n 's/^vnf fwd-u \([0-9]*\) .*/\1/p' "$CALVIN_RUN_DIR/$1.plan"; }
[ -n "$(cpu $P)" ] && [ -n "$(cpu $Q)" ] && [ "$(cpu $P)" != "$(cpu $Q)" ] ||
	fail "concurrent ups share a core: $P cpu $(cpu $P), $Q cpu $(cpu $Q)"
echo "concurrent ups: $P on cpu $(cpu $P), $Q on cpu $(cpu $Q)"

# 3. the one that came second was degraded, and its reports say so
D=$(grep -l '^degraded fwd-u ' "$CALVIN_RUN_DIR/$P.plan" "$CALVIN_RUN_DIR/$Q.plan")
[ "$(echo "$D" | grep -c .)" -eq 1 ] || fail "want one degraded chain, got: $D"
D=$(basename "$D" .plan)
O=$([ "$D" = $P ] && echo $Q || echo $P)
want="placement: fwd-u asked dedicated, got shared: no core left to dedicate"
$CALVIN probe $D -c 20 >"$TMP/report" || fail "probe of $D failed"
grep -A3 '^verdict: ' "$TMP/report" | grep -q "^$want" ||
	fail "probe of $D: $(grep -A3 '^verdict' "$TMP/report")"
$CALVIN -j probe $D -c 20 >"$TMP/report" || fail "-j probe of $D failed"
json_get placement <"$TMP/report" |
	grep -q '^\[{"vnf":"fwd-u","asked":"dedicated","granted":"shared","why":"no core left to dedicate' ||
	fail "-j probe of $D: $(json_get placement <"$TMP/report")"
$CALVIN status $D | grep -q "^  $want" || fail "status $D: $($CALVIN status $D)"
$CALVIN -j status $D >"$TMP/status"
[ "$(json_get 0.placement.0.asked <"$TMP/status")" = dedicated ] ||
	fail "-j status $D: $(cat "$TMP/status")"
$CALVIN probe $O -c 20 >"$TMP/report" || fail "probe of $O failed"
grep -q "^placement:" "$TMP/report" && fail "$O was not degraded, yet: $(grep '^placement' "$TMP/report")"
[ "$($CALVIN -j probe $O -c 20 | json_get -n placement)" = 0 ] ||
	fail "-j probe of $O: placement not empty"
echo "$D: $want"
$CALVIN down $P && $CALVIN down $Q || fail "calvin down failed"
assert_clean $P
assert_clean $Q
echo ok
