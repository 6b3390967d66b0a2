// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* What the supervisor's entries are called (sup.h): a VNF by its name
 * and node, the server's VM on another host by the server's. */
#include "sup.h"

const char *sup_name(const struct sup *s, unsigned int k)
{
	return s->v[k].idx == SUP_SERVER ? s->spec.server.name : s->spec.vnfs[s->v[k].idx].name;
}

const char *sup_node(const struct sup *s, unsigned int k)
{
	return s->v[k].idx == SUP_SERVER ? s->spec.server.name
					 : calvin_vnf_node(&s->spec.vnfs[s->v[k].idx]);
}
