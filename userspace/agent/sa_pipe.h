/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Handing a VNF its traffic keys: a pipe that holds them, for calvin-vnf
 * to inherit (--keys-fd). Shared by the host (netns backend) and the
 * guest's agent, as the framed channel is. */
#ifndef CALVIN_AGENT_SA_PIPE_H
#define CALVIN_AGENT_SA_PIPE_H

#include "codec/codec.h"

/* A pipe with s's bytes in it and its write end closed: the read end
 * (close-on-exec; the child that inherits it clears that), or -errno.
 * Nothing but the pipe keeps the bytes: the buffer is wiped. */
int sa_set_pipe(const struct calvin_sa_set *s);

#endif /* CALVIN_AGENT_SA_PIPE_H */
