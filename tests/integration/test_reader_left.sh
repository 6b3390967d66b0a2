# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# A reader that goes away never fails a deployment: `calvin -v up CHAIN |
# head -1` leaves a working chain (once, ip, whose output went to the
# closed pipe, died of SIGPIPE and `up` rolled the chain back); so do
# stdout and stderr both on a pipe nobody reads. Under -v each netlink
# operation is shown in ip(8) and ethtool(8) words on stderr, never on
# stdout: those lines are not the report's.
. "$(dirname "$0")/lib.sh"
require_root
require_netns_xdp
C=t-reader
SPEC=$(spec_copy chains/tactile-fwd.yaml $C)
trap 'exec 4>&- 2>/dev/null; cleanup_chain $C; rm -rf "$TMP"' EXIT

works() { # WHAT: the chain answers probes, then goes down
	$CALVIN probe -c 100 -r 1000 $C >"$TMP/probe" 2>&1 || fail "$1: probe failed: $(cat "$TMP/probe")"
	grep -q '^loss 0/100 ' "$TMP/probe" || fail "$1: the chain lost probes: $(grep loss "$TMP/probe")"
	$CALVIN down $C >/dev/null || fail "$1: down failed"
	assert_clean $C
}

# 1. The README's case
$CALVIN -v up "$SPEC" 2>"$TMP/err" | head -n 1 >"$TMP/first"
[ "${PIPESTATUS[0]}" -eq 0 ] || fail "calvin -v up | head -1 exited ${PIPESTATUS[0]}: $(tail -n 3 "$TMP/err")"
grep -q "^chain $C is up" "$TMP/first" || fail "head -1 read: $(cat "$TMP/first")"
works "-v up | head -1"

# 2. stdout and stderr on a pipe whose reader has gone before calvin starts
mkfifo "$TMP/fifo"
exec 3<>"$TMP/fifo" 4>"$TMP/fifo" 3<&-
$CALVIN -v up "$SPEC" >&4 2>&4
rc=$?
[ $rc -eq 0 ] || fail "calvin -v up with stdout and stderr on a closed pipe exited $rc"
works "-v up >closed 2>closed"
exec 4>&-

# 3. -v: the operations on stderr; stdout is calvin's own
$CALVIN -v up "$SPEC" >"$TMP/out" 2>"$TMP/err" || fail "calvin -v up failed: $(tail -n 3 "$TMP/err")"
[ "$(wc -l <"$TMP/out")" -eq 1 ] && grep -q "^chain $C is up" "$TMP/out" ||
	fail "calvin -v up printed on stdout: $(cat "$TMP/out")"
grep -qx "+ \[netns calvin-$C.probe\] ethtool -K east tx off" "$TMP/err" ||
	fail "-v did not show tx checksumming turned off"
grep -qx "+ ip netns add calvin-$C.fwd-k" "$TMP/err" || fail "-v did not show the namespace made"
grep -qx "+ ip -n calvin-$C.fwd-u link set west up" "$TMP/err" || fail "-v did not show a link set up"
grep -qx "+ ip link add east mtu 1600 netns calvin-$C.fwd-k type veth peer name west mtu 1600 netns calvin-$C.fwd-u" "$TMP/err" ||
	fail "-v did not show the veth made"
works "-v up"
echo ok
