/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* A small text file of the kernel's (/proc, /sys, cgroup files) read
 * whole: by the controller on the host and by calvin-agent in a guest. */
#ifndef CALVIN_AGENT_TEXTFILE_H
#define CALVIN_AGENT_TEXTFILE_H

#include <stddef.h>

/* At most len - 1 bytes of path into buf, NUL-terminated, trailing
 * newlines and spaces dropped. 0 or -errno. */
int calvin_read_text(const char *path, char *buf, size_t len);

#endif /* CALVIN_AGENT_TEXTFILE_H */
