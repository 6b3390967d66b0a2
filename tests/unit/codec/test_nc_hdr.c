// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Unit tests of the network-coding header codec and of the codec's parameter checks. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "codec/codec.h"

static void test_hdr_bytes(void **state)
{
	static const uint8_t want[16] = {1, 2, 32,   8,	   0xde, 0xad, 0xbe, 0xef,
					 7, 0, 0x01, 0x02, 0x11, 0x22, 0x33, 0x44};
	struct nc_hdr h = {.type = CALVIN_NC_REPAIR,
			   .k = 32,
			   .r = 8,
			   .gen = 0xdeadbeef,
			   .index = 7,
			   .len = 0x102,
			   .seed = 0x11223344};
	uint8_t buf[CALVIN_NC_HDR_LEN + 0x102] = {0};
	struct nc_hdr out;

	nc_hdr_encode(&h, buf);
	assert_memory_equal(buf, want, sizeof(want));
	assert_int_equal(nc_hdr_decode(buf, sizeof(buf), &out), 0);
	assert_int_equal(out.version, CALVIN_NC_VERSION);
	assert_int_equal(out.gen, h.gen);
	assert_int_equal(out.seed, h.seed);
	assert_int_equal(out.len, h.len);
	assert_int_equal(out.index, 7);
}

/* Set byte off of a valid source header to v; expect err from decode. */
static void expect_reject(unsigned int off, uint8_t v, size_t len, int err)
{
	struct nc_hdr h = {
	    .type = CALVIN_NC_SOURCE, .k = 4, .r = 2, .gen = 1, .index = 3, .len = 10};
	uint8_t buf[64] = {0};
	struct nc_hdr out;

	nc_hdr_encode(&h, buf);
	assert_int_equal(nc_hdr_decode(buf, CALVIN_NC_HDR_LEN + 10, &out), 0);
	buf[off] = v;
	assert_int_equal(nc_hdr_decode(buf, len, &out), err);
}

static void test_hdr_rejects(void **state)
{
	const size_t ok = CALVIN_NC_HDR_LEN + 10;

	expect_reject(0, 2, ok, -EPROTONOSUPPORT); /* version */
	expect_reject(0, 0, ok, -EPROTONOSUPPORT);
	expect_reject(1, 0, ok, -EBADMSG); /* type */
	expect_reject(1, 3, ok, -EBADMSG);
	expect_reject(2, 0, ok, -EBADMSG); /* k = 0 */
	expect_reject(2, 65, ok, -EBADMSG);
	expect_reject(2, 3, ok, -EBADMSG);		  /* index 3 >= k 3 */
	expect_reject(3, 65, ok, -EBADMSG);		  /* r */
	expect_reject(8, 4, ok, -EBADMSG);		  /* index >= k */
	expect_reject(9, 1, ok, -EBADMSG);		  /* flags */
	expect_reject(15, 1, ok, -EBADMSG);		  /* seed in a source */
	expect_reject(1, CALVIN_NC_REPAIR, ok, -EBADMSG); /* repair index 3 >= r 2 */
	expect_reject(11, 9, ok, -EMSGSIZE);		  /* len says 9, packet has 10 */
	expect_reject(0, 1, ok + 1, -EMSGSIZE);
	expect_reject(0, 1, ok - 1, -EMSGSIZE);
	expect_reject(0, 1, CALVIN_NC_HDR_LEN - 1, -EMSGSIZE);
	expect_reject(0, 1, 0, -EMSGSIZE);
	expect_reject(10, 0x0e, ok, -EBADMSG); /* len 3594 > max payload */
}

static void test_params_rejected(void **state)
{
	struct nc_params bad[] = {
	    {.k = 0}, {.k = 65}, {.k = 4, .r = 65}, {.k = 4, .window = 3}, {.k = 4, .window = 128}};
	struct nc_encoder *enc;
	struct nc_decoder *dec;
	unsigned int i;

	for (i = 0; i < 3; i++)
		assert_int_equal(nc_encoder_new(&bad[i], &enc), -EINVAL);
	for (i = 0; i < 5; i++)
		assert_int_equal(nc_decoder_new(&bad[i], &dec), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_hdr_bytes),
	    cmocka_unit_test(test_hdr_rejects),
	    cmocka_unit_test(test_params_rejected),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
