// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* What the keys of a security association are derived from: the
 * deployment's random value and the HKDF info (see codec.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <calvin/telemetry.h>

#include "codec/codec.h"

static uint8_t *put_be32(uint8_t *p, uint32_t v)
{
	*p++ = (uint8_t)(v >> 24);
	*p++ = (uint8_t)(v >> 16);
	*p++ = (uint8_t)(v >> 8);
	*p++ = (uint8_t)v;
	return p;
}

int calvin_sa_info(uint8_t *buf, size_t cap, const char *chain, uint32_t spi, unsigned int dir,
		   uint32_t epoch)
{
	size_t label = sizeof(CALVIN_SA_LABEL), n = chain ? strlen(chain) : 0, len;
	uint8_t *p = buf;

	if (!n || n > 255 || !spi || !epoch || (dir != CALVIN_DIR_FWD && dir != CALVIN_DIR_REV))
		return -EINVAL;
	len = label + 1 + n + 4 + 1 + 4;
	if (cap < len)
		return -ENOSPC;
	memcpy(p, CALVIN_SA_LABEL, label); /* with its NUL: the separator */
	p += label;
	*p++ = (uint8_t)n;
	memcpy(p, chain, n);
	p += n;
	p = put_be32(p, spi);
	*p++ = (uint8_t)dir;
	put_be32(p, epoch);
	return (int)len;
}

int calvin_deploy_random_parse(const char *hex, uint8_t out[CALVIN_DEPLOY_RANDOM_LEN])
{
	unsigned int b;
	size_t i;

	if (strlen(hex) != 2 * CALVIN_DEPLOY_RANDOM_LEN ||
	    strspn(hex, "0123456789abcdefABCDEF") != 2 * CALVIN_DEPLOY_RANDOM_LEN)
		return -EINVAL;
	for (i = 0; i < CALVIN_DEPLOY_RANDOM_LEN; i++) {
		sscanf(hex + 2 * i, "%2x", &b);
		out[i] = (uint8_t)b;
	}
	return 0;
}

void calvin_deploy_random_format(const uint8_t in[CALVIN_DEPLOY_RANDOM_LEN],
				 char out[2 * CALVIN_DEPLOY_RANDOM_LEN + 1])
{
	size_t i;

	for (i = 0; i < CALVIN_DEPLOY_RANDOM_LEN; i++)
		snprintf(out + 2 * i, 3, "%02x", in[i]);
}
