# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# calvin status against user VNFs that misbehave, as an attacker or a
# fault makes them; the chain is tactile-fwd with a second user VNF (tap),
# so there is always a VNF that answers:
# 1. fwd-u wedged (SIGSTOP: its telemetry socket accepts and never
#    answers): status says "fwd-u: not answering (2 s)" after about 2 s,
#    shows fwd-k and tap all the same, and exits 1; -j: one document,
#    fwd-u with an error, tap with its counters.
# 2. fwd-u killed and its socket served by tests/tools/telemetry_server:
#    - silent (accepts, never answers): as 1;
#    - hostile (terminal escapes, C1 controls, a bidi override, invalid
#      UTF-8 and "}],"injected": in counter names and values): no byte a
#      terminal acts on reaches it, and -j is one document with no member
#      of the attacker's;
#    - garbage (not JSON, written to close calvin's document and open the
#      attacker's): refused with a reason, nothing of it shown, exit 1.
. "$(dirname "$0")/lib.sh"
require_root
require_netns_xdp
C=t-hostile
export CALVIN_RUN_DIR=$TMP/run
SRV=
PID=
trap '[ -n "$SRV" ] && kill $SRV; [ -n "$PID" ] && kill -CONT $PID; cleanup_chain $C; rm -rf "$TMP"' EXIT
SPEC=$(spec_tap chains/tactile-fwd.yaml $C fwd-u)
# a process each: fwd-u and tap would share one loop on a 2-CPU host,
# and the point is a VNF that answers beside one that does not
grep -q '^shared-core:' "$SPEC" && fail "chains/tactile-fwd.yaml sets shared-core now: edit this test"
echo "shared-core: yield" >>"$SPEC"
SOCK=/var/run/dpdk/calvin-$C.fwd-u/dpdk_telemetry.v2

$CALVIN up "$SPEC" >/dev/null || fail "up failed"
$CALVIN status $C >"$TMP/out" || fail "status of a healthy chain failed: $(cat "$TMP/out")"
PID=$(pgrep -f "calvin-vnf --chain $C --name fwd-u ")
[ "${PID:-0}" -gt 0 ] || fail "no pid of fwd-u"
[ -S "$SOCK" ] || fail "no telemetry socket at $SOCK"

# Only printable ASCII and newlines: no ESC, no C1, no bidi control, no
# invalid UTF-8 (the attacks below send nothing else that is not ASCII).
terminal_safe() { # FILE
	! tr -d '\n' <"$1" | LC_ALL=C grep -q '[^ -~]'
}

# status of the chain with fwd-u not answering: rc 1, the line, the
# others shown, and within about the deadline
not_answering() { # WHAT
	local t0 t1 ms rc
	t0=$(date +%s%N)
	$CALVIN status $C >"$TMP/out" 2>"$TMP/err"
	rc=$?
	t1=$(date +%s%N)
	ms=$(((t1 - t0) / 1000000))
	cat "$TMP/out" "$TMP/err"
	[ $rc -eq 1 ] || fail "$1: status exited $rc, want 1"
	grep -q "^  fwd-u: not answering (2 s)$" "$TMP/out" || fail "$1: no 'not answering' line"
	grep -q "^  tap          user    west_pmd " "$TMP/out" || fail "$1: tap not shown"
	grep -q "^  fwd-k        kernel  fwd " "$TMP/out" || fail "$1: fwd-k not shown"
	[ $ms -ge 1900 ] && [ $ms -lt 6000 ] || fail "$1: status took $ms ms, want about 2000"
	$CALVIN -j status $C >"$TMP/s.json"
	rc=$?
	[ $rc -eq 1 ] || fail "$1: -j status exited $rc, want 1"
	json_get <"$TMP/s.json" || fail "$1: -j status is not one JSON document"
	[ "$(json_get '0.vnfs.[name=fwd-u].error' <"$TMP/s.json")" = "not answering (2 s)" ] ||
		fail "$1: -j: $(cat "$TMP/s.json")"
	json_get '0.vnfs.[name=tap].telemetry./calvin/stats.west_rx_packets' <"$TMP/s.json" >/dev/null ||
		fail "$1: -j: no counters of tap"
	echo "$1: not answering after $ms ms, the others shown"
}

# 1. a wedged VNF: the real one, stopped
kill -STOP "$PID"
not_answering "fwd-u stopped"
kill -CONT "$PID"
wait_until "fwd-u answering again" $CALVIN status $C

# 2. fwd-u gone, an attacker's server at its socket (the supervisor first,
# or it would restart fwd-u)
SUP=$(pgrep -f "calvin supervise $C\$")
[ -n "$SUP" ] || fail "no supervisor of $C"
kill -KILL "$SUP"
kill -KILL "$PID"
PID=
serve() { # MODE
	[ -n "$SRV" ] && kill $SRV && wait $SRV 2>/dev/null
	build/tests/tools/telemetry_server "$SOCK" "$1" >"$TMP/srv" 2>&1 &
	SRV=$!
	wait_until "telemetry_server $1" grep -q serving "$TMP/srv"
}

serve silent
not_answering "a socket that accepts and never answers"

serve hostile
$CALVIN status $C >"$TMP/out" 2>"$TMP/err" || fail "status of a hostile answer failed"
cat -v "$TMP/out"
terminal_safe "$TMP/out" || fail "status let a byte a terminal acts on through"
grep -Fq ' west_pmd af_xdp\x1b]0;owned\x07"}],"injected":true' "$TMP/out" ||
	fail "the hostile west_pmd is not shown escaped"
grep -Fq ' east_t_in xdp\x1b[31m\xc2\x9b6n\x9b\xe2\x80\xaeevil\x0a\x00tail' "$TMP/out" ||
	fail "the hostile east_t_in is not shown escaped"
$CALVIN -j status $C >"$TMP/s.json" || fail "-j status of a hostile answer failed"
terminal_safe "$TMP/s.json" || fail "-j status let a byte a terminal acts on through"
json_get <"$TMP/s.json" || fail "-j status of a hostile answer is not one JSON document"
[ "$(json_get -k 0 <"$TMP/s.json" | sort | tr '\n' ' ')" = \
	"chain events isolation mode mtu placement placement_read_back supervisor vnfs " ] ||
	fail "-j: the chain's members changed"
[ "$(json_get -n 0.vnfs <"$TMP/s.json")" = 3 ] || fail "-j: not 3 VNFs"
[ "$(json_get -k '0.vnfs.[name=fwd-u]' <"$TMP/s.json" | tr '\n' ' ')" = "name space telemetry " ] ||
	fail "-j: fwd-u's members changed"
[ "$(json_get -n '0.vnfs.[name=fwd-u].telemetry./calvin/stats' <"$TMP/s.json")" = 5 ] ||
	fail "-j: fwd-u's counters"
[ "$(json_get '0.vnfs.[name=fwd-u].telemetry./calvin/stats.west_pmd' <"$TMP/s.json")" = \
	'af_xdp\x1b]0;owned\x07"}],"injected":true,"x":"' ] || fail "-j: west_pmd not escaped"
echo "hostile answer: escaped, one document"

serve garbage
$CALVIN status $C >"$TMP/out" 2>"$TMP/err"
rc=$?
cat "$TMP/out"
[ $rc -eq 1 ] || fail "status of an answer that is not JSON exited $rc, want 1"
grep -q "^  fwd-u        user    telemetry answer not understood: not JSON" "$TMP/out" ||
	fail "no line says the answer was not understood"
grep -q injected "$TMP/out" && fail "status showed part of an answer it could not read"
$CALVIN -j status $C >"$TMP/s.json"
json_get <"$TMP/s.json" || fail "-j status of a garbage answer is not one JSON document"
json_get '0.vnfs.[name=fwd-u].error' <"$TMP/s.json" | grep -q "^telemetry answer not understood" ||
	fail "-j: no error for fwd-u: $(cat "$TMP/s.json")"
grep -q injected "$TMP/s.json" && fail "-j status showed part of an answer it could not read"
echo "garbage answer: refused"

kill $SRV
wait $SRV 2>/dev/null
SRV=
$CALVIN down $C || fail "down failed"
assert_clean $C
echo ok
