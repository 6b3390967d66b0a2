// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* calvin-vnf's messages: its one-line errors, and the capture of DPDK's
 * log during startup.
 *
 * A failing EAL init or af_xdp setup logs several lines of its own; the
 * controller wants one line per failure. While captured, DPDK's messages
 * go to a buffer, and the first one (usually the cause, before the
 * generic "Failed to ..." of the callers) becomes the reason in our line.
 * With CALVIN_VNF_LOG_LEVEL set, nothing is captured: DPDK logs as usual.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_log.h>

#include "vnf.h"

static const char *err_name = "?";
static char log_buf[4096];
static char log_first[256];
static FILE *log_mem;

void vnf_log_capture(void)
{
	if (getenv("CALVIN_VNF_LOG_LEVEL"))
		return;
	if (!log_mem) {
		log_mem = fmemopen(log_buf, sizeof(log_buf), "w");
		if (!log_mem)
			return; /* logs then stay on stderr: noisier, not wrong */
		rte_openlog_stream(log_mem);
	}
	rewind(log_mem);
	log_buf[0] = '\0';
}

/* The first line logged since vnf_log_capture(), or NULL. */
const char *vnf_log_first(void)
{
	size_t len;

	if (!log_mem)
		return NULL;
	fflush(log_mem);
	len = strcspn(log_buf, "\n");
	if (!len)
		return NULL;
	if (len >= sizeof(log_first))
		len = sizeof(log_first) - 1;
	memcpy(log_first, log_buf, len);
	log_first[len] = '\0';
	return log_first;
}

void vnf_log_release(void)
{
	if (!log_mem)
		return;
	rte_openlog_stream(NULL);
	fclose(log_mem);
	log_mem = NULL;
}

/* Set once the command line is parsed: every later line names the VNF. */
void vnf_err_name(const char *name)
{
	err_name = name;
}

void vnf_err(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, VNF_PROG ": %s: ", err_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}
