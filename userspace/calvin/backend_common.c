// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* What every backend shares: the names of the things a chain creates,
 * derived so that two chains never collide, and the line about a valid
 * chain this host cannot run. */
#include <errno.h>
#include <stdarg.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"
#include "util.h"

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

int host_cannot(const struct calvin_chain_spec *spec, const char *fmt, ...)
{
	char why[CALVIN_ERR_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	calvin_err("%s: chain %s is valid, but this host cannot run it: %s", spec->path, spec->name,
		   why);
	return CALVIN_EXIT_HOST;
}
