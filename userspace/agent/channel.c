// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Framed messages over a stream descriptor (channel.h). A frame may carry
 * traffic keys (keys): no byte of a frame outlives its use in the
 * buffers, so both are wiped as frames leave them. */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "channel.h"

int calvin_channel_init(struct calvin_channel *ch, int fd)
{
	memset(ch, 0, sizeof(*ch));
	ch->fd = fd;
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

/* Read what the descriptor has, waiting until deadline (-1: for ever). */
static int fill(struct calvin_channel *ch, long long deadline)
{
	struct pollfd p = {.fd = ch->fd, .events = POLLIN};
	int wait = -1, r;
	ssize_t n;

	if (deadline >= 0) {
		wait = (int)(deadline - now_ms());
		if (wait < 0)
			wait = 0;
	}
	r = poll(&p, 1, wait);
	if (r < 0)
		return errno == EINTR ? 0 : -errno;
	if (r == 0)
		return -ETIMEDOUT;
	/* data first: a peer may write its last frame and go */
	if (!(p.revents & POLLIN))
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
		err = fill(ch, deadline);
		if (err)
			return err;
	}
}

int calvin_channel_send(struct calvin_channel *ch, const struct calvin_agent_msg *m)
{
	ssize_t len = calvin_agent_encode(m, ch->out, CALVIN_AGENT_MAX_FRAME), n;
	size_t off = 0;
	int err = 0;

	if (len < 0)
		return (int)len;
	while (off < (size_t)len) {
		n = write(ch->fd, ch->out + off, (size_t)len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			err = n < 0 ? -errno : -EPIPE;
			break;
		}
		off += (size_t)n;
	}
	explicit_bzero(ch->out, (size_t)len);
	return err;
}
