// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* What `chronyc -c tracking` says of a host's clock, read into the bound
 * of that clock against chrony's reference: a better source than the
 * in-band estimate between hosts that both run chrony (clock.c). Pure
 * code: the caller runs chronyc and hands its line here. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure/measure.h"

/* The fields of the CSV line, in chronyc's order (its "tracking" report):
 * reference ID, reference name, stratum, reference time, system time
 * offset, last offset, RMS offset, frequency, residual frequency, skew,
 * root delay, root dispersion, update interval, leap status. */
enum {
	F_REFID,
	F_NAME,
	F_STRATUM,
	F_REFTIME,
	F_SYSTEM,
	F_LAST,
	F_RMS,
	F_FREQ,
	F_RESID,
	F_SKEW,
	F_ROOT_DELAY,
	F_ROOT_DISP,
	F_INTERVAL,
	F_LEAP,
	NR_FIELDS
};

/* One number of seconds, finite and at most a day either way: anything
 * else is not chrony's. */
static int seconds(const char *s, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(s, &end);
	if (end == s || *end || errno || !isfinite(*out) || fabs(*out) > 86400)
		return -EINVAL;
	return 0;
}

/* Split line at commas into at most NR_FIELDS fields (in buf). */
static int split(const char *line, char *buf, size_t size, char **f)
{
	size_t len = strcspn(line, "\n");
	unsigned int n = 0;
	char *p;

	if (len >= size)
		return -EINVAL;
	memcpy(buf, line, len);
	buf[len] = '\0';
	if (line[len] == '\n' && line[len + 1])
		return -EINVAL; /* one line only */
	for (p = buf; n < NR_FIELDS; n++) {
		f[n] = p;
		p = strchr(p, ',');
		if (!p)
			break;
		*p++ = '\0';
	}
	return n + 1 == NR_FIELDS && !strchr(f[NR_FIELDS - 1], ',') ? 0 : -EINVAL;
}

int calvin_chrony_tracking_parse(const char *line, struct calvin_chrony_tracking *out, char *why,
				 size_t whylen)
{
	char buf[512], *f[NR_FIELDS], *end;
	double sys, delay, disp;
	unsigned long stratum;

	memset(out, 0, sizeof(*out));
	if (split(line, buf, sizeof(buf), f)) {
		snprintf(why, whylen, "chronyc's tracking line is not %u comma-separated fields",
			 NR_FIELDS);
		return -EINVAL;
	}
	errno = 0;
	stratum = strtoul(f[F_STRATUM], &end, 10);
	if (end == f[F_STRATUM] || *end || errno || stratum > 16 || seconds(f[F_SYSTEM], &sys) ||
	    seconds(f[F_ROOT_DELAY], &delay) || seconds(f[F_ROOT_DISP], &disp) || delay < 0 ||
	    disp < 0) {
		snprintf(why, whylen,
			 "chronyc's tracking line has a field that is not a number "
			 "of its range");
		return -EINVAL;
	}
	snprintf(out->reference, sizeof(out->reference), "%.*s",
		 (int)strspn(f[F_NAME], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
					"0123456789.:-_"),
		 f[F_NAME]);
	out->stratum = (unsigned int)stratum;
	out->offset_ns = (int64_t)llround(sys * 1e9);
	/* chrony's own bound of the clock against its reference: root
	 * dispersion and half the root delay; the offset it is still slewing
	 * away adds to it */
	out->bound_ns = (uint64_t)llround((fabs(sys) + disp + delay / 2) * 1e9);
	if (strcmp(f[F_LEAP], "Normal") && strcmp(f[F_LEAP], "Insert second") &&
	    strcmp(f[F_LEAP], "Delete second")) {
		snprintf(why, whylen,
			 "chrony is not synchronised to a reference (leap status "
			 "not Normal)");
		return -ENOLINK;
	}
	return 0;
}
