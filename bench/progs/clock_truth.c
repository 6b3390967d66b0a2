// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The in-band clock offset estimator (userspace/lib/measure/clock.c)
 * against a known truth.
 *
 *   clock_truth RAW
 *
 * RAW is `calvin probe --raw` of a chain whose nodes all run on this
 * host's clock (namespaces: every hop record stamped by CLOCK_MONOTONIC).
 * This program accounts the replies again as if each VNF were a clock
 * domain of its own, as a VM is, so the estimator runs on every link
 * between two VNFs and between the probe and a VNF; the true offset of
 * each is 0, so the offset it reports is its error. Prints one line per
 * link it estimated:
 *
 *   link K FROM->TO offset_ns O bound_ns B rtt_min_ns R samples N within yes|no
 *
 * and a last line "links L max_error_ns E max_bound_ns M outside X".
 * Exit 0 when every error is within its bound, 1 when one is not, 2 for
 * bad use or input. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure/measure.h"

#define MAX_PROBES (1u << 20)

/* One line of --raw: "SEQ TX RX N" then N times "VNF DIR T_IN T_OUT". */
static int parse(char *line, struct calvin_tlm *t, uint64_t *tx, uint64_t *rx)
{
	unsigned int seq, n, i, vnf, dir;
	int used;
	char *p = line;

	memset(t, 0, sizeof(*t));
	if (sscanf(p, "%u %" SCNu64 " %" SCNu64 " %u%n", &seq, tx, rx, &n, &used) != 4 ||
	    n > CALVIN_TLM_MAX_HOPS || seq >= MAX_PROBES)
		return -EINVAL;
	p += used;
	t->seq = seq;
	t->nr_hops = (uint8_t)n;
	/* the first line's path is the reference: a chain without a decoder */
	t->max_hops = (uint8_t)n;
	for (i = 0; i < n; i++) {
		struct calvin_hop *h = &t->hops[i];

		if (sscanf(p, "%u %u %" SCNu64 " %" SCNu64 "%n", &vnf, &dir, &h->t_in, &h->t_out,
			   &used) != 4 ||
		    vnf > 250)
			return -EINVAL;
		p += used;
		h->vnf_id = (uint8_t)vnf;
		h->dir = (uint8_t)dir;
		/* the point of the program: each VNF a domain of its own */
		h->clock = (uint8_t)(vnf + 1);
	}
	return 0;
}

static int account_file(FILE *f, struct calvin_probe_acct *a)
{
	char line[4096];
	unsigned int nr = 0, lineno = 0;
	struct calvin_tlm t;
	uint64_t tx, rx;

	while (fgets(line, sizeof(line), f)) {
		lineno++;
		if (parse(line, &t, &tx, &rx)) {
			fprintf(stderr, "clock_truth: line %u: not a line of calvin probe --raw\n",
				lineno);
			return -EINVAL;
		}
		if (calvin_probe_account(a, tx, rx, &t, 0) == 0)
			nr++;
	}
	if (!nr) {
		fprintf(stderr, "clock_truth: no reply to account\n");
		return -ENODATA;
	}
	return 0;
}

static int report(const struct calvin_probe_result *r)
{
	unsigned int k, links = 0, outside = 0;
	uint64_t max_err = 0, max_bound = 0;

	for (k = 0; k <= r->nr_pos; k++) {
		const struct calvin_link_clock *c = calvin_link_estimated(r, k);
		uint64_t err;

		if (!c)
			continue;
		err = (uint64_t)(c->offset < 0 ? -c->offset : c->offset);
		links++;
		outside += err > c->bound;
		max_err = err > max_err ? err : max_err;
		max_bound = c->bound > max_bound ? c->bound : max_bound;
		printf("link %u %u->%u offset_ns %" PRId64 " bound_ns %" PRIu64 " rtt_min_ns %" PRIu64
		       " samples %" PRIu64 " within %s\n",
		       k, c->from, c->to, c->offset, c->bound, c->rtt_min, c->samples,
		       err <= c->bound ? "yes" : "no");
	}
	printf("links %u max_error_ns %" PRIu64 " max_bound_ns %" PRIu64 " outside %u\n", links,
	       max_err, max_bound, outside);
	if (!links)
		fprintf(stderr, "clock_truth: no link was estimated\n");
	return !links ? 2 : outside ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct calvin_probe_result *r;
	struct calvin_probe_acct a;
	FILE *f;
	int rc;

	if (argc != 2) {
		fprintf(stderr, "usage: clock_truth RAW (the file of calvin probe --raw)\n");
		return 2;
	}
	f = fopen(argv[1], "r");
	if (!f) {
		fprintf(stderr, "clock_truth: %s: %s\n", argv[1], strerror(errno));
		return 2;
	}
	r = calvin_probe_result_new();
	if (!r || calvin_probe_acct_init(&a, r, MAX_PROBES, 0)) {
		fprintf(stderr, "clock_truth: out of memory\n");
		fclose(f);
		return 2;
	}
	rc = account_file(f, &a) ? 2 : 0;
	fclose(f);
	if (!rc) {
		calvin_probe_finish(&a, 0, 0);
		rc = report(r);
	}
	calvin_probe_acct_free(&a);
	calvin_probe_result_free(r);
	return rc;
}
