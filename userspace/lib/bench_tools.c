// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* sockperf's full log and iperf3's JSON, read (see bench_tools.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_tools.h"

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

/* The number after "key": at or after from; NULL when there is none. */
static const char *after_key(const char *from, const char *end, const char *key)
{
	const char *p = memmem(from, (size_t)(end - from), key, strlen(key));

	if (!p)
		return NULL;
	p += strlen(key);
	while (p < end && (*p == ' ' || *p == ':' || *p == '"' || *p == '\t' || *p == '\n'))
		p++;
	return p < end ? p : NULL;
}

int calvin_iperf3_goodput(const char *json, size_t len, double *bps, char *why, size_t whylen)
{
	const char *end = json + len, *p, *q;
	char num[64];

	why[0] = '\0';
	p = memmem(json, len, "\"sum_received\"", 14);
	if (p && (q = after_key(p, end, "\"bits_per_second\""))) {
		snprintf(num, sizeof(num), "%.*s", (int)(end - q < 63 ? end - q : 63), q);
		*bps = strtod(num, NULL);
		return 0;
	}
	p = after_key(json, end, "\"error\"");
	if (p) {
		q = memchr(p, '"', (size_t)(end - p));
		snprintf(why, whylen, "%.*s", (int)(q ? q - p : 0), p);
	}
	return -EINVAL;
}
