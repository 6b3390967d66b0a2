// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* calvin status [CHAIN]: deployed chains and live per-VNF counters, as
 * their backend reads them. */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "commands.h"
#include "isolate/isolate.h"
#include "loader.h"
#include "report.h"
#include "util.h"

static const char *const dir_name[] = {"fwd", "rev"};
/* a VNF did not answer within STATUS_TIMEOUT_MS: status goes on, and
 * exits non-zero at the end */
static bool silent_vnf;

/* A VNF's stats read failed for want of an answer: one line, as text or
 * as its JSON object's error. */
static bool not_answering(const char *name, const char *space, int err, bool first)
{
	if (err != -ETIMEDOUT)
		return false;
	silent_vnf = true;
	if (calvin_json)
		printf("%s{\"name\":\"%s\",\"space\":\"%s\",\"error\":\"not answering (%d s)\"}",
		       first ? "" : ",", name, space, STATUS_TIMEOUT_MS / 1000);
	else
		printf("  %s: not answering (%d s)\n", name, STATUS_TIMEOUT_MS / 1000);
	return true;
}

/* acl: hits per rule, in rule order, and of the default action. */
static void acl_hits(const struct kvnf_counters *c, const struct calvin_vnf_spec *v)
{
	unsigned int r;

	if (calvin_json) {
		printf(",\"rule_hits\":[");
		for (r = 0; r < c->nr_rules; r++)
			printf("%s%" PRIu64, r ? "," : "", c->rule_hits[r]);
		printf("],\"default_hits\":%" PRIu64, c->default_hits);
		return;
	}
	printf("  %-12s         hits:", "");
	for (r = 0; r < c->nr_rules; r++)
		printf(" rule %u (line %d) %" PRIu64 ",", r + 1, v->acl.rules[r].pos.line,
		       c->rule_hits[r]);
	printf(" default (%s) %" PRIu64 "\n",
	       v->acl.default_action == CALVIN_ACL_DENY ? "deny" : "allow", c->default_hits);
}

static void kernel_stats(const struct calvin_chain_spec *spec, unsigned int vnf, bool first)
{
	const struct calvin_vnf_spec *v = &spec->vnfs[vnf];
	struct kvnf_counters c;
	unsigned int i;
	int d, err;

	err = backend_of(spec)->kernel_stats(spec, vnf, &c);
	if (not_answering(v->name, "kernel", err, first))
		return;
	if (calvin_json) {
		printf("%s{\"name\":\"%s\",\"kind\":\"%s\",\"space\":\"kernel\"", first ? "" : ",",
		       v->name, calvin_vnf_kind_name(v->kind));
		for (d = 0; !err && d < CALVIN_NR_DIRS; d++) {
			printf(",\"%s\":{", dir_name[d]);
			for (i = 0; i < calvin_xdp_nr_stat_fields; i++)
				printf("%s\"%s\":%llu", i ? "," : "",
				       calvin_xdp_stat_fields[i].name,
				       (unsigned long long)calvin_xdp_stat(&c.dir[d], i));
			printf("}");
		}
		if (!err && v->kind == CALVIN_VNF_ACL)
			acl_hits(&c, v);
		printf("%s}", err ? ",\"error\":\"stats unavailable\"" : "");
		return;
	}
	if (err) {
		printf("  %-12s kernel  stats unavailable: %s\n", v->name, strerror(-err));
		return;
	}
	for (d = 0; d < CALVIN_NR_DIRS; d++) {
		printf("  %-12s kernel  %s ", d ? "" : v->name, dir_name[d]);
		/* the first four always, the rest when they happened */
		for (i = 0; i < calvin_xdp_nr_stat_fields; i++)
			if (i < 4 || calvin_xdp_stat(&c.dir[d], i))
				printf(" %s %llu", calvin_xdp_stat_fields[i].name,
				       (unsigned long long)calvin_xdp_stat(&c.dir[d], i));
		printf("\n");
	}
	if (v->kind == CALVIN_VNF_ACL)
		acl_hits(&c, v);
}

/* The VNF answers a flat JSON dict inside {"/calvin/stats": }: counters,
 * and each port's PMD as a string. As text: the PMDs, the packet counts
 * of each port, and every other counter that is not zero. */
static void print_flat_dict(const char *node, const char *json)
{
	const char *p = strchr(json, ':'), *key, *end, *val_end;
	unsigned long long v;
	char *num_end;
	int klen;

	printf("  %-12s user   ", node);
	p = p ? strchr(p, '{') : NULL;
	while (p && (key = strchr(p, '"'))) {
		end = strchr(key + 1, '"');
		if (!end || end[1] != ':')
			break;
		klen = (int)(end - key - 1);
		if (end[2] == '"') {
			val_end = strchr(end + 3, '"');
			if (!val_end)
				break;
			printf(" %.*s %.*s", klen, key + 1, (int)(val_end - end - 3), end + 3);
			p = val_end + 1;
			continue;
		}
		v = strtoull(end + 2, &num_end, 10);
		if (v || (klen > 11 && (!strncmp(end - 10, "rx_packets", 10) ||
					!strncmp(end - 10, "tx_packets", 10))))
			printf(" %.*s %llu", klen, key + 1, v);
		p = num_end;
	}
	printf("\n");
}

static void user_stats(const struct calvin_chain_spec *spec, unsigned int vnf, bool first)
{
	const char *node = spec->vnfs[vnf].name;
	char buf[16384];
	int err;

	err = backend_of(spec)->user_stats(spec, vnf, buf, sizeof(buf));
	if (not_answering(node, "user", err, first))
		return;
	if (calvin_json) {
		printf("%s{\"name\":\"%s\",\"space\":\"user\",", first ? "" : ",", node);
		if (err)
			printf("\"error\":\"telemetry socket: %s\"}", strerror(-err));
		else
			printf("\"telemetry\":%s}", buf);
		return;
	}
	if (err)
		printf("  %-12s user    telemetry socket unavailable: %s\n", node, strerror(-err));
	else
		print_flat_dict(node, buf);
}

/* What placement gave less than asked: one line per VNF, as the
 * reports say it. */
static void placement_notes(const char *chain)
{
	struct calvin_degraded d[CALVIN_MAX_VNFS];
	unsigned int n = chain_degraded(chain, d), i;
	char line[CALVIN_NAME_MAX + CALVIN_WHY_MAX + 64];

	if (calvin_json) {
		printf("\"placement\":");
		calvin_degraded_json(stdout, d, n);
		printf(",");
		return;
	}
	for (i = 0; i < n; i++) {
		calvin_degraded_text(&d[i], line, sizeof(line));
		printf("  placement: %s\n", line);
	}
}

static int chain_status(const char *chain, bool first)
{
	struct calvin_chain_spec spec;
	struct isolate_host host;
	unsigned int i;
	int rc;

	rc = deployed_spec(chain, &spec);
	if (rc)
		return rc;
	if (calvin_json)
		printf("%s{\"chain\":\"%s\",", first ? "" : ",", chain);
	else
		printf("chain %s (%s)\n", chain, spec.path);
	placement_notes(chain);
	if (calvin_json)
		printf("\"vnfs\":[");
	for (i = 0; i < spec.nr_vnfs; i++) {
		if (spec.vnfs[i].space == CALVIN_KERNEL)
			kernel_stats(&spec, i, i == 0);
		else
			user_stats(&spec, i, i == 0);
	}
	if (calvin_json)
		printf("]");
	if (!isolate_host_detect(&host))
		isolation_status(stdout, &host, &spec, calvin_json);
	if (calvin_json)
		printf("}");
	return 0;
}

int cmd_status(const struct cmd_args *a)
{
	struct dirent *de;
	bool first = true;
	int rc = 0;
	size_t n;
	DIR *dir;

	rc = a->nr ? check_name("chain", a->arg[0]) : 0;
	if (!rc)
		rc = need_root("calvin status");
	if (!rc)
		rc = state_dir_check(false);
	if (rc)
		return rc;
	if (calvin_json)
		printf("[");
	if (a->nr) {
		rc = chain_status(a->arg[0], true);
	} else if ((dir = opendir(calvin_run_dir()))) {
		while ((de = readdir(dir))) {
			n = strlen(de->d_name);
			if (n <= 6 || strcmp(de->d_name + n - 6, ".state"))
				continue;
			de->d_name[n - 6] = '\0';
			if (calvin_name_valid(de->d_name) && !chain_status(de->d_name, first))
				first = false;
		}
		closedir(dir);
	}
	if (calvin_json)
		printf("]\n");
	return rc ? rc : silent_vnf ? CALVIN_EXIT_FAIL : 0;
}
