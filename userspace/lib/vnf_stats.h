/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* A user VNF's counters as its DPDK telemetry socket answers the command
 * /calvin/stats: {"/calvin/stats": {"NAME": number or "string", ...}}.
 * The answer comes from outside calvin (a VNF process, or a VM's agent
 * that relays it) and is read as hostile: parsed by json-c, every name
 * and string escaped for a terminal, anything else refused. */
#ifndef CALVIN_LIB_VNF_STATS_H
#define CALVIN_LIB_VNF_STATS_H

#include <stddef.h>
#include <stdio.h>

/* The telemetry command, and the one member of its answer. */
#define CALVIN_VNF_STATS_CMD "/calvin/stats"
/* Counters an answer may hold: calvin-vnf gives about 40. */
#define CALVIN_VNF_STATS_MAX 256

struct json_object;

/* The counters in answer[0..len): 0 and *out, a new JSON object of
 * {NAME: unsigned number or string}, names and strings escaped
 * (calvin_text_escape()); or -EBADMSG and why, in words (the caller
 * puts *out). */
int calvin_vnf_stats_parse(const char *answer, size_t len, struct json_object **out, char *why,
			   size_t whylen);
/* As `calvin -j status` shows a user VNF's counters: {"/calvin/stats":
 * counters}, which it owns. */
struct json_object *calvin_vnf_stats_jobj(struct json_object *counters);
/* As `calvin status` shows them, one line: each port's strings (its PMD,
 * where its hop records start), its packet counts, and every other
 * counter that is not zero. */
void calvin_vnf_stats_text(FILE *f, const char *vnf, struct json_object *counters);

#endif /* CALVIN_LIB_VNF_STATS_H */
