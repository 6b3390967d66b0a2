/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Frames of the host-agent protocol (userspace/lib/guest/guest.h) over a
 * stream descriptor: the virtio-serial port in the guest, the UNIX socket
 * the port comes out of on the host. Used by both ends. Every read and
 * write has a deadline: a peer that stops reading or writing (a paused
 * VM, a stopped agent, a host that went away) costs the other end a
 * timeout, never a hang. */
#ifndef CALVIN_AGENT_CHANNEL_H
#define CALVIN_AGENT_CHANNEL_H

#include <stddef.h>
#include <stdint.h>

#include "guest/guest.h"

struct calvin_channel {
	int fd;
	uint8_t *in, *out; /* CALVIN_AGENT_MAX_FRAME bytes each */
	size_t have;	   /* bytes in in[] */
	size_t used;	   /* of them, the frame last returned: dropped at the next recv */
	int frame_ms;	   /* CALVIN_CHANNEL_FRAME_MS (tests shorten it) */
};

/* A frame that has begun must be whole within this, even where the
 * caller waits for ever for the next one to begin. */
#define CALVIN_CHANNEL_FRAME_MS 10000

/* 0 or -errno; fd stays the caller's, made non-blocking (so no read or
 * write can block past its deadline). */
int calvin_channel_init(struct calvin_channel *ch, int fd);
void calvin_channel_free(struct calvin_channel *ch);
/* Forget buffered bytes (after a protocol error, or a new peer). */
void calvin_channel_reset(struct calvin_channel *ch);

/* The next message, waiting up to timeout_ms (-1: for ever for a frame to
 * begin; then CALVIN_CHANNEL_FRAME_MS for the rest of it). Its strings
 * point into ch and stay valid until the next recv. 0; -ETIMEDOUT (a part
 * of a frame may be buffered: reset the stream or drop the peer); -EPIPE
 * when the peer is gone (EOF, or a virtio-serial port with no host); the
 * decoder's -EPROTO, -EBADMSG, -EMSGSIZE (the stream is out of step:
 * reset it); or -errno. */
int calvin_channel_recv(struct calvin_channel *ch, struct calvin_agent_msg *m, int timeout_ms);

/* Send m whole within timeout_ms. 0, the encoder's errors, -ETIMEDOUT
 * (part of the frame may be sent: the stream is out of step, drop the
 * peer), or -errno. */
int calvin_channel_send(struct calvin_channel *ch, const struct calvin_agent_msg *m,
			int timeout_ms);

#endif /* CALVIN_AGENT_CHANNEL_H */
