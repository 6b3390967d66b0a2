// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Unit tests of a user VNF's telemetry answer as `calvin status` reads
 * and shows it (userspace/lib/guest/guest.h), written as the attacks it must stop: a
 * VNF, or a VM's agent relaying one, that answers with terminal escape
 * sequences and with text that would close calvin's JSON and open
 * members of its own. The agent's COUNTERS and ERROR frames go through
 * the real decoder first, as the host reads them. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../tools/hostile_telemetry.h"
#include "guest/guest.h"
#include "util/util.h"

/* What calvin-vnf answers (DPDK's layout, spaces included). */
static const char honest[] =
    "{\"/calvin/stats\": {\"west_pmd\": \"af_xdp\", \"west_t_in\": \"xdp\", "
    "\"west_rx_packets\": 0, \"west_tx_packets\": 12, \"west_rx_dropped\": 0, "
    "\"east_pmd\": \"af_packet\", \"east_rx_packets\": 18446744073709551615, "
    "\"sleeps\": 3}}";

static const char hostile[] = HOSTILE_TELEMETRY;

/* s holds nothing a terminal acts on and is valid UTF-8: escaping it
 * again changes nothing but its backslashes. */
static void assert_terminal_safe(const char *s)
{
	char *again = malloc(CALVIN_ESCAPED_LEN(strlen(s))), *want = malloc(2 * strlen(s) + 1);
	const char *p;
	char *w = want;

	assert_non_null(again);
	assert_non_null(want);
	for (p = s; *p; p++) {
		*w++ = *p;
		if (*p == '\\')
			*w++ = '\\';
	}
	*w = '\0';
	calvin_text_escape(s, strlen(s), again, CALVIN_ESCAPED_LEN(strlen(s)));
	assert_string_equal(again, want);
	free(again);
	free(want);
}

/* The line `calvin status` prints, without its newline. */
static char *text_line(struct json_object *counters)
{
	static char out[4096];
	FILE *f = fmemopen(out, sizeof(out), "w");

	assert_non_null(f);
	calvin_vnf_stats_text(f, "fwd-u", counters);
	fclose(f);
	assert_int_equal(out[strlen(out) - 1], '\n');
	out[strlen(out) - 1] = '\0';
	return out;
}

/* The VNF's object as `calvin -j status` prints it, on one line. */
static char *json_line(struct json_object *counters)
{
	static char out[4096];
	struct json_object *o = jw_obj();

	jw_str(o, "name", "fwd-u");
	jw_str(o, "space", "user");
	jw_add(o, "telemetry", calvin_vnf_stats_jobj(counters));
	snprintf(out, sizeof(out), "%s",
		 json_object_to_json_string_ext(o, JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
	return out;
}

/* What a reader of that line gets: the members calvin put there, and in
 * the counters only counters. */
static void assert_shape(const char *line, int counters)
{
	struct json_object *o, *t, *c;
	char why[128];

	assert_int_equal(jw_parse(line, strlen(line), 8, &o, why, sizeof(why)), 0);
	assert_int_equal(json_object_object_length(o), 3);
	assert_false(json_object_object_get_ex(o, "injected", NULL));
	assert_true(json_object_object_get_ex(o, "telemetry", &t));
	assert_int_equal(json_object_object_length(t), 1);
	assert_true(json_object_object_get_ex(t, CALVIN_VNF_STATS_CMD, &c));
	assert_int_equal(json_object_object_length(c), counters);
	json_object_object_foreach(c, name, v)
	{
		(void)name;
		assert_true(json_object_is_type(v, json_type_string) ||
			    json_object_is_type(v, json_type_int));
	}
	json_object_put(o);
}

static void test_honest(void **unused)
{
	struct json_object *c;
	char why[256];

	assert_int_equal(calvin_vnf_stats_parse(honest, strlen(honest), &c, why, sizeof(why)), 0);
	/* strings and packet counts always, other counters when not zero */
	assert_string_equal(text_line(c), "  fwd-u        user    west_pmd af_xdp west_t_in xdp "
					  "west_rx_packets 0 west_tx_packets 12 east_pmd af_packet "
					  "east_rx_packets 18446744073709551615 sleeps 3");
	assert_string_equal(
	    json_line(c), "{\"name\":\"fwd-u\",\"space\":\"user\",\"telemetry\":{\"/calvin/stats\":"
			  "{\"west_pmd\":\"af_xdp\",\"west_t_in\":\"xdp\",\"west_rx_packets\":0,"
			  "\"west_tx_packets\":12,\"west_rx_dropped\":0,\"east_pmd\":\"af_packet\","
			  "\"east_rx_packets\":18446744073709551615,\"sleeps\":3}}}");
}

/* Checks one answer the way status shows it, text and JSON. */
static void check_hostile(const char *answer, size_t len)
{
	struct json_object *c;
	char why[256], *line;

	assert_int_equal(calvin_vnf_stats_parse(answer, len, &c, why, sizeof(why)), 0);
	line = text_line(c);
	assert_terminal_safe(line);
	assert_non_null(strstr(line, " west_pmd af_xdp\\x1b]0;owned\\x07\"}],\"injected\":true"));
	assert_non_null(strstr(line, " west_rx_packets\\x1b[2J 7"));
	assert_non_null(strstr(line, " east_t_in xdp\\x1b[31m\\xc2\\x9b6n\\x9b\\xe2\\x80\\xaeevil"
				     "\\x0a\\x00tail\\xff"));
	line = json_line(json_object_get(c));
	assert_terminal_safe(line);
	assert_shape(line, 5);
	json_object_put(c);
}

static void test_hostile(void **unused)
{
	check_hostile(hostile, sizeof(hostile) - 1);
}

/* What is not an answer of the expected form is refused, with a reason,
 * not shown in part. */
static void test_refused(void **unused)
{
	static const char *const bad[] = {
		"",
		"not json",
		GARBAGE_TELEMETRY,
		"{\"/calvin/stats\": {\"a\": 1}} {\"/calvin/stats\": {}}",
		"{\"/calvin/stats\": {\"a\": 1}, \"injected\": true}",
		"{\"/calvin/info\": {\"a\": 1}}",
		"{\"/calvin/stats\": [1, 2]}",
		"{\"/calvin/stats\": {\"a\": -1}}",
		"{\"/calvin/stats\": {\"a\": 1.5}}",
		"{\"/calvin/stats\": {\"a\": true}}",
		"{\"/calvin/stats\": {\"a\": null}}",
		"{\"/calvin/stats\": {\"a\": {\"b\": 1}}}",
		"{\"/calvin/stats\": {\"a\": [[[[1]]]]}}",
		"[{\"/calvin/stats\": {}}]",
	};
	struct json_object *c;
	char why[256];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why[0] = '\0';
		assert_int_equal(
		    calvin_vnf_stats_parse(bad[i], strlen(bad[i]), &c, why, sizeof(why)), -EBADMSG);
		assert_null(c);
		assert_non_null(strstr(why, "telemetry answer not understood: "));
		assert_terminal_safe(why);
	}
}

/* More counters than an answer may hold. */
static void test_too_many(void **unused)
{
	char *answer = malloc(64 * (CALVIN_VNF_STATS_MAX + 2)), why[256];
	struct json_object *c;
	size_t n = 0;
	int i;

	assert_non_null(answer);
	n += (size_t)sprintf(answer, "{\"/calvin/stats\": {");
	for (i = 0; i <= CALVIN_VNF_STATS_MAX; i++)
		n += (size_t)sprintf(answer + n, "%s\"c%d\": %d", i ? ", " : "", i, i);
	n += (size_t)sprintf(answer + n, "}}");
	assert_int_equal(calvin_vnf_stats_parse(answer, n, &c, why, sizeof(why)), -EBADMSG);
	assert_non_null(strstr(why, "more than"));
	free(answer);
}

/* A COUNTERS frame as a compromised guest writes it, byte by byte:
 * header, state running, space user, no kernel counters, the telemetry
 * string. */
static size_t counters_frame(uint8_t *f, const char *telemetry, size_t tlen)
{
	size_t plen = 4 + 4 + tlen;

	memcpy(f,
	       (uint8_t[]){ CALVIN_AGENT_VERSION, CALVIN_AGENT_COUNTERS, 0, 0,
			    (uint8_t)(plen >> 24), (uint8_t)(plen >> 16), (uint8_t)(plen >> 8),
			    (uint8_t)plen, CALVIN_AGENT_RUNNING, 1, 0, 0, (uint8_t)(tlen >> 24),
			    (uint8_t)(tlen >> 16), (uint8_t)(tlen >> 8), (uint8_t)tlen },
	       16);
	memcpy(f + 16, telemetry, tlen);
	return 16 + tlen;
}

/* libvirt backend: the agent's telemetry, decoded, copied as
 * lv_user_stats() copies it, and shown as status shows it. */
static void test_agent_counters(void **unused)
{
	static uint8_t frame[sizeof(hostile) + 64];
	static struct calvin_agent_msg m;
	char json[CALVIN_AGENT_LINE_MAX * 4];
	size_t n = counters_frame(frame, hostile, sizeof(hostile) - 1);

	assert_int_equal(calvin_agent_decode(frame, n, &m), (ssize_t)n);
	assert_int_equal(m.type, CALVIN_AGENT_COUNTERS);
	snprintf(json, sizeof(json), "%.*s", (int)m.counters.telemetry.len,
		 m.counters.telemetry.ptr);
	check_hostile(json, strlen(json));
}

/* An ERROR frame: the decoder keeps C0 controls and DEL out of an error
 * line, but not C1 controls, bidi overrides or invalid UTF-8; the host
 * escapes the line before anyone sees it (userspace/agent/client.c). */
static void test_agent_error_line(void **unused)
{
	static const char line[] = "start failed \xc2\x9b"
				   "2J\xe2\x80\xae"
				   "x\x9b]0;t";
	static uint8_t frame[sizeof(line) + 8];
	static struct calvin_agent_msg m;
	char shown[CALVIN_ESCAPED_LEN(sizeof(line))];
	size_t n = 8 + sizeof(line) - 1;

	memcpy(frame,
	       (uint8_t[]){ CALVIN_AGENT_VERSION, CALVIN_AGENT_ERROR, 0, 0, 0, 0, 0,
			    (uint8_t)(sizeof(line) - 1) },
	       8);
	memcpy(frame + 8, line, sizeof(line) - 1);
	assert_int_equal(calvin_agent_decode(frame, n, &m), (ssize_t)n);
	calvin_text_escape(m.error.ptr, m.error.len, shown, sizeof(shown));
	assert_string_equal(shown, "start failed \\xc2\\x9b2J\\xe2\\x80\\xaex\\x9b]0;t");
	assert_terminal_safe(shown);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_honest),	       cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_refused),	       cmocka_unit_test(test_too_many),
		cmocka_unit_test(test_agent_counters), cmocka_unit_test(test_agent_error_line),
	};

	return cmocka_run_group_tests_name("vnf_stats", tests, NULL, NULL);
}
