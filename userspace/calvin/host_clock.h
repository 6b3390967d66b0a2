/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* How this host's clock is kept (host_clock.c): chrony's tracking. */
#ifndef CALVIN_HOST_CLOCK_H
#define CALVIN_HOST_CLOCK_H

#include <stddef.h>

#include "measure/measure.h"

/* Run `chronyc -c -n tracking` and read it. 0 and t; -ENOENT (chrony is
 * not installed), -ETIMEDOUT, -EIO (chronyc failed: no chronyd), -ENOLINK
 * (not synchronised), -EINVAL (an answer not understood), with why. */
int host_clock_chrony(struct calvin_chrony_tracking *t, char *why, size_t len);
/* The report's line for it ("host clock: chrony, within ±1.2ms of its
 * reference ...", or why not), in buf; NULL where chrony is not
 * installed. */
const char *host_clock_describe(char *buf, size_t len);

#endif /* CALVIN_HOST_CLOCK_H */
