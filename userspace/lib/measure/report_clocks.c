// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The report's clock offsets: for each pair of clock domains a link
 * crosses, the offset calvin used for its times, its bound and where it
 * came from (clock.c), as text, JSON, Markdown and CSV. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report_priv.h"
#include "util/util.h"

const char *calvin_clock_name(const struct calvin_chain_spec *spec,
			      const struct calvin_probe_result *r, uint8_t clock, char *buf)
{
	char name[CALVIN_NAME_MAX + 1];
	unsigned int i;

	if (clock == CALVIN_CLOCK_HOST_MONO)
		return "host";
	for (i = 0; i < r->nr_pos; i++)
		if (r->pos[i].clock == clock) {
			snprintf(buf, CALVIN_LABEL_LEN, "VM %s",
				 calvin_report_vnf_name(spec, r->pos[i].vnf_id, name));
			return buf;
		}
	snprintf(buf, CALVIN_LABEL_LEN, "clock %u", clock);
	return buf;
}

/* "+12.345678901s": an offset between two clocks is any size (VMs boot
 * at different times), so in full, to the ns. */
static const char *fmt_offset(char *buf, int64_t ns)
{
	uint64_t a = ns < 0 ? -(uint64_t)ns : (uint64_t)ns;

	snprintf(buf, CALVIN_DUR_LEN, "%c%" PRIu64 ".%09" PRIu64 "s", ns < 0 ? '-' : '+',
		 a / 1000000000, a % 1000000000);
	return buf;
}

/* One line per pair of domains: the link and its way back share it. */
static bool pair_first(const struct calvin_link_clock *c, unsigned int k)
{
	return c->back < 0 || k <= (unsigned int)c->back;
}

void calvin_report_clock_line(const struct calvin_chain_spec *spec,
			      const struct calvin_probe_result *r, unsigned int k, char *buf,
			      size_t len)
{
	const struct calvin_link_clock *c = &r->clk[k];
	char a[CALVIN_LABEL_LEN], b[CALVIN_LABEL_LEN], o[CALVIN_DUR_LEN], d1[CALVIN_DUR_LEN],
	    d2[CALVIN_DUR_LEN];
	size_t n;

	n = (size_t)snprintf(buf, len, "%s - %s %s ±%s (%s", calvin_clock_name(spec, r, c->to, a),
			     calvin_clock_name(spec, r, c->from, b), fmt_offset(o, c->offset),
			     calvin_fmt_ns(d1, c->bound), c->source);
	if (n < len && !strcmp(c->source, CALVIN_CLOCK_SRC_INBAND))
		n += (size_t)snprintf(buf + n, len - n,
				      ": smallest round trip %s of %" PRIu64 " probes",
				      calvin_fmt_ns(d1, c->rtt_min), c->samples);
	if (n < len && c->moved)
		n +=
		    (size_t)snprintf(buf + n, len - n, "; the clocks moved %s apart during the run",
				     calvin_fmt_ns(d2, c->moved));
	if (n < len && c->inconsistent)
		n += (size_t)snprintf(buf + n, len - n, "; %" PRIu64 " probes inconsistent",
				      c->inconsistent);
	if (n < len)
		snprintf(buf + n, len - n, ")");
}

void calvin_report_clocks_text(FILE *f, const struct calvin_chain_spec *spec,
			       const struct calvin_probe_result *r)
{
	char line[CALVIN_CLOCK_LINE_LEN];
	unsigned int k;
	bool head = false;

	for (k = 0; r->path_known && k <= r->nr_pos; k++) {
		if (!calvin_link_estimated(r, k) || !pair_first(&r->clk[k], k))
			continue;
		if (!head)
			fprintf(
			    f,
			    "clock offsets (links across them are estimated, within the bound)\n");
		head = true;
		calvin_report_clock_line(spec, r, k, line, sizeof(line));
		fprintf(f, "  %s\n", line);
	}
}

struct json_object *calvin_report_clocks_jarr(const struct calvin_chain_spec *spec,
					      const struct calvin_probe_result *r)
{
	struct json_object *a = jw_arr(), *o;
	char name[CALVIN_LABEL_LEN];
	unsigned int k;

	for (k = 0; r->path_known && k <= r->nr_pos; k++) {
		const struct calvin_link_clock *c = &r->clk[k];

		if (!c->cross || !pair_first(c, k))
			continue;
		o = jw_obj();
		jw_u64(o, "link", k);
		if (c->back >= 0)
			jw_u64(o, "link_back", (uint64_t)c->back);
		else
			jw_null(o, "link_back");
		jw_u64(o, "from_clock", c->from);
		jw_str(o, "from", calvin_clock_name(spec, r, c->from, name));
		jw_u64(o, "to_clock", c->to);
		jw_str(o, "to", calvin_clock_name(spec, r, c->to, name));
		jw_bool(o, "estimated", !c->why);
		if (c->why) {
			jw_str(o, "reason", c->why);
		} else {
			jw_str(o, "source", c->source);
			jw_i64(o, "offset_ns", c->offset);
			jw_u64(o, "bound_ns", c->bound);
			jw_u64(o, "moved_ns", c->moved);
		}
		jw_u64(o, "samples", c->samples);
		if (c->samples)
			jw_u64(o, "rtt_min_ns", c->rtt_min);
		jw_u64(o, "inconsistent", c->inconsistent);
		jw_push(a, o);
	}
	return a;
}

void calvin_report_clocks_csv(FILE *f, const struct calvin_chain_spec *spec,
			      const struct calvin_probe_result *r)
{
	char a[CALVIN_LABEL_LEN], b[CALVIN_LABEL_LEN];
	unsigned int k;

	fputs("link,link_back,from,to,estimated,source,offset_ns,bound_ns,rtt_min_ns,samples,"
	      "moved_ns,inconsistent,reason\n",
	      f);
	for (k = 0; r->path_known && k <= r->nr_pos; k++) {
		const struct calvin_link_clock *c = &r->clk[k];

		if (!c->cross)
			continue;
		fprintf(f, "%u,", k);
		if (c->back >= 0)
			fprintf(f, "%d", c->back);
		fprintf(f, ",%s,%s,%d,", calvin_clock_name(spec, r, c->from, a),
			calvin_clock_name(spec, r, c->to, b), !c->why);
		if (!c->why)
			fprintf(f, "%s,%" PRId64 ",%" PRIu64, c->source, c->offset, c->bound);
		else
			fputs(",,", f);
		fputc(',', f);
		if (c->samples)
			fprintf(f, "%" PRIu64, c->rtt_min);
		fprintf(f, ",%" PRIu64 ",", c->samples);
		if (!c->why)
			fprintf(f, "%" PRIu64, c->moved);
		fprintf(f, ",%" PRIu64 ",\"%s\"\n", c->inconsistent, c->why ? c->why : "");
	}
}
