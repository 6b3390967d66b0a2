// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* A host's CPUs and NUMA nodes as its libvirt describes them (the
 * <host><topology> of virConnectGetCapabilities()), for planning on a
 * host calvin does not run on. Pure: the text in, a topology out. Only
 * that element is read, and only its <cell id> and <cpu id siblings>
 * attributes, so the reader is a scanner of those, not an XML parser. */
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
	return 0;
}
