// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Chain spec file reading: the only part of the parser that does I/O. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chainspec.h"

#define SPEC_MAX_FILE (1u << 20) /* a spec is a few dozen lines */

static int read_all(int fd, char **out, size_t *outlen)
{
	size_t cap = 4096, len = 0;
	char *buf, *bigger;
	ssize_t n;
	int err;

	buf = malloc(cap);
	if (!buf)
		return -ENOMEM;
	for (;;) {
		if (len == cap) {
			err = -EFBIG;
			if (cap >= SPEC_MAX_FILE)
				goto err_free;
			err = -ENOMEM;
			bigger = realloc(buf, cap * 2);
			if (!bigger)
				goto err_free;
			buf = bigger;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		err = -errno;
		if (n < 0)
			goto err_free;
		if (n == 0)
			break;
		len += (size_t)n;
	}
	*out = buf;
	*outlen = len;
	return 0;

err_free:
	free(buf);
	return err;
}

int calvin_spec_load(const char *path, struct calvin_chain_spec *spec, char *err, size_t errlen)
{
	size_t len = 0;
	char *text = NULL;
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		goto err_report;
	}
	ret = read_all(fd, &text, &len);
	close(fd);
	if (ret)
		goto err_report;
	ret = calvin_spec_parse(text, len, path, spec, err, errlen);
	free(text);
	return ret;

err_report:
	if (err && errlen)
		snprintf(err, errlen, "%s: cannot read: %s", path, strerror(-ret));
	return ret;
}
