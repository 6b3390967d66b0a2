// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* libFuzzer harness: arbitrary packet sequences into the network-coding decoder.
 *
 * Input: byte 0 sets k (1 + b % 64), byte 1 sets r (b % 64) and the window
 * (2 << (b >> 6)); then records of a 2-byte big-endian length and that many
 * bytes (cut short at the end of the input), each pushed as one packet from
 * its own heap buffer so ASan sees any read past it. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "codec/codec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint8_t sink;

/* Read every byte handed out, and check it is where the API says. */
static void check_out(const uint8_t *pkt, size_t len, const uint8_t *d, size_t l)
{
	uint8_t x = 0;
	size_t i;

	if (d < pkt + CALVIN_NC_HDR_LEN || l != len - CALVIN_NC_HDR_LEN)
		abort();
	for (i = 0; i < l; i++)
		x ^= d[i];
	sink = x;
}

static void drain(struct nc_decoder *dec)
{
	const uint8_t *d;
	uint8_t x = 0;
	size_t l, i;

	while (nc_decoder_next(dec, &d, &l)) {
		if (l > CALVIN_NC_MAX_PAYLOAD)
			abort();
		for (i = 0; i < l; i++)
			x ^= d[i];
	}
	sink = x;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct nc_decoder_stats *st;
	struct nc_params p = {0};
	struct nc_decoder *dec;
	const uint8_t *d;
	uint64_t pushed = 0;
	uint8_t *pkt;
	size_t len, l;
	int ret;

	if (size < 2)
		return 0;
	p.k = 1 + data[0] % 64;
	p.r = data[1] % 64;
	p.window = 2u << (data[1] >> 6);
	if (nc_decoder_new(&p, &dec))
		abort();
	data += 2;
	size -= 2;
	while (size >= 2) {
		len = (size_t)data[0] << 8 | data[1];
		data += 2;
		size -= 2;
		if (len > size)
			len = size;
		pkt = malloc(len ? len : 1);
		if (!pkt)
			break;
		memcpy(pkt, data, len);
		ret = nc_decoder_push(dec, pkt, len, &d, &l);
		if (ret == 1)
			check_out(pkt, len, d, l);
		else if (ret != 0 && ret != -ESTALE && ret != -EALREADY && ret != -EBADMSG &&
			 ret != -EMSGSIZE && ret != -EPROTONOSUPPORT)
			abort();
		drain(dec);
		free(pkt);
		pushed++;
		data += len;
		size -= len;
	}
	nc_decoder_retire_all(dec);
	st = nc_decoder_stats(dec);
	/* every packet is counted once, as forwarded, dropped or consumed */
	if (st->forwarded + st->duplicate + st->stale > pushed)
		abort();
	nc_decoder_free(dec);
	return 0;
}
