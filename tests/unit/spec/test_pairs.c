// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Unit tests of transform pairs: which VNF seals/encodes and opens/decodes
 * which direction, SPIs per direction, and chains whose pairs the spec
 * accepts (the errors are in test_chainspec_kinds.c). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "spec/spec.h"

#define HEAD "name: c\nbudget: 1ms\nvnfs:\n" /* lines 1-3 */
#define ENC(extra) "  - {name: e, kind: encrypt, key-file: k, " extra "}\n"
#define DEC(extra) "  - {name: d, kind: decrypt, key-file: k, " extra "}\n"

static struct calvin_chain_spec spec;

static void test_roles(void **state)
{
	static const struct {
		enum calvin_vnf_kind kind;
		enum calvin_direction dirs;
		enum calvin_pair_role fwd, rev;
	} cases[] = {
	    {CALVIN_VNF_ENCRYPT, CALVIN_DIRS_BOTH, CALVIN_ROLE_APPLY, CALVIN_ROLE_UNDO},
	    {CALVIN_VNF_DECRYPT, CALVIN_DIRS_BOTH, CALVIN_ROLE_UNDO, CALVIN_ROLE_APPLY},
	    {CALVIN_VNF_NC_ENCODE, CALVIN_DIRS_BOTH, CALVIN_ROLE_APPLY, CALVIN_ROLE_UNDO},
	    {CALVIN_VNF_NC_DECODE, CALVIN_DIRS_BOTH, CALVIN_ROLE_UNDO, CALVIN_ROLE_APPLY},
	    {CALVIN_VNF_ENCRYPT, CALVIN_DIRS_FWD, CALVIN_ROLE_APPLY, CALVIN_ROLE_NONE},
	    {CALVIN_VNF_DECRYPT, CALVIN_DIRS_FWD, CALVIN_ROLE_UNDO, CALVIN_ROLE_NONE},
	    {CALVIN_VNF_NC_ENCODE, CALVIN_DIRS_REV, CALVIN_ROLE_NONE, CALVIN_ROLE_UNDO},
	    {CALVIN_VNF_NC_DECODE, CALVIN_DIRS_REV, CALVIN_ROLE_NONE, CALVIN_ROLE_APPLY},
	    {CALVIN_VNF_FORWARD, CALVIN_DIRS_BOTH, CALVIN_ROLE_NONE, CALVIN_ROLE_NONE},
	    {CALVIN_VNF_IMPAIR, CALVIN_DIRS_BOTH, CALVIN_ROLE_NONE, CALVIN_ROLE_NONE},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(calvin_pair_role(cases[i].kind, cases[i].dirs, CALVIN_DIR_FWD),
				 cases[i].fwd);
		assert_int_equal(calvin_pair_role(cases[i].kind, cases[i].dirs, CALVIN_DIR_REV),
				 cases[i].rev);
	}
	assert_int_equal(calvin_pair_role(CALVIN_VNF_ENCRYPT, CALVIN_DIRS_BOTH, 2),
			 CALVIN_ROLE_NONE);
	assert_true(calvin_pair_head(CALVIN_VNF_NC_ENCODE));
	assert_false(calvin_pair_head(CALVIN_VNF_DECRYPT));
	assert_true(calvin_pair_tail(CALVIN_VNF_DECRYPT));
	assert_int_equal(calvin_pair_closer(CALVIN_VNF_ENCRYPT), CALVIN_VNF_DECRYPT);
	assert_int_equal(calvin_pair_closer(CALVIN_VNF_NC_ENCODE), CALVIN_VNF_NC_DECODE);
}

static void test_spis(void **state)
{
	struct calvin_crypt_spec c = {.spi = 0x100, .spi_rev = 0x2000};

	assert_int_equal(calvin_spi_rev_default(1), 2);
	assert_int_equal(calvin_spi_rev_default(0xffffffffu), 1);
	assert_int_equal(calvin_sa_spi(&c, CALVIN_DIR_FWD), 0x100);
	assert_int_equal(calvin_sa_spi(&c, CALVIN_DIR_REV), 0x2000);
}

static void test_good(void **state)
{
	static const char *const good[] = {
	    HEAD ENC("spi: 5") DEC("spi: 5"),
	    HEAD ENC("direction: fwd, spi-rev: 9") DEC("direction: fwd, spi-rev: 9"),
	    /* nested pairs, an nc pair around an encrypt pair */
	    HEAD "  - {name: ne, kind: nc-encode, k: 8}\n" ENC("spi: 5")
		DEC("spi: 5") "  - {name: nd, kind: nc-decode, k: 8}\n",
	    /* two pairs, SPIs of their own; a restricted pair's unused SPI may repeat */
	    HEAD ENC("spi: 5") DEC("spi: 5") "  - {name: e2, kind: encrypt, key-file: k, spi: 7, "
					     "spi-rev: 5, direction: fwd}\n"
					     "  - {name: d2, kind: decrypt, key-file: k, spi: 7, "
					     "spi-rev: 5, direction: fwd}\n",
	    /* other kinds between the two ends */
	    HEAD ENC("") "  - {name: x, kind: impair, loss: 1%, direction: both}\n" DEC(""),
	};
	char err[CALVIN_ERR_MAX];

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		err[0] = '\0';
		print_message("%zu: %s\n", i, err);
		assert_int_equal(
		    calvin_spec_parse(good[i], strlen(good[i]), "t.yaml", &spec, err, sizeof(err)),
		    0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_roles),
	    cmocka_unit_test(test_spis),
	    cmocka_unit_test(test_good),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
