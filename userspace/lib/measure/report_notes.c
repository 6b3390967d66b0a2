// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* What a report says after its verdict: where a chain that missed its
 * budget spent it (the hop or link with the largest p99), and what the
 * placement could not give (the plan record's degraded VNFs). */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "report_priv.h"
#include "util/util.h"

/* A label of calvin_report_hop_label() without the padding that lines up
 * the table's columns. */
static void squeeze(char *s)
{
	const char *p;
	char *w = s;

	for (p = s; *p; p++)
		if (*p != ' ' || (w > s && w[-1] != ' '))
			*w++ = *p;
	*w = '\0';
}

/* Candidate i: hops 0..nr_pos-1, then links 0..nr_pos. */
static const struct calvin_hist *candidate(const struct calvin_probe_result *r, unsigned int i)
{
	if (i < r->nr_pos)
		return &r->pos[i].residence;
	i -= r->nr_pos;
	return calvin_link_invalid(r, i) ? NULL : calvin_report_link_hist(r, i);
}

int calvin_report_largest_share(const struct calvin_chain_spec *spec,
				const struct calvin_probe_result *r, struct calvin_share *out)
{
	const struct calvin_hist *h;
	unsigned int i, best = 0, n = r->nr_pos ? 2 * r->nr_pos + 1 : 0;
	uint64_t p, max = 0;
	bool found = false;

	if (!r->rtt.count)
		return -ENOENT;
	for (i = 0; i < n; i++) {
		h = candidate(r, i);
		if (!h || !h->count)
			continue;
		p = calvin_hist_percentile(h, 99);
		if (!found || p > max) {
			found = true;
			max = p;
			best = i;
		}
	}
	if (!found)
		return -ENOENT;
	memset(out, 0, sizeof(*out));
	out->link = best >= r->nr_pos;
	if (out->link)
		calvin_report_link_label(spec, r, best - r->nr_pos, out->label);
	else
		calvin_report_hop_label(spec, r, best, out->label);
	squeeze(out->label);
	out->p99_ns = max;
	out->rtt_p99_ns = calvin_hist_percentile(&r->rtt, 99);
	return 0;
}

void calvin_share_text(const struct calvin_share *s, char *buf, size_t len)
{
	char d1[CALVIN_DUR_LEN], d2[CALVIN_DUR_LEN];
	double pct = s->rtt_p99_ns ? 100.0 * (double)s->p99_ns / (double)s->rtt_p99_ns : 0;

	snprintf(buf, len, "%s %s: p99 %s, %.0f%% of the p99 RTT %s", s->link ? "link" : "hop",
		 s->label, calvin_fmt_ns(d1, s->p99_ns), pct, calvin_fmt_ns(d2, s->rtt_p99_ns));
}

void calvin_report_notes_text(FILE *f, const struct calvin_chain_spec *spec,
			      const struct calvin_probe_result *r)
{
	char line[CALVIN_LABEL_LEN + CALVIN_WHY_MAX + 64];
	struct calvin_share s;
	unsigned int i;

	if (calvin_verdict(spec, r) && !calvin_report_largest_share(spec, r, &s)) {
		calvin_share_text(&s, line, sizeof(line));
		fprintf(f, "largest share: %s\n", line);
	}
	for (i = 0; i < r->nr_degraded; i++) {
		calvin_degraded_text(&r->degraded[i], line, sizeof(line));
		fprintf(f, "placement: %s\n", line);
	}
}

struct json_object *calvin_degraded_jarr(const struct calvin_degraded *d, unsigned int n)
{
	struct json_object *a = jw_arr(), *o;
	unsigned int i;

	for (i = 0; i < n; i++) {
		o = jw_obj();
		jw_str(o, "vnf", d[i].vnf);
		jw_str(o, "asked", calvin_grant_name(d[i].asked));
		jw_str(o, "granted", calvin_grant_name(d[i].granted));
		jw_str(o, "why", d[i].why);
		jw_push(a, o);
	}
	return a;
}

void calvin_report_notes_jadd(struct json_object *o, const struct calvin_chain_spec *spec,
			      const struct calvin_probe_result *r)
{
	struct json_object *share;
	struct calvin_share s;

	if (calvin_verdict(spec, r) && !calvin_report_largest_share(spec, r, &s)) {
		share = jw_obj();
		jw_str(share, "kind", s.link ? "link" : "hop");
		jw_str(share, "label", s.label);
		jw_u64(share, "p99_ns", s.p99_ns);
		jw_u64(share, "rtt_p99_ns", s.rtt_p99_ns);
		jw_add(o, "largest_share", share);
	}
	jw_add(o, "placement", calvin_degraded_jarr(r->degraded, r->nr_degraded));
}
