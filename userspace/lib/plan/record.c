// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The plan record a deployed chain leaves in the run directory, and the
 * names of the plan's values (format in plan.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "plan/plan.h"

static const char *const grant_words[] = {
    [CALVIN_GRANT_ISOLATED] = "isolated",	[CALVIN_GRANT_DEDICATED] = "dedicated",
    [CALVIN_GRANT_SHARED_CORE] = "shared-core", [CALVIN_GRANT_SHARED] = "shared",
    [CALVIN_GRANT_SOFTIRQ] = "softirq",
};
static const char *const isolation_words[] = {
    [CALVIN_ISOL_NONE] = "none",
    [CALVIN_ISOL_NOW] = "now",
    [CALVIN_ISOL_RUN_TIME] = "run-time",
};
static const char *const wait_words[] = {
	[CALVIN_PLAN_WAIT_NONE] = "none",
	[CALVIN_PLAN_WAIT_BUSY] = "busy",
	[CALVIN_PLAN_WAIT_WAKEUP] = "wakeup",
	[CALVIN_PLAN_WAIT_YIELD] = "yield",
	[CALVIN_PLAN_WAIT_LOOP] = "loop",
};
static const char *const hold_words[] = {
    [CALVIN_HOLD_OWNS] = "owns",
    [CALVIN_HOLD_SHARES] = "shares",
    [CALVIN_HOLD_HOUSEKEEPING] = "housekeeping",
};

#define WORD(table, i) ((unsigned int)(i) < sizeof(table) / sizeof(table[0]) ? table[i] : "?")

const char *calvin_grant_name(enum calvin_grant g)
{
	return WORD(grant_words, g);
}

const char *calvin_isolation_name(enum calvin_isolation i)
{
	return WORD(isolation_words, i);
}

const char *calvin_plan_wait_name(enum calvin_plan_wait w)
{
	return WORD(wait_words, w);
}

const char *calvin_hold_kind_name(enum calvin_hold_kind k)
{
	return WORD(hold_words, k);
}

static enum calvin_hold_kind hold_kind(const struct calvin_vnf_place *v)
{
	if (v->owns)
		return CALVIN_HOLD_OWNS;
	return v->granted == CALVIN_GRANT_SHARED ? CALVIN_HOLD_HOUSEKEEPING : CALVIN_HOLD_SHARES;
}

void calvin_plan_record_write(FILE *f, const struct calvin_chain_spec *spec,
			      const struct calvin_plan *p)
{
	static char list[CALVIN_CPUS_TEXT_MAX];
	const struct calvin_vnf_place *v;
	unsigned int i;

	fprintf(f,
		"# calvin plan of chain %s, written by calvin up: the plans of other "
		"chains keep off its cores\n",
		spec->name);
	fprintf(f, "policy %s\n", calvin_placement_name(p->policy));
	fprintf(f, "housekeeping %s\n",
		calvin_cpumask_list(&p->housekeeping, list, sizeof(list)));
	calvin_cpumask_list(&p->isolate, list, sizeof(list));
	fprintf(f, "isolate%s%s\n", list[0] ? " " : "", list);
	for (i = 0; i < p->nr_vnfs && i < spec->nr_vnfs; i++) {
		v = &p->vnf[i];
		/* a CPU of another host holds nothing here */
		if (v->cpu < 0 || v->host)
			continue;
		fprintf(f, "vnf %s %d %s%s\n", spec->vnfs[i].name, v->cpu,
			calvin_hold_kind_name(hold_kind(v)),
			v->isolation != CALVIN_ISOL_NONE ? " isolated" : "");
	}
	for (i = 0; i < p->nr_vnfs && i < spec->nr_vnfs; i++) {
		v = &p->vnf[i];
		if (v->wait != CALVIN_PLAN_WAIT_NONE && !v->host)
			fprintf(f, "wait %s %s\n", spec->vnfs[i].name, calvin_plan_wait_name(v->wait));
	}
	for (i = 0; i < p->nr_vnfs && i < spec->nr_vnfs; i++) {
		v = &p->vnf[i];
		if (v->granted > v->asked)
			fprintf(f, "degraded %s %s %s %s\n", spec->vnfs[i].name,
				calvin_grant_name(v->asked), calvin_grant_name(v->granted),
				v->why[0] ? v->why : "-");
	}
}

static int grant_word(const char *w)
{
	unsigned int g;

	for (g = 0; g < sizeof(grant_words) / sizeof(grant_words[0]); g++)
		if (!strcmp(w, grant_words[g]))
			return (int)g;
	return -1;
}

int calvin_plan_record_degraded(const char *line, struct calvin_degraded *d)
{
	char word[16], name[CALVIN_NAME_MAX + 1], asked[16], granted[16];
	int n = 0, a, g;
	size_t len;

	if (sscanf(line, " %15s", word) != 1 || strcmp(word, "degraded"))
		return 0;
	if (sscanf(line, " %15s %24s %15s %15s %n", word, name, asked, granted, &n) != 4 || !n ||
	    !calvin_name_valid(name))
		return -EINVAL;
	a = grant_word(asked);
	g = grant_word(granted);
	if (a < 0 || g <= a)
		return -EINVAL;
	memset(d, 0, sizeof(*d));
	snprintf(d->vnf, sizeof(d->vnf), "%s", name);
	d->asked = (enum calvin_grant)a;
	d->granted = (enum calvin_grant)g;
	line += n;
	len = strcspn(line, "\n");
	if (len >= sizeof(d->why))
		len = sizeof(d->why) - 1;
	memcpy(d->why, line, len);
	if (!strcmp(d->why, "-"))
		d->why[0] = '\0';
	return 1;
}

void calvin_degraded_text(const struct calvin_degraded *d, char *buf, size_t len)
{
	snprintf(buf, len, "%s asked %s, got %s%s%s", d->vnf, calvin_grant_name(d->asked),
		 calvin_grant_name(d->granted), d->why[0] ? ": " : "", d->why);
}

static int parse_vnf(const char *rest, struct calvin_hold *h)
{
	char name[CALVIN_NAME_MAX + 1], kind[16], flag[16] = "";
	unsigned int k;
	int cpu, n;

	/* a longer name leaves letters where the CPU should be */
	n = sscanf(rest, "%24s %d %15s %15s", name, &cpu, kind, flag);
	if (n < 3 || !calvin_name_valid(name) || cpu < 0 || cpu >= CALVIN_MAX_CPUS)
		return -EINVAL;
	for (k = 0; k < sizeof(hold_words) / sizeof(hold_words[0]); k++)
		if (!strcmp(kind, hold_words[k]))
			break;
	if (k == sizeof(hold_words) / sizeof(hold_words[0]))
		return -EINVAL;
	snprintf(h->vnf, sizeof(h->vnf), "%s", name);
	h->cpu = cpu;
	h->kind = (enum calvin_hold_kind)k;
	h->isolated = !strcmp(flag, "isolated");
	return 1;
}

int calvin_plan_record_line(const char *line, struct calvin_cpumask *hk, struct calvin_hold *hold)
{
	char word[16];
	int n = 0;

	if (sscanf(line, " %15s%n", word, &n) != 1 || word[0] == '#')
		return 0;
	line += n;
	line += strspn(line, " \t");
	if (!strcmp(word, "vnf"))
		return parse_vnf(line, hold);
	if (!strcmp(word, "housekeeping")) {
		struct calvin_cpumask s;

		if (calvin_cpumask_parse_list(line, &s))
			return -EINVAL;
		if (hk)
			*hk = s;
	}
	return 0;
}

/* "wait NAME WORD" into p->vnf[] of spec's VNF NAME; "vnf NAME CPU ..."
 * into its cpu. Other lines, and names not in spec, are left. */
static void record_place(const char *line, const struct calvin_chain_spec *spec,
			 struct calvin_plan *p)
{
	char word[16], name[CALVIN_NAME_MAX + 1], what[16];
	unsigned int i, w;
	int cpu;

	if (sscanf(line, " %15s %24s %15s", word, name, what) != 3)
		return;
	for (i = 0; i < spec->nr_vnfs && strcmp(spec->vnfs[i].name, name); i++)
		;
	if (i == spec->nr_vnfs)
		return;
	if (!strcmp(word, "vnf") && sscanf(what, "%d", &cpu) == 1) {
		p->vnf[i].cpu = cpu;
		return;
	}
	if (strcmp(word, "wait"))
		return;
	for (w = CALVIN_PLAN_WAIT_BUSY; w < sizeof(wait_words) / sizeof(wait_words[0]); w++)
		if (wait_words[w] && !strcmp(what, wait_words[w]))
			p->vnf[i].wait = (enum calvin_plan_wait)w;
}

int calvin_plan_record_places(const char *path, const struct calvin_chain_spec *spec,
			      struct calvin_plan *p)
{
	char line[512];
	FILE *f = fopen(path, "re");

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f))
		record_place(line, spec, p);
	fclose(f);
	return 0;
}

unsigned int calvin_plan_loop_leader(const struct calvin_plan *p, unsigned int i)
{
	unsigned int j;

	if (p->vnf[i].wait != CALVIN_PLAN_WAIT_LOOP)
		return i;
	for (j = 0; j < i; j++)
		if (p->vnf[j].wait == CALVIN_PLAN_WAIT_LOOP && p->vnf[j].cpu == p->vnf[i].cpu &&
		    p->vnf[j].host == p->vnf[i].host)
			return j;
	return i;
}
