// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Run-time CPU isolation, the decisions (see plan.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/plan.h"

static const char *const kind_word[] = {
	[HR_MODE] = "mode", [HR_CHAIN] = "chain", [HR_LEAVE] = "leave", [HR_MKDIR] = "mkdir",
	[HR_FILE] = "file", [HR_CTRL] = "ctrl",	  [HR_MOVED] = "moved", [HR_FOUND] = "found",
};

/* Kinds whose value is required, and kinds that have none. */
static bool has_value(enum calvin_hostrec_kind k)
{
	return k != HR_LEAVE && k != HR_MKDIR && k != HR_FOUND;
}

static bool value_required(enum calvin_hostrec_kind k)
{
	return has_value(k) && k != HR_FILE; /* a file may have held "" */
}

int calvin_hostrec_parse(const char *line, struct calvin_hostrec_entry *e)
{
	size_t len = strcspn(line, "\n"), n;
	const char *p;

	memset(e, 0, sizeof(*e));
	n = strcspn(line, " \n");
	for (e->kind = 0; e->kind < HR_NR_KINDS; e->kind++)
		if (strlen(kind_word[e->kind]) == n && !strncmp(line, kind_word[e->kind], n))
			break;
	if (e->kind == HR_NR_KINDS || line[n] != ' ')
		return -EINVAL;
	p = line + n + 1;
	n = strcspn(p, " \n");
	if (!n || n >= sizeof(e->path))
		return -EINVAL;
	memcpy(e->path, p, n);
	p += n;
	if (!has_value(e->kind))
		return *p == ' ' ? -EINVAL : 0;
	if (*p != ' ')
		return value_required(e->kind) ? -EINVAL : 0;
	p++;
	n = len - (size_t)(p - line);
	if (n >= sizeof(e->value) || (!n && value_required(e->kind)))
		return -EINVAL;
	memcpy(e->value, p, n);
	return 0;
}

int calvin_hostrec_format(const struct calvin_hostrec_entry *e, char *buf, size_t len)
{
	int n;

	if ((unsigned int)e->kind >= HR_NR_KINDS || !e->path[0] || strpbrk(e->path, " \n") ||
	    strchr(e->value, '\n') || (value_required(e->kind) && !e->value[0]))
		return -EINVAL;
	if (has_value(e->kind))
		n = snprintf(buf, len, "%s %s %s\n", kind_word[e->kind], e->path, e->value);
	else
		n = snprintf(buf, len, "%s %s\n", kind_word[e->kind], e->path);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int calvin_hostrec_add(struct calvin_hostrec *r, const struct calvin_hostrec_entry *e)
{
	struct calvin_hostrec_entry *grown;
	unsigned int cap;

	if (r->nr == r->cap) {
		cap = r->cap ? 2 * r->cap : 32;
		grown = realloc(r->e, cap * sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		r->e = grown;
		r->cap = cap;
	}
	r->e[r->nr++] = *e;
	return 0;
}

void calvin_hostrec_free(struct calvin_hostrec *r)
{
	free(r->e);
	memset(r, 0, sizeof(*r));
}

enum calvin_isolate_mode calvin_hostrec_mode(const struct calvin_hostrec *r, const char **root)
{
	unsigned int i;

	for (i = 0; i < r->nr; i++) {
		if (r->e[i].kind != HR_MODE)
			continue;
		if (root)
			*root = r->e[i].value;
		if (!strcmp(r->e[i].path, "v1"))
			return CALVIN_ISOLATE_V1;
		if (!strcmp(r->e[i].path, "v2"))
			return CALVIN_ISOLATE_V2;
	}
	return CALVIN_ISOLATE_NONE;
}

/* Index of chain's last join, if no leave came after it; -1 otherwise. */
static int chain_entry(const struct calvin_hostrec *r, const char *chain)
{
	int i, found = -1;

	for (i = 0; i < (int)r->nr; i++) {
		if (strcmp(r->e[i].path, chain))
			continue;
		if (r->e[i].kind == HR_CHAIN)
			found = i;
		else if (r->e[i].kind == HR_LEAVE)
			found = -1;
	}
	return found;
}

bool calvin_hostrec_has_chain(const struct calvin_hostrec *r, const char *chain,
			      struct calvin_cpumask *cpus)
{
	int i = chain_entry(r, chain);

	if (i < 0)
		return false;
	if (cpus && calvin_cpumask_parse_list(r->e[i].value, cpus))
		memset(cpus, 0, sizeof(*cpus));
	return true;
}

unsigned int calvin_hostrec_chains(const struct calvin_hostrec *r, const char **names,
				   unsigned int max)
{
	unsigned int i, j, n = 0;
	bool dup;

	for (i = 0; i < r->nr && n < max; i++) {
		if (r->e[i].kind != HR_CHAIN || chain_entry(r, r->e[i].path) != (int)i)
			continue;
		for (dup = false, j = 0; j < n; j++)
			dup |= !strcmp(names[j], r->e[i].path);
		if (!dup)
			names[n++] = r->e[i].path;
	}
	return n;
}

const char *calvin_hostrec_original(const struct calvin_hostrec *r, const char *path)
{
	unsigned int i;

	for (i = 0; i < r->nr; i++)
		if (r->e[i].kind == HR_FILE && !strcmp(r->e[i].path, path))
			return r->e[i].value;
	return NULL;
}

bool calvin_hostrec_has(const struct calvin_hostrec *r, enum calvin_hostrec_kind kind,
			const char *path, const char *value)
{
	unsigned int i;

	for (i = 0; i < r->nr; i++)
		if (r->e[i].kind == kind && !strcmp(r->e[i].path, path) &&
		    (!value || !strcmp(r->e[i].value, value)))
			return true;
	return false;
}

bool calvin_hostrec_made(const struct calvin_hostrec *r, const char *path)
{
	unsigned int i;

	for (i = r->nr; i-- > 0;)
		if ((r->e[i].kind == HR_MKDIR || r->e[i].kind == HR_FOUND) &&
		    !strcmp(r->e[i].path, path))
			return r->e[i].kind == HR_MKDIR;
	return false;
}

int calvin_isolate_targets(const struct calvin_cpumask *const *chain_cpus, unsigned int nr,
			   const struct calvin_cpumask *online, struct calvin_cpumask *isolate,
			   struct calvin_cpumask *housekeeping)
{
	unsigned int i;

	memset(isolate, 0, sizeof(*isolate));
	for (i = 0; i < nr; i++)
		calvin_cpumask_or(isolate, isolate, chain_cpus[i]);
	calvin_cpumask_and(isolate, isolate, online);
	calvin_cpumask_andnot(housekeeping, online, isolate);
	return calvin_cpumask_empty(housekeeping) ? -ENOSPC : 0;
}

bool calvin_isolate_steer(const struct calvin_cpumask *old, const struct calvin_cpumask *isolate,
			  const struct calvin_cpumask *housekeeping, struct calvin_cpumask *out)
{
	calvin_cpumask_andnot(out, old, isolate);
	if (calvin_cpumask_equal(out, old))
		return false;
	if (calvin_cpumask_empty(out))
		*out = *housekeeping;
	return true;
}

/* "file:line:col: " of the sched key, or the file alone. */
static int where(const struct calvin_chain_spec *s, char *buf, size_t len)
{
	if (s->realtime.sched_pos.line > 0)
		return snprintf(buf, len, "%s:%d:%d: ", s->path, s->realtime.sched_pos.line,
				s->realtime.sched_pos.col);
	return snprintf(buf, len, "%s: ", s->path);
}

int calvin_realtime_check(const struct calvin_chain_spec *s, const int *vnf_cpu,
			  const struct calvin_cpumask *housekeeping, char *err, size_t len)
{
	unsigned int i, j;
	int n;

	if (s->realtime.sched != CALVIN_SCHED_FIFO)
		return 0;
	for (i = 0; i < s->nr_vnfs; i++) {
		if (s->vnfs[i].space != CALVIN_USER)
			continue;
		n = where(s, err, len);
		if (n < 0 || (size_t)n >= len)
			return -EINVAL;
		if (vnf_cpu[i] < 0) {
			snprintf(
			    err + n, len - (size_t)n,
			    "sched: fifo needs user VNF %s pinned, and the placement leaves it "
			    "unpinned; use 'placement: pinned' or 'isolated'",
			    s->vnfs[i].name);
			return -EINVAL;
		}
		if (calvin_cpumask_isset(housekeeping, vnf_cpu[i])) {
			snprintf(err + n, len - (size_t)n,
				 "sched: fifo would starve housekeeping: user VNF %s shares CPU %d "
				 "with it; drop 'sched: fifo' or use a host with a core per VNF",
				 s->vnfs[i].name, vnf_cpu[i]);
			return -EINVAL;
		}
		for (j = 0; j < i; j++) {
			if (s->vnfs[j].space != CALVIN_USER || vnf_cpu[j] != vnf_cpu[i])
				continue;
			snprintf(err + n, len - (size_t)n,
				 "sched: fifo would starve one of user VNFs %s and %s, which share "
				 "CPU %d; drop 'sched: fifo' or use a host with a core per VNF",
				 s->vnfs[j].name, s->vnfs[i].name, vnf_cpu[i]);
			return -EINVAL;
		}
	}
	return 0;
}

void calvin_cpuset_v1_unbalanced(bool root_balances, const struct calvin_cpumask *balanced,
				 const struct calvin_cpumask *online, struct calvin_cpumask *out)
{
	if (root_balances)
		memset(out, 0, sizeof(*out));
	else
		calvin_cpumask_andnot(out, online, balanced);
}
