#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# The debugging variables README's environment table documents:
# - CALVIN_XDP_DEBUG: set, libbpf and libxdp speak on stderr; unset,
#   calvin's one line is all (here: the dispatcher check of validate);
# - LIBXDP_OBJECT_PATH: where calvin looks for libxdp's dispatcher first
#   (libbpf's debug output names the object it loads);
# - CALVIN_VNF_LOG_LEVEL: set, calvin-vnf leaves DPDK's messages on stderr
#   at that level; unset, it captures them and says one line.
. "$(dirname "$0")/lib.sh"
require_root
D=/usr/lib/x86_64-linux-gnu/bpf/xdp-dispatcher.o
[ -r $D ] || skip "no libxdp dispatcher object at $D (Debian's libxdp1 installs it)"
trap 'rm -rf "$TMP" /var/run/dpdk/calvin-tenv$$.v' EXIT

# CALVIN_XDP_DEBUG
$CALVIN validate chains/tactile-multi.yaml >"$TMP/out" 2>"$TMP/err"
grep -q "^libbpf: \|^libxdp: " "$TMP/err" && fail "libbpf spoke without CALVIN_XDP_DEBUG: $(head -n 2 "$TMP/err")"
CALVIN_XDP_DEBUG=1 $CALVIN validate chains/tactile-multi.yaml >"$TMP/out" 2>"$TMP/err"
grep -q "^libbpf: loading object from $D" "$TMP/err" || fail "CALVIN_XDP_DEBUG=1: no libbpf line: $(head -n 2 "$TMP/err")"
echo "ok: CALVIN_XDP_DEBUG=1 gave $(grep -c '^libbpf: \|^libxdp: ' "$TMP/err") lines of libbpf and libxdp; none without it"

# LIBXDP_OBJECT_PATH: the dispatcher copied to a folder of the test's own
mkdir "$TMP/bpf" && cp $D "$TMP/bpf/"
LIBXDP_OBJECT_PATH=$TMP/bpf CALVIN_XDP_DEBUG=1 $CALVIN validate chains/tactile-multi.yaml >"$TMP/out" 2>"$TMP/err"
grep -q "^libbpf: loading object from $TMP/bpf/xdp-dispatcher.o" "$TMP/err" ||
	fail "LIBXDP_OBJECT_PATH was not looked in: $(grep 'loading object' "$TMP/err" | head -n 1)"
echo "ok: LIBXDP_OBJECT_PATH's dispatcher is the one checked"

# CALVIN_VNF_LOG_LEVEL: a VNF whose port does not exist
VNF=(build/calvin-vnf --chain tenv$$ --name v --vnf-id 0 --lcore any --west nosuchif$$ --probe-port 7357 --transform echo)
"${VNF[@]}" >"$TMP/out" 2>"$TMP/err" && fail "calvin-vnf on a port that does not exist succeeded"
[ "$(wc -l <"$TMP/err")" = 1 ] && grep -q "nosuchif$$" "$TMP/err" || fail "calvin-vnf said: $(cat "$TMP/err")"
CALVIN_VNF_LOG_LEVEL=debug "${VNF[@]}" >"$TMP/out" 2>"$TMP/err" && fail "calvin-vnf succeeded"
grep -q "^EAL: " "$TMP/err" || fail "CALVIN_VNF_LOG_LEVEL=debug: no EAL line: $(cat "$TMP/err")"
echo "ok: CALVIN_VNF_LOG_LEVEL=debug left DPDK's $(grep -c '^EAL: ' "$TMP/err") EAL lines on stderr; one line without it"
echo ok
