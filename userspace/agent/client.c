// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The host's end of the agent protocol (client.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "client.h"
#include "util/util.h"

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int left_ms(long long deadline)
{
	long long left = deadline - now_ms();

	return left > 0 ? (int)left : 0;
}

/* Non-blocking: a listener that does not accept (qemu serves one client
 * at a time) fills its backlog, and a blocking connect then waits for
 * ever. */
static int connect_unix(const char *path, long long deadline)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	struct timespec pause = {0, 50 * 1000 * 1000};
	int fd, err;

	if (strlen(path) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	strcpy(sa.sun_path, path);
	for (;;) {
		fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
		if (fd < 0)
			return -errno;
		if (!connect(fd, (struct sockaddr *)&sa, sizeof(sa)))
			return fd;
		err = -errno;
		close(fd);
		/* not there yet, not listening yet, or its backlog is full */
		if ((err != -ENOENT && err != -ECONNREFUSED && err != -EAGAIN) ||
		    now_ms() >= deadline)
			return err == -EAGAIN ? -ETIMEDOUT : err;
		nanosleep(&pause, NULL);
	}
}

/* The types that answer each request. */
static int answers(enum calvin_agent_type req, enum calvin_agent_type ans)
{
	if (ans == CALVIN_AGENT_ERROR)
		return 1;
	switch (req) {
	case CALVIN_AGENT_HELLO:
		return ans == CALVIN_AGENT_HELLO;
	case CALVIN_AGENT_STATUS:
		return ans == CALVIN_AGENT_COUNTERS;
	default:
		return ans == CALVIN_AGENT_OK;
	}
}

int calvin_agent_call(struct calvin_channel *ch, const struct calvin_agent_msg *req,
		      struct calvin_agent_msg *reply, int timeout_ms, char *err, size_t errlen)
{
	const char *what = calvin_agent_type_name(req->type);
	long long deadline = now_ms() + timeout_ms;
	unsigned int skipped = 0;
	int e;

	e = calvin_channel_send(ch, req, timeout_ms);
	/* An answer this request does not get is an earlier host's: one that
	 * left (a status that timed out) before the agent could answer it,
	 * which the agent then sent to whoever came next. Skip it. */
	while (!e) {
		e = calvin_channel_recv(ch, reply, left_ms(deadline));
		if (!e && answers(req->type, reply->type))
			break;
		skipped += !e;
	}
	if (e == -ETIMEDOUT) {
		snprintf(err, errlen, "agent did not answer %s within %d ms%s", what, timeout_ms,
			 skipped ? " (it sent answers to other requests)" : "");
		return e;
	}
	if (e) {
		snprintf(err, errlen, "agent channel failed during %s: %s", what, strerror(-e));
		return e;
	}
	if (reply->type == CALVIN_AGENT_ERROR) {
		/* the guest's own words, for the operator's terminal */
		calvin_text_escape(reply->error.ptr, reply->error.len, err, errlen);
		return -EREMOTEIO;
	}
	return 0;
}

/* The hello exchange on a channel just set up; closes it on failure. */
static int hello(struct calvin_channel *ch, int timeout_ms, char *who, size_t wholen, char *err,
		 size_t errlen)
{
	struct calvin_agent_msg req = {.type = CALVIN_AGENT_HELLO}, reply;
	int e;

	req.hello.version = CALVIN_AGENT_VERSION;
	req.hello.who = calvin_agent_str("calvin");
	e = calvin_agent_call(ch, &req, &reply, timeout_ms, err, errlen);
	if (!e && reply.hello.version != CALVIN_AGENT_VERSION) {
		snprintf(err, errlen,
			 "agent speaks protocol version %u, calvin %u: update the image",
			 reply.hello.version, CALVIN_AGENT_VERSION);
		e = -EPROTO;
	}
	if (e) {
		calvin_agent_close(ch);
		return e;
	}
	if (who)
		calvin_text_escape(reply.hello.who.ptr, reply.hello.who.len, who, wholen);
	return 0;
}

int calvin_agent_greet(struct calvin_channel *ch, int fd, int timeout_ms, char *who, size_t wholen,
		       char *err, size_t errlen)
{
	int e = calvin_channel_init(ch, fd);

	if (e) {
		close(fd);
		snprintf(err, errlen, "%s", strerror(-e));
		return e;
	}
	return hello(ch, timeout_ms, who, wholen, err, errlen);
}

int calvin_agent_open(struct calvin_channel *ch, const char *path, int timeout_ms, char *who,
		      size_t wholen, char *err, size_t errlen)
{
	long long deadline = now_ms() + timeout_ms;
	int fd, e;

	fd = connect_unix(path, deadline);
	if (fd < 0) {
		snprintf(err, errlen, "%s: cannot connect: %s", path, strerror(-fd));
		return fd;
	}
	e = calvin_channel_init(ch, fd);
	if (e) {
		close(fd);
		snprintf(err, errlen, "%s: %s", path, strerror(-e));
		return e;
	}
	return hello(ch, left_ms(deadline), who, wholen, err, errlen);
}

int calvin_agent_ask(struct calvin_channel *ch, const char *path,
		     const struct calvin_agent_msg *req, struct calvin_agent_msg *reply,
		     int timeout_ms, char *err, size_t errlen)
{
	long long deadline = now_ms() + timeout_ms;
	int e;

	e = calvin_agent_open(ch, path, timeout_ms, NULL, 0, err, errlen);
	if (e)
		return e;
	e = calvin_agent_call(ch, req, reply, left_ms(deadline), err, errlen);
	if (e)
		calvin_agent_close(ch);
	return e;
}

void calvin_agent_close(struct calvin_channel *ch)
{
	if (ch->fd >= 0)
		close(ch->fd);
	ch->fd = -1;
	calvin_channel_free(ch);
}
