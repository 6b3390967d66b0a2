// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The configurations of `calvin bench pinning` and `wakeup`: placement
 * shared, pinned and isolated, each idle and under interference; for a
 * chain in VMs also the other guest kernel (cloud or PREEMPT_RT) and the
 * other host-side links (xdp or bridge), pinned. Each is a variant of the
 * chain file, planned before the first round, so one the host cannot run
 * is reported, not tried. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "policy.h"
#include "util.h"

static const enum calvin_placement policies[] = { CALVIN_PLACE_SHARED, CALVIN_PLACE_PINNED,
						  CALVIN_PLACE_ISOLATED };

/* The guest image a libvirt chain boots, and the other kernel's beside it. */
static void images(const struct calvin_chain_spec *s, char *cur, char *alt, size_t len,
		   const char **alt_name)
{
	char *slash;

	if (s->libvirt.image[0])
		snprintf(cur, len, "%s", s->libvirt.image);
	else
		snprintf(cur, len, "%s/vm-images/cloud", calvin_lib_dir());
	snprintf(alt, len, "%s", cur);
	slash = strrchr(alt, '/');
	*alt_name = slash && !strcmp(slash + 1, "rt") ? "cloud" : "rt";
	if (slash)
		snprintf(slash + 1, len - (size_t)(slash + 1 - alt), "%s", *alt_name);
}

/* "fwd-u cpu 1 (owns it, busy-polls)" for each user VNF, and housekeeping. */
static void plan_line(const struct calvin_chain_spec *s, const struct calvin_plan *p, char *buf,
		      size_t len)
{
	char hk[64];
	size_t n = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < s->nr_vnfs && n < len; i++) {
		if (s->vnfs[i].space != CALVIN_USER && s->backend != CALVIN_BACKEND_LIBVIRT)
			continue;
		if (p->vnf[i].cpu < 0)
			n += (size_t)snprintf(buf + n, len - n, "%s not pinned (%s); ",
					      s->vnfs[i].name,
					      calvin_plan_wait_name(p->vnf[i].wait));
		else
			n += (size_t)snprintf(
			    buf + n, len - n, "%s CPU %d (%s, %s%s); ", s->vnfs[i].name,
			    p->vnf[i].cpu, p->vnf[i].owns ? "owns it" : "shares it",
			    calvin_plan_wait_name(p->vnf[i].wait),
			    p->vnf[i].isolation != CALVIN_ISOL_NONE ? ", isolated" : "");
	}
	if (n < len)
		snprintf(buf + n, len - n, "housekeeping CPU %s",
			 calvin_cpumask_list(&p->housekeeping, hk, sizeof(hk)));
}

static struct bench_config *add(struct bench_config *c, unsigned int *n,
				enum calvin_placement place, bool stress, const char *extra)
{
	struct bench_config *x = &c[(*n)++];

	memset(x, 0, sizeof(*x));
	x->o = (struct calvin_spec_override)CALVIN_SPEC_OVERRIDE_NONE;
	x->o.placement = (int)place;
	x->stress = stress;
	x->extra = extra != NULL;
	x->ref = -1;
	snprintf(x->key, sizeof(x->key), "%s-%s%s%s", calvin_placement_name(place),
		 stress ? "stress" : "idle", extra ? "-" : "", extra ? extra : "");
	snprintf(x->label, sizeof(x->label), "%s, %s%s%s", calvin_placement_name(place),
		 stress ? "stress" : "idle", extra ? ", " : "", extra ? extra : "");
	return x;
}

/* Index of the configuration with key, or -1. */
static int find(const struct bench_config *c, unsigned int n, const char *key)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (!strcmp(c[i].key, key))
			return (int)i;
	return -1;
}

static void vm_extras(struct bench *b, struct bench_config *c, unsigned int *n)
{
	static char cur[PATH_MAX], alt[PATH_MAX], kernel[PATH_MAX + 16];
	const char *alt_name;
	struct bench_config *x;
	int s;

	images(&b->spec, cur, alt, sizeof(cur), &alt_name);
	snprintf(kernel, sizeof(kernel), "%s/vmlinuz", alt);
	for (s = 0; s < 2; s++) {
		x = add(c, n, CALVIN_PLACE_PINNED, s, alt_name);
		snprintf(x->label, sizeof(x->label), "pinned, %s, guest kernel %s",
			 s ? "stress" : "idle", alt_name);
		x->o.image = alt;
		if (access(kernel, R_OK))
			snprintf(x->why, sizeof(x->why),
				 "no %s image (%.160s): make -C vm-images "
				 "KERNEL=%s",
				 alt_name, kernel, alt_name);
	}
	x = add(c, n, CALVIN_PLACE_PINNED, false,
		b->spec.libvirt.links == CALVIN_LINKS_XDP ? "bridge" : "xdp");
	x->o.links =
	    b->spec.libvirt.links == CALVIN_LINKS_XDP ? CALVIN_LINKS_BRIDGE : CALVIN_LINKS_XDP;
	snprintf(x->label, sizeof(x->label), "pinned, idle, links %s",
		 calvin_vm_links_name(x->o.links));
}

int bench_policy_configs(struct bench *b, struct bench_config *c, unsigned int *n)
{
	struct calvin_plan plan;
	unsigned int i, s, p;
	char key[64];
	int rc;

	*n = 0;
	for (s = 0; s < 2; s++)
		for (p = 0; p < sizeof(policies) / sizeof(policies[0]); p++)
			add(c, n, policies[p], s, NULL);
	if (b->spec.backend == CALVIN_BACKEND_LIBVIRT)
		vm_extras(b, c, n);
	for (i = 0; i < *n; i++) {
		/* against shared under the same load; a VM extra against pinned */
		snprintf(key, sizeof(key), "%s-%s", c[i].extra ? "pinned" : "shared",
			 c[i].stress ? "stress" : "idle");
		c[i].ref = find(c, *n, key);
		if (b->cannot[0] && !c[i].why[0])
			snprintf(c[i].why, sizeof(c[i].why), "%s", b->cannot);
		if (c[i].stress && !c[i].why[0] && !tool_path("stress-ng"))
			tool_missing("stress-ng", c[i].why, sizeof(c[i].why));
		if (c[i].why[0])
			continue;
		c[i].spec = calloc(1, sizeof(*c[i].spec));
		if (!c[i].spec)
			return CALVIN_EXIT_FAIL;
		rc = bench_variant(b, c[i].key, &c[i].o, c[i].spec);
		if (rc)
			return rc;
		if (make_plan(c[i].spec, &plan, NULL)) {
			snprintf(c[i].why, sizeof(c[i].why),
				 "this host cannot place it (see above)");
			continue;
		}
		plan_line(c[i].spec, &plan, c[i].plan, sizeof(c[i].plan));
		c[i].placed = plan;
	}
	return 0;
}

void bench_policy_free(struct bench_config *c, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		free(c[i].spec);
}

/* The configurations as a Markdown list: what each ran as, or why not. */
void bench_policy_md(FILE *f, const struct bench_config *c, unsigned int n)
{
	unsigned int i;

	fputs("Configurations (placement as calvin planned it on this host):\n\n", f);
	for (i = 0; i < n; i++)
		fprintf(f, "- %s: %s\n", c[i].label, c[i].why[0] ? c[i].why : c[i].plan);
	fputc('\n', f);
}

/* Where interference runs: everywhere when nothing is pinned, else on the
 * housekeeping cores, beside what a pinned chain keeps there. */
static void stress_cpus(const struct bench_config *c, struct calvin_cpumask *cpus)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN), i;

	if (c->o.placement != CALVIN_PLACE_SHARED) {
		*cpus = c->placed.housekeeping;
		return;
	}
	memset(cpus, 0, sizeof(*cpus));
	for (i = 0; i < n && i < CALVIN_MAX_CPUS; i++)
		calvin_cpumask_set(cpus, (int)i);
}

/* One configuration in one round: deploy, load, measure, unload, down.
 * 0; ONE_LEFT_OUT when it failed (the reason is in c->why); or an exit
 * code when the chain would not go down: the next round could not
 * deploy it afresh. */
#define ONE_LEFT_OUT (-1)
static int one(struct bench *b, struct bench_config *c, unsigned int i, unsigned int round,
	       unsigned int timeout_s, bench_measure_fn measure, void *arg)
{
	struct timespec warm = { 1, 0 };
	struct bench_proc stress = { 0 };
	struct calvin_cpumask cpus;
	const char *failed = NULL;
	int down;

	bench_progress(b, "round %u/%u: %s: deploying", round, b->rounds, c->label);
	if (bench_up(b, c->spec)) {
		failed = "calvin up";
		goto out;
	}
	if (c->stress && !bench_stopped()) {
		stress_cpus(c, &cpus);
		if (bench_stress_start(&b->journal, &cpus, timeout_s, &stress))
			failed = "stress-ng";
		else /* let the stressors get going before anything is measured */
			nanosleep(&warm, NULL);
	}
	if (!failed && !bench_stopped()) {
		bench_progress(b, "round %u/%u: %s: measuring", round, b->rounds, c->label);
		if (measure(b, c, i, round, arg))
			failed = "the measurement";
	}
	bench_reap(&b->journal, &stress, NULL);
	down = bench_down(b, c->spec);
	if (down) {
		calvin_err("chain %s would not go down; stopping the bench", c->spec->name);
		return down;
	}
out:
	if (!failed || bench_stopped())
		return 0;
	snprintf(c->why, sizeof(c->why),
		 "%s failed in round %u (calvin's message said why); "
		 "left out from then on",
		 failed, round);
	return ONE_LEFT_OUT;
}

/* bench_rounds()'s step: a configuration that cannot run is skipped, one
 * that failed is left out; only a chain that would not go down stops. */
struct policy_round {
	struct bench_config *c;
	unsigned int timeout_s;
	bench_measure_fn measure;
	void *arg;
};

static int policy_one(struct bench *b, unsigned int i, unsigned int round, void *arg)
{
	struct policy_round *p = arg;
	int rc;

	if (p->c[i].why[0])
		return 0;
	rc = one(b, &p->c[i], i, round, p->timeout_s, p->measure, p->arg);
	return rc > 0 ? rc : 0;
}

int bench_policy_rounds(struct bench *b, struct bench_config *c, unsigned int n,
			unsigned int timeout_s, bench_measure_fn measure, void *arg)
{
	struct policy_round p = { c, timeout_s, measure, arg };

	return bench_rounds(b, n, policy_one, &p);
}

int bench_policy_run(struct bench *b, const char *metric, const char *title, unsigned int timeout_s,
		     bench_measure_fn measure,
		     void (*write_md)(struct bench *b, FILE *f, bool pictures))
{
	struct bench_policy *p = calloc(1, sizeof(*p));
	unsigned int i;
	int rc, files;

	if (!p)
		return CALVIN_EXIT_FAIL;
	b->priv = p;
	rc = bench_policy_configs(b, p->c, &p->n);
	for (i = 0; !rc && i < p->n; i++)
		if (!bench_series_new(b, p->c[i].key, p->c[i].label, metric))
			rc = CALVIN_EXIT_FAIL;
	for (i = 0; !rc && i < p->n; i++)
		b->series[i].ref = p->c[i].ref;
	if (!rc)
		rc = bench_policy_rounds(b, p->c, p->n, timeout_s, measure, NULL);
	/* left out from the start, or after a round failed */
	for (i = 0; i < p->n && i < b->nr_series; i++) {
		if (!p->c[i].why[0])
			continue;
		calvin_bench_series_why(&b->series[i], "%s", p->c[i].why);
		b->incomplete = true;
	}
	if (!rc || bench_stopped()) {
		files = bench_files(b, title, write_md, bench_stopped());
		rc = rc ? rc : files;
	}
	bench_policy_free(p->c, p->n);
	free(p);
	b->priv = NULL;
	return rc;
}
