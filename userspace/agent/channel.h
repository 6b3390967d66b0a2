/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Frames of the host-agent protocol (userspace/lib/agent_proto.h) over a
 * stream descriptor: the virtio-serial port in the guest, the UNIX socket
 * the port comes out of on the host. Used by both ends. */
#ifndef CALVIN_AGENT_CHANNEL_H
#define CALVIN_AGENT_CHANNEL_H

#include <stddef.h>
#include <stdint.h>

#include "agent_proto.h"

struct calvin_channel {
	int fd;
	uint8_t *in, *out; /* CALVIN_AGENT_MAX_FRAME bytes each */
	size_t have;	   /* bytes in in[] */
	size_t used;	   /* of them, the frame last returned: dropped at the next recv */
};

/* 0 or -ENOMEM; fd stays the caller's. */
int calvin_channel_init(struct calvin_channel *ch, int fd);
void calvin_channel_free(struct calvin_channel *ch);
/* Forget buffered bytes (after a protocol error, or a new peer). */
void calvin_channel_reset(struct calvin_channel *ch);

/* The next message, waiting up to timeout_ms (-1: for ever). Its strings
 * point into ch and stay valid until the next recv. 0; -ETIMEDOUT; -EPIPE
 * when the peer is gone (EOF, or a virtio-serial port with no host);
 * the decoder's -EPROTO, -EBADMSG, -EMSGSIZE (the stream is out of step:
 * reset it); or -errno. */
int calvin_channel_recv(struct calvin_channel *ch, struct calvin_agent_msg *m, int timeout_ms);

/* Send m whole. 0, the encoder's errors, or -errno. */
int calvin_channel_send(struct calvin_channel *ch, const struct calvin_agent_msg *m);

#endif /* CALVIN_AGENT_CHANNEL_H */
