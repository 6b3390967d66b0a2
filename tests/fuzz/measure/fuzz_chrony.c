// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* libFuzzer harness: arbitrary bytes as chronyc's tracking line. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "measure/measure.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Beyond memory safety: a refusal has a reason; an accepted line has a
 * bound that covers its offset, and a reference name of the allowed
 * characters only (it reaches a terminal). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct calvin_chrony_tracking t;
	char *line = malloc(size + 1), why[160] = "";
	int err;

	if (!line)
		return 0;
	memcpy(line, data, size);
	line[size] = '\0';
	err = calvin_chrony_tracking_parse(line, &t, why, sizeof(why));
	if (err && !why[0])
		abort();
	if (err && err != -EINVAL && err != -ENOLINK)
		abort();
	if (err != -EINVAL) {
		if (t.bound_ns < (uint64_t)llabs(t.offset_ns) || t.stratum > 16)
			abort();
		if (strspn(t.reference, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
					"0123456789.:-_") != strlen(t.reference))
			abort();
	}
	free(line);
	return 0;
}
