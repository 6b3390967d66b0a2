// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* calvin status [CHAIN]: deployed chains and live per-VNF counters, as
 * their backend reads them. A VNF that does not answer within
 * VNF_ANSWER_TIMEOUT_MS costs that long and one line; the others are
 * shown all the same, and status exits 1 at the end. What a user VNF (or
 * a VM's agent) answers is outside calvin's control: it is parsed by
 * json-c and escaped (userspace/lib/guest/guest.h) before it is shown. */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "commands.h"
#include "guest/guest.h"
#include "isolate/isolate.h"
#include "jout.h"
#include "loader.h"
#include "measure/measure.h"
#include "supervise/supervise.h"
#include "util.h"
#include "util/util.h"

static const char *const dir_name[] = { "fwd", "rev" };

/* What went wrong reading a VNF's counters: "not answering (2 s)" for a
 * wedged VNF, whatever the backend. */
static void vnf_error(int err, const char *what, char *buf, size_t len)
{
	if (err == -ETIMEDOUT)
		snprintf(buf, len, "not answering (%d s)", VNF_ANSWER_TIMEOUT_MS / 1000);
	else
		snprintf(buf, len, "%s: %s", what, strerror(-err));
}

/* Its line in place of its counters: "fwd-u: not answering (2 s)" for a
 * wedged VNF, in the table's columns otherwise. */
static void vnf_error_line(const char *name, const char *space, int err, const char *why)
{
	if (err == -ETIMEDOUT)
		printf("  %s: %s\n", name, why);
	else
		printf("  %-12s %-7s %s\n", name, space, why);
}

/* acl: hits per rule, in rule order, and of the default action. */
static void acl_hits(const struct kvnf_counters *c, const struct calvin_vnf_spec *v,
		     struct json_object *o)
{
	struct json_object *hits = o ? jw_arr() : NULL;
	unsigned int r;

	if (o) {
		for (r = 0; r < c->nr_rules; r++)
			jw_push(hits, json_object_new_uint64(c->rule_hits[r]));
		jw_add(o, "rule_hits", hits);
		jw_u64(o, "default_hits", c->default_hits);
		return;
	}
	printf("  %-12s         hits:", "");
	for (r = 0; r < c->nr_rules; r++)
		printf(" rule %u (line %d) %" PRIu64 ",", r + 1, v->acl.rules[r].pos.line,
		       c->rule_hits[r]);
	printf(" default (%s) %" PRIu64 "\n",
	       v->acl.default_action == CALVIN_ACL_DENY ? "deny" : "allow", c->default_hits);
}

/* Its counters, or (c NULL) why there are none. */
static struct json_object *kernel_jobj(const struct calvin_vnf_spec *v,
				       const struct kvnf_counters *c, const char *why)
{
	struct json_object *o = jw_obj(), *d;
	unsigned int i;
	int dir;

	jw_str(o, "name", v->name);
	jw_str(o, "kind", calvin_vnf_kind_name(v->kind));
	jw_str(o, "space", "kernel");
	if (!c) {
		jw_str(o, "error", why);
		return o;
	}
	for (dir = 0; dir < CALVIN_NR_DIRS; dir++) {
		d = jw_obj();
		for (i = 0; i < calvin_xdp_nr_stat_fields; i++)
			jw_u64(d, calvin_xdp_stat_fields[i].name, calvin_xdp_stat(&c->dir[dir], i));
		jw_add(o, dir_name[dir], d);
	}
	if (v->kind == CALVIN_VNF_ACL)
		acl_hits(c, v, o);
	return o;
}

static void kernel_text(const struct calvin_vnf_spec *v, const struct kvnf_counters *c)
{
	unsigned int i;
	int d;

	for (d = 0; d < CALVIN_NR_DIRS; d++) {
		printf("  %-12s kernel  %s ", d ? "" : v->name, dir_name[d]);
		/* the first four always, the rest when they happened */
		for (i = 0; i < calvin_xdp_nr_stat_fields; i++)
			if (i < 4 || calvin_xdp_stat(&c->dir[d], i))
				printf(" %s %llu", calvin_xdp_stat_fields[i].name,
				       (unsigned long long)calvin_xdp_stat(&c->dir[d], i));
		printf("\n");
	}
	if (v->kind == CALVIN_VNF_ACL)
		acl_hits(c, v, NULL);
}

/* 0, or the backend's -errno after the VNF's line or error member. */
static int kernel_stats(const struct calvin_chain_spec *spec, unsigned int vnf,
			struct json_object *vnfs)
{
	const struct calvin_vnf_spec *v = &spec->vnfs[vnf];
	struct kvnf_counters c;
	char why[128];
	int err;

	err = backend_of(spec)->kernel_stats(spec, vnf, &c);
	if (err)
		vnf_error(err, "stats unavailable", why, sizeof(why));
	if (vnfs)
		jw_push(vnfs, kernel_jobj(v, err ? NULL : &c, why));
	else if (err)
		vnf_error_line(v->name, "kernel", err, why);
	else
		kernel_text(v, &c);
	return err;
}

/* A user VNF's counters, read from its answer; 0 or -errno and why. */
static int user_counters(const struct calvin_chain_spec *spec, unsigned int vnf,
			 struct json_object **counters, char *why, size_t whylen)
{
	char *buf = malloc(CALVIN_VNF_ANSWER_MAX);
	int err;

	*counters = NULL;
	if (!buf)
		return -ENOMEM;
	err = backend_of(spec)->user_stats(spec, vnf, buf, CALVIN_VNF_ANSWER_MAX);
	if (err)
		vnf_error(err, "telemetry socket unavailable", why, whylen);
	else
		err = calvin_vnf_stats_parse(buf, strlen(buf), counters, why, whylen);
	free(buf);
	return err;
}

static int user_stats(const struct calvin_chain_spec *spec, unsigned int vnf,
		      struct json_object *vnfs)
{
	const char *name = spec->vnfs[vnf].name;
	struct json_object *counters, *o;
	char why[256];
	int err;

	err = user_counters(spec, vnf, &counters, why, sizeof(why));
	if (vnfs) {
		o = jw_obj();
		jw_str(o, "name", name);
		jw_str(o, "space", "user");
		if (err)
			jw_str(o, "error", why);
		else
			jw_add(o, "telemetry", calvin_vnf_stats_jobj(counters));
		jw_push(vnfs, o);
	} else if (err) {
		vnf_error_line(name, "user", err, why);
	} else {
		calvin_vnf_stats_text(stdout, name, counters);
		json_object_put(counters);
	}
	return err;
}

/* What placement gave less than asked: one line per VNF, as the
 * reports say it. */
static void placement_notes(const char *chain, struct json_object *o)
{
	struct calvin_degraded d[CALVIN_MAX_VNFS];
	unsigned int n = chain_degraded(chain, d), i;
	char line[CALVIN_NAME_MAX + CALVIN_WHY_MAX + 64];

	if (o) {
		jw_add(o, "placement", calvin_degraded_jarr(d, n));
		return;
	}
	for (i = 0; i < n; i++) {
		calvin_degraded_text(&d[i], line, sizeof(line));
		printf("  placement: %s\n", line);
	}
}

/* One chain, as text or as an object of the array doc; 0, or an exit
 * code when it could not be read or a VNF could not. */
static int chain_status_of(const char *chain, struct json_object *doc,
			   struct calvin_chain_spec *spec)
{
	struct json_object *o = doc ? jw_obj() : NULL, *vnfs = doc ? jw_arr() : NULL;
	struct calvin_cpumask hk;
	struct isolate_host host;
	char why[CALVIN_ERR_LINE_MAX];
	unsigned int i;
	int rc, failed = 0;

	jw_push(doc, o);
	jw_str(o, "chain", chain);
	jout_error_take(why, sizeof(why)); /* this chain's error, not an earlier one */
	rc = deployed_spec(chain, spec);
	if (rc) {
		jout_error_take(why, sizeof(why));
		jw_str(o, "error", why);
		json_object_put(vnfs);
		return rc;
	}
	if (!o)
		printf("chain %s (%s)\n  mode %s: %s\n", chain, spec->path,
		       calvin_chain_mode_name(spec->mode), calvin_chain_mode_text(spec));
	if (!o && spec->backend == CALVIN_BACKEND_NETNS && !spec->nr_hosts)
		printf("  mtu %u: the endpoints' links; %u between VNFs\n", spec->mtu,
		       calvin_inner_mtu(spec));
	jw_str(o, "mode", calvin_chain_mode_name(spec->mode));
	jw_u64(o, "mtu", spec->mtu);
	placement_notes(chain, o);
	for (i = 0; i < spec->nr_vnfs; i++)
		if (spec->vnfs[i].space == CALVIN_KERNEL ? kernel_stats(spec, i, vnfs)
							 : user_stats(spec, i, vnfs))
			failed++;
	jw_add(o, "vnfs", vnfs);
	supervise_status(chain, o);
	/* the housekeeping CPUs the plan gave, which the probe runs on */
	if (!isolate_host_detect(&host) && !chain_housekeeping(spec, &hk))
		isolation_status(stdout, &host, spec, &hk, o);
	return failed ? CALVIN_EXIT_FAIL : 0;
}

/* chain_status_of() with the spec on the heap. */
static int chain_status(const char *chain, struct json_object *doc)
{
	struct calvin_chain_spec *spec = spec_new();
	int rc;

	if (!spec)
		return CALVIN_EXIT_FAIL;
	rc = chain_status_of(chain, doc, spec);
	free(spec);
	return rc;
}

/* -j: status refused before it read any chain, as the array's one
 * element. */
static void refused(struct json_object *doc, const char *chain)
{
	struct json_object *o = doc ? jw_obj() : NULL;
	char why[CALVIN_ERR_LINE_MAX];

	if (chain)
		jw_str(o, "chain", chain);
	jout_error_take(why, sizeof(why));
	jw_str(o, "error", why);
	jw_push(doc, o);
}

int cmd_status(const struct cmd_args *a)
{
	struct json_object *doc = calvin_json ? jw_arr() : NULL;
	struct dirent *de;
	int rc = 0, r;
	size_t n;
	DIR *dir;

	rc = a->nr ? check_name("chain", a->arg[0]) : 0;
	if (!rc)
		rc = need_root("calvin status");
	if (!rc)
		rc = state_dir_check(false);
	/* -j: an array of chains, each with an "error" if it could not be
	 * read, and each VNF that could not be */
	jout_set(doc);
	if (rc) {
		refused(doc, a->nr ? a->arg[0] : NULL);
		return rc;
	}
	if (a->nr) {
		rc = chain_status(a->arg[0], doc);
	} else if ((dir = opendir(calvin_run_dir()))) {
		while ((de = readdir(dir))) {
			n = strlen(de->d_name);
			if (n <= 6 || strcmp(de->d_name + n - 6, ".state"))
				continue;
			de->d_name[n - 6] = '\0';
			if (!calvin_name_valid(de->d_name))
				continue;
			r = chain_status(de->d_name, doc);
			if (r)
				rc = r;
		}
		closedir(dir);
	}
	return rc;
}
