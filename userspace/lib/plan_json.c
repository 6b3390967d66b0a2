// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* A plan as `calvin -j plan` shows it: one JSON object; CPU sets are
 * arrays of CPU numbers. */
#include <stdio.h>
#include <string.h>

#include "plan.h"
#include "report.h"

static void json_cpus(FILE *f, const char *key, const struct calvin_cpumask *s)
{
	const char *sep = "";
	int c;

	fprintf(f, "\"%s\":[", key);
	for (c = 0; c < CALVIN_MAX_CPUS; c++)
		if (calvin_cpumask_isset(s, c)) {
			fprintf(f, "%s%d", sep, c);
			sep = ",";
		}
	fprintf(f, "]");
}

static void json_vnf(FILE *f, const struct calvin_chain_spec *spec, const struct calvin_plan *p,
		     unsigned int i)
{
	const struct calvin_vnf_place *v = &p->vnf[i];

	fprintf(f, "%s{\"name\":", i ? "," : "");
	calvin_json_str(f, spec->vnfs[i].name);
	fprintf(f, ",\"space\":\"%s\",\"cpu\":", calvin_space_name(spec->vnfs[i].space));
	if (v->cpu < 0)
		fprintf(f, "null");
	else
		fprintf(f, "%d", v->cpu);
	fprintf(f, ",\"owns\":%s,\"isolation\":\"%s\",\"wait\":\"%s\"", v->owns ? "true" : "false",
		calvin_isolation_name(v->isolation), calvin_plan_wait_name(v->wait));
	fprintf(f, ",\"asked\":\"%s\",\"granted\":\"%s\",\"degraded\":%s,\"why\":",
		calvin_grant_name(v->asked), calvin_grant_name(v->granted),
		v->granted > v->asked ? "true" : "false");
	calvin_json_str(f, v->why);
	fprintf(f, "}");
}

/* Cores with more than one thread, as arrays. */
static void json_smt(FILE *f, const struct calvin_topology *t)
{
	struct calvin_cpumask sib;
	const char *sep = "";
	int c;

	fprintf(f, "\"smt\":[");
	for (c = 0; c < (int)t->nr_cpus; c++) {
		if (t->core[c] != c || calvin_topology_core_cpus(t, c, &sib) < 2)
			continue;
		fprintf(f, "%s{", sep);
		json_cpus(f, "cpus", &sib);
		fprintf(f, "}");
		sep = ",";
	}
	fprintf(f, "]");
}

static void json_numa(FILE *f, const struct calvin_topology *t)
{
	struct calvin_cpumask cpus;
	int n, shown = 0;

	fprintf(f, "\"numa\":[");
	for (n = 0; shown < (int)t->nr_nodes && n < CALVIN_MAX_CPUS; n++) {
		if (!calvin_topology_node_cpus(t, n, &cpus))
			continue;
		fprintf(f, "%s{\"node\":%d,", shown ? "," : "", n);
		json_cpus(f, "cpus", &cpus);
		fprintf(f, "}");
		shown++;
	}
	fprintf(f, "]");
}

static void json_host(FILE *f, const struct calvin_topology *t)
{
	struct calvin_cpumask usable;
	const struct {
		const char *key;
		const struct calvin_cpumask *cpus;
	} sets[] = {
	    {"online", &t->online},
	    {"isolcpus", &t->isolcpus},
	    {"isolated_partitions", &t->partitions},
	    {"nohz_full", &t->nohz_full},
	    {"affinity", &t->affinity},
	    {"cpuset", &t->cpuset},
	};
	unsigned int i;

	fprintf(f, "\"host\":{");
	for (i = 0; i < sizeof(sets) / sizeof(sets[0]); i++) {
		fprintf(f, "%s", i ? "," : "");
		json_cpus(f, sets[i].key, sets[i].cpus);
	}
	fprintf(f, ",\"cpuset_from\":");
	calvin_json_str(f, t->cpuset_from);
	calvin_plan_usable(t, &usable);
	fprintf(f, ",");
	json_cpus(f, "usable", &usable);
	fprintf(f, ",");
	json_smt(f, t);
	fprintf(f, ",");
	json_numa(f, t);
	fprintf(f, ",\"held\":[");
	for (i = 0; i < t->nr_holds; i++) {
		fprintf(f, "%s{\"chain\":", i ? "," : "");
		calvin_json_str(f, t->holds[i].chain);
		fprintf(f, ",\"vnf\":");
		calvin_json_str(f, t->holds[i].vnf);
		fprintf(f, ",\"cpu\":%d,\"kind\":\"%s\",\"isolated\":%s}", t->holds[i].cpu,
			calvin_hold_kind_name(t->holds[i].kind),
			t->holds[i].isolated ? "true" : "false");
	}
	fprintf(f, "],\"unread\":");
	calvin_json_str(f, t->unread);
	fprintf(f, "}");
}

void calvin_plan_print_json(FILE *f, const struct calvin_chain_spec *spec,
			    const struct calvin_topology *t, const struct calvin_plan *p)
{
	unsigned int i;

	fprintf(f, "{\"chain\":");
	calvin_json_str(f, spec->name);
	fprintf(f, ",\"placement\":\"%s\",\"allow_sharing\":%s,\"degraded\":%u,\"vnfs\":[",
		calvin_placement_name(p->policy), spec->allow_sharing ? "true" : "false",
		p->nr_degraded);
	for (i = 0; i < spec->nr_vnfs; i++)
		json_vnf(f, spec, p, i);
	fprintf(f, "],");
	json_cpus(f, "housekeeping", &p->housekeeping);
	fprintf(f, ",");
	json_cpus(f, "isolate_at_run_time", &p->isolate);
	fprintf(f, ",");
	json_host(f, t);
	fprintf(f, "}\n");
}
