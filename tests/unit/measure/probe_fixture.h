/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Synthetic probe runs of the reference chain for the report tests: a
 * spec, a result and its accounting, replies with known times. */
#ifndef CALVIN_TEST_PROBE_FIXTURE_H
#define CALVIN_TEST_PROBE_FIXTURE_H

#include "measure/measure.h"

#define OFF 1000000000000LL /* REALTIME - MONOTONIC of the synthetic runs */

struct fixture {
	struct calvin_chain_spec spec;
	struct calvin_probe_result *r;
	struct calvin_probe_acct a;
};

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));

	assert_non_null(fx);
	strcpy(fx->spec.name, "tactile-fwd");
	fx->spec.budget_ns = 350000;
	fx->spec.nr_vnfs = 2;
	strcpy(fx->spec.vnfs[0].name, "fwd-k");
	fx->spec.vnfs[0].space = CALVIN_KERNEL;
	strcpy(fx->spec.vnfs[1].name, "fwd-u");
	fx->spec.vnfs[1].space = CALVIN_USER;
	fx->r = calvin_probe_result_new();
	assert_non_null(fx->r);
	fx->r->count = 10;
	fx->r->rate = 1000;
	fx->r->size = 256;
	fx->r->max_hops = 4;
	fx->r->ts_source = "kernel software timestamps (SO_TIMESTAMPING)";
	assert_int_equal(calvin_probe_acct_init(&fx->a, fx->r, 10, OFF), 0);
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;

	calvin_probe_acct_free(&fx->a);
	calvin_probe_result_free(fx->r);
	free(fx);
	return 0;
}

/* A reply of the reference chain: probe sends at mono time tx, each hop
 * takes 100 ns, links 1000 ns, the server 2000 ns; base shifts every time. */
static void make_reply(struct calvin_tlm *t, uint32_t seq, uint64_t tx)
{
	static const uint16_t id[4] = {0, 1, 1, 0};
	static const uint8_t dir[4] = {CALVIN_DIR_FWD, CALVIN_DIR_FWD, CALVIN_DIR_REV,
				       CALVIN_DIR_REV};
	uint64_t now = tx;
	int i;

	memset(t, 0, sizeof(*t));
	t->version = CALVIN_TLM_VERSION;
	t->max_hops = 4;
	t->nr_hops = 4;
	t->seq = seq;
	for (i = 0; i < 4; i++) {
		now += i == 2 ? 2000 : 1000;
		t->hops[i].vnf_id = id[i];
		t->hops[i].space = id[i] ? CALVIN_SPACE_USER : CALVIN_SPACE_KERNEL;
		t->hops[i].dir = dir[i];
		t->hops[i].t_in = now;
		now += 100;
		t->hops[i].t_out = now;
	}
}

/* rx is 1000 ns after the last hop: RTT = 4*100 + 4*1000 + 2000 = 6400 */
static int feed(struct fixture *fx, uint32_t seq, uint64_t tx_mono, unsigned int flags)
{
	struct calvin_tlm t;

	make_reply(&t, seq, tx_mono);
	return calvin_probe_account(&fx->a, tx_mono + OFF, t.hops[3].t_out + 1000 + OFF, &t, flags);
}

#endif /* CALVIN_TEST_PROBE_FIXTURE_H */
