// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Probe results and the per-reply accounting that fills them. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "measure/measure.h"

void calvin_probe_result_init(struct calvin_probe_result *r)
{
	unsigned int i;

	memset(r, 0, sizeof(*r));
	calvin_hist_init(&r->rtt);
	calvin_hist_init(&r->link_out);
	for (i = 0; i < CALVIN_TLM_MAX_HOPS; i++) {
		calvin_hist_init(&r->pos[i].residence);
		calvin_hist_init(&r->pos[i].link_in);
	}
	r->end_links_valid = true;
}

struct calvin_probe_result *calvin_probe_result_new(void)
{
	struct calvin_probe_result *r = malloc(sizeof(*r));

	if (r)
		calvin_probe_result_init(r);
	return r;
}

void calvin_probe_result_free(struct calvin_probe_result *r)
{
	free(r);
}

int calvin_probe_acct_init(struct calvin_probe_acct *a, struct calvin_probe_result *r,
			   unsigned int count, int64_t offset_ns)
{
	memset(a, 0, sizeof(*a));
	a->seen = calloc(count / 8 + 1, 1);
	if (!a->seen)
		return -ENOMEM;
	a->r = r;
	a->count = count;
	a->offset_ns = offset_ns;
	return 0;
}

void calvin_probe_acct_free(struct calvin_probe_acct *a)
{
	free(a->seen);
	a->seen = NULL;
}

/* Is every timestamp along probe -> hops -> probe non-decreasing? Only
 * neighbours in the same clock domain can be compared. */
static bool timeline_ordered(const struct calvin_tlm *t, uint64_t tx_mono, uint64_t rx_mono)
{
	uint64_t prev = tx_mono;
	uint8_t prev_clock = CALVIN_CLOCK_HOST_MONO;
	unsigned int i;

	if (rx_mono < tx_mono)
		return false;
	for (i = 0; i < t->nr_hops; i++) {
		const struct calvin_hop *h = &t->hops[i];

		if (h->clock == prev_clock && h->t_in < prev)
			return false;
		if (h->t_out < h->t_in)
			return false;
		prev = h->t_out;
		prev_clock = h->clock;
	}
	return prev_clock != CALVIN_CLOCK_HOST_MONO || rx_mono >= prev;
}

/* The path of the first full reply becomes the reference every later
 * reply is compared with, position by position. */
static void path_learn(struct calvin_probe_result *r, const struct calvin_tlm *t)
{
	unsigned int i;

	r->nr_pos = t->nr_hops;
	for (i = 0; i < t->nr_hops; i++) {
		const struct calvin_hop *h = &t->hops[i];
		struct calvin_probe_pos *p = &r->pos[i];

		p->vnf_id = h->vnf_id;
		p->dir = h->dir;
		p->space = h->space;
		p->clock = h->clock;
		if (i == 0) {
			p->link_in_valid = h->clock == CALVIN_CLOCK_HOST_MONO;
		} else {
			p->link_in_valid = h->clock == t->hops[i - 1].clock;
			p->via_server =
			    t->hops[i - 1].dir == CALVIN_DIR_FWD && h->dir == CALVIN_DIR_REV;
		}
	}
	r->link_out_valid =
	    t->nr_hops > 0 && t->hops[t->nr_hops - 1].clock == CALVIN_CLOCK_HOST_MONO;
	r->path_known = true;
}

static bool path_matches(const struct calvin_probe_result *r, const struct calvin_tlm *t)
{
	unsigned int i;

	if (t->nr_hops != r->nr_pos)
		return false;
	for (i = 0; i < t->nr_hops; i++)
		if (t->hops[i].vnf_id != r->pos[i].vnf_id || t->hops[i].dir != r->pos[i].dir)
			return false;
	return true;
}

/* Per-position residence and link times. A link is added only when both
 * ends read the same clock in this very reply, and never as a negative. */
static void account_hops(struct calvin_probe_result *r, const struct calvin_tlm *t,
			 uint64_t tx_mono, uint64_t rx_mono)
{
	const struct calvin_hop *h, *prev;
	unsigned int i;

	for (i = 0; i < t->nr_hops; i++) {
		h = &t->hops[i];
		if (h->t_out >= h->t_in)
			calvin_hist_add(&r->pos[i].residence, h->t_out - h->t_in);
		if (i == 0) {
			if (h->clock == CALVIN_CLOCK_HOST_MONO && h->t_in >= tx_mono)
				calvin_hist_add(&r->pos[0].link_in, h->t_in - tx_mono);
			continue;
		}
		prev = &t->hops[i - 1];
		if (h->clock == prev->clock && h->t_in >= prev->t_out)
			calvin_hist_add(&r->pos[i].link_in, h->t_in - prev->t_out);
	}
	if (t->nr_hops == 0)
		return;
	h = &t->hops[t->nr_hops - 1];
	if (h->clock == CALVIN_CLOCK_HOST_MONO && rx_mono >= h->t_out)
		calvin_hist_add(&r->link_out, rx_mono - h->t_out);
}

int calvin_probe_account(struct calvin_probe_acct *a, uint64_t tx_real, uint64_t rx_real,
			 const struct calvin_tlm *t, unsigned int flags)
{
	struct calvin_probe_result *r = a->r;
	uint64_t tx_mono, rx_mono;
	uint32_t seq = t->seq;

	if (seq >= a->count) {
		r->bad_replies++;
		return -EINVAL;
	}
	if (a->seen[seq / 8] & (1u << (seq % 8))) {
		r->duplicates++;
		return 1;
	}
	a->seen[seq / 8] |= (uint8_t)(1u << (seq % 8));
	r->received++;
	if (a->any && seq < a->highest)
		r->reordered++;
	else
		a->highest = seq;
	a->any = true;

	if (flags & CALVIN_ACCT_TX_USER)
		r->tx_fallback++;
	if (flags & CALVIN_ACCT_RX_USER)
		r->rx_fallback++;
	if (r->received == 1 || t->nr_hops < r->hops_min)
		r->hops_min = t->nr_hops;
	if (t->nr_hops > r->hops_max)
		r->hops_max = t->nr_hops;
	if (t->flags & CALVIN_TLM_F_OVERFLOW)
		r->overflow++;

	if (rx_real >= tx_real)
		calvin_hist_add(&r->rtt, rx_real - tx_real);
	tx_mono = (uint64_t)((int64_t)tx_real - a->offset_ns);
	rx_mono = (uint64_t)((int64_t)rx_real - a->offset_ns);
	if (!timeline_ordered(t, tx_mono, rx_mono))
		r->misordered++;

	if (!r->path_known) {
		/* The reference is a full path: every pre-sized record filled, none
		 * lost to overflow. A shorter one (a probe a decoder recovered
		 * from repairs carries only the records stamped after it) is a
		 * mismatch, not the reference. */
		if (t->flags & CALVIN_TLM_F_OVERFLOW)
			return 0; /* counted as overflow */
		if (t->nr_hops < t->max_hops) {
			r->path_mismatch++;
			return 0;
		}
		path_learn(r, t);
	} else if (!path_matches(r, t)) {
		r->path_mismatch++;
		return 0;
	}
	account_hops(r, t, tx_mono, rx_mono);
	return 0;
}

void calvin_probe_finish(struct calvin_probe_acct *a, int64_t offset_end_ns, uint64_t unc_ns)
{
	struct calvin_probe_result *r = a->r;
	int64_t step = offset_end_ns - a->offset_ns;

	r->lost = r->sent > r->received ? r->sent - r->received : 0;
	r->offset_ns = a->offset_ns;
	r->offset_unc_ns = unc_ns;
	r->offset_step_ns = step;
	if ((uint64_t)llabs(step) > CALVIN_PROBE_STEP_MAX_NS + 2 * unc_ns) {
		/* probe times were converted with a stale offset for part of the run */
		r->end_links_valid = false;
		calvin_hist_init(&r->pos[0].link_in);
		calvin_hist_init(&r->link_out);
	}
}
