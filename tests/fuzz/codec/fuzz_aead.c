// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* libFuzzer harness: arbitrary bytes into AEAD decapsulation, and sealed
 * packets with one byte changed. The first input byte picks the case:
 *   bit 0   cipher (AES-256-GCM, ChaCha20-Poly1305)
 *   bit 1   0: open the rest as a packet; 1: seal the rest, change one
 *           byte (chosen by the last input byte), open both
 *   bit 2   in place or separate buffers
 * Seeds in tests/fuzz/seeds/aead/ are sealed with the key below. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "codec/codec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define SPI 7

static const uint8_t key[32] = {0,  1,	2,  3,	4,  5,	6,  7,	8,  9,	10, 11, 12, 13, 14, 15,
				16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31};
static const uint8_t salt[4] = {0xa0, 0xa1, 0xa2, 0xa3};

static struct calvin_aead seal_ctx[2], open_ctx[2];

static void setup_once(void)
{
	static int done;

	if (done)
		return;
	for (int c = 0; c < 2; c++)
		if (calvin_aead_init(&seal_ctx[c], c, key, 32, salt, SPI, 1) ||
		    calvin_aead_init(&open_ctx[c], c, key, 32, salt, SPI, 0))
			abort();
	done = 1;
}

static int is_rejection(int ret)
{
	return ret == -EPROTO || ret == -ENOKEY || ret == -EALREADY || ret == -EBADMSG;
}

/* Open pkt (exactly len bytes on the heap, so ASan sees any overread). */
static int open_packet(int c, int in_place, const uint8_t *pkt, size_t len)
{
	struct calvin_replay w;
	uint8_t *buf, *out;
	size_t n = len > CALVIN_CRYPT_OVERHEAD ? len - CALVIN_CRYPT_OVERHEAD : 0;
	int ret;

	if (calvin_replay_init(&w, 64))
		abort();
	buf = malloc(len ? len : 1);
	out = malloc(n ? n : 1);
	if (!buf || !out)
		abort();
	memcpy(buf, pkt, len);
	/* no pointer past the buffer's end even when the packet is short */
	if (in_place && len >= CALVIN_CRYPT_HDR_LEN)
		ret = calvin_aead_open(&open_ctx[c], &w, buf + CALVIN_CRYPT_HDR_LEN, n, buf, len);
	else
		ret = calvin_aead_open(&open_ctx[c], &w, out, n, buf, len);
	if (ret < 0 && !is_rejection(ret))
		abort();
	if (ret >= 0 && (size_t)ret != n)
		abort();
	/* what opened once must not open again */
	if (ret >= 0 && calvin_aead_open(&open_ctx[c], &w, out, n, pkt, len) != -EALREADY)
		abort();
	free(out);
	free(buf);
	return ret;
}

static void seal_then_change(int c, int in_place, const uint8_t *pt, size_t len, uint8_t pick)
{
	size_t plen = len + CALVIN_CRYPT_OVERHEAD;
	uint8_t *pkt = malloc(plen);
	int ret;

	if (!pkt)
		abort();
	if (in_place) {
		memcpy(pkt + CALVIN_CRYPT_HDR_LEN, pt, len);
		ret = calvin_aead_seal(&seal_ctx[c], pkt, plen, pkt + CALVIN_CRYPT_HDR_LEN, len);
	} else {
		ret = calvin_aead_seal(&seal_ctx[c], pkt, plen, pt, len);
	}
	if (ret != (int)plen)
		abort();
	if (open_packet(c, in_place, pkt, plen) != (int)len)
		abort();
	pkt[pick % plen] ^= (uint8_t)(pick | 1);
	if (open_packet(c, in_place, pkt, plen) >= 0)
		abort();
	free(pkt);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int c, in_place;

	if (size < 1)
		return 0;
	setup_once();
	c = data[0] & 1;
	in_place = !!(data[0] & 4);
	if (data[0] & 2)
		seal_then_change(c, in_place, data + 1, size - 1, data[size - 1]);
	else
		open_packet(c, in_place, data + 1, size - 1);
	return 0;
}
