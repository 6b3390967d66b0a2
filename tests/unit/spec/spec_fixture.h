/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Shared by the chain spec's unit tests: a table of texts the parser must
 * refuse, each with the place (FILE:LINE:COL:) its one line starts with
 * and words it must hold. */
#ifndef CALVIN_TEST_SPEC_FIXTURE_H
#define CALVIN_TEST_SPEC_FIXTURE_H

#include <errno.h>
#include <string.h>

#include "spec/spec.h"

struct spec_refusal {
	const char *yaml, *where, *what;
};

static inline void spec_refusals(const struct spec_refusal *bad, size_t n)
{
	static struct calvin_chain_spec s;
	char err[CALVIN_ERR_MAX];
	size_t i;

	for (i = 0; i < n; i++) {
		assert_int_equal(calvin_spec_parse(bad[i].yaml, strlen(bad[i].yaml), "t.yaml", &s,
						   err, sizeof(err)),
				 -EINVAL);
		print_message("%s\n", err);
		assert_memory_equal(err, bad[i].where, strlen(bad[i].where));
		assert_non_null(strstr(err, bad[i].what));
		assert_null(strchr(err, '\n'));
	}
}

/* Two texts that both parse, where next against old is a settings change
 * (no refusal) and a text against itself is none; d gets next against old,
 * same next against itself. */
static inline void spec_settings_change(const char *old, const char *next,
					struct calvin_spec_diff *d, struct calvin_spec_diff *same)
{
	static struct calvin_chain_spec a, b;
	char err[CALVIN_ERR_MAX];

	assert_int_equal(calvin_spec_parse(old, strlen(old), "t.yaml", &a, err, sizeof(err)), 0);
	assert_int_equal(calvin_spec_parse(next, strlen(next), "t.yaml", &b, err, sizeof(err)), 0);
	calvin_spec_diff(&a, &b, d);
	assert_string_equal(d->refused, "");
	assert_true(d->settings);
	calvin_spec_diff(&b, &b, same);
	assert_false(same->settings);
}

#endif /* CALVIN_TEST_SPEC_FIXTURE_H */
