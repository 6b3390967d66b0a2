/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Anti-replay sliding window for 64-bit sequence numbers (RFC 4303 3.4.3).
 *
 * Pure code: no I/O, no allocation. The receiver checks a packet's sequence
 * number before it spends time on the tag (calvin_replay_check()) and
 * records it only after the tag verified (calvin_replay_update()), so a
 * forged packet can neither be accepted nor move the window.
 *
 * The window holds the W sequence numbers top-W+1 .. top, where top is the
 * highest number accepted so far; anything newer than top is accepted and
 * slides the window. The bitmap is circular (RFC 6479): it has at least one
 * 64-bit word more than W needs, so sliding clears whole words and never
 * shifts bits. Sequence number 0 is never valid. */
#ifndef CALVIN_LIB_REPLAY_H
#define CALVIN_LIB_REPLAY_H

#include <stdint.h>

#define CALVIN_REPLAY_MIN 32
#define CALVIN_REPLAY_MAX 4096
/* words for the largest window: a power of two >= 4096/64 + 1 */
#define CALVIN_REPLAY_WORDS 128

struct calvin_replay {
	uint64_t top;  /* highest sequence number accepted; 0: none yet */
	uint32_t size; /* W */
	uint32_t mask; /* number of bitmap words in use - 1 (a power of two - 1) */
	uint64_t bits[CALVIN_REPLAY_WORDS]; /* bit seq%64 of word (seq/64)&mask */
};

/* Empty window of size W (CALVIN_REPLAY_MIN..CALVIN_REPLAY_MAX).
 * Returns 0 or -EINVAL. */
int calvin_replay_init(struct calvin_replay *w, unsigned int size);

/* May seq be accepted? 0, or -EALREADY when seq is 0, was seen already, or
 * is W or more behind the newest accepted. Changes nothing. */
int calvin_replay_check(const struct calvin_replay *w, uint64_t seq);

/* Record seq as accepted; call only after calvin_replay_check() returned 0
 * and the packet authenticated. */
void calvin_replay_update(struct calvin_replay *w, uint64_t seq);

#endif /* CALVIN_LIB_REPLAY_H */
