// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* A plan as `calvin -j plan` shows it: one JSON object; CPU sets are
 * arrays of CPU numbers. */
#include <stdio.h>
#include <string.h>

#include "plan/plan.h"
#include "util/util.h"

static struct json_object *json_cpus(const struct calvin_cpumask *s)
{
	struct json_object *a = jw_arr();
	int c;

	for (c = 0; c < CALVIN_MAX_CPUS; c++)
		if (calvin_cpumask_isset(s, c))
			jw_push(a, json_object_new_int(c));
	return a;
}

static struct json_object *json_vnf(const struct calvin_chain_spec *spec,
				    const struct calvin_plan *p, unsigned int i)
{
	const struct calvin_vnf_place *v = &p->vnf[i];
	struct json_object *o = jw_obj();

	jw_str(o, "name", spec->vnfs[i].name);
	jw_str(o, "space", calvin_space_name(spec->vnfs[i].space));
	if (v->cpu < 0)
		jw_null(o, "cpu");
	else
		jw_i64(o, "cpu", v->cpu);
	jw_bool(o, "owns", v->owns);
	jw_str(o, "isolation", calvin_isolation_name(v->isolation));
	jw_str(o, "wait", calvin_plan_wait_name(v->wait));
	jw_str(o, "asked", calvin_grant_name(v->asked));
	jw_str(o, "granted", calvin_grant_name(v->granted));
	jw_bool(o, "degraded", v->granted > v->asked);
	jw_str(o, "why", v->why);
	/* last: the members before it read as they did before hosts */
	jw_str(o, "host",
	       v->host > 0 && v->host <= (int)spec->nr_hosts ? spec->hosts[v->host - 1].name
							     : CALVIN_LOCAL_HOST);
	return o;
}

/* Cores with more than one thread: [{"cpus": [...]}, ...]. */
static struct json_object *json_smt(const struct calvin_topology *t)
{
	struct json_object *a = jw_arr(), *o;
	struct calvin_cpumask sib;
	int c;

	for (c = 0; c < (int)t->nr_cpus; c++) {
		if (t->core[c] != c || calvin_topology_core_cpus(t, c, &sib) < 2)
			continue;
		o = jw_obj();
		jw_add(o, "cpus", json_cpus(&sib));
		jw_push(a, o);
	}
	return a;
}

static struct json_object *json_numa(const struct calvin_topology *t)
{
	struct json_object *a = jw_arr(), *o;
	struct calvin_cpumask cpus;
	int n, shown = 0;

	for (n = 0; shown < (int)t->nr_nodes && n < CALVIN_MAX_CPUS; n++) {
		if (!calvin_topology_node_cpus(t, n, &cpus))
			continue;
		o = jw_obj();
		jw_i64(o, "node", n);
		jw_add(o, "cpus", json_cpus(&cpus));
		jw_push(a, o);
		shown++;
	}
	return a;
}

/* What other chains' plan records hold. */
static struct json_object *json_held(const struct calvin_topology *t)
{
	struct json_object *a = jw_arr(), *o;
	unsigned int i;

	for (i = 0; i < t->nr_holds; i++) {
		o = jw_obj();
		jw_str(o, "chain", t->holds[i].chain);
		jw_str(o, "vnf", t->holds[i].vnf);
		jw_i64(o, "cpu", t->holds[i].cpu);
		jw_str(o, "kind", calvin_hold_kind_name(t->holds[i].kind));
		jw_bool(o, "isolated", t->holds[i].isolated);
		jw_push(a, o);
	}
	return a;
}

static struct json_object *json_host(const struct calvin_topology *t)
{
	struct json_object *o = jw_obj();
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

	for (i = 0; i < sizeof(sets) / sizeof(sets[0]); i++)
		jw_add(o, sets[i].key, json_cpus(sets[i].cpus));
	jw_str(o, "cpuset_from", t->cpuset_from);
	calvin_plan_usable(t, &usable);
	jw_add(o, "usable", json_cpus(&usable));
	jw_add(o, "smt", json_smt(t));
	jw_add(o, "numa", json_numa(t));
	jw_add(o, "held", json_held(t));
	jw_str(o, "unread", t->unread);
	return o;
}

struct json_object *calvin_plan_jobj(const struct calvin_chain_spec *spec,
				     const struct calvin_topology *t, const struct calvin_plan *p)
{
	struct json_object *o = jw_obj(), *vnfs = jw_arr();
	unsigned int i;

	jw_str(o, "chain", spec->name);
	jw_str(o, "placement", calvin_placement_name(p->policy));
	jw_bool(o, "allow_sharing", spec->allow_sharing);
	jw_str(o, "mode", calvin_chain_mode_name(spec->mode));
	jw_u64(o, "mtu", spec->mtu);
	jw_u64(o, "degraded", p->nr_degraded);
	for (i = 0; i < spec->nr_vnfs; i++)
		jw_push(vnfs, json_vnf(spec, p, i));
	jw_add(o, "vnfs", vnfs);
	jw_add(o, "housekeeping", json_cpus(&p->housekeeping));
	jw_add(o, "isolate_at_run_time", json_cpus(&p->isolate));
	jw_add(o, "host", json_host(t));
	return o;
}

void calvin_plan_print_json(FILE *f, const struct calvin_chain_spec *spec,
			    const struct calvin_topology *t, const struct calvin_plan *p)
{
	struct json_object *o = calvin_plan_jobj(spec, t, p);

	if (o)
		jw_write(f, o, false);
	json_object_put(o);
}

struct json_object *calvin_plan_remote_jobj(const struct calvin_chain_spec *spec,
					    const struct calvin_topology *const *t,
					    const struct calvin_plan *p)
{
	struct json_object *a = jw_arr(), *o;
	unsigned int i;

	for (i = 0; i < spec->nr_hosts; i++) {
		if (!t[i + 1])
			continue;
		o = jw_obj();
		jw_str(o, "name", spec->hosts[i].name);
		jw_str(o, "uri", spec->hosts[i].uri);
		jw_add(o, "online", json_cpus(&t[i + 1]->online));
		jw_add(o, "smt", json_smt(t[i + 1]));
		jw_add(o, "numa", json_numa(t[i + 1]));
		jw_add(o, "held", json_held(t[i + 1]));
		jw_add(o, "housekeeping", json_cpus(&p->remote_housekeeping[i]));
		jw_str(o, "not_done", calvin_remote_not_done);
		jw_push(a, o);
	}
	return a;
}
