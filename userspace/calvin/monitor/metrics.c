// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The monitor's metrics: each window's histograms added to cumulative
 * Prometheus series (RTT, each hop's residence, each link), its counts,
 * and the exposition text of all of it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "monitor/monitor.h"

#define NS_PER_S 1e9

void mon_metrics_init(struct mon_metrics *m, const struct calvin_chain_spec *spec,
		      unsigned int rate, uint64_t window_ns)
{
	memset(m, 0, sizeof(*m));
	pthread_mutex_init(&m->lock, NULL);
	m->spec = spec;
	m->rate = rate;
	m->window_ns = window_ns;
	calvin_prom_label(m->chain_label, sizeof(m->chain_label), "chain", spec->name);
	calvin_prom_hist_init_rtt(&m->rtt, spec->budget_ns);
}

void mon_metrics_free(struct mon_metrics *m)
{
	free(m->collected);
	pthread_mutex_destroy(&m->lock);
}

/* The series with these labels, made on first sight (a path that changes
 * between windows gets series of its own). NULL when full. */
static struct calvin_prom_hist *series(struct mon_series *s, unsigned int *n, const char *labels)
{
	unsigned int i;

	for (i = 0; i < *n; i++)
		if (!strcmp(s[i].labels, labels))
			return &s[i].h;
	if (*n == MON_MAX_SERIES)
		return NULL;
	snprintf(s[*n].labels, sizeof(s[*n].labels), "%s", labels);
	calvin_prom_hist_init_hop(&s[*n].h);
	return &s[(*n)++].h;
}

static const char *vnf_name(const struct calvin_chain_spec *spec, unsigned int id)
{
	return id < spec->nr_vnfs ? spec->vnfs[id].name : "unknown";
}

static const char *dir_word(uint8_t dir)
{
	return dir == CALVIN_DIR_FWD ? "fwd" : "rev";
}

static void add_hop(struct mon_metrics *m, const struct calvin_probe_pos *p)
{
	char l[256];
	struct calvin_prom_hist *h;

	snprintf(l, sizeof(l), "%s", m->chain_label);
	calvin_prom_label(l, sizeof(l), "hop", vnf_name(m->spec, p->vnf_id));
	calvin_prom_label(l, sizeof(l), "direction", dir_word(p->dir));
	calvin_prom_label(l, sizeof(l), "tier",
			  p->space == CALVIN_SPACE_KERNEL ? "kernel" : "user");
	h = series(m->hops, &m->nr_hops, l);
	if (h)
		calvin_prom_hist_add(h, &p->residence);
}

/* Link i leads into position i (nr_pos: back to the probe). */
static void add_link(struct mon_metrics *m, const struct calvin_probe_result *r, unsigned int i,
		     const struct calvin_hist *v)
{
	char l[256], text[CALVIN_LABEL_LEN];
	struct calvin_prom_hist *h;
	bool last = i == r->nr_pos;

	if (calvin_link_invalid(r, i))
		return;
	calvin_report_link_label(m->spec, r, i, text);
	snprintf(l, sizeof(l), "%s", m->chain_label);
	calvin_prom_label(l, sizeof(l), "link", text);
	calvin_prom_label(l, sizeof(l), "hop",
			  last ? "probe" : vnf_name(m->spec, r->pos[i].vnf_id));
	calvin_prom_label(l, sizeof(l), "direction", last ? "rev" : dir_word(r->pos[i].dir));
	h = series(m->links, &m->nr_links, l);
	if (h)
		calvin_prom_hist_add(h, v);
}

void mon_metrics_window(struct mon_metrics *m, const struct calvin_probe_result *r, bool breach,
			bool p99_over, bool lost)
{
	unsigned int i;

	pthread_mutex_lock(&m->lock);
	calvin_prom_hist_add(&m->rtt, &r->rtt);
	for (i = 0; i < r->nr_pos; i++) {
		add_hop(m, &r->pos[i]);
		add_link(m, r, i, &r->pos[i].link_in);
	}
	if (r->nr_pos)
		add_link(m, r, r->nr_pos, &r->link_out);
	m->windows++;
	m->breaches += breach;
	m->breaches_p99 += p99_over;
	m->breaches_loss += lost;
	m->sent += r->sent + r->send_errors;
	m->received += r->received;
	m->lost += r->lost + r->send_errors;
	m->last_p50_ns = calvin_hist_percentile(&r->rtt, 50);
	m->last_p99_ns = calvin_hist_percentile(&r->rtt, 99);
	pthread_mutex_unlock(&m->lock);
}

void mon_metrics_collected(struct mon_metrics *m, char *text)
{
	char *old;

	pthread_mutex_lock(&m->lock);
	old = m->collected;
	m->collected = text;
	pthread_mutex_unlock(&m->lock);
	free(old);
}

static void counter(FILE *f, const char *name, const char *help, const char *labels, uint64_t v)
{
	calvin_prom_family(f, name, "counter", help);
	calvin_prom_sample(f, name, labels, (double)v);
}

static void gauge(FILE *f, const char *name, const char *help, const char *labels, double v)
{
	calvin_prom_family(f, name, "gauge", help);
	calvin_prom_sample(f, name, labels, v);
}

static void write_histograms(struct mon_metrics *m, FILE *f)
{
	unsigned int i;

	calvin_prom_family(f, "calvin_rtt_seconds", "histogram",
			   "Round-trip time of the monitor's probes through the chain.");
	calvin_prom_hist_write(f, "calvin_rtt_seconds", m->chain_label, &m->rtt);
	calvin_prom_family(f, "calvin_hop_residence_seconds", "histogram",
			   "Time a probe spent inside a VNF (t_out - t_in of its hop record).");
	for (i = 0; i < m->nr_hops; i++)
		calvin_prom_hist_write(f, "calvin_hop_residence_seconds", m->hops[i].labels,
				       &m->hops[i].h);
	calvin_prom_family(f, "calvin_link_seconds", "histogram",
			   "Time from one hop's t_out to the next hop's t_in (same clock only).");
	for (i = 0; i < m->nr_links; i++)
		calvin_prom_hist_write(f, "calvin_link_seconds", m->links[i].labels,
				       &m->links[i].h);
}

static void write_counts(struct mon_metrics *m, FILE *f)
{
	const char *c = m->chain_label;
	char l[128];

	gauge(f, "calvin_budget_seconds", "The chain's RTT budget.", c,
	      (double)m->spec->budget_ns / NS_PER_S);
	gauge(f, "calvin_monitor_window_seconds", "Length of the monitor's windows.", c,
	      (double)m->window_ns / NS_PER_S);
	gauge(f, "calvin_monitor_rate", "Monitor probes per second.", c, m->rate);
	counter(f, "calvin_monitor_windows_total", "Windows the monitor completed.", c, m->windows);
	gauge(f, "calvin_window_rtt_p99_seconds",
	      "calvin's own p99 RTT of the last window (its log-linear histogram).", c,
	      (double)m->last_p99_ns / NS_PER_S);
	gauge(f, "calvin_window_rtt_p50_seconds", "calvin's own median RTT of the last window.", c,
	      (double)m->last_p50_ns / NS_PER_S);
	counter(f, "calvin_breaches_total",
		"Windows whose p99 RTT exceeded the budget or that lost probes.", c, m->breaches);
	calvin_prom_family(f, "calvin_breach_reasons_total", "counter",
			   "Breaches by reason (a window may have both).");
	snprintf(l, sizeof(l), "%s,reason=\"p99\"", c);
	calvin_prom_sample(f, "calvin_breach_reasons_total", l, (double)m->breaches_p99);
	snprintf(l, sizeof(l), "%s,reason=\"loss\"", c);
	calvin_prom_sample(f, "calvin_breach_reasons_total", l, (double)m->breaches_loss);
	counter(f, "calvin_probes_sent_total", "Monitor probes sent (or refused by the kernel).", c,
		m->sent);
	counter(f, "calvin_probes_lost_total", "Monitor probes that did not come back.", c,
		m->lost);
	counter(f, "calvin_hook_runs_total", "Breach hooks started.", c, m->hook_runs);
	counter(f, "calvin_hook_failures_total",
		"Breach hooks that exited non-zero or by a signal.", c, m->hook_failed);
	counter(f, "calvin_hook_killed_total", "Breach hooks killed at their deadline.", c,
		m->hook_killed);
	counter(f, "calvin_hook_skipped_total", "Breaches whose hook did not run: one still ran.",
		c, m->hook_skipped);
}

void mon_metrics_write(struct mon_metrics *m, FILE *f)
{
	pthread_mutex_lock(&m->lock);
	write_histograms(m, f);
	write_counts(m, f);
	if (m->collected)
		fputs(m->collected, f);
	pthread_mutex_unlock(&m->lock);
}
