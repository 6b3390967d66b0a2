// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* sockperf's full log and iperf3's JSON, read (see bench_lib.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/lib/bench_lib.h"
#include "util/util.h"

#define SOCKPERF_HEADER "packet, txTime(sec), rxTime(sec), rtt(usec)"

long calvin_sockperf_log(const char *text, size_t len, struct calvin_bench_series *s,
			 unsigned int r)
{
	const char *p = memmem(text, len, SOCKPERF_HEADER, strlen(SOCKPERF_HEADER));
	const char *end = text + len, *eol;
	char line[160];
	double tx, rx, rtt;
	long n = 0, k;

	if (!p)
		return -EINVAL;
	for (p = memchr(p, '\n', (size_t)(end - p)); p && p + 1 < end; p = eol) {
		p++;
		eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			eol = end;
		if (*p == '-' || eol == p)
			break;
		snprintf(line, sizeof(line), "%.*s", (int)(eol - p), p);
		if (sscanf(line, "%ld , %lf , %lf , %lf", &k, &tx, &rx, &rtt) != 4 || rtt < 0)
			return -EINVAL;
		if (calvin_bench_series_add(s, rtt * 1000, r))
			return -ENOMEM;
		n++;
	}
	return n;
}

/* obj.a.b... as a member of the given type; NULL when it is not there. */
static struct json_object *member(struct json_object *o, enum json_type type, const char *a,
				  const char *b)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, a, &v) || (b && !json_object_object_get_ex(v, b, &v)))
		return NULL;
	return json_object_is_type(v, type) ? v : NULL;
}

int calvin_iperf3_goodput(const char *json, size_t len, double *bps, char *why, size_t whylen)
{
	struct json_object *doc, *sum, *v;
	char what[128];
	int err = -EINVAL;

	why[0] = '\0';
	/* iperf3's intervals nest four deep */
	if (jw_parse(json, len, 16, &doc, what, sizeof(what))) {
		snprintf(why, whylen, "iperf3's output: %s", what);
		return -EINVAL;
	}
	sum = member(doc, json_type_object, "end", "sum_received");
	if (sum && json_object_object_get_ex(sum, "bits_per_second", &v) &&
	    (json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int))) {
		*bps = json_object_get_double(v);
		err = 0;
	} else if ((v = member(doc, json_type_string, "error", NULL))) {
		/* iperf3's words, maybe the server's: escaped */
		calvin_text_escape(json_object_get_string(v), (size_t)json_object_get_string_len(v),
				   why, whylen);
	}
	json_object_put(doc);
	return err;
}
