// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Anti-replay sliding window: a circular bitmap of 64-bit words (RFC 6479). */
#include <errno.h>
#include <string.h>

#include "codec/codec.h"

int calvin_replay_init(struct calvin_replay *w, unsigned int size)
{
	unsigned int need, words = 1;

	if (size < CALVIN_REPLAY_MIN || size > CALVIN_REPLAY_MAX)
		return -EINVAL;
	/* one spare word, so the word holding top never shares bits with
	 * the oldest word still inside the window */
	need = (size + 63) / 64 + 1;
	while (words < need)
		words <<= 1;
	memset(w, 0, sizeof(*w));
	w->size = size;
	w->mask = words - 1;
	return 0;
}

static inline uint64_t bit_of(uint64_t seq)
{
	return 1ULL << (seq & 63);
}

int calvin_replay_check(const struct calvin_replay *w, uint64_t seq)
{
	if (seq == 0)
		return -EALREADY;
	if (seq > w->top)
		return 0;
	if (w->top - seq >= w->size)
		return -EALREADY;
	if (w->bits[(seq >> 6) & w->mask] & bit_of(seq))
		return -EALREADY;
	return 0;
}

void calvin_replay_update(struct calvin_replay *w, uint64_t seq)
{
	uint64_t top_word = w->top >> 6, new_word = seq >> 6, gap, i;

	if (seq > w->top) {
		/* the words the window slides over start empty; a jump of a
		 * whole bitmap or more empties all of them */
		gap = new_word - top_word;
		if (gap > (uint64_t)w->mask + 1)
			gap = (uint64_t)w->mask + 1;
		for (i = 1; i <= gap; i++)
			w->bits[(top_word + i) & w->mask] = 0;
		w->top = seq;
	}
	w->bits[new_word & w->mask] |= bit_of(seq);
}
