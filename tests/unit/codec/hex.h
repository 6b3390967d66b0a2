/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Hex test vectors into bytes, for the unit tests of the crypto code. */
#ifndef CALVIN_TEST_HEX_H
#define CALVIN_TEST_HEX_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The bytes of hex string s into dst; returns how many. Include after
 * cmocka.h. */
static inline size_t unhex(uint8_t *dst, const char *s)
{
	size_t n = strlen(s) / 2, i;
	unsigned int b;

	for (i = 0; i < n; i++) {
		assert_int_equal(sscanf(s + 2 * i, "%2x", &b), 1);
		dst[i] = (uint8_t)b;
	}
	return n;
}

#endif /* CALVIN_TEST_HEX_H */
