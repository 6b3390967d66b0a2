// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* A probe report's building blocks and its verdict: durations as text, the
 * labels of hops and links, which links can be measured, and whether the
 * chain is within budget; shared by the report (report.c), its notes
 * (report_notes.c) and its files (report_files.c). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "report_priv.h"

#define LABEL_LEN CALVIN_LABEL_LEN

/* Three significant digits in the largest unit that keeps the value >= 1:
 * 812ns, 1.23us, 41.2us, 350us, 1.50ms. */
const char *calvin_fmt_ns(char *buf, uint64_t ns)
{
	static const struct {
		uint64_t div;
		const char *unit;
	} units[] = {{1000000000, "s"}, {1000000, "ms"}, {1000, "us"}};
	unsigned int i;
	double v;

	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (ns < units[i].div)
			continue;
		v = (double)ns / (double)units[i].div;
		snprintf(buf, CALVIN_DUR_LEN, "%.*f%s", v < 10 ? 2 : v < 100 ? 1 : 0, v, units[i].unit);
		return buf;
	}
	snprintf(buf, CALVIN_DUR_LEN, "%" PRIu64 "ns", ns);
	return buf;
}

const char *calvin_report_vnf_name(const struct calvin_chain_spec *spec, uint16_t id, char *buf)
{
	if (id < spec->nr_vnfs)
		return spec->vnfs[id].name;
	snprintf(buf, CALVIN_NAME_MAX + 1, "vnf#%u", id);
	return buf;
}

const char *calvin_report_space_name(uint8_t space)
{
	return space == CALVIN_SPACE_KERNEL ? "kernel" : space == CALVIN_SPACE_USER ? "user" : "?";
}

void calvin_report_hop_label(const struct calvin_chain_spec *spec,
			     const struct calvin_probe_result *r, unsigned int i, char *buf)
{
	char name[CALVIN_NAME_MAX + 1];

	snprintf(buf, LABEL_LEN, "%s (%s)", calvin_report_vnf_name(spec, r->pos[i].vnf_id, name),
		 calvin_report_space_name(r->pos[i].space));
	snprintf(buf + strlen(buf), LABEL_LEN - strlen(buf), "%*s %s",
		 (int)(strlen(buf) < 22 ? 22 - strlen(buf) : 0), "",
		 r->pos[i].dir == CALVIN_DIR_FWD ? "->" : "<-");
}

void calvin_report_link_label(const struct calvin_chain_spec *spec,
			      const struct calvin_probe_result *r, unsigned int i, char *buf)
{
	char a[CALVIN_NAME_MAX + 1], b[CALVIN_NAME_MAX + 1];
	const char *from = i == 0 ? "probe" : calvin_report_vnf_name(spec, r->pos[i - 1].vnf_id, a);
	const char *to = i == r->nr_pos ? "probe" : calvin_report_vnf_name(spec, r->pos[i].vnf_id, b);
	bool via = i < r->nr_pos && r->pos[i].via_server;

	snprintf(buf, LABEL_LEN, "%s -> %s%s", from, via ? "server -> " : "", to);
}

/* The clock domain at each end of link i: the probe's is the host's. */
static uint8_t clock_before(const struct calvin_probe_result *r, unsigned int i)
{
	return i == 0 ? CALVIN_CLOCK_HOST_MONO : r->pos[i - 1].clock;
}

static uint8_t clock_after(const struct calvin_probe_result *r, unsigned int i)
{
	return i == r->nr_pos ? CALVIN_CLOCK_HOST_MONO : r->pos[i].clock;
}

const char *calvin_link_invalid(const struct calvin_probe_result *r, unsigned int i)
{
	bool end = i == 0 || i == r->nr_pos;
	bool domain = i == r->nr_pos ? r->link_out_valid : r->pos[i].link_in_valid;

	/* timestamps of two clocks that nothing synchronises: subtracting
	 * them would give a number, not a latency */
	if (!domain && clock_before(r, i) != CALVIN_CLOCK_HOST_MONO &&
	    clock_after(r, i) != CALVIN_CLOCK_HOST_MONO)
		return "different clock domains: two VMs";
	if (!domain)
		return "different clock domains: host and a VM";
	if (end && !r->end_links_valid)
		return "clock step during the run";
	return NULL;
}

const struct calvin_hist *calvin_report_link_hist(const struct calvin_probe_result *r, unsigned int i)
{
	return i == r->nr_pos ? &r->link_out : &r->pos[i].link_in;
}

int calvin_verdict_text(const struct calvin_chain_spec *spec, const struct calvin_probe_result *r,
			char *buf, size_t len)
{
	uint64_t p99 = calvin_hist_percentile(&r->rtt, 99);
	bool over = spec->budget_ns && p99 > spec->budget_ns;
	char d1[CALVIN_DUR_LEN], d2[CALVIN_DUR_LEN];
	int n = 0;

	if (!r->received) {
		snprintf(buf, len, "failed: no replies (0/%" PRIu64 ")", r->sent);
		return 1;
	}
	if (!over && !r->lost && !r->send_errors && !r->interrupted) {
		if (spec->budget_ns)
			snprintf(buf, len, "within budget (p99 RTT %s <= %s)", calvin_fmt_ns(d1, p99),
				 calvin_fmt_ns(d2, spec->budget_ns));
		else
			snprintf(buf, len, "no loss, no budget set (p99 RTT %s)", calvin_fmt_ns(d1, p99));
		return 0;
	}
	n = snprintf(buf, len, "%s:", over ? "over budget" : "failed");
	if (over)
		n += snprintf(buf + n, len - n, " p99 RTT %s > %s;", calvin_fmt_ns(d1, p99),
			      calvin_fmt_ns(d2, spec->budget_ns));
	if (r->lost)
		n += snprintf(buf + n, len - n, " loss %" PRIu64 "/%" PRIu64 ";", r->lost, r->sent);
	if (r->send_errors)
		n += snprintf(buf + n, len - n, " %" PRIu64 " probes not sent;", r->send_errors);
	if (r->interrupted)
		n += snprintf(buf + n, len - n, " interrupted after %" PRIu64 " of %u probes;",
			      r->sent, r->count);
	buf[n - 1] = '\0'; /* the last ';' */
	return 1;
}

int calvin_verdict(const struct calvin_chain_spec *spec, const struct calvin_probe_result *r)
{
	char buf[CALVIN_VERDICT_LEN];

	return calvin_verdict_text(spec, r, buf, sizeof(buf));
}
