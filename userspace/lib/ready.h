/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* The line calvin-vnf writes on its ready fd once it forwards, and its
 * parser. It names the PMD each port really got, since af_xdp may have
 * fallen back to af_packet, and an af_packet port on a veth needs the
 * controller to do more (an XDP program, see kernel/pass.bpf.c):
 *
 *     ready west=af_xdp east=af_packet\n
 *
 * A side without a port is left out. Pure code: no I/O.
 */
#ifndef CALVIN_READY_H
#define CALVIN_READY_H

#include <stddef.h>

#include "chainspec.h"

enum calvin_ready_side { CALVIN_READY_WEST, CALVIN_READY_EAST, CALVIN_READY_SIDES };

/* pmd[side]: an enum calvin_pmd, or CALVIN_READY_NO_PORT */
#define CALVIN_READY_NO_PORT (-1)

/* Returns the line's length, or -ENOSPC if len is too small. */
int calvin_ready_format(char *buf, size_t len, const int pmd[CALVIN_READY_SIDES]);
/* Parses one line (the newline is optional); 0, or -EPROTO for anything
 * else than "ready" followed by known side=pmd words, each side at most
 * once. A bare "ready" (no sides named) is valid: every pmd is NO_PORT. */
int calvin_ready_parse(const char *line, int pmd[CALVIN_READY_SIDES]);

#endif /* CALVIN_READY_H */
