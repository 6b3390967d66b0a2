// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* A small text file read whole (textfile.h). */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "textfile.h"

int calvin_read_text(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return 0;
}
