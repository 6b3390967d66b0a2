// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Framed messages over a stream descriptor (channel.h). A frame may carry
 * traffic keys (keys): no byte of a frame outlives its use in the
 * buffers, so both are wiped as frames leave them. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "channel.h"

int calvin_channel_init(struct calvin_channel *ch, int fd)
{
	int flags = fcntl(fd, F_GETFL);

	memset(ch, 0, sizeof(*ch));
	ch->fd = fd;
	ch->frame_ms = CALVIN_CHANNEL_FRAME_MS;
	/* poll() says a descriptor is writable when some room is free, and a
	 * blocking write of a whole frame would then wait for the rest */
	if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0)
		return -errno;
	ch->in = malloc(CALVIN_AGENT_MAX_FRAME);
	ch->out = malloc(CALVIN_AGENT_MAX_FRAME);
	if (ch->in && ch->out)
		return 0;
	calvin_channel_free(ch);
	return -ENOMEM;
}

void calvin_channel_free(struct calvin_channel *ch)
{
	if (ch->in)
		explicit_bzero(ch->in, CALVIN_AGENT_MAX_FRAME);
	if (ch->out)
		explicit_bzero(ch->out, CALVIN_AGENT_MAX_FRAME);
	free(ch->in);
	free(ch->out);
	ch->in = ch->out = NULL;
}

void calvin_channel_reset(struct calvin_channel *ch)
{
	explicit_bzero(ch->in, ch->have);
	ch->have = ch->used = 0;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Wait for events on the descriptor until deadline (-1: for ever). 0 when
 * poll says something happened (revents), -ETIMEDOUT, or -errno. */
static int wait_for(struct calvin_channel *ch, short events, long long deadline, short *revents)
{
	struct pollfd p = { .fd = ch->fd, .events = events };
	int wait = -1, r;

	if (deadline >= 0) {
		wait = (int)(deadline - now_ms());
		if (wait < 0)
			wait = 0;
	}
	r = poll(&p, 1, wait);
	*revents = 0;
	if (r < 0)
		return errno == EINTR ? 0 : -errno;
	if (r == 0)
		return -ETIMEDOUT;
	*revents = p.revents;
	return 0;
}

/* Read what the descriptor has, waiting until deadline (-1: for ever). */
static int fill(struct calvin_channel *ch, long long deadline)
{
	short revents;
	ssize_t n;
	int r;

	r = wait_for(ch, POLLIN, deadline, &revents);
	if (r || !revents)
		return r;
	/* data first: a peer may write its last frame and go */
	if (!(revents & POLLIN))
		return -EPIPE;
	n = read(ch->fd, ch->in + ch->have, CALVIN_AGENT_MAX_FRAME - ch->have);
	if (n < 0)
		return errno == EINTR || errno == EAGAIN ? 0 : -errno;
	if (n == 0)
		return -EPIPE;
	ch->have += (size_t)n;
	return 0;
}

int calvin_channel_recv(struct calvin_channel *ch, struct calvin_agent_msg *m, int timeout_ms)
{
	long long deadline = timeout_ms < 0 ? -1 : now_ms() + timeout_ms;
	ssize_t n;
	int err;

	if (ch->used) {
		memmove(ch->in, ch->in + ch->used, ch->have - ch->used);
		explicit_bzero(ch->in + ch->have - ch->used, ch->used);
		ch->have -= ch->used;
		ch->used = 0;
	}
	for (;;) {
		n = calvin_agent_decode(ch->in, ch->have, m);
		if (n > 0) {
			ch->used = (size_t)n;
			return 0;
		}
		if (n != -EAGAIN)
			return (int)n;
		/* waiting for ever is for a frame to begin, not to end */
		if (deadline < 0 && ch->have)
			deadline = now_ms() + ch->frame_ms;
		err = fill(ch, deadline);
		if (err)
			return err;
	}
}

int calvin_channel_send(struct calvin_channel *ch, const struct calvin_agent_msg *m, int timeout_ms)
{
	static const struct timespec hangup_pause = { 0, 10 * 1000 * 1000 };
	ssize_t len = calvin_agent_encode(m, ch->out, CALVIN_AGENT_MAX_FRAME), n;
	long long deadline = now_ms() + (timeout_ms < 0 ? 0 : timeout_ms);
	size_t off = 0;
	short revents;
	int err = 0;

	if (len < 0)
		return (int)len;
	while (off < (size_t)len) {
		n = write(ch->fd, ch->out + off, (size_t)len - off);
		if (n > 0) {
			off += (size_t)n;
			continue;
		}
		if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
			err = n == 0 ? -EPIPE : -errno;
			break;
		}
		err = wait_for(ch, POLLOUT, deadline, &revents);
		if (err)
			break;
		/* no room, and a hang-up: a virtio-serial port whose host is
		 * not connected, or not yet (the guest may learn of the
		 * connection after the host's first frame). A blocking write
		 * waits for it; so do we, until the deadline. (A socket whose
		 * peer left fails the write itself.) */
		if (!(revents & POLLOUT))
			nanosleep(&hangup_pause, NULL);
	}
	explicit_bzero(ch->out, (size_t)len);
	return err;
}
