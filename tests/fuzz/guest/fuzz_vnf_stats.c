// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* libFuzzer harness: arbitrary bytes as a user VNF's telemetry answer
 * (userspace/lib/guest/guest.h), and as text to escape (userspace/lib/util/util.h). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guest/guest.h"
#include "util/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Nothing a terminal acts on, and valid UTF-8: escaping s again changes
 * only its backslashes. */
static void check_safe(const char *s, size_t len)
{
	size_t room = CALVIN_ESCAPED_LEN(len), i, n = 0;
	char *again = malloc(room);

	if (!again)
		return;
	calvin_text_escape(s, len, again, room);
	for (i = 0; i < len; i++)
		n += s[i] == '\\' ? 2 : 1;
	if (strlen(again) != n)
		abort();
	free(again);
}

/* Beyond memory safety: what an answer becomes on a terminal is safe,
 * and as JSON it reads back as one document of counters only. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct json_object *c, *back;
	char why[256], *text = NULL, esc[CALVIN_ESCAPED_LEN(512)];
	const char *json;
	size_t len = 0;
	FILE *f;

	calvin_text_escape(data, size < 512 ? size : 512, esc, sizeof(esc));
	check_safe(esc, strlen(esc));
	if (calvin_vnf_stats_parse((const char *)data, size, &c, why, sizeof(why))) {
		check_safe(why, strlen(why));
		return 0;
	}
	f = open_memstream(&text, &len);
	if (f) {
		calvin_vnf_stats_text(f, "fuzz", c);
		fclose(f);
		check_safe(text, len - 1); /* but its newline */
		free(text);
	}
	json = json_object_to_json_string_ext(c, JSON_C_TO_STRING_NOSLASHESCAPE);
	check_safe(json, strlen(json));
	if (jw_parse(json, strlen(json), 3, &back, why, sizeof(why)) ||
	    json_object_object_length(back) != json_object_object_length(c))
		abort();
	json_object_put(back);
	json_object_put(c);
	return 0;
}
