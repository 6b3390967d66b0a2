// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* One command to a DPDK process's telemetry socket (dpdk_query.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "dpdk_query.h"

int dpdk_query(const char *prefix, const char *cmd, char *buf, size_t len)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	ssize_t n;
	int fd, err = 0;

	snprintf(sa.sun_path, sizeof(sa.sun_path), "/var/run/dpdk/%.60s/dpdk_telemetry.v2", prefix);
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    read(fd, buf, len - 1) < 0 /* greeting */ || write(fd, cmd, strlen(cmd)) < 0) {
		err = -errno;
		goto out;
	}
	n = read(fd, buf, len - 1);
	if (n <= 0)
		err = n < 0 ? -errno : -EPROTO;
	else
		buf[n] = '\0';
out:
	close(fd);
	return err;
}
