// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* calvin plan CHAIN.yaml: the CPU placement a deployment would use. */
#include <stdio.h>

#include "backend.h"
#include "commands.h"
#include "util.h"

static void print_cpu(int cpu, bool json)
{
	if (cpu < 0)
		printf(json ? "null" : "not pinned");
	else
		printf(json ? "%d" : "cpu %d", cpu);
}

int cmd_plan(int argc, char **argv)
{
	struct calvin_chain_spec spec;
	struct calvin_plan plan;
	char line[512];
	unsigned int i;
	int rc;

	if (argc != 2) {
		calvin_err("usage: calvin plan CHAIN.yaml");
		return CALVIN_EXIT_USAGE;
	}
	rc = load_spec(argv[1], &spec);
	if (!rc)
		rc = make_plan(&spec, &plan);
	if (rc)
		return rc;
	if (calvin_json) {
		printf("{\"chain\":\"%s\",\"policy\":\"%s\",\"shared\":%s,\"housekeeping\":%d,"
		       "\"nodes\":[",
		       spec.name, calvin_placement_name(plan.policy), plan.shared ? "true" : "false",
		       plan.housekeeping);
		for (i = 0; i < spec.nr_vnfs; i++) {
			printf("%s{\"name\":\"%s\",\"space\":\"%s\",\"cpu\":", i ? "," : "",
			       spec.vnfs[i].name, calvin_space_name(spec.vnfs[i].space));
			print_cpu(plan.vnf_cpu[i], true);
			printf("}");
		}
		printf("]");
		if (backend_describe(&spec, line, sizeof(line)))
			printf(",\"nodes_note\":\"%s\"", line);
		printf("}\n");
		return 0;
	}
	printf("chain %s, placement %s%s\n", spec.name, calvin_placement_name(plan.policy),
	       plan.shared ? " (sharing cores: allow-sharing)" : "");
	printf("  %-16s cpu %d (probe, controller)\n", "housekeeping", plan.housekeeping);
	for (i = 0; i < spec.nr_vnfs; i++) {
		printf("  %-16s %-7s ", spec.vnfs[i].name, calvin_space_name(spec.vnfs[i].space));
		if (spec.backend == CALVIN_BACKEND_LIBVIRT) {
			/* the VNF runs on its VM's vCPU 1 */
			printf("VM: vCPU 1 ");
			print_cpu(plan.vnf_cpu[i], false);
			printf(", vCPU 0 and emulator ");
			print_cpu(spec.placement == CALVIN_PLACE_SHARED ? -1 : plan.housekeeping,
				  false);
		} else if (spec.vnfs[i].space == CALVIN_KERNEL) {
			printf("softirq of the sending CPU (XDP)");
		} else {
			print_cpu(plan.vnf_cpu[i], false);
		}
		printf("\n");
	}
	printf("  %-16s kernel  softirq of the sending CPU (XDP)\n", spec.server.name);
	if (backend_describe(&spec, line, sizeof(line)))
		printf("  %-16s %s\n", "nodes", line);
	return 0;
}
