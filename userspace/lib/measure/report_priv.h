/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Inside the probe report: the helpers report_verdict.c keeps for the
 * report's text and JSON (report.c) and its notes (report_notes.c). */
#ifndef CALVIN_LIB_REPORT_PRIV_H
#define CALVIN_LIB_REPORT_PRIV_H

#include "measure/measure.h"

/* VNF id's name in spec, or "vnf#ID" in buf (CALVIN_NAME_MAX + 1 bytes). */
const char *calvin_report_vnf_name(const struct calvin_chain_spec *spec, uint16_t id, char *buf);
/* "kernel", "user" or "?" for a hop record's space byte. */
const char *calvin_report_space_name(uint8_t space);
/* The histogram of link i (0: probe to first hop, nr_pos: last hop to probe). */
const struct calvin_hist *calvin_report_link_hist(const struct calvin_probe_result *r,
						  unsigned int i);

#endif /* CALVIN_LIB_REPORT_PRIV_H */
