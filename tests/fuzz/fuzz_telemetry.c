// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* libFuzzer harness: arbitrary bytes into the telemetry decoder and hop push. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "telemetry.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int hop_equal(const struct calvin_hop *a, const struct calvin_hop *b)
{
	return a->vnf_id == b->vnf_id && a->space == b->space && a->clock == b->clock &&
	       a->dir == b->dir && a->t_in == b->t_in && a->t_out == b->t_out;
}

/* Beyond memory safety: decode and push agree on what is a valid block,
 * and a pushed hop decodes back to what was pushed. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct calvin_hop hop = {.vnf_id = 0xbeef,
				 .space = 1,
				 .clock = 2,
				 .dir = 1,
				 .t_in = 0x0102030405060708ull,
				 .t_out = 0x1112131415161718ull};
	struct calvin_tlm before, after;
	int dret, pret;
	uint8_t *buf;

	buf = malloc(size ? size : 1);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	dret = calvin_tlm_decode(buf, size, &before);
	if (!dret && (before.max_hops == 0 || before.max_hops > CALVIN_TLM_MAX_HOPS ||
		      before.nr_hops > before.max_hops))
		abort();
	pret = calvin_tlm_push_hop(buf, size, &hop);
	if (dret) {
		/* a block the decoder refuses is refused, untouched, by push */
		if (pret != dret || memcmp(buf, data, size))
			abort();
		goto out;
	}
	if (calvin_tlm_decode(buf, size, &after))
		abort();
	if (pret == -ENOSPC) {
		if (!(after.flags & CALVIN_TLM_F_OVERFLOW) || after.nr_hops != before.nr_hops)
			abort();
	} else if (pret != before.nr_hops || after.nr_hops != before.nr_hops + 1 ||
		   !hop_equal(&after.hops[pret], &hop)) {
		abort();
	}
out:
	free(buf);
	return 0;
}
