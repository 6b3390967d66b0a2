// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The libvirt connection, and the daemons behind it where nothing else
 * starts them: on a host without a service manager (this build machine,
 * containers) nobody runs libvirtd and virtlogd, so calvin starts Debian's
 * binaries itself, daemonised, and says so once. Where systemd runs, its
 * socket activation starts them on the first connection. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <libvirt/virterror.h>

#include "lv.h"
#include "util.h"

#define DAEMON_WAIT_MS 10000

static const struct {
	const char *bin, *sock;
} daemons[] = {
	/* virtlogd first: libvirtd hands it every guest's log */
	{ "/usr/sbin/virtlogd", "/run/libvirt/virtlogd-sock" },
	{ "/usr/sbin/libvirtd", "/run/libvirt/libvirt-sock" },
};

/* Is a daemon listening on the UNIX socket at path? */
static bool listening(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	bool ok;

	if (fd < 0)
		return false;
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	ok = connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0;
	close(fd);
	return ok;
}

static bool wait_listening(const char *path)
{
	struct timespec pause = { 0, 50 * 1000 * 1000 };
	int waited;

	for (waited = 0; waited < DAEMON_WAIT_MS; waited += 50) {
		if (listening(path))
			return true;
		nanosleep(&pause, NULL);
	}
	return false;
}

/* Run bin -d, which detaches itself. The child closes every descriptor
 * it does not need first: a daemon must not keep a pipe of our caller's
 * open, nor a lock such as the one flock(1) passes down, for ever. */
static int daemon_spawn(const char *bin)
{
	int status, fd;
	pid_t pid;

	calvin_info("+ %s -d", bin);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		fd = open("/dev/null", O_RDWR | O_CLOEXEC);
		if (fd >= 0) {
			dup2(fd, STDIN_FILENO);
			dup2(fd, STDOUT_FILENO);
			dup2(fd, STDERR_FILENO);
		}
		close_range(3, ~0U, 0);
		setsid();
		execl(bin, bin, "-d", (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -EIO;
}

/* Start what is not running; 0, or -errno with the error printed. */
static int daemons_ensure(void)
{
	bool started = false;
	size_t i;

	if (path_exists("/run/systemd/system"))
		return 0;
	for (i = 0; i < sizeof(daemons) / sizeof(daemons[0]); i++) {
		if (listening(daemons[i].sock))
			continue;
		if (!path_exists(daemons[i].bin)) {
			calvin_err("%s is not installed; run 'make deps' (libvirt-daemon-system)",
				   daemons[i].bin);
			return -ENOENT;
		}
		/* -d: it forks and detaches; the parent's status says it did */
		if (daemon_spawn(daemons[i].bin) || !wait_listening(daemons[i].sock)) {
			calvin_err("cannot start %s (no socket at %s); start it by hand and retry",
				   daemons[i].bin, daemons[i].sock);
			return -EIO;
		}
		started = true;
	}
	if (started)
		calvin_err("started libvirtd and virtlogd: no service manager runs them on this "
			   "host; they keep running after calvin");
	return 0;
}

/* libvirt prints every error on stderr by default; calvin prints its own
 * one line with lv_error() instead. */
static void quiet(void *data, virErrorPtr err)
{
}

const char *lv_error(void)
{
	const char *m = virGetLastErrorMessage();

	return m && *m ? m : "unknown libvirt error";
}

/* One connection per URI for the whole process (a supervisor asks every
 * second): this host's libvirt and each other host's. A connection that
 * died (its daemon restarted) is opened anew. */
#define LV_CONNS 32
static struct {
	virConnectPtr c;
	char uri[CALVIN_URI_MAX];
} conns[LV_CONNS];

int lv_open_quiet(const char *uri, virConnectPtr *conn, char *why, size_t len)
{
	char bad[256];
	unsigned int i;
	int err;

	why[0] = '\0';
	/* the parser refused it already; a journal or a deployed copy of the
	 * spec is read again by `down` and `status`, and libvirt acts on a
	 * URI as root */
	if (calvin_libvirt_uri_check(uri, bad, sizeof(bad))) {
		snprintf(why, len, "refusing to connect to libvirt: its uri %s", bad);
		return -EPERM;
	}
	for (i = 0; i < LV_CONNS && !(conns[i].c && !strcmp(conns[i].uri, uri)); i++)
		;
	if (i < LV_CONNS) {
		if (virConnectIsAlive(conns[i].c) == 1) {
			*conn = conns[i].c;
			return 0;
		}
		virConnectClose(conns[i].c);
		conns[i].c = NULL;
	}

	virSetErrorFunc(NULL, quiet);
	/* only a local daemon is ours to start */
	if (calvin_libvirt_uri_local(uri)) {
		err = daemons_ensure();
		if (err)
			return err;
	}
	*conn = virConnectOpen(uri);
	if (!*conn) {
		snprintf(why, len, "cannot reach libvirt at %s: %s; check that libvirtd runs", uri,
			 lv_error());
		return -ECONNREFUSED;
	}
	/* the first free slot; none left (more than LV_CONNS hosts in one
	 * process): the caller's for the process */
	for (i = 0; i < LV_CONNS && conns[i].c; i++)
		;
	if (i < LV_CONNS) {
		conns[i].c = *conn;
		snprintf(conns[i].uri, sizeof(conns[i].uri), "%s", uri);
	}
	return 0;
}

/* A host that does not answer is said once a minute, not once a call (a
 * supervisor asks every second). */
int lv_open(const char *uri, virConnectPtr *conn)
{
	static char last[CALVIN_URI_MAX];
	static time_t when;
	char why[CALVIN_URI_MAX + 512];
	int err = lv_open_quiet(uri, conn, why, sizeof(why));
	time_t now = time(NULL);

	if (!err || !why[0])
		return err;
	if (err == -ECONNREFUSED && !strcmp(last, uri) && now - when < 60)
		return err;
	snprintf(last, sizeof(last), "%s", uri);
	when = now;
	calvin_err("%s", why);
	return err;
}
