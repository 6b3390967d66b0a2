// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* calvin-relay's flow table and port list (see bench_lib.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bench/lib/bench_lib.h"

void calvin_relay_flows_init(struct calvin_relay_flows *t)
{
	unsigned int i;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < CALVIN_RELAY_MAX_FLOWS; i++)
		t->f[i].fd = -1;
}

static bool same(const struct calvin_relay_flow *f, const struct sockaddr_in *c, unsigned int port)
{
	return f->used && f->port == port && f->client.sin_addr.s_addr == c->sin_addr.s_addr &&
	       f->client.sin_port == c->sin_port;
}

struct calvin_relay_flow *calvin_relay_flow_get(struct calvin_relay_flows *t,
						const struct sockaddr_in *client, unsigned int port,
						bool *fresh)
{
	struct calvin_relay_flow *victim = &t->f[0];
	unsigned int i;

	t->clock++;
	*fresh = false;
	for (i = 0; i < CALVIN_RELAY_MAX_FLOWS; i++) {
		if (same(&t->f[i], client, port)) {
			t->f[i].last = t->clock;
			return &t->f[i];
		}
		/* a free slot first, else the least recently used */
		if (victim->used && (!t->f[i].used || t->f[i].last < victim->last))
			victim = &t->f[i];
	}
	*fresh = true;
	victim->used = true;
	victim->client = *client;
	victim->port = port;
	victim->last = t->clock;
	return victim;
}

struct calvin_relay_flow *calvin_relay_flow_by_fd(struct calvin_relay_flows *t, int fd)
{
	unsigned int i;

	for (i = 0; fd >= 0 && i < CALVIN_RELAY_MAX_FLOWS; i++)
		if (t->f[i].used && t->f[i].fd == fd)
			return &t->f[i];
	return NULL;
}

int calvin_relay_parse_ports(const char *s, uint16_t *ports)
{
	unsigned long v;
	int n = 0, i;
	char *end;

	do {
		if (*s < '0' || *s > '9')
			return -EINVAL;
		v = strtoul(s, &end, 10);
		if (v < 1 || v > 65535 || n == CALVIN_RELAY_MAX_PORTS || (*end && *end != ','))
			return -EINVAL;
		for (i = 0; i < n; i++)
			if (ports[i] == v)
				return -EINVAL;
		ports[n++] = (uint16_t)v;
		s = *end ? end + 1 : end;
	} while (*end);
	return n;
}
