// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Chain spec names and nodes: VNF and server names distinct, and the rules
 * for VNFs that share a node. */
#include <stdio.h>
#include <string.h>

#include "spec_priv.h"

static bool written_later(const yaml_node_t *a, const yaml_node_t *b)
{
	return a->start_mark.line > b->start_mark.line ||
	       (a->start_mark.line == b->start_mark.line &&
		a->start_mark.column > b->start_mark.column);
}

/* VNF and server names become netns names and bpffs paths, so they must be
 * distinct, and "probe" names the probe's own node. */
static int check_names(struct spec_ctx *c)
{
	const char *name[CALVIN_MAX_VNFS + 1];
	yaml_node_t *node[CALVIN_MAX_VNFS + 1], *a, *b;
	unsigned int i, j, n = c->spec->nr_vnfs;

	for (i = 0; i < n; i++) {
		name[i] = c->spec->vnfs[i].name;
		node[i] = c->vnf_name[i];
	}
	name[n] = c->spec->server.name;
	node[n] = c->server_name;
	for (i = 0; i <= n; i++)
		if (node[i] && !strcmp(name[i], "probe"))
			return calvin_spec_err(
			    c, node[i]->start_mark,
			    "node name 'probe' is reserved for the probe; choose another name");
	for (i = 0; i <= n; i++) {
		for (j = i + 1; j <= n; j++) {
			if (strcmp(name[i], name[j]))
				continue;
			/* blame the one written later; a default name is written nowhere */
			a = node[i];
			b = node[j];
			if (!b || (a && written_later(a, b))) {
				a = node[j];
				b = node[i];
			}
			if (!a)
				return calvin_spec_err(
				    c, b->start_mark,
				    "node name '%s' is the server's default name; rename this VNF "
				    "or set 'server: {name: ...}'",
				    name[i]);
			return calvin_spec_err(c, b->start_mark,
					       "node name '%s' is used twice (first at line %zu); "
					       "give each VNF and the server its own name",
					       name[i], a->start_mark.line + 1);
		}
	}
	return 0;
}

/* A node name may be another VNF's name only if that VNF is on the node:
 * otherwise two nodes would get one netns name. */
static int check_node_name(struct spec_ctx *c, unsigned int i)
{
	const struct calvin_vnf_spec *v = c->spec->vnfs;
	const char *node = v[i].node;
	yaml_mark_t m = c->vnf_node[i]->start_mark;
	unsigned int k;

	if (!strcmp(node, "probe"))
		return calvin_spec_err(
		    c, m, "node 'probe' is reserved for the probe; choose another node");
	if (!strcmp(node, c->spec->server.name))
		return calvin_spec_err(c, m, "node '%s' is the server's node; choose another node",
				       node);
	for (k = 0; k < c->spec->nr_vnfs; k++)
		if (k != i && !strcmp(v[k].name, node) && strcmp(v[k].node, node))
			return calvin_spec_err(
			    c, m,
			    "node '%s' is the name of VNF %u, which runs on node "
			    "'%s'; choose another node name",
			    node, k + 1, v[k].node);
	return 0;
}

/* Kernel VNFs on one node run in order there, so they must be neighbours
 * in the chain; a user VNF owns its node's interfaces, so shares with none. */
static int check_shared_node(struct spec_ctx *c, unsigned int i)
{
	const struct calvin_vnf_spec *v = c->spec->vnfs;
	yaml_node_t *blame;
	unsigned int j;

	for (j = i; j-- > 0;)
		if (!strcmp(v[j].node, v[i].node))
			break;
	if (j == (unsigned int)-1)
		return 0;
	/* both on their default node would mean equal names, caught before */
	blame = c->vnf_node[i] ? c->vnf_node[i] : c->vnf_node[j];
	if (j != i - 1)
		return calvin_spec_err(c, blame->start_mark,
				       "node '%s' has '%s' and '%s' with '%s' between them; VNFs "
				       "that share a node must be consecutive: reorder them or use "
				       "another node",
				       v[i].node, v[j].name, v[i].name, v[i - 1].name);
	if (v[i].space == CALVIN_USER || v[j].space == CALVIN_USER)
		return calvin_spec_err(c, blame->start_mark,
				       "node '%s' is shared with user-space VNF '%s'; a user VNF "
				       "owns its node's interfaces: give it a node of its own",
				       v[i].node, v[v[i].space == CALVIN_USER ? i : j].name);
	return 0;
}

int calvin_spec_check_names(struct spec_ctx *c)
{
	unsigned int i;
	int err;

	err = check_names(c);
	for (i = 0; !err && i < c->spec->nr_vnfs; i++) {
		if (c->vnf_node[i])
			err = check_node_name(c, i);
		if (!err)
			err = check_shared_node(c, i);
	}
	return err;
}
