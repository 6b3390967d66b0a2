/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* A chain's events: what happened to it after `up` (a VNF restarted, a
 * budget breached, a supervisor that gave up), one JSON object per line in
 * RUN_DIR/CHAIN.d/events.jsonl, and a line in syslog where one runs. The
 * supervisor and the monitor both append; `calvin status` reads the tail.
 *
 * Each line: {"time": "2026-12-02T04:50:49.123456789Z", "chain": CHAIN,
 * "kind": KIND, ...the caller's members}. One write(2) per line on an
 * O_APPEND descriptor, so writers in several processes never interleave
 * within a line. */
#ifndef CALVIN_EVENTS_H
#define CALVIN_EVENTS_H

#include <stddef.h>

struct json_object;

/* Append an event of kind to chain's log; fields (may be NULL) is an
 * object whose members are copied in after "kind", and is not freed.
 * 0 or -errno (the chain's folder missing: -ENOENT). */
int events_append(const char *chain, const char *kind, struct json_object *fields);

/* The last n events of chain, oldest first, as a JSON array (the caller
 * puts it); an empty array when there is no log. NULL only without
 * memory. Lines that do not parse are skipped. */
struct json_object *events_tail(const char *chain, size_t n);

#endif /* CALVIN_EVENTS_H */
