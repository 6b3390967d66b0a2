// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Which backend a chain uses: the table of backends built in, looked up
 * by a spec or by the journal of a deployed chain. */
#include <string.h>

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
