// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Who QEMU runs as. libvirt's unprivileged user (Debian: libvirt-qemu),
 * its DAC base label, wherever the host allows: a guest that escapes QEMU
 * is then that user, not root. Libvirt opens the console log and the
 * agent's socket itself and passes the descriptors, so QEMU opens only
 * the guest image, by path; calvin checks that user can read it, in a
 * child that becomes that user. Where it cannot:
 *
 * - the image a chain file names: refused, since QEMU as root would read,
 *   into a guest the chain chose, whatever that folder's files lead to;
 * - calvin's own image (make vm-image): QEMU runs as root, as before, and
 *   plan and up say why;
 * - libvirt that names no user, or whose qemu.conf says root: root, said
 *   the same way. */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lv.h"
#include "util.h"

/* The guest image folder of a chain: its own, or calvin's (make vm-image). */
void lv_image(const struct calvin_chain_spec *s, char *dir, size_t len)
{
	if (s->libvirt.image[0])
		snprintf(dir, len, "%s", s->libvirt.image);
	else
		snprintf(dir, len, "%s/vm-images/cloud", calvin_lib_dir());
}

/* Become u in this process (a child's): its groups, then its group, then
 * itself. 0 or -errno. */
int lv_qemu_become(const struct lv_qemu_user *u)
{
	gid_t groups[64];
	int n = 64;

	if (!u->uid)
		return 0;
	if (!u->named || getgrouplist(u->name, u->gid, groups, &n) < 0) {
		groups[0] = u->gid;
		n = 1;
	}
	if (setgroups((size_t)n, groups) || setgid(u->gid) || setuid(u->uid))
		return -errno;
	return 0;
}

/* Can u open path for reading? 0 or the -errno it gets. */
static int readable_as(const struct lv_qemu_user *u, const char *path)
{
	int status, fd, e;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		e = lv_qemu_become(u);
		fd = e ? -1 : open(path, O_RDONLY | O_CLOEXEC);
		_exit(fd >= 0 ? 0 : e ? 255 : errno & 0xff);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -ECHILD;
	return WEXITSTATUS(status) == 255 ? -EPERM : -WEXITSTATUS(status);
}

/* The image's files as QEMU's user: 0, or why not in u->why. */
static int image_reachable(const struct calvin_chain_spec *s, struct lv_qemu_user *u)
{
	static const char *const files[] = { CALVIN_VM_KERNEL, CALVIN_VM_INITRD };
	char dir[PATH_MAX], path[PATH_MAX + 32];
	size_t i;
	int e;

	lv_image(s, dir, sizeof(dir));
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		e = readable_as(u, path);
		if (e) {
			snprintf(u->why, sizeof(u->why), "%s cannot read %s (%s)", u->name, path,
				 strerror(-e));
			return e;
		}
	}
	return 0;
}

/* libvirt's user for QEMU, from its capabilities; root with why. */
static void dac_user(virConnectPtr conn, bool kvm, struct lv_qemu_user *u)
{
	char *caps = virConnectGetCapabilities(conn);
	struct passwd *pw;

	if (!caps || calvin_vm_dac_label(caps, kvm, &u->uid, &u->gid)) {
		snprintf(u->why, sizeof(u->why),
			 "libvirt names no user to run QEMU as (no DAC security model)");
		u->uid = u->gid = 0;
	} else if (!u->uid) {
		snprintf(u->why, sizeof(u->why),
			 "libvirt's qemu.conf runs QEMU as root (user = \"root\")");
		u->gid = 0;
	}
	free(caps);
	pw = u->uid ? getpwuid(u->uid) : NULL;
	u->named = pw != NULL;
	if (pw)
		snprintf(u->name, sizeof(u->name), "%s", pw->pw_name);
	else
		snprintf(u->name, sizeof(u->name), u->uid ? "uid %u" : "root", u->uid);
}

int lv_qemu_user(const struct calvin_chain_spec *s, bool kvm, const struct lv_qemu_user **out)
{
	/* decided once per process and accelerator */
	static struct lv_qemu_user cache[2];
	static bool done[2];
	struct lv_qemu_user *u = &cache[kvm];
	virConnectPtr conn;
	int err;

	*out = u;
	if (done[kvm])
		return 0;
	err = lv_open(s->libvirt.uri, &conn);
	if (err)
		return err;
	memset(u, 0, sizeof(*u));
	dac_user(conn, kvm, u);
	done[kvm] = true;
	/* a remote host's files are its own: libvirt says there */
	if (!u->uid || !calvin_libvirt_uri_local(s->libvirt.uri) || !image_reachable(s, u))
		return 0;
	if (s->libvirt.image[0]) {
		u->refused = true;
		return 0;
	}
	snprintf(u->why + strlen(u->why), sizeof(u->why) - strlen(u->why),
		 "; a copy of the image in a folder it can read, named by 'image:', fixes that");
	u->uid = u->gid = 0;
	return 0;
}

int lv_qemu_check(const struct calvin_chain_spec *s)
{
	const struct lv_qemu_user *u;

	if (lv_qemu_user(s, false, &u))
		return CALVIN_EXIT_USAGE;
	if (!u->refused)
		return 0;
	calvin_err(
	    "%s:%d:%d: image: libvirt runs QEMU as %s, and %s; give a folder %s can read "
	    "(QEMU as root would read, into the guest, whatever this folder's files lead to)",
	    s->path, s->libvirt.image_pos.line, s->libvirt.image_pos.col, u->name, u->why, u->name);
	return CALVIN_EXIT_USAGE;
}

const char *lv_qemu_describe(const struct lv_qemu_user *u, char *buf, size_t len)
{
	if (u->refused)
		snprintf(buf, len, "QEMU cannot run as %s: %s, and up refuses to run it as root",
			 u->name, u->why);
	else if (u->uid)
		snprintf(buf, len, "QEMU runs as %s", u->name);
	else
		snprintf(buf, len, "QEMU runs as root: %s", u->why);
	return buf;
}
