/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* The host's end of the agent protocol: connect to the UNIX socket a VM's
 * virtio-serial channel comes out of (qemu's -chardev socket, libvirt's
 * <channel type='unix'>), greet the agent, ask, get one answer. For the
 * libvirt backend and the tests' client (tests/tools/agentctl.c). */
#ifndef CALVIN_AGENT_CLIENT_H
#define CALVIN_AGENT_CLIENT_H

#include <stddef.h>

#include "channel.h"

/* Connect to path, retrying until timeout_ms (the VM may still be
 * starting), and exchange hellos, all within timeout_ms: the agent must
 * speak our version; its self-description goes to who (may be NULL). 0,
 * -ETIMEDOUT, or -errno, with one line in err. Free with
 * calvin_agent_close(). */
int calvin_agent_open(struct calvin_channel *ch, const char *path, int timeout_ms, char *who,
		      size_t wholen, char *err, size_t errlen);
void calvin_agent_close(struct calvin_channel *ch);
/* The same over a stream descriptor already connected to the agent (a
 * remote VM's channel through libvirt, libvirt/chan.c): fd is ch's from
 * here on, closed on failure too. */
int calvin_agent_greet(struct calvin_channel *ch, int fd, int timeout_ms, char *who, size_t wholen,
		       char *err, size_t errlen);

/* Send req and have the answer within timeout_ms (-ETIMEDOUT otherwise:
 * the stream is out of step, close it). An error answer is -EREMOTEIO
 * with the agent's line in err, escaped (util/util.h); answers of a
 * type the request does not get (to an earlier host's requests) are
 * skipped. reply's strings live until the next call. */
int calvin_agent_call(struct calvin_channel *ch, const struct calvin_agent_msg *req,
		      struct calvin_agent_msg *reply, int timeout_ms, char *err, size_t errlen);

/* Open, send req and have its answer, all within timeout_ms: what a
 * status read does. On success ch stays open for reply's strings. */
int calvin_agent_ask(struct calvin_channel *ch, const char *path,
		     const struct calvin_agent_msg *req, struct calvin_agent_msg *reply,
		     int timeout_ms, char *err, size_t errlen);

#endif /* CALVIN_AGENT_CLIENT_H */
