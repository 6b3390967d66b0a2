// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* libFuzzer harness: arbitrary bytes as a stream of host-agent frames. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "guest/guest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct calvin_agent_msg msg;
static uint8_t again[CALVIN_AGENT_MAX_FRAME];

/* Beyond memory safety: the decoder and the header agree on a frame's
 * length, a prefix of a frame is only ever "more, please", and what
 * decodes encodes back to the very same bytes. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t off = 0;
	ssize_t n, flen;

	while (off < size) {
		flen = calvin_agent_frame_len(data + off, size - off);
		n = calvin_agent_decode(data + off, size - off, &msg);
		if (n == -EAGAIN) {
			if (flen >= 0 && (size_t)flen <= size - off)
				abort();
			break;
		}
		if (n < 0) {
			if (n != -EPROTO && n != -EBADMSG && n != -EMSGSIZE)
				abort();
			if (flen < 0 && flen != n)
				abort();
			break;
		}
		if (n != flen || calvin_agent_decode(data + off, (size_t)n - 1, &msg) != -EAGAIN)
			abort();
		calvin_agent_decode(data + off, (size_t)n, &msg);
		if (calvin_agent_encode(&msg, again, sizeof(again)) != n ||
		    memcmp(again, data + off, (size_t)n))
			abort();
		off += (size_t)n;
	}
	return 0;
}
