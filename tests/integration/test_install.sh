# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# `make install DESTDIR=... PREFIX=...`: calvin, calvin-vnf, calvin-relay, the hand-over
# XDP object and the man page where they belong; the installed calvin runs
# --help, and deploys and probes a chain with a kernel and a user VNF from
# what was installed alone: the kernel VNF's, the server's and the probe
# port's XDP programs are built into calvin, so no other object is there.
. "$(dirname "$0")/lib.sh"
C=t-inst
trap 'cleanup_chain $C; rm -rf "$TMP"' EXIT
ROOT=$TMP/root
PREFIX=/opt/calvin-test

# a make of the suite's own must not take the outer make's jobserver
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s install DESTDIR="$ROOT" PREFIX=$PREFIX \
	>"$TMP/make.log" 2>&1 || fail "make install failed: $(tail -n 5 "$TMP/make.log")"
for f in sbin/calvin lib/calvin/calvin-vnf lib/calvin/calvin-relay lib/calvin/kernel/handover.bpf.o \
	share/man/man8/calvin.8; do
	[ -f "$ROOT$PREFIX/$f" ] || fail "make install did not install $PREFIX/$f"
done
objs=$(cd "$ROOT$PREFIX/lib/calvin/kernel" && echo *)
[ "$objs" = handover.bpf.o ] || fail "make install installed XDP objects calvin does not read: $objs"
CALVIN=$ROOT$PREFIX/sbin/calvin
$CALVIN --help >"$TMP/help" || fail "the installed calvin --help failed"
grep -q '^usage: calvin' "$TMP/help" || fail "the installed calvin --help printed: $(head -n 2 "$TMP/help")"
$CALVIN help run | grep -q '^usage: calvin run' || fail "the installed calvin help run failed"
MANWIDTH=200 man -l "$ROOT$PREFIX/share/man/man8/calvin.8" 2>/dev/null | grep -q 'calvin probe CHAIN' ||
	fail "the installed man page does not read"
# calvin bench's baseline runs calvin-relay from the same folder as calvin-vnf
"$ROOT$PREFIX/lib/calvin/calvin-relay" >/dev/null 2>"$TMP/relay"
[ $? -eq 2 ] && grep -q '^usage: calvin-relay' "$TMP/relay" || fail "the installed calvin-relay: $(cat "$TMP/relay")"
echo "installed under $PREFIX: calvin runs --help, calvin-relay its usage"

require_root
require_netns_xdp
# calvin-vnf comes from PREFIX/lib/calvin: the installed calvin knows no
# other place, and calvin-vnf finds its ports' hand-over program beside
# itself (kernel/handover.bpf.o)
SPEC=$(spec_copy chains/tactile-fwd.yaml $C)
$CALVIN up "$SPEC" >/dev/null || fail "the installed calvin up failed"
[ "$(vnf_str $C fwd-u west_t_in)" = xdp ] ||
	fail "the installed calvin-vnf runs without its hand-over program ($(vnf_str $C fwd-u west_t_in))"
$CALVIN -j probe -c 50 $C >"$TMP/run.json" || fail "the installed calvin probe failed"
[ "$(json_num received <"$TMP/run.json")" = 50 ] || fail "probes lost: $(cat "$TMP/run.json")"
$CALVIN down $C || fail "the installed calvin down failed"
assert_clean $C
echo ok
