# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# The guest image is reproducible: two builds from the same inputs into
# two different directories give the same bytes.
. "$(dirname "$0")/lib.sh"
command -v busybox >/dev/null && command -v cpio >/dev/null && command -v zstd >/dev/null ||
	skip "busybox-static, cpio or zstd not installed (make deps installs them)"
[ -x build/calvin-agent ] || fail "build/calvin-agent missing: run make first"
export SOURCE_DATE_EPOCH=1700000000
for d in a b; do
	# the kernel package, from an earlier build if there was one
	mkdir -p "$TMP/$d"
	cp -r "$IMG/debs" "$TMP/$d/" 2>/dev/null
	vm-images/mkimage.sh "${KERNEL:-cloud}" "$TMP/$d" build >"$TMP/$d.log" 2>&1 ||
		{ tail -n 5 "$TMP/$d.log"; skip "cannot build the guest image (no Debian package registry?)"; }
	(cd "$TMP/$d" && sha256sum vmlinuz initramfs.img) | tee "$TMP/$d.sum"
done
cmp -s "$TMP/a.sum" "$TMP/b.sum" || fail "two builds differ"
echo "image is reproducible: $(du -k "$TMP/a/initramfs.img" | cut -f1) KiB initramfs"
