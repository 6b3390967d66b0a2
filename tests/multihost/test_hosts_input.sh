#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# A chain across hosts, as far as calvin takes it now: validate and plan say
# what runs where; bad hosts: input is refused in one line at its
# file:line:column with exit 2 (an unknown or duplicate host, 'local'
# listed, a node on another host without VMs, hosts without ovn, a URI
# libvirt would act on as root); a server on another host (a VM there) or
# on this one, and a VNF of this host beside VMs on others, are accepted.
# Needs no root and no simulated host.
. "$(dirname "$0")/lib.sh"
trap 'rm -rf "$TMP"' EXIT
CALVIN=build/calvin
[ -x $CALVIN ] || skip "build/calvin is not built (run make)"
export CALVIN_RUN_DIR=$TMP/run

# --- what runs where ---------------------------------------------------------
out=$($CALVIN validate chains/tactile-2host.yaml 2>"$TMP/err")
rc=$?
[ $rc -eq 0 ] || fail "validate of the two-host chain exited $rc, want 0: $(cat "$TMP/err")"
want='hosts: local: probe; a (chassis a, qemu+tcp://10.99.0.11/system): fwd-k; b (chassis b, qemu+tcp://10.99.0.12/system): fwd-u, server; links between hosts: OVN logical switches in tcp:10.99.0.2:6641'
[ "$(head -n 1 <<<"$out")" = "$want" ] || fail "validate said '$out', want '$want'"
$CALVIN -j validate chains/tactile-2host.yaml >"$TMP/j" 2>/dev/null
grep -q '"where":"local: probe; a (chassis a' "$TMP/j" || fail "-j validate has no where: $(cat "$TMP/j")"
grep -q '"runnable":true' "$TMP/j" || fail "-j validate of the server on b says not runnable: $(cat "$TMP/j")"
# the server on this host, at the probe's end, is a layout too
sed 's/^server: {name: server, kind: echo, host: b}.*/server: {name: server, kind: reflect}/' \
	chains/tactile-2host.yaml >"$TMP/srv.yaml"
grep -q '^server: {name: server, kind: reflect}$' "$TMP/srv.yaml" || fail "the chain file's server line changed: fix this test's sed"
$CALVIN validate "$TMP/srv.yaml" >"$TMP/out" 2>"$TMP/err" || fail "validate with the server on local: $(cat "$TMP/err")"
grep -q '^hosts: local: probe, server; a (chassis a' "$TMP/out" || fail "validate with the server on local said: $(cat "$TMP/out")"
# a VNF of this host in a chain across hosts: a VM here (test_2host_local.sh deploys it)
sed '/^    host: a$/d' chains/tactile-2host.yaml >"$TMP/loc.yaml"
$CALVIN validate "$TMP/loc.yaml" >"$TMP/out" 2>"$TMP/err" || fail "validate with fwd-k on local: $(cat "$TMP/err")"
grep -q '^hosts: local: probe, fwd-k; a (chassis a, [^)]*): no node; b (chassis b' "$TMP/out" ||
	fail "validate with fwd-k on local said: $(cat "$TMP/out")"
$CALVIN -j validate "$TMP/loc.yaml" >"$TMP/j" 2>/dev/null
grep -q '"runnable":true' "$TMP/j" || fail "-j validate with fwd-k on local says not runnable: $(cat "$TMP/j")"
echo "ok: validate says what runs where (the server on b or here, fwd-k on a or here)"
# a chain on one host says nothing of hosts
$CALVIN validate chains/tactile-fwd.yaml | grep -q '^hosts:' && fail "a one-host chain shows hosts"

# --- bad hosts: input ---------------------------------------------------------
bad() { # WANT-REGEX YAML
	printf '%s' "$2" >"$TMP/bad.yaml"
	expect_bad "$1" $CALVIN validate "$TMP/bad.yaml"
}
HEAD=$'name: c\nbudget: 1ms\nbackend: libvirt\n'
HOSTS=$'hosts:\n  - {name: a, uri: "qemu+tcp://10.99.0.11/system", chassis: a}\n'
OVN=$'ovn: {nb: "tcp:10.99.0.2:6641"}\n'
bad "bad.yaml:8:36: unknown host 'b' for kernel VNF 'f'; list it under hosts: or use one of: local, a$" \
	"$HEAD$HOSTS$OVN"$'vnfs:\n  - {name: f, kind: forward, host: b}\n'
bad "bad.yaml:6:12: host 'a' is listed twice \(first at line 5\)" \
	"$HEAD$HOSTS"$'  - {name: a, uri: "qemu+tcp://10.99.0.12/system", chassis: b}\n'"$OVN"$'vnfs:\n  - {name: f, kind: forward}\n'
bad "bad.yaml:5:12: host name 'local' is reserved" \
	"$HEAD"$'hosts:\n  - {name: local, uri: "qemu+tcp://10.99.0.11/system", chassis: a}\n'"$OVN"$'vnfs:\n  - {name: f, kind: forward}\n'
bad "bad.yaml:7:36: kernel VNF 'f' is on host 'a', and on another host every node runs in a VM; set 'backend: libvirt'" \
	$'name: c\nbudget: 1ms\n'"$HOSTS$OVN"$'vnfs:\n  - {name: f, kind: forward, host: a}\n\n'
bad "bad.yaml:4:1: hosts needs an ovn section" \
	"$HEAD$HOSTS"$'vnfs:\n  - {name: f, kind: forward, host: a}\n'
# the attacks: a URI through which libvirt would run a program as root,
# and one that is this host's own daemon under another name
bad "bad.yaml:5:20: uri transport ext runs a program the URI names, as root" \
	"$HEAD"$'hosts:\n  - {name: a, uri: "qemu+ext:///system?command=/tmp/marker", chassis: a}\n'"$OVN"$'vnfs:\n  - {name: f, kind: forward}\n'
bad "bad.yaml:5:20: uri parameter netcat names a program libvirt would run" \
	"$HEAD"$'hosts:\n  - {name: a, uri: "qemu+ssh://edge/system?netcat=/tmp/marker", chassis: a}\n'"$OVN"$'vnfs:\n  - {name: f, kind: forward}\n'
bad "bad.yaml:5:20: uri qemu:///system is this host's own libvirt" \
	"$HEAD"$'hosts:\n  - {name: a, uri: "qemu:///system", chassis: a}\n'"$OVN"$'vnfs:\n  - {name: f, kind: forward}\n'
bad "bad.yaml:6:11: nb tcp:central:6641 has no IP address before its port" \
	"$HEAD$HOSTS"$'ovn: {nb: "tcp:central:6641"}\nvnfs:\n  - {name: f, kind: forward}\n'
[ ! -e /tmp/marker ] || fail "/tmp/marker exists: something ran a URI's program"
echo "PASS"
