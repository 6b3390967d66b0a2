/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* One command to a DPDK process's telemetry socket: how calvin status (on
 * the host) and calvin-agent (in a VM) read a user VNF's counters. */
#ifndef CALVIN_AGENT_DPDK_QUERY_H
#define CALVIN_AGENT_DPDK_QUERY_H

#include <stddef.h>

/* Ask the process with EAL file prefix `prefix` cmd (e.g. "/calvin/stats");
 * its answer, NUL-terminated, in buf: whatever the process sent, which
 * the caller parses as untrusted JSON. Connecting, the greeting, the
 * command and the answer all end within timeout_ms: 0, -ETIMEDOUT,
 * -EMSGSIZE (an answer longer than len - 1), or another -errno. */
int dpdk_query(const char *prefix, const char *cmd, char *buf, size_t len, int timeout_ms);

#endif /* CALVIN_AGENT_DPDK_QUERY_H */
