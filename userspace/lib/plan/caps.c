// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* A host's CPUs and NUMA nodes as its libvirt describes them (the
 * <host><topology> of virConnectGetCapabilities()), and the cores other
 * chains' domains hold there (their <cputune>), for planning on a host
 * calvin does not run on. Pure: the text in, a topology out. Only those
 * elements are read, and only a few attributes of them, so the reader is
 * a scanner of those, not an XML parser. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/plan.h"

__attribute__((format(printf, 3, 4))) static int bad(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* The value of attribute name in the tag that starts at tag and ends
 * before end, into out; false when it has none that fits. */
static bool attr(const char *tag, const char *end, const char *name, char *out, size_t len)
{
	size_t n = strlen(name), v;
	const char *p, *q;

	for (p = tag; (p = strstr(p, name)) && p < end; p += n) {
		if (p[-1] != ' ' || p[n] != '=' || (p[n + 1] != '\'' && p[n + 1] != '"'))
			continue;
		q = strchr(p + n + 2, p[n + 1]);
		if (!q || q > end || (v = (size_t)(q - (p + n + 2))) >= len)
			return false;
		memcpy(out, p + n + 2, v);
		out[v] = '\0';
		return true;
	}
	return false;
}

static int number(const char *s, int max)
{
	char *end;
	long v = strtol(s, &end, 10);

	return *s && !*end && v >= 0 && v < max ? (int)v : -1;
}

/* One <cpu id=N siblings=LIST/> of NUMA node node. */
static int read_cpu(const char *tag, const char *end, int node, struct calvin_topology *t,
		    char *why, size_t len)
{
	char val[CALVIN_CPUS_TEXT_MAX];
	struct calvin_cpumask sib;
	int id, core;

	if (!attr(tag, end, "id", val, sizeof(val)) || (id = number(val, CALVIN_MAX_CPUS)) < 0)
		return bad(why, len, "a <cpu> of cell %d has no id below %d", node,
			   CALVIN_MAX_CPUS);
	calvin_cpumask_set(&t->online, id);
	t->node[id] = node;
	if ((unsigned int)id >= t->nr_cpus)
		t->nr_cpus = (unsigned int)id + 1;
	memset(&sib, 0, sizeof(sib));
	core = attr(tag, end, "siblings", val, sizeof(val)) && !calvin_cpumask_parse_list(val, &sib)
		   ? calvin_cpumask_first(&sib)
		   : id;
	t->core[id] = core >= 0 && core < id ? core : id;
	return 0;
}

int calvin_topology_from_caps(const char *xml, struct calvin_topology *t, char *why, size_t len)
{
	const char *top = strstr(xml, "<topology>"), *stop, *p, *end;
	char val[32];
	int node = -1, err;

	calvin_topology_init(t, 0);
	memset(&t->online, 0, sizeof(t->online));
	stop = top ? strstr(top, "</topology>") : NULL;
	if (!stop)
		return bad(why, len, "the host's capabilities have no <topology>");
	for (p = top; (p = strchr(p + 1, '<')) && p < stop;) {
		end = strchr(p, '>');
		if (!end || end > stop)
			return bad(why, len, "the host's <topology> ends inside a tag");
		if (!strncmp(p, "<cell ", 6)) {
			if (!attr(p, end, "id", val, sizeof(val)) ||
			    (node = number(val, CALVIN_MAX_CPUS)) < 0)
				return bad(why, len, "a <cell> of the host's topology has no id");
			if ((unsigned int)node >= t->nr_nodes)
				t->nr_nodes = (unsigned int)node + 1;
		} else if (!strncmp(p, "<cpu ", 5)) {
			err = read_cpu(p, end, node, t, why, len);
			if (err)
				return err;
		}
	}
	if (calvin_cpumask_empty(&t->online))
		return bad(why, len, "the host's <topology> lists no CPU");
	t->affinity = t->online;
	t->cpuset = t->online;
	t->remote = true;
	return 0;
}

/* Hold cpu for chain's node: as kind, once; VNFs of two domains on one
 * CPU share it. */
static void hold(struct calvin_topology *t, const char *chain, const char *node, int cpu,
		 enum calvin_hold_kind kind)
{
	struct calvin_hold *h;
	bool shared = false;
	unsigned int i;

	for (i = 0; i < t->nr_holds; i++) {
		h = &t->holds[i];
		if (h->cpu != cpu)
			continue;
		if (!strcmp(h->chain, chain) && !strcmp(h->vnf, node) && h->kind == kind)
			return;
		if (kind != CALVIN_HOLD_HOUSEKEEPING && h->kind != CALVIN_HOLD_HOUSEKEEPING) {
			h->kind = CALVIN_HOLD_SHARES;
			shared = true;
		}
	}
	if (t->nr_holds >= CALVIN_MAX_HOLDS)
		return;
	h = &t->holds[t->nr_holds++];
	memset(h, 0, sizeof(*h));
	snprintf(h->chain, sizeof(h->chain), "%s", chain);
	snprintf(h->vnf, sizeof(h->vnf), "%s", node);
	h->cpu = cpu;
	h->kind = shared ? CALVIN_HOLD_SHARES : kind;
}

/* "calvin-CHAIN.NODE" into chain and node; false for any other name. */
static bool calvin_domain(const char *xml, char *chain, char *node)
{
	const char *name = strstr(xml, "<name>"), *end, *dot;
	size_t n;

	if (!name || strncmp(name + 6, "calvin-", 7))
		return false;
	name += 13;
	end = strchr(name, '<');
	dot = strchr(name, '.');
	if (!end || !dot || dot > end || dot == name || dot + 1 == end)
		return false;
	n = (size_t)(dot - name);
	if (n > CALVIN_NAME_MAX || (size_t)(end - dot - 1) > CALVIN_NAME_MAX)
		return false;
	memcpy(chain, name, n);
	chain[n] = '\0';
	memcpy(node, dot + 1, (size_t)(end - dot - 1));
	node[end - dot - 1] = '\0';
	return true;
}

/* One <vcpupin vcpu cpuset/> or <emulatorpin cpuset/>. */
static int read_pin(const char *tag, const char *end, const char *chain, const char *node,
		    struct calvin_topology *t, char *why, size_t len)
{
	char val[CALVIN_CPUS_TEXT_MAX];
	struct calvin_cpumask cpus;
	enum calvin_hold_kind kind = CALVIN_HOLD_HOUSEKEEPING;
	int c, added = 0;

	if (!strncmp(tag, "<vcpupin ", 9)) {
		if (!attr(tag, end, "vcpu", val, sizeof(val)))
			return bad(why, len, "domain calvin-%s.%s: a <vcpupin> without vcpu", chain,
				   node);
		if (number(val, 2) < 0)
			return 0; /* not a vCPU calvin pins */
		if (number(val, 2) == 1)
			kind = CALVIN_HOLD_OWNS;
	}
	if (!attr(tag, end, "cpuset", val, sizeof(val)) || calvin_cpumask_parse_list(val, &cpus))
		return bad(why, len, "domain calvin-%s.%s: a CPU pin without a CPU list", chain,
			   node);
	for (c = 0; c < CALVIN_MAX_CPUS; c++)
		if (calvin_cpumask_isset(&cpus, c)) {
			hold(t, chain, node, c, kind);
			added++;
		}
	return added;
}

int calvin_holds_from_domain(const char *xml, const char *own, struct calvin_topology *t, char *why,
			     size_t len)
{
	char chain[CALVIN_NAME_MAX + 1], node[CALVIN_NAME_MAX + 1];
	const char *tune, *stop, *p, *end;
	unsigned int before = t->nr_holds;
	int err;

	if (!strstr(xml, "<domain"))
		return bad(why, len, "not a domain's XML");
	if (!calvin_domain(xml, chain, node) || (own && !strcmp(chain, own)))
		return 0;
	tune = strstr(xml, "<cputune>");
	stop = tune ? strstr(tune, "</cputune>") : NULL;
	for (p = tune; stop && (p = strchr(p + 1, '<')) && p < stop;) {
		end = strchr(p, '>');
		if (!end || end > stop)
			return bad(why, len, "domain calvin-%s.%s: its <cputune> ends inside a tag",
				   chain, node);
		if (strncmp(p, "<vcpupin ", 9) && strncmp(p, "<emulatorpin ", 13))
			continue;
		err = read_pin(p, end, chain, node, t, why, len);
		if (err < 0)
			return err;
	}
	return (int)(t->nr_holds - before);
}

static bool held_then(const struct calvin_topology *t, const struct calvin_hold *h)
{
	unsigned int i;

	for (i = 0; i < t->nr_holds; i++)
		if (t->holds[i].cpu == h->cpu && !strcmp(t->holds[i].chain, h->chain) &&
		    !strcmp(t->holds[i].vnf, h->vnf))
			return true;
	return false;
}

const struct calvin_hold *calvin_hold_collision(const struct calvin_topology *then,
						const struct calvin_topology *now,
						const struct calvin_vnf_place *v)
{
	const struct calvin_hold *h;
	unsigned int i;

	for (i = 0; v->cpu >= 0 && i < now->nr_holds; i++) {
		h = &now->holds[i];
		if (h->cpu == v->cpu && !held_then(then, h) &&
		    (v->owns || h->kind == CALVIN_HOLD_OWNS))
			return h;
	}
	return NULL;
}
