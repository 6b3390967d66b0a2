// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Traffic keys into a pipe for calvin-vnf (sa_pipe.h). A pipe, not a file
 * or an argument: nothing on disk, nothing in /proc/PID/cmdline, and the
 * bytes are gone once the VNF has read them. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "sa_pipe.h"

int sa_set_pipe(const struct calvin_sa_set *s)
{
	uint8_t buf[CALVIN_SA_SET_MAX];
	ssize_t len, n = 0;
	int fds[2], err = 0;

	len = calvin_sa_set_encode(s, buf, sizeof(buf));
	if (len < 0)
		return (int)len;
	if (pipe2(fds, O_CLOEXEC)) {
		err = -errno;
		goto wipe;
	}
	/* far less than a pipe holds: the write never waits for a reader */
	while (n < len && !err) {
		ssize_t w = write(fds[1], buf + n, (size_t)(len - n));

		if (w > 0)
			n += w;
		else if (errno != EINTR)
			err = -errno;
	}
	close(fds[1]);
	if (err)
		close(fds[0]);
wipe:
	explicit_bzero(buf, sizeof(buf));
	return err ? err : fds[0];
}
