// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* libFuzzer harness: arbitrary text into the plan record's line parser and
 * the CPU list codec, which read files other chains (and the kernel) wrote. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "plan/plan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char list[CALVIN_CPUS_TEXT_MAX];

/* Beyond memory safety: a list that parses formats to one that parses to
 * the same set; a vnf line gives a CPU calvin handles and a valid name; a
 * degraded line a valid name and a grant worse than asked. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct calvin_cpumask s, again, hk;
	struct calvin_degraded d;
	struct calvin_hold hold;
	char *text, *line, *next;

	text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (!calvin_cpumask_parse_list(text, &s)) {
		calvin_cpumask_list(&s, list, sizeof(list));
		if (calvin_cpumask_parse_list(list, &again) || !calvin_cpumask_equal(&s, &again))
			abort();
	}
	for (line = text; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		memset(&hold, 0, sizeof(hold));
		if (calvin_plan_record_line(line, &hk, &hold) == 1 &&
		    (hold.cpu < 0 || hold.cpu >= CALVIN_MAX_CPUS || !calvin_name_valid(hold.vnf)))
			abort();
		if (calvin_plan_record_degraded(line, &d) == 1 &&
		    (!calvin_name_valid(d.vnf) || d.granted <= d.asked ||
		     strlen(d.why) >= sizeof(d.why)))
			abort();
	}
	free(text);
	return 0;
}
