# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# The attack of issue 13, item 1, that now fails: a chain file whose
# libvirt uri makes libvirt run a program of its choosing as root (the ext
# transport's command, ssh's netcat) is refused by validate and up in one
# line at the uri's line:column, and the program never runs; a journal that
# carries such a uri is refused by down before libvirt sees it.
. "$(dirname "$0")/libvirt.sh"
[ "$(id -u)" = 0 ] || skip "needs root (calvin up and down)"
[ -x "$CALVIN" ] || fail "$CALVIN missing: run make first"
C=t-lvuri
trap 'rm -f /run/calvin/$C.state; rm -rf "$TMP"' EXIT

# What libvirt would run: it leaves a file behind.
MARKER=$TMP/marker
printf '#!/bin/sh\ntouch %s/ran\nsleep 1\n' "$TMP" >"$MARKER"
chmod 755 "$MARKER"

refused() { # CMD SPEC WHAT: exit 2, one line at 7:8 naming WHAT, no journal, marker idle
	local rc
	$CALVIN "$1" "$2" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	[ $rc = 2 ] || fail "$1 exited $rc, want 2: $(cat "$TMP/err")"
	[ "$(wc -l <"$TMP/err")" = 1 ] || fail "$1: not one line: $(cat "$TMP/err")"
	grep -q "^$2:7:8: uri $3" "$TMP/err" || fail "$1: the error does not say '$3' at 7:8: $(cat "$TMP/err")"
	[ ! -e /run/calvin/$C.state ] || fail "$1: a journal exists after a refused uri"
	[ ! -e "$TMP/ran" ] || fail "$1: libvirt ran the uri's program"
	echo "$1: $(cat "$TMP/err")"
}

SPEC=$(spec_copy chains/tactile-fwd-vm.yaml $C uri "\"qemu+ext:///system?command=$MARKER\"")
refused validate "$SPEC" "transport ext runs a program"
refused up "$SPEC" "transport ext runs a program"

SPEC=$(spec_copy chains/tactile-fwd-vm.yaml $C uri "\"qemu+ssh://localhost/system?netcat=$MARKER\"")
refused validate "$SPEC" "parameter netcat names a program"
refused up "$SPEC" "parameter netcat names a program"

SPEC=$(spec_copy chains/tactile-fwd-vm.yaml $C uri "\"qemu+unix:///system?socket=$TMP/s\"")
refused validate "$SPEC" "transport unix connects to a socket"

# A journal is read again by down: a uri in it is checked before libvirt
# opens it.
mkdir -p /run/calvin && chmod 700 /run/calvin
printf 'backend libvirt\ndomain calvin-%s.fwd-k qemu+ext:///system?command=%s\n' "$C" "$MARKER" \
	>/run/calvin/$C.state
$CALVIN down $C >"$TMP/out" 2>"$TMP/err" && fail "down of a journal with an ext uri succeeded"
grep -q "refusing to connect to libvirt: its uri transport ext runs a program" "$TMP/err" ||
	fail "down does not say why: $(cat "$TMP/err")"
[ ! -e "$TMP/ran" ] || fail "down: libvirt ran the journal's uri program"
echo "down: $(head -n 1 "$TMP/err")"
echo ok
