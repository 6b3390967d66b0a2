// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Chain spec: what runs where, in one line, for validate and plan. */
#include <stdio.h>
#include <string.h>

#include "spec/spec.h"

struct where_buf {
	char *p;
	size_t left;
};

static void put(struct where_buf *w, const char *s)
{
	int n = snprintf(w->p, w->left, "%s", s);

	if (n < 0 || (size_t)n >= w->left)
		n = w->left ? (int)w->left - 1 : 0;
	w->p += n;
	w->left -= (size_t)n;
}

/* The nodes on host (in path order, a shared node once), after "NAME: ". */
static void put_nodes(struct where_buf *w, const struct calvin_chain_spec *spec, const char *host)
{
	struct calvin_node nodes[CALVIN_MAX_NODES];
	unsigned int i, nr = calvin_chain_nodes(spec, nodes), shown = 0;
	const char *on;

	for (i = 0; i < nr; i++) {
		if (i == 0)
			on = CALVIN_LOCAL_HOST; /* the probe */
		else if (i == nr - 1)
			on = spec->server.host;
		else
			on = spec->vnfs[nodes[i].first_vnf].host;
		if (strcmp(on, host))
			continue;
		put(w, shown++ ? ", " : "");
		put(w, nodes[i].name);
	}
	if (!shown)
		put(w, "no node");
}

void calvin_spec_where(const struct calvin_chain_spec *spec, char *buf, size_t len)
{
	struct where_buf w = { buf, len };
	const struct calvin_host_spec *h;
	unsigned int i;

	if (len)
		buf[0] = '\0';
	put(&w, CALVIN_LOCAL_HOST ": ");
	put_nodes(&w, spec, CALVIN_LOCAL_HOST);
	for (i = 0; i < spec->nr_hosts; i++) {
		h = &spec->hosts[i];
		put(&w, "; ");
		put(&w, h->name);
		put(&w, " (chassis ");
		put(&w, h->chassis);
		put(&w, ", ");
		put(&w, h->uri);
		put(&w, "): ");
		put_nodes(&w, spec, h->name);
	}
}
