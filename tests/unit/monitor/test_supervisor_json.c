// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Unit tests of the supervisor's health as the monitor exports it
 * (userspace/calvin/monitor/supervisor.c): supervisor.json read, the
 * heartbeat's age (RFC 3339, Z or an offset), up only for a live pid and
 * a fresh heartbeat, restarts, uptime and states per VNF, and files that
 * are not that shape refused. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "monitor/monitor.h"

/* 2026-12-02T05:00:00Z */
#define NOW_S 1796187600ULL
#define NS 1000000000ULL

static int count(const char *s, const char *what)
{
	int n = 0;

	while ((s = strstr(s, what))) {
		n++;
		s += strlen(what);
	}
	return n;
}

static char *text(const char *json, uint64_t now_ns, int *rc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	*rc = mon_supervisor_write(f, "chain=\"c\"", json, now_ns);
	fclose(f);
	return strdup(buf ? buf : "");
}

static void test_up(void **unused)
{
	char json[512], *t;
	int rc;

	snprintf(json, sizeof(json),
		 "{\"pid\": %d, \"started\": \"2026-12-02T04:00:00Z\", \"heartbeat\": "
		 "\"2026-12-02T04:59:59.5Z\", \"vnfs\": [{\"name\": \"fwd-u\", \"state\": "
		 "\"restarting\", \"restarts\": 4, \"last_exit\": \"signal 9\", \"uptime_s\": 0.5, "
		 "\"pid\": 0}, {\"name\": \"a\\\"b\", \"state\": \"running\", \"restarts\": 0, "
		 "\"uptime_s\": 100}]}",
		 getpid());
	t = text(json, NOW_S * NS, &rc);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(t, "\ncalvin_supervisor_up{chain=\"c\"} 1\n"));
	assert_non_null(strstr(t, "calvin_supervisor_heartbeat_age_seconds{chain=\"c\"} 0.5\n"));
	assert_non_null(strstr(t, "calvin_vnf_restarts_total{chain=\"c\",vnf=\"fwd-u\"} 4\n"));
	assert_non_null(strstr(t, "calvin_vnf_uptime_seconds{chain=\"c\",vnf=\"fwd-u\"} 0.5\n"));
	assert_non_null(
	    strstr(t, "calvin_vnf_state{chain=\"c\",vnf=\"fwd-u\",state=\"restarting\"} 1\n"));
	assert_non_null(
	    strstr(t, "calvin_vnf_state{chain=\"c\",vnf=\"fwd-u\",state=\"running\"} 0\n"));
	/* a name is a label value, escaped */
	assert_non_null(strstr(t, "calvin_vnf_restarts_total{chain=\"c\",vnf=\"a\\\"b\"} 0\n"));
	/* one TYPE line per family */
	assert_non_null(strstr(t, "# TYPE calvin_vnf_state gauge\n"));
	assert_int_equal(count(t, "# TYPE calvin_vnf_state "), 1);
	free(t);
}

static void test_down(void **unused)
{
	char json[256], *t;
	int rc;

	/* a stale heartbeat (an offset of +01:00: 05:59:50+01:00 is 04:59:50Z,
	 * 10 s old) */
	snprintf(json, sizeof(json),
		 "{\"pid\": %d, \"heartbeat\": \"2026-12-02T05:59:50+01:00\", \"vnfs\": []}",
		 getpid());
	t = text(json, NOW_S * NS, &rc);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(t, "calvin_supervisor_up{chain=\"c\"} 0\n"));
	assert_non_null(strstr(t, "calvin_supervisor_heartbeat_age_seconds{chain=\"c\"} 10\n"));
	free(t);
	/* a fresh heartbeat of a pid that is gone */
	t = text("{\"pid\": 2147483000, \"heartbeat\": \"2026-12-02T05:00:00Z\", \"vnfs\": []}",
		 NOW_S * NS, &rc);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(t, "calvin_supervisor_up{chain=\"c\"} 0\n"));
	free(t);
}

static void test_not_that_shape(void **unused)
{
	static const char *const bad[] = {
		"",
		"[]",
		"{\"pid\": 1, \"vnfs\": []}",
		"{\"pid\": 1, \"heartbeat\": \"yesterday\", \"vnfs\": []}",
		"{\"pid\": 1, \"heartbeat\": \"2026-12-02T05:00:00\", \"vnfs\": []}",
		"{\"pid\": 1, \"heartbeat\": \"2026-12-02T05:00:00Z\", \"vnfs\": {}}",
		"{\"pid\": 1, \"heartbeat\": \"2026-12-02T05:00:00+1\", \"vnfs\": []}",
	};
	char *t;
	size_t i;
	int rc;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		print_message("%s\n", bad[i]);
		t = text(bad[i], NOW_S * NS, &rc);
		assert_int_equal(rc, -EINVAL);
		assert_string_equal(t, "");
		free(t);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_up),
		cmocka_unit_test(test_down),
		cmocka_unit_test(test_not_that_shape),
	};

	return cmocka_run_group_tests_name("supervisor_json", tests, NULL, NULL);
}
