// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The agent channel of a VM on another host: its virtio-serial port comes
 * out of a UNIX socket on that host, which calvin cannot connect to; libvirt
 * opens it for us (virDomainOpenChannel) as a stream over the host's
 * connection. The agent client speaks to a descriptor, so a child process
 * pumps bytes between one end of a socket pair and that stream.
 *
 * Why a child and not a thread: the remote driver holds its lock during a
 * blocking virStreamRecv, so a second thread sending would wait for the
 * guest's next bytes, which wait for what it sends. The child runs
 * libvirt's event loop on its own connection (non-blocking stream, both
 * directions by callbacks), and its end is certain: it exits when our end
 * closes or the stream ends, and dies with calvin (PR_SET_PDEATHSIG).
 *
 * Why the child execs its own image again: a fork of a process with
 * threads (the supervisor's libvirt event thread) inherits libvirt's and
 * GLib's state as that thread left it: the main context owned by a thread
 * that does not exist in the child, whose event loop then waits for it
 * forever. The exec'd image starts clean; pump_entry() catches it before
 * main(), by its argv[0], in whichever program links this file. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "guest/guest.h"
#include "lv.h"
#include "util.h"

#define CHAN_BUF 65536
/* the exec'd pump's argv[0]: "calvin-agent-channel URI DOMAIN FD" */
#define PUMP_ARGV0 "calvin-agent-channel"

static struct pump {
	virStreamPtr st;
	int sock, watch;
	char in[CHAN_BUF], out[CHAN_BUF]; /* in: from the guest; out: to it */
	size_t outlen;
	bool done;
} p;

static bool write_all(int fd, const char *buf, size_t len)
{
	ssize_t n;

	while (len) {
		n = write(fd, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		buf += n;
		len -= (size_t)n;
	}
	return true;
}

/* Read the socket only while nothing waits for the stream, and ask the
 * stream for room only while something does. */
static void rearm(void)
{
	virEventUpdateHandle(p.watch, p.outlen ? 0 : VIR_EVENT_HANDLE_READABLE);
	virStreamEventUpdateCallback(p.st, VIR_STREAM_EVENT_READABLE |
					       (p.outlen ? VIR_STREAM_EVENT_WRITABLE : 0));
}

static void on_stream(virStreamPtr st, int events, void *opaque)
{
	int n;

	if (events & VIR_STREAM_EVENT_READABLE)
		for (;;) {
			n = virStreamRecv(st, p.in, sizeof(p.in));
			if (n == -2)
				break;
			if (n <= 0 || !write_all(p.sock, p.in, (size_t)n)) {
				p.done = true;
				return;
			}
		}
	if ((events & VIR_STREAM_EVENT_WRITABLE) && p.outlen) {
		n = virStreamSend(st, p.out, p.outlen);
		if (n == -1) {
			p.done = true;
			return;
		}
		if (n > 0) {
			memmove(p.out, p.out + n, p.outlen - (size_t)n);
			p.outlen -= (size_t)n;
		}
	}
	if (events & (VIR_STREAM_EVENT_ERROR | VIR_STREAM_EVENT_HANGUP))
		p.done = true;
	else
		rearm();
}

static void on_sock(int watch, int fd, int events, void *opaque)
{
	ssize_t n = read(fd, p.out, sizeof(p.out));

	if (n < 0 && errno == EINTR)
		return;
	if (n <= 0) { /* calvin closed its end */
		p.done = true;
		return;
	}
	p.outlen = (size_t)n;
	rearm();
}

/* The child, exec'd: never returns. */
static void pump(const char *uri, const char *domain, int sock)
{
	char why[256];
	virConnectPtr c;
	virDomainPtr dom;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	p.sock = sock;
	if (calvin_libvirt_uri_check(uri, why, sizeof(why))) {
		dprintf(sock, "!refusing its uri %s\n", why);
		_exit(3);
	}
	if (virEventRegisterDefaultImpl() < 0)
		_exit(2);
	/* a connection of its own: the parent's is not ours to use */
	c = virConnectOpen(uri);
	dom = c ? virDomainLookupByName(c, domain) : NULL;
	p.st = c ? virStreamNew(c, VIR_STREAM_NONBLOCK) : NULL;
	if (!dom || !p.st || virDomainOpenChannel(dom, CALVIN_AGENT_PORT, p.st, 0) < 0) {
		/* the reason goes to the parent as the channel's first line */
		dprintf(sock, "!%s\n", lv_error());
		_exit(3);
	}
	if (!write_all(sock, "+", 1) ||
	    virStreamEventAddCallback(p.st, VIR_STREAM_EVENT_READABLE, on_stream, NULL, NULL) < 0)
		_exit(4);
	p.watch = virEventAddHandle(sock, VIR_EVENT_HANDLE_READABLE, on_sock, NULL, NULL);
	if (p.watch < 0)
		_exit(5);
	while (!p.done)
		if (virEventRunDefaultImpl() < 0)
			break;
	virStreamAbort(p.st);
	_exit(0);
}

/* Before main(): the pump, when this image was exec'd as one (glibc
 * gives ELF constructors the program's arguments). */
__attribute__((constructor)) static void pump_entry(int argc, char **argv, char **envp)
{
	struct stat st;
	int fd;

	if (argc != 4 || strcmp(argv[0], PUMP_ARGV0))
		return;
	fd = atoi(argv[3]);
	if (fd < 3 || fstat(fd, &st) || !S_ISSOCK(st.st_mode))
		_exit(2);
	pump(argv[1], argv[2], fd);
}

/* The forked child: the pump in a fresh image of this program. */
static void pump_exec(const char *uri, const char *domain, int sock, pid_t parent)
{
	char fd[16], *argv[] = { PUMP_ARGV0, (char *)uri, (char *)domain, fd, NULL };

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);
	snprintf(fd, sizeof(fd), "%d", sock);
	if (fcntl(sock, F_SETFD, 0) == 0)
		execv("/proc/self/exe", argv);
	dprintf(sock, "!cannot run its helper process: %s\n", strerror(errno));
	_exit(6);
}

/* The child's first byte: '+' when the channel is open, '!' and libvirt's
 * reason otherwise. */
static int first_word(int fd, const char *uri, const char *domain, int timeout_ms)
{
	struct pollfd pf = { .fd = fd, .events = POLLIN };
	char why[512] = "";
	ssize_t n;

	if (poll(&pf, 1, timeout_ms) != 1) {
		calvin_err("libvirt at %s did not open the agent channel of domain %s in %d ms",
			   uri, domain, timeout_ms);
		return -ETIMEDOUT;
	}
	n = read(fd, why, 1);
	if (n == 1 && why[0] == '+')
		return 0;
	n = n == 1 ? read(fd, why, sizeof(why) - 1) : 0;
	why[n > 0 ? n : 0] = '\0';
	why[strcspn(why, "\n")] = '\0';
	calvin_err("libvirt at %s cannot open the agent channel of domain %s: %s", uri, domain,
		   why[0] ? why : "its helper process failed");
	return -EIO;
}

int lv_chan_open(const char *uri, const char *domain, int timeout_ms, struct lv_chan *ch)
{
	pid_t parent = getpid();
	int sv[2], err;
	char why[256];

	ch->pid = -1;
	ch->fd = -1;
	if (calvin_libvirt_uri_check(uri, why, sizeof(why))) {
		calvin_err("refusing to connect to libvirt: its uri %s", why);
		return -EPERM;
	}
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return -errno;
	fflush(NULL);
	ch->pid = fork();
	if (ch->pid < 0) {
		err = -errno;
		close(sv[0]);
		close(sv[1]);
		return err;
	}
	if (ch->pid == 0) {
		close(sv[0]);
		pump_exec(uri, domain, sv[1], parent);
	}
	close(sv[1]);
	ch->fd = sv[0];
	err = first_word(ch->fd, uri, domain, timeout_ms);
	if (err)
		lv_chan_close(ch);
	return err;
}

/* Our end closed, the child ends of itself; a wedged one is killed after
 * a second. */
void lv_chan_close(struct lv_chan *ch)
{
	struct timespec pause = { 0, 10 * 1000 * 1000 };
	int i;

	if (ch->fd >= 0)
		close(ch->fd);
	ch->fd = -1;
	if (ch->pid <= 0)
		return;
	for (i = 0; i < 100; i++) {
		if (waitpid(ch->pid, NULL, WNOHANG) == ch->pid) {
			ch->pid = -1;
			return;
		}
		nanosleep(&pause, NULL);
	}
	kill(ch->pid, SIGKILL);
	waitpid(ch->pid, NULL, 0);
	ch->pid = -1;
}
