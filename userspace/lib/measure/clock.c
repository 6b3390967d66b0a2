// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Links across clock domains: the offset between two domains estimated in
 * band from a probe's records (the four timestamps of NTP, with a
 * minimum-delay filter over the run), or taken from a better source, and
 * each such link's times with the bound that offset leaves them. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "measure/measure.h"

/* The clock domain at each end of link k: the probe's is the host's. */
static uint8_t clock_from(const struct calvin_probe_result *r, unsigned int k)
{
	return k == 0 ? CALVIN_CLOCK_HOST_MONO : r->pos[k - 1].clock;
}

static uint8_t clock_to(const struct calvin_probe_result *r, unsigned int k)
{
	return k == r->nr_pos ? CALVIN_CLOCK_HOST_MONO : r->pos[k].clock;
}

/* The link back between the same two domains: the mirror of k on a
 * symmetric path first, else any that goes the other way. */
static int link_back(const struct calvin_probe_result *r, unsigned int k)
{
	unsigned int j, m = r->nr_pos - k;

	if (clock_from(r, m) == clock_to(r, k) && clock_to(r, m) == clock_from(r, k))
		return (int)m;
	for (j = 0; j <= r->nr_pos; j++)
		if (clock_from(r, j) == clock_to(r, k) && clock_to(r, j) == clock_from(r, k))
			return (int)j;
	return -1;
}

static const struct calvin_clock_ref *find_ref(const struct calvin_probe_result *r, uint8_t from,
					       uint8_t to, int *sign)
{
	unsigned int i;

	for (i = 0; i < r->nr_refs; i++) {
		*sign = r->refs[i].from == from && r->refs[i].to == to	 ? 1
			: r->refs[i].from == to && r->refs[i].to == from ? -1
									 : 0;
		if (*sign)
			return &r->refs[i];
	}
	return NULL;
}

int calvin_clock_ref_add(struct calvin_probe_result *r, const struct calvin_clock_ref *ref)
{
	int sign;

	if (ref->from == ref->to || !ref->source)
		return -EINVAL;
	if (find_ref(r, ref->from, ref->to, &sign))
		return -EEXIST;
	if (r->nr_refs == CALVIN_MAX_CLOCK_REFS)
		return -ENOSPC;
	r->refs[r->nr_refs++] = *ref;
	return 0;
}

int calvin_clock_ref_chain(const struct calvin_clock_ref *ab, const struct calvin_clock_ref *bc,
			   const char *source, struct calvin_clock_ref *ac)
{
	if (ab->to != bc->from || ab->from == bc->to)
		return -EINVAL;
	ac->from = ab->from;
	ac->to = bc->to;
	/* (b - a) + (c - b); each error at most its bound, so the sum's at
	 * most the sum of the bounds */
	ac->offset_ns = ab->offset_ns + bc->offset_ns;
	ac->bound_ns = ab->bound_ns + bc->bound_ns;
	ac->source = source;
	return 0;
}

void calvin_clock_learn(struct calvin_probe_result *r)
{
	unsigned int k;

	for (k = 0; k <= r->nr_pos; k++) {
		struct calvin_link_clock *c = &r->clk[k];

		memset(c, 0, sizeof(*c));
		c->from = clock_from(r, k);
		c->to = clock_to(r, k);
		c->cross = c->from != c->to;
		c->back = c->cross ? link_back(r, k) : -1;
		/* until calvin_clock_finish(), its histogram holds raw values */
		c->why = c->cross ? "different clock domains, not estimated yet: the run has not "
				    "finished"
				  : NULL;
		c->lo = INT64_MIN;
		c->hi = INT64_MAX;
		c->rtt_min = UINT64_MAX;
	}
}

/* Where the link's values start: a value below it would mean a negative
 * link time by every offset the run allows. From a better source, its
 * offset less its bound; in band, the lowest offset the first probe
 * allows (minus its way back). */
static bool set_base(struct calvin_probe_result *r, unsigned int k, const int64_t *raw)
{
	struct calvin_link_clock *c = &r->clk[k];
	const struct calvin_clock_ref *ref;
	int sign;

	if (c->based)
		return true;
	ref = find_ref(r, c->from, c->to, &sign);
	c->ref_base = ref != NULL;
	if (ref)
		c->base = sign * ref->offset_ns - (int64_t)ref->bound_ns;
	else if (c->back >= 0)
		c->base = -raw[c->back];
	else
		return false;
	c->based = true;
	return true;
}

/* raw[k] is link k's t_in minus the t_out before it, each on its own
 * clock: the link's time plus the offset clock(to) - clock(from). With
 * the link back, one probe gives NTP's four timestamps: the offset is
 * half their difference, within half their sum (the round trip), as no
 * link takes less than nothing. */
void calvin_clock_account(struct calvin_probe_result *r, unsigned int k, const int64_t *raw,
			  struct calvin_hist *h)
{
	struct calvin_link_clock *c = &r->clk[k];
	bool bad = false;
	int64_t v, rtt;

	if (c->back >= 0) {
		rtt = raw[k] + raw[c->back];
		bad = rtt < 0;
		if (!bad) {
			c->samples++;
			if ((uint64_t)rtt < c->rtt_min) {
				c->rtt_min = (uint64_t)rtt;
				c->offset = (raw[k] - raw[c->back]) / 2;
			}
			if (-raw[c->back] > c->lo)
				c->lo = -raw[c->back];
			if (raw[k] < c->hi)
				c->hi = raw[k];
		}
	}
	/* a first probe that waited long on its way back left the base far
	 * below the offset, and the histogram's values (the link plus that
	 * wait) coarse: move it up once a probe allows more than a round trip */
	if (c->based && !c->ref_base && c->samples && h->count &&
	    c->lo - c->base > (int64_t)c->rtt_min && !calvin_hist_shift(h, c->lo - c->base))
		c->base = c->lo;
	if (set_base(r, k, raw)) {
		v = raw[k] - c->base;
		bad |= v < 0;
		calvin_hist_add(h, v > 0 ? (uint64_t)v : 0);
	}
	c->inconsistent += bad;
}

/* The in-band estimate, or why there is none. */
static const char *inband(struct calvin_link_clock *c)
{
	if (c->back < 0)
		return "different clock domains, not estimated: no link back between them "
		       "(one direction only)";
	if (!c->samples)
		return "different clock domains, not estimated: no probe came back with both "
		       "ways of this link";
	/* each probe says the offset lies in [lo, hi]; when they disagree,
	 * the clocks moved against each other during the run by at least
	 * the gap, and the bound takes that in */
	c->moved = c->lo > c->hi ? (uint64_t)(c->lo - c->hi) : 0;
	c->bound = (c->rtt_min + 1) / 2 + c->moved;
	c->source = CALVIN_CLOCK_SRC_INBAND;
	return NULL;
}

static struct calvin_hist *link_hist(struct calvin_probe_result *r, unsigned int k)
{
	return k == r->nr_pos ? &r->link_out : &r->pos[k].link_in;
}

void calvin_clock_finish(struct calvin_probe_result *r)
{
	const struct calvin_clock_ref *ref;
	unsigned int k;
	int sign;

	for (k = 0; r->path_known && k <= r->nr_pos; k++) {
		struct calvin_link_clock *c = &r->clk[k];

		if (!c->cross)
			continue;
		if ((k == 0 || k == r->nr_pos) && !r->end_links_valid) {
			c->why = "clock step during the run";
			continue;
		}
		c->why = inband(c);
		ref = find_ref(r, c->from, c->to, &sign);
		if (ref && (c->why || ref->bound_ns < c->bound)) {
			c->why = NULL;
			c->offset = sign * ref->offset_ns;
			c->bound = ref->bound_ns;
			c->source = ref->source;
		}
		if (!c->why && c->based)
			calvin_hist_shift(link_hist(r, k), c->offset - c->base);
		else
			calvin_hist_init(link_hist(r, k));
	}
}

const struct calvin_link_clock *calvin_link_estimated(const struct calvin_probe_result *r,
						      unsigned int k)
{
	if (!r->path_known || k > r->nr_pos || !r->clk[k].cross || r->clk[k].why)
		return NULL;
	return &r->clk[k];
}
