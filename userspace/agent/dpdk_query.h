/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* One command to a DPDK process's telemetry socket: how calvin status (on
 * the host) and calvin-agent (in a VM) read a user VNF's counters. */
#ifndef CALVIN_AGENT_DPDK_QUERY_H
#define CALVIN_AGENT_DPDK_QUERY_H

#include <stddef.h>

/* Ask the process with EAL file prefix `prefix` cmd (e.g. "/calvin/stats");
 * its JSON answer, NUL-terminated, in buf. 0 or -errno. */
int dpdk_query(const char *prefix, const char *cmd, char *buf, size_t len);

#endif /* CALVIN_AGENT_DPDK_QUERY_H */
