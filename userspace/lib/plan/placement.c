// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Where a user VNF really runs (see plan.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "plan/plan.h"
#include "util/util.h"

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
static bool host_cpus(const struct calvin_vnf_placement *p, char *cpus, size_t len)
{
	return p->vm[0] && p->host_last_cpu >= 0 &&
	       calvin_cpumask_list(&p->host_allowed, cpus, len);
}

struct json_object *calvin_placement_jobj(const struct calvin_vnf_placement *p)
{
	struct json_object *o = jw_obj();
	char cpus[CALVIN_CPUS_TEXT_MAX];

	jw_str(o, "name", p->name);
	jw_i64(o, "pid", p->pid);
	jw_bool(o, "running", p->pid);
	if (p->vm[0])
		jw_str(o, "vm", p->vm);
	if (!p->pid) {
		if (p->vm[0] && p->exited)
			jw_i64(o, "exit_status", p->exit_status);
		return o;
	}
	if (!calvin_cpumask_list(&p->allowed, cpus, sizeof(cpus)))
		strcpy(cpus, "?");
	jw_str(o, "cpus_allowed", cpus);
	jw_i64(o, "last_cpu", p->last_cpu);
	jw_str(o, "policy", calvin_sched_policy_name(p->policy));
	jw_u64(o, "priority", p->priority);
	/* a cgroup's name is whoever made it's */
	if (!p->vm[0])
		jw_text(o, "cpuset", p->cpuset, strlen(p->cpuset));
	jw_u64(o, "locked_kb", p->locked_kb);
	jw_bool(o, "isolated", p->isolated_by);
	if (p->isolated_by)
		jw_str(o, "isolated_by", p->isolated_by);
	if (host_cpus(p, cpus, sizeof(cpus))) {
		jw_str(o, "host_cpus", cpus);
		jw_i64(o, "host_last_cpu", p->host_last_cpu);
	}
	return o;
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

void calvin_placement_print(FILE *f, const struct calvin_vnf_placement *p)
{
	/* in a VM: the guest's CPUs, which are vCPUs to the host */
	const char *v = p->vm[0] ? "vCPU" : "";
	char cpus[CALVIN_CPUS_TEXT_MAX], cg[CALVIN_ESCAPED_LEN(sizeof(p->cpuset))];

	if (!calvin_cpumask_list(&p->allowed, cpus, sizeof(cpus)))
		strcpy(cpus, "?");
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
		fprintf(f, "  cpuset %s", calvin_text_escape_str(p->cpuset, cg, sizeof(cg)));
	if (p->isolated_by)
		fprintf(f, "  isolated (%s)", p->isolated_by);
	else
		fprintf(f, "  not isolated");
	if (p->locked_kb)
		fprintf(f, "  locked %lu kB", p->locked_kb);
	if (host_cpus(p, cpus, sizeof(cpus)))
		fprintf(f, "  vCPU on host CPUs %s (last %d)", cpus, p->host_last_cpu);
	fprintf(f, "\n");
}
