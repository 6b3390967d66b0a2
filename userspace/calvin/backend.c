// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* What every backend shares: which backend a chain uses, and the names of
 * the things a chain creates, derived so that two chains never collide. */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"
#include "util.h"

/* indexed by enum calvin_backend; NULL: not built in */
static const struct node_backend *const backends[] = {
	[CALVIN_BACKEND_NETNS] = &netns_backend,
	[CALVIN_BACKEND_LIBVIRT] = &libvirt_backend,
};

const struct node_backend *backend_of(const struct calvin_chain_spec *spec)
{
	if ((size_t)spec->backend >= sizeof(backends) / sizeof(backends[0]))
		return NULL;
	return backends[spec->backend];
}

const struct node_backend *backend_of_state(const struct chain_state *s)
{
	size_t i;

	/* journals written before backends were recorded are netns ones */
	if (!s->nr || s->e[0].kind != ST_BACKEND)
		return &netns_backend;
	for (i = 0; i < sizeof(backends) / sizeof(backends[0]); i++)
		if (backends[i] && !strcmp(backends[i]->name, s->e[0].name))
			return backends[i];
	return NULL;
}

const char *backend_describe(const struct calvin_chain_spec *spec, char *buf, size_t len)
{
	const struct node_backend *be = backend_of(spec);

	return be && be->describe ? be->describe(spec, buf, len) : NULL;
}

int node_leave(int saved)
{
	return netns_leave(saved);
}

/* snprintf that says when the name did not fit, instead of cutting it:
 * a cut name could be another chain's. */
static int name_fmt(char *out, size_t len, const char *fmt, const char *a, const char *b)
{
	int n = snprintf(out, len, fmt, a, b);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int node_netns(char *out, size_t len, const char *chain, const char *node)
{
	return name_fmt(out, len, "calvin-%s.%s", chain, node);
}

int vnf_pin_dir(char *out, size_t len, const char *chain, const char *vnf)
{
	return name_fmt(out, len, "/sys/fs/bpf/calvin/%s/%s", chain, vnf);
}

int chain_pin_dir(char *out, size_t len, const char *chain)
{
	return name_fmt(out, len, "/sys/fs/bpf/calvin/%s%s", chain, "");
}

int vnf_file_prefix(char *out, size_t len, const char *chain, const char *vnf)
{
	return name_fmt(out, len, "calvin-%s.%s", chain, vnf);
}

const char *west_of(const struct deploy *d, unsigned int i)
{
	return d->nodes[calvin_node_of(d->nodes, d->nr_nodes, i) - 1].name;
}

const char *east_of(const struct deploy *d, unsigned int i)
{
	return d->nodes[calvin_node_of(d->nodes, d->nr_nodes, i) + 1].name;
}

int node_index(const struct calvin_node *nodes, unsigned int nr, const char *name)
{
	unsigned int i;

	for (i = 0; i < nr; i++)
		if (!strcmp(nodes[i].name, name))
			return (int)i;
	return -1;
}
