# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# What the libvirt backend refuses before it creates anything, each with
# one line and exit 2: a libvirt it cannot reach, a node of two VNFs, a
# guest image folder that is missing or lacks a file, one whose files
# libvirt's QEMU user cannot read. And `calvin plan` names the accelerator,
# decided once and cached in the run dir, and who QEMU runs as, and why
# root where it must.
. "$(dirname "$0")/libvirt.sh"
require_libvirt
C=t-lvbad
trap 'cleanup_chain $C' EXIT

refused() { # SPEC WHAT: exit 2, one line naming WHAT, nothing journalled
	local rc
	$CALVIN up "$1" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	[ $rc = 2 ] || fail "up exited $rc, want 2: $(cat "$TMP/err")"
	[ "$(wc -l <"$TMP/err")" = 1 ] || fail "not one line: $(cat "$TMP/err")"
	grep -q "$2" "$TMP/err" || fail "the error does not say '$2': $(cat "$TMP/err")"
	[ ! -e /run/calvin/$C.state ] || fail "a journal exists after a refused up"
	cat "$TMP/err"
}

# an allowed uri where no libvirt listens (port 1 of this host)
SPEC=$(spec_copy chains/tactile-fwd-vm.yaml $C uri "qemu+tcp://127.0.0.1:1/system")
refused "$SPEC" "cannot reach libvirt at qemu+tcp://127.0.0.1:1/system"

SPEC=$(spec_copy chains/tactile-fwd-vm.yaml $C image "$TMP/no-image")
refused "$SPEC" "image $TMP/no-image is not a folder"
mkdir "$TMP/no-image"
cp "$IMG/vmlinuz" "$TMP/no-image/"
refused "$SPEC" "image $TMP/no-image/initramfs.img (the guest initramfs) is missing"

# The attack on an image folder: its initramfs a symlink to a file only
# root may read. QEMU runs as libvirt's user, who cannot read it, and
# up refuses rather than run QEMU as root; the folder itself is readable.
mkdir -m 755 "$TMP/img"
chmod 711 "$TMP"
cp "$IMG/vmlinuz" "$TMP/img/"
ln -s /etc/shadow "$TMP/img/initramfs.img"
SPEC=$(spec_copy chains/tactile-fwd-vm.yaml $C image "$TMP/img")
refused "$SPEC" "7:10: image: libvirt runs QEMU as [a-z0-9-]*, and [a-z0-9-]* cannot read $TMP/img/initramfs.img (Permission denied)"
$CALVIN plan "$SPEC" | grep -q "; QEMU cannot run as [a-z0-9-]*: .* up refuses to run it as root$" ||
	fail "plan does not say QEMU's user cannot read the image"

# calvin's own image where libvirt's user cannot reach it (a build tree in
# a private folder): QEMU runs as root, and plan says why.
mkdir -p "$TMP/private/vm-images/cloud"
chmod 700 "$TMP/private"
cp "$CALVIN" build/calvin-vnf "$TMP/private/"
cp "$IMG/vmlinuz" "$IMG/initramfs.img" "$TMP/private/vm-images/cloud/"
"$TMP/private/calvin" plan chains/tactile-fwd-vm.yaml >"$TMP/plan.private" ||
	fail "plan with a private build failed"
grep -q "; QEMU runs as root: [a-z0-9-]* cannot read $TMP/private/vm-images/cloud/vmlinuz (Permission denied); " \
	"$TMP/plan.private" || fail "plan does not say why QEMU runs as root: $(tail -n 1 "$TMP/plan.private")"
tail -n 1 "$TMP/plan.private"
$CALVIN plan chains/tactile-fwd-vm.yaml | grep -q "; QEMU runs as [a-z0-9-]*$" ||
	fail "plan does not say QEMU runs as libvirt's user"

SPEC=$(spec_copy chains/tactile-fwd-vm.yaml $C)
sed -i 's/^  - name: fwd-u/  - name: acl\n    kind: acl\n    node: fwd-k\n&/' "$SPEC"
refused "$SPEC" "node 'fwd-k' holds 2 VNFs, but the libvirt backend runs one VNF per VM"

$CALVIN plan chains/tactile-fwd-vm.yaml >"$TMP/plan" || fail "calvin plan failed"
grep -Eq '^nodes: VMs under (KVM|TCG)' "$TMP/plan" || fail "plan does not name the accelerator"
head -n 1 /run/calvin/accel | grep -Eqx 'kvm|tcg' || fail "no cached accelerator in /run/calvin/accel"
echo "accelerator: $(paste -sd' ' /run/calvin/accel)"
echo ok
