#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# The guest image on a remote host as calvin puts it there
# (userspace/calvin/libvirt/storage.c, through build/tests/tools/lvimage
# until `calvin up` places VMs on remote hosts): a dir pool "calvin" and a
# volume named by the file's SHA-256, uploaded through libvirt's stream,
# byte for byte; reused while the file is unchanged, uploaded anew when it
# changes; kept by `calvin down` as a cache (and said so), removed with the
# pool by `calvin down --images`; an upload cut short (SIGKILL) is removed
# by down and never reused; another's pool of that name is refused; a host
# that does not answer is named, and a later down finishes.
# Run it under the machine lock: flock /tmp/calvin-net.lock bash tests/multihost/test_lv_image.sh
# shellcheck disable=SC2086 # $SIM is the script with its interpreter
. "$(dirname "$0")/lib.sh"
trap 'rm -rf "$TMP"' EXIT
require_sim
LVI=build/tests/tools/lvimage
CALVIN=build/calvin
[ -x $LVI ] && [ -x $CALVIN ] || skip "calvin and its test tools are not built (run make)"
trap '$SIM down >/dev/null 2>&1; rm -rf "$TMP"' EXIT
$SIM up 2 >"$TMP/sim" 2>&1 || fail "sim.sh up 2: $(tail -n 3 "$TMP/sim")"
. "$SIM_DIR/env"
export CALVIN_RUN_DIR=$TMP/run
URI=$CALVIN_SIM_URI_a
C=t-img
POOL=/var/lib/libvirt/images/calvin
virsh_a() { virsh -q -c "$URI" "$@"; }
on_a() { $SIM exec a -- "$@"; }
vols() { virsh_a vol-list calvin 2>/dev/null | awk '{print $1}' | sort | tr '\n' ' '; }
mkdir -p "$TMP/img"
IMG=$TMP/img/vmlinuz
head -c $((24 * 1024 * 1024)) /dev/urandom >"$IMG"
SUM=$(sha256sum "$IMG" | cut -d' ' -f1)
mkdir -p "$TMP/old" && cp "$IMG" "$TMP/old/vmlinuz"
VOL=calvin-$SUM-vmlinuz

# --- uploaded, byte for byte, journalled first --------------------------------
t0=$(now_ms)
$LVI put $C "$URI" "$IMG" >"$TMP/out" 2>"$TMP/err" || fail "put: $(cat "$TMP/err")"
up_ms=$(($(now_ms) - t0))
[ "$(cat "$TMP/out")" = "uploaded $POOL/$VOL" ] || fail "put said: $(cat "$TMP/out")"
[ "$(on_a sha256sum "$POOL/$VOL" | cut -d' ' -f1)" = "$SUM" ] || fail "the volume on a is not the file"
[ "$(vols)" = "$VOL $VOL.ok " ] || fail "volumes in pool calvin: $(vols)"
virsh_a pool-info calvin | grep -q "^Autostart: *yes" || fail "pool calvin does not start with libvirtd"
J=$CALVIN_RUN_DIR/$C.state
grep -q "^lvpool calvin $URI$" "$J" && grep -q "^lvvol calvin/$VOL $URI$" "$J" &&
	grep -q "^lvvol calvin/$VOL.ok $URI$" "$J" || fail "the journal lacks the pool or a volume: $(cat "$J")"
[ "$(grep -n "^lvvol calvin/$VOL " "$J" | cut -d: -f1)" -lt "$(grep -n "^lvvol calvin/$VOL.ok " "$J" | cut -d: -f1)" ] ||
	fail "the sidecar is journalled before its image"
echo "ok: 24 MiB uploaded to host a in $up_ms ms, its SHA-256 on a is the file's"

# --- down keeps it as a cache, and says so; the next put reuses it ---------------
$CALVIN down $C 2>"$TMP/err" || fail "down: $(cat "$TMP/err")"
[ "$(cat "$TMP/err")" = "calvin: kept on $URI: guest image $VOL in pool calvin, a cache for the next up; calvin down --images removes it" ] ||
	fail "down said: $(cat "$TMP/err")"
[ ! -e "$J" ] || fail "the journal is left"
[ "$(vols)" = "$VOL $VOL.ok " ] || fail "down did not keep the cache: $(vols)"
t0=$(now_ms)
$LVI put $C "$URI" "$IMG" >"$TMP/out" 2>"$TMP/err" || fail "second put: $(cat "$TMP/err")"
re_ms=$(($(now_ms) - t0))
[ "$(cat "$TMP/out")" = "reused $POOL/$VOL" ] || fail "second put said: $(cat "$TMP/out")"
grep -q "^lvvol calvin/$VOL $URI$" "$J" || fail "a reused volume is not journalled"
$CALVIN down $C 2>/dev/null || fail "down after reuse"
echo "ok: down kept it and said so; the next put reused it in $re_ms ms"

# --- a changed file is a new volume; the old one stays until --images ------------
printf x >>"$IMG"
SUM2=$(sha256sum "$IMG" | cut -d' ' -f1)
$LVI put $C "$URI" "$IMG" >"$TMP/out" 2>"$TMP/err" || fail "put of the changed file: $(cat "$TMP/err")"
[ "$(cat "$TMP/out")" = "uploaded $POOL/calvin-$SUM2-vmlinuz" ] || fail "changed file: $(cat "$TMP/out")"
$CALVIN down $C 2>/dev/null || fail "down after the changed file"
echo "ok: a changed file was uploaded as calvin-${SUM2:0:12}...-vmlinuz"

# --- SIGKILL at each journal step: down removes what is not complete -------------
head -c $((4 * 1024 * 1024)) /dev/urandom >"$TMP/img/initramfs.img"
S3=$(sha256sum "$TMP/img/initramfs.img" | cut -d' ' -f1)
V3=calvin-$S3-initramfs.img
for n in 1 2 3 4; do
	CALVIN_CRASH_AFTER=$n bash -c '"$@" >/dev/null 2>&1; exit $?' _ $LVI put $C "$URI" "$TMP/img/initramfs.img" 2>/dev/null
	rc=$?
	[ $rc -eq 137 ] || fail "put with CALVIN_CRASH_AFTER=$n exited $rc, not killed"
	[ $n -lt 4 ] || [ -n "$(vols | grep -o "$V3 ")" ] || fail "crash at 4: the image was not made"
	$CALVIN down $C 2>"$TMP/err" || fail "down after the crash at $n: $(cat "$TMP/err")"
	vols | grep -q "$S3" && fail "crash at $n: down left $(vols)"
	[ ! -e "$J" ] || fail "crash at $n: the journal is left"
done
$LVI put $C "$URI" "$TMP/img/initramfs.img" >"$TMP/out" 2>/dev/null || fail "put after the crashes"
[ "$(cat "$TMP/out")" = "uploaded $POOL/$V3" ] || fail "after the crashes: $(cat "$TMP/out")"
echo "ok: SIGKILL after each of 4 journal steps, then down: nothing half-made left, and no partial image reused"

# --- a host that does not answer: named, the journal kept, a later down finishes --
$SIM libvirtd a stop >/dev/null || fail "cannot stop a's libvirtd"
$CALVIN down --images $C 2>"$TMP/err"
rc=$?
$SIM libvirtd a start >/dev/null
[ $rc -eq 1 ] || fail "down with a's libvirtd stopped exited $rc"
grep -q "^calvin: left on $URI: volume $V3.ok in pool calvin; run calvin down again when it answers$" "$TMP/err" ||
	fail "down said: $(cat "$TMP/err")"
[ -e "$J" ] || fail "the journal went with the host unreachable"
echo "ok: $(grep 'left on' "$TMP/err" | head -n 1)"

# --- down --images removes the images and the empty pool ----------------------
wait_until "a's libvirtd to answer" virsh_a pool-info calvin
$CALVIN down --images $C 2>"$TMP/err" || fail "the later down --images: $(cat "$TMP/err")"
vols | grep -q "$S3" && fail "the later down left $(vols)"
[ ! -e "$J" ] || fail "the later down left the journal"
# the two cached images, journalled by a chain that reuses them
$LVI put $C "$URI" "$IMG" "$TMP/old/vmlinuz" >"$TMP/out" 2>"$TMP/err" || fail "put of both: $(cat "$TMP/err")"
[ "$(cut -d' ' -f1 "$TMP/out" | tr '\n' ' ')" = "reused reused " ] || fail "put of both: $(cat "$TMP/out")"
$CALVIN down --images $C 2>"$TMP/err" || fail "down --images: $(cat "$TMP/err")"
[ ! -s "$TMP/err" ] || fail "down --images said: $(cat "$TMP/err")"
virsh_a pool-info calvin >/dev/null 2>&1 && fail "down --images left pool calvin: $(vols)"
on_a test -e $POOL && fail "down --images left $POOL on a"
echo "ok: down --images removed both images and the pool"

# --- another's pool named calvin: refused, and never removed -----------------------
virsh_a pool-define-as calvin dir --target /var/lib/libvirt/images/theirs >/dev/null ||
	fail "cannot define a foreign pool"
$LVI put $C "$URI" "$IMG" >/dev/null 2>"$TMP/err" && fail "put into another's pool calvin"
grep -q "^calvin: libvirt at $URI has a storage pool 'calvin' that is not a dir pool at $POOL; remove or rename it$" "$TMP/err" ||
	fail "put said: $(cat "$TMP/err")"
$CALVIN down --images $C 2>/dev/null
virsh_a pool-dumpxml calvin 2>/dev/null | grep -q "/var/lib/libvirt/images/theirs" ||
	fail "down --images removed another's pool"
virsh_a pool-undefine calvin >/dev/null
echo "ok: another's pool calvin refused and left alone"

echo PASS
