// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The agent's user VNF process as the guest's kernel sees it, for the
 * host's `calvin status`: whether it still runs (reaped here once it
 * exited), where it may run and last ran, its scheduling, whether its CPUs
 * are isolated in the guest. Sent as values of the counters answer, named
 * vnf.* (see agent.h), parsed by the same code that reads a host process. */
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "agent.h"
#include "plan/plan.h"
#include "textfile.h"

bool agent_vnf_running(struct agent *a)
{
	int status;

	if (a->vnf_pid <= 0 || a->vnf_exit >= 0)
		return false;
	if (waitpid(a->vnf_pid, &status, WNOHANG) != a->vnf_pid)
		return true;
	a->vnf_exit = status;
	fprintf(stderr, AGENT_PROG ": calvin-vnf (pid %d) exited, wait status %d\n",
		(int)a->vnf_pid, status);
	return false;
}

static void put_value(struct agent *a, struct calvin_agent_counters *out, const char *name,
		      uint64_t value)
{
	unsigned int n = out->nr_counters;

	if (n >= CALVIN_AGENT_MAX_COUNTERS)
		return;
	snprintf(a->names[n], sizeof(a->names[n]), "vnf.%s", name);
	out->counters[n].name = calvin_agent_str(a->names[n]);
	out->counters[n].value = value;
	out->nr_counters = (uint16_t)(n + 1);
}

/* What /proc says of a running process; nothing where it cannot be read. */
static void proc_values(struct agent *a, struct calvin_agent_counters *out)
{
	struct calvin_cpumask allowed, isolated = { 0 };
	struct calvin_procstat st;
	unsigned long locked_kb;
	char path[64], buf[4096];

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)a->vnf_pid);
	if (calvin_read_text(path, buf, sizeof(buf)) || calvin_procstat_parse(buf, &st))
		return;
	put_value(a, out, "last_cpu", (uint64_t)st.last_cpu);
	put_value(a, out, "policy", st.policy);
	put_value(a, out, "priority", st.rt_priority);
	snprintf(path, sizeof(path), "/proc/%d/status", (int)a->vnf_pid);
	if (calvin_read_text(path, buf, sizeof(buf)) || calvin_procstatus_parse(buf, &allowed, &locked_kb))
		return;
	put_value(a, out, "cpus", allowed.w[0]);
	put_value(a, out, "locked_kb", locked_kb);
	/* isolcpus= on the guest's command line (calvin_vm_cmdline()) */
	if (!calvin_read_text("/sys/devices/system/cpu/isolated", buf, sizeof(buf)))
		calvin_cpumask_parse_list(buf, &isolated);
	put_value(a, out, "isolated",
		  calvin_cpumask_count(&allowed) && calvin_cpumask_contains(&isolated, &allowed));
}

bool agent_vnf_values(struct agent *a, struct calvin_agent_counters *out)
{
	bool running = agent_vnf_running(a);

	put_value(a, out, "pid", (uint64_t)(a->vnf_pid > 0 ? a->vnf_pid : 0));
	if (!running) {
		if (a->vnf_exit >= 0)
			put_value(a, out, "exit", (uint64_t)a->vnf_exit);
		return false;
	}
	proc_values(a, out);
	return true;
}
