// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Chain spec files: the guest image a libvirt chain boots, checked where
 * it is named. Reads files, like chainspec_load.c; the rest of the parser
 * does no I/O. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "spec/spec.h"

/* A bzImage says "HdrS" at this offset of its setup header (the kernel's
 * Documentation/arch/x86/boot.rst). */
#define BZIMAGE_MAGIC_OFF 0x202

static bool is_bzimage(const char *path)
{
	char magic[4];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	bool ok;

	if (fd < 0)
		return false;
	ok = pread(fd, magic, sizeof(magic), BZIMAGE_MAGIC_OFF) == sizeof(magic) &&
	     !memcmp(magic, "HdrS", 4);
	close(fd);
	return ok;
}

/* "" if dir/name is a file that can be booted, else why not. */
static const char *file_problem(const char *dir, const char *name, bool kernel)
{
	char path[4096 + 32];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (stat(path, &st))
		return errno == ENOENT ? "missing" : strerror(errno);
	if (!S_ISREG(st.st_mode))
		return "not a file";
	if (access(path, R_OK))
		return "not readable";
	if (!st.st_size)
		return "empty";
	if (kernel && !is_bzimage(path))
		return "not a Linux kernel (no bzImage header)";
	return "";
}

int calvin_vm_image_check(const char *dir, char *why, size_t len)
{
	const char *k, *i;
	struct stat st;

	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		snprintf(why, len, "%s is not a folder", dir);
		return -ENOENT;
	}
	k = file_problem(dir, CALVIN_VM_KERNEL, true);
	i = file_problem(dir, CALVIN_VM_INITRD, false);
	if (!*k && !*i)
		return 0;
	if (!strcmp(k, "missing") && !strcmp(i, "missing"))
		snprintf(why, len, "%s holds neither %s nor %s", dir, CALVIN_VM_KERNEL,
			 CALVIN_VM_INITRD);
	else if (*k)
		snprintf(why, len, "%s/%s (the guest kernel) is %s", dir, CALVIN_VM_KERNEL, k);
	else
		snprintf(why, len, "%s/%s (the guest initramfs) is %s", dir, CALVIN_VM_INITRD, i);
	return -ENOENT;
}

int calvin_spec_check_image(const struct calvin_chain_spec *spec, char *err, size_t errlen)
{
	const struct calvin_libvirt_spec *lv = &spec->libvirt;
	char why[CALVIN_ERR_MAX / 2];

	if (spec->backend != CALVIN_BACKEND_LIBVIRT || !lv->image[0] ||
	    !calvin_vm_image_check(lv->image, why, sizeof(why)))
		return 0;
	snprintf(err, errlen,
		 "%s:%d:%d: image %s; give the folder 'make vm-image' makes "
		 "(build/vm-images/cloud) or one with the same two files",
		 spec->path, lv->image_pos.line, lv->image_pos.col, why);
	return -ENOENT;
}
