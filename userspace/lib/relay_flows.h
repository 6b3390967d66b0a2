/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* calvin-relay's flow table and its command line's port list. Pure.
 *
 * The relay of the conventional stack (userspace/relay/) ends UDP: each
 * client (address and port, on one of the ports it listens on) gets an
 * upstream socket of its own, connected to the next hop, so the replies
 * that come back on it find their client. The table holds a fixed number
 * of flows; a new client takes the least recently used slot. */
#ifndef CALVIN_LIB_RELAY_FLOWS_H
#define CALVIN_LIB_RELAY_FLOWS_H

#include <stdbool.h>
#include <stdint.h>
#include <netinet/in.h>

#define CALVIN_RELAY_MAX_FLOWS 64
#define CALVIN_RELAY_MAX_PORTS 8

struct calvin_relay_flow {
	bool used;
	struct sockaddr_in client; /* address and port */
	unsigned int port;	   /* index of the listening port it came to */
	int fd;			   /* its upstream socket; -1: none yet */
	uint64_t last;		   /* the table's clock when last used */
};

struct calvin_relay_flows {
	uint64_t clock;
	struct calvin_relay_flow f[CALVIN_RELAY_MAX_FLOWS];
};

void calvin_relay_flows_init(struct calvin_relay_flows *t);
/* The flow of client on listening port index port. A new one takes a free
 * slot or the least recently used: then *fresh is true, and the slot's fd
 * is the evicted flow's (the caller closes it, or -1). */
struct calvin_relay_flow *calvin_relay_flow_get(struct calvin_relay_flows *t,
						const struct sockaddr_in *client, unsigned int port,
						bool *fresh);
/* The flow whose upstream socket is fd, or NULL. */
struct calvin_relay_flow *calvin_relay_flow_by_fd(struct calvin_relay_flows *t, int fd);

/* "7357,11111,9": 1 to CALVIN_RELAY_MAX_PORTS ports, 1..65535, no repeats.
 * Returns how many, or -EINVAL. */
int calvin_relay_parse_ports(const char *s, uint16_t *ports);

#endif /* CALVIN_LIB_RELAY_FLOWS_H */
