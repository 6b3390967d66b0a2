// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* libFuzzer harness: arbitrary bytes into the telemetry decoder and hop push. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "measure/measure.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int hop_equal(const struct calvin_hop *a, const struct calvin_hop *b)
{
	return a->vnf_id == b->vnf_id && a->space == b->space && a->clock == b->clock &&
	       a->dir == b->dir && a->t_in == b->t_in && a->t_out == b->t_out;
}

/* Beyond memory safety: decode and push agree on what is a valid header,
 * a refused block has a reason, and a pushed hop decodes back to what was
 * pushed. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct calvin_hop hop = {.vnf_id = 0xbe,
				 .space = 1,
				 .clock = 2,
				 .dir = 1,
				 .t_in = 0x0102030405060708ull,
				 .t_out = 0x0102030405060708ull + 0x12345678};
	struct calvin_tlm before, after;
	char why[160];
	int dret, pret;
	size_t blen;
	uint8_t *buf;

	buf = malloc(size ? size : 1);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	dret = calvin_tlm_decode(buf, size, &before);
	if (!dret && (before.max_hops == 0 || before.max_hops > CALVIN_TLM_MAX_HOPS ||
		      before.nr_hops > before.max_hops || before.version != CALVIN_TLM_VERSION ||
		      (before.flags & ~CALVIN_TLM_F_KNOWN)))
		abort();
	/* a block that decodes is one VNFs skip whole */
	if (!dret && calvin_tlm_block_len(buf, size) != CALVIN_TLM_LEN(before.max_hops))
		abort();
	why[0] = '\0';
	if (dret)
		calvin_tlm_why(buf, size, dret, why, sizeof(why));
	if (dret && !why[0])
		abort();
	blen = calvin_tlm_block_len(buf, size);
	pret = calvin_tlm_push_hop(buf, size, &hop);
	if (dret && !blen) {
		/* a header the decoder refuses is refused, untouched, by push */
		if (pret != dret || memcmp(buf, data, size))
			abort();
		goto out;
	}
	if (dret) {
		/* records it does not understand: a VNF still appends its own
		 * (it reads none), and the reader still refuses the block */
		if (dret != -EINVAL || calvin_tlm_decode(buf, size, &after) != -EINVAL)
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
