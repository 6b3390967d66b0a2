// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Where a user VNF really runs (see placement.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "placement.h"

int calvin_procstat_parse(const char *text, struct calvin_procstat *out)
{
	const char *p = strrchr(text, ')');
	unsigned long long v;
	unsigned int field;
	char *end;

	memset(out, 0, sizeof(*out));
	if (!p || p[1] != ' ' || !p[2])
		return -EINVAL;
	out->state = p[2];
	p += 3;
	for (field = 4; field <= 41; field++) {
		if (*p != ' ')
			return -EINVAL;
		/* a few fields are signed; strtoull takes their '-', and only
		 * 22 and 39-41 matter */
		v = strtoull(p + 1, &end, 10);
		if (end == p + 1)
			return -EINVAL;
		p = end;
		if (field == 9)
			out->flags = (unsigned long)v;
		else if (field == 22)
			out->start = v;
		else if (field == 39)
			out->last_cpu = (int)v;
		else if (field == 40)
			out->rt_priority = (unsigned int)v;
		else if (field == 41)
			out->policy = (unsigned int)v;
	}
	return 0;
}

/* The value of "Key:\t..." in /proc/PID/status text, up to the line's end. */
static const char *status_value(const char *text, const char *key)
{
	size_t n = strlen(key);
	const char *p = text;

	while (p && *p) {
		if (!strncmp(p, key, n) && p[n] == ':')
			return p + n + 1 + strspn(p + n + 1, " \t");
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	return NULL;
}

int calvin_procstatus_parse(const char *text, struct calvin_cpumask *allowed,
			    unsigned long *locked_kb)
{
	const char *cpus = status_value(text, "Cpus_allowed_list");
	const char *lck = status_value(text, "VmLck");

	*locked_kb = lck ? strtoul(lck, NULL, 10) : 0;
	if (!cpus)
		return -EINVAL;
	return calvin_cpumask_parse_list(cpus, allowed);
}

const char *calvin_sched_policy_name(unsigned int policy)
{
	static const char *const names[] = {
		"other", "fifo", "rr", "batch", "?", "idle", "deadline"
	};

	return policy < sizeof(names) / sizeof(names[0]) ? names[policy] : "?";
}

/* A VNF in a VM: the host CPUs of its vCPU, where libvirt said. */
static void print_host_cpus(FILE *f, bool json, const struct calvin_vnf_placement *p)
{
	char cpus[CALVIN_CPUS_TEXT_MAX];

	if (p->host_last_cpu < 0 || !calvin_cpumask_list(&p->host_allowed, cpus, sizeof(cpus)))
		return;
	if (json)
		fprintf(f, ",\"host_cpus\":\"%s\",\"host_last_cpu\":%d", cpus, p->host_last_cpu);
	else
		fprintf(f, "  vCPU on host CPUs %s (last %d)", cpus, p->host_last_cpu);
}

static void print_json(FILE *f, const struct calvin_vnf_placement *p, const char *cpus)
{
	fprintf(f, "{\"name\":\"%s\",\"pid\":%d,", p->name, p->pid);
	if (!p->pid) {
		fprintf(f, "\"running\":false");
		if (p->vm[0])
			fprintf(f, ",\"vm\":\"%s\"", p->vm);
		if (p->vm[0] && p->exited)
			fprintf(f, ",\"exit_status\":%d", p->exit_status);
		fprintf(f, "}");
		return;
	}
	fprintf(f, "\"running\":true,");
	if (p->vm[0])
		fprintf(f, "\"vm\":\"%s\",", p->vm);
	fprintf(f, "\"cpus_allowed\":\"%s\",\"last_cpu\":%d,\"policy\":\"%s\",\"priority\":%u,",
		cpus, p->last_cpu, calvin_sched_policy_name(p->policy), p->priority);
	if (!p->vm[0])
		fprintf(f, "\"cpuset\":\"%s\",", p->cpuset);
	fprintf(f, "\"locked_kb\":%lu,\"isolated\":%s", p->locked_kb,
		p->isolated_by ? "true" : "false");
	if (p->isolated_by)
		fprintf(f, ",\"isolated_by\":\"%s\"", p->isolated_by);
	if (p->vm[0])
		print_host_cpus(f, true, p);
	fprintf(f, "}");
}

static void print_not_running(FILE *f, const struct calvin_vnf_placement *p)
{
	fprintf(f, "not running");
	if (p->vm[0] && p->exited)
		fprintf(f, " (exited in VM %s, wait status %d)", p->vm, p->exit_status);
	else if (p->vm[0])
		fprintf(f, " (in VM %s)", p->vm);
	fprintf(f, "\n");
}

void calvin_placement_print(FILE *f, bool json, const struct calvin_vnf_placement *p)
{
	/* in a VM: the guest's CPUs, which are vCPUs to the host */
	const char *v = p->vm[0] ? "vCPU" : "";
	char cpus[CALVIN_CPUS_TEXT_MAX];

	if (!calvin_cpumask_list(&p->allowed, cpus, sizeof(cpus)))
		strcpy(cpus, "?");
	if (json) {
		print_json(f, p, cpus);
		return;
	}
	fprintf(f, "  %-12s ", p->name);
	if (!p->pid) {
		print_not_running(f, p);
		return;
	}
	fprintf(f, "pid %d", p->pid);
	if (p->vm[0])
		fprintf(f, " in VM %s", p->vm);
	fprintf(f, "  %s %s  last ran on %s%s%d  %s", p->vm[0] ? "vCPUs" : "cpus", cpus, v,
		*v ? " " : "", p->last_cpu, calvin_sched_policy_name(p->policy));
	if (p->policy == 1 || p->policy == 2)
		fprintf(f, " %u", p->priority);
	if (!p->vm[0])
		fprintf(f, "  cpuset %s", p->cpuset);
	if (p->isolated_by)
		fprintf(f, "  isolated (%s)", p->isolated_by);
	else
		fprintf(f, "  not isolated");
	if (p->locked_kb)
		fprintf(f, "  locked %lu kB", p->locked_kb);
	if (p->vm[0])
		print_host_cpus(f, false, p);
	fprintf(f, "\n");
}
