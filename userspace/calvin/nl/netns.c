// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Named network namespaces, kept as ip-netns(8) keeps them: the file
 * /run/netns/NAME with the namespace bind-mounted on it, /run/netns a
 * shared mount (so that an unmount in one mount namespace reaches the
 * copies in others, and the namespace can go). `ip netns list`, `ip netns
 * exec` and calvin's netns_enter() find them there. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sock.h"

#define NETNS_DIR "/run/netns"

/* A name that stays inside NETNS_DIR. */
static bool name_ok(const char *name)
{
	return name[0] && strlen(name) <= NAME_MAX && !strchr(name, '/') && strcmp(name, ".") &&
	       strcmp(name, "..");
}

/* /run/netns as a shared mount point: made shared where it is a mount
 * point already, bind-mounted on itself first where it is not. */
static int dir_shared(void)
{
	if (mkdir(NETNS_DIR, 0755) < 0 && errno != EEXIST)
		return -errno;
	if (mount("", NETNS_DIR, "none", MS_SHARED | MS_REC, NULL) == 0)
		return 0;
	if (errno != EINVAL)
		return -errno;
	if (mount(NETNS_DIR, NETNS_DIR, "none", MS_BIND | MS_REC, NULL) < 0)
		return -errno;
	return mount("", NETNS_DIR, "none", MS_SHARED | MS_REC, NULL) < 0 ? -errno : 0;
}

/* In a thread of its own, so that calvin's thread never leaves its
 * namespace: a new namespace, pinned by the bind mount. The thread's own
 * namespace is /proc/thread-self's (/proc/self is the main thread's). */
static void *make_ns(void *arg)
{
	const char *path = arg;

	if (unshare(CLONE_NEWNET) < 0)
		return (void *)(long)-errno;
	if (mount("/proc/thread-self/ns/net", path, "none", MS_BIND, NULL) < 0)
		return (void *)(long)-errno;
	return NULL;
}

static int ns_pin(const char *path)
{
	pthread_t t;
	void *ret;
	int err;

	err = pthread_create(&t, NULL, make_ns, (void *)path);
	if (err)
		return -err;
	err = pthread_join(t, &ret);
	return err ? -err : (int)(long)ret;
}

int nl_netns_add(const char *name)
{
	char path[PATH_MAX];
	int fd, err;

	nl_show(NULL, "netns add %s", name);
	if (!name_ok(name))
		return nl_fail(-EINVAL, NULL, NULL, "add network namespace '%s'", name);
	err = dir_shared();
	if (err)
		return nl_fail(err, NULL, NULL, "add network namespace %s: %s", name, NETNS_DIR);
	snprintf(path, sizeof(path), NETNS_DIR "/%s", name);
	/* the mount point; one that exists is someone else's */
	fd = open(path, O_RDONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0);
	if (fd < 0)
		return nl_fail(-errno, NULL, NULL, "add network namespace %s", name);
	close(fd);
	err = ns_pin(path);
	if (err)
		unlink(path);
	return nl_fail(err, NULL, NULL, "add network namespace %s", name);
}

/* A lazy unmount, as ip netns delete does: a process still inside keeps
 * the namespace alive, the name goes now. Not mounted (add was cut short
 * between its file and its mount): only the file. */
int nl_netns_delete(const char *name)
{
	char path[PATH_MAX];
	int err = 0;

	nl_show(NULL, "netns delete %s", name);
	if (!name_ok(name))
		return nl_fail(-EINVAL, NULL, NULL, "delete network namespace '%s'", name);
	snprintf(path, sizeof(path), NETNS_DIR "/%s", name);
	if (umount2(path, MNT_DETACH | UMOUNT_NOFOLLOW) < 0 && errno != EINVAL && errno != ENOENT)
		err = -errno;
	if (!err && unlink(path) < 0 && errno != ENOENT)
		err = -errno;
	return nl_fail(err, NULL, NULL, "delete network namespace %s", name);
}
