// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Chain spec files: reading one, resolving its key-file paths, copying it
 * elsewhere, checking its key files. The only part of the parser that
 * does I/O. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "spec/spec.h"

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

static int read_file(const char *path, char **text, size_t *len, char *err, size_t errlen)
{
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		goto err_report;
	}
	ret = read_all(fd, text, len);
	close(fd);
	if (!ret)
		return 0;
err_report:
	if (err && errlen)
		snprintf(err, errlen, "%s: cannot read: %s", path, strerror(-ret));
	return ret;
}

/* Key files are resolved once, here: against the spec's directory by the
 * parser, then against the working directory, so the spec names the same
 * files wherever it is copied and whatever the working directory. */
static int paths_absolute(struct calvin_chain_spec *spec, char *err, size_t errlen)
{
	size_t size = sizeof(spec->vnfs[0].crypt.key_file);
	char cwd[PATH_MAX], *key;
	struct calvin_vnf_spec *v;
	unsigned int i;
	int n;

	for (i = 0; i < spec->nr_vnfs; i++) {
		v = &spec->vnfs[i];
		key = v->crypt.key_file;
		if ((v->kind != CALVIN_VNF_ENCRYPT && v->kind != CALVIN_VNF_DECRYPT) ||
		    key[0] == '/')
			continue;
		if (!getcwd(cwd, sizeof(cwd))) {
			snprintf(err, errlen, "%s:%d:%d: cannot resolve key-file %.200s: %s",
				 spec->path, v->key_file_pos.line, v->key_file_pos.col, key,
				 strerror(errno));
			return -errno;
		}
		if (strlen(cwd) + 1 + strlen(key) >= size) {
			snprintf(err, errlen,
				 "%s:%d:%d: key-file is longer than %zu characters as an absolute "
				 "path; use a shorter path",
				 spec->path, v->key_file_pos.line, v->key_file_pos.col, size - 1);
			return -ENAMETOOLONG;
		}
		n = (int)strlen(cwd);
		memmove(key + n + 1, key, strlen(key) + 1);
		memcpy(key, cwd, (size_t)n);
		key[n] = '/';
	}
	return 0;
}

/* The copy must say what the original says, with the same key files. */
static int copy_check(const char *text, size_t len, const struct calvin_chain_spec *want)
{
	struct calvin_chain_spec *got = malloc(sizeof(*got));
	unsigned int i;
	int ret = 0;

	if (!got)
		return -ENOMEM;
	if (calvin_spec_parse(text, len, want->path, got, NULL, 0) || got->nr_vnfs != want->nr_vnfs)
		ret = -EPROTO;
	for (i = 0; !ret && i < want->nr_vnfs; i++)
		if (strcmp(got->vnfs[i].crypt.key_file, want->vnfs[i].crypt.key_file))
			ret = -EPROTO;
	free(got);
	return ret;
}

/* The resolved text of what was parsed from text: every key file named by
 * its absolute path, checked to say the same. */
static int resolve(const char *text, size_t len, struct calvin_chain_spec *spec,
		   struct calvin_spec_text *out, char *err, size_t errlen)
{
	int ret;

	ret = paths_absolute(spec, err, errlen);
	if (ret || !out)
		return ret;
	ret = calvin_spec_text_resolved(text, len, spec, &out->text, &out->len);
	if (!ret)
		ret = copy_check(out->text, out->len, spec);
	if (ret) {
		calvin_spec_text_free(out);
		snprintf(err, errlen,
			 "%s: cannot make a copy that names the same key files; report a bug",
			 spec->path);
	}
	return ret;
}

int calvin_spec_load_text(const char *path, struct calvin_chain_spec *spec,
			  struct calvin_spec_text *out, char *err, size_t errlen)
{
	size_t len = 0;
	char *text = NULL;
	int ret;

	if (out)
		memset(out, 0, sizeof(*out));
	ret = read_file(path, &text, &len, err, errlen);
	if (ret)
		return ret;
	ret = calvin_spec_parse(text, len, path, spec, err, errlen);
	if (!ret)
		ret = resolve(text, len, spec, out, err, errlen);
	free(text);
	return ret;
}

int calvin_spec_load(const char *path, struct calvin_chain_spec *spec, char *err, size_t errlen)
{
	return calvin_spec_load_text(path, spec, NULL, err, errlen);
}

void calvin_spec_text_free(struct calvin_spec_text *t)
{
	free(t->text);
	t->text = NULL;
	t->len = 0;
}

static int write_file(const char *path, const char *text, size_t len)
{
	ssize_t n;
	int fd, ret = 0;

	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	while (len) {
		n = write(fd, text, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -errno;
			break;
		}
		text += n;
		len -= (size_t)n;
	}
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

int calvin_spec_text_write(const struct calvin_spec_text *t, const char *to, const char *tmp,
			   char *err, size_t errlen)
{
	int ret;

	if (tmp)
		unlink(tmp);
	ret = write_file(tmp ? tmp : to, t->text, t->len);
	if (!ret && tmp && rename(tmp, to))
		ret = -errno;
	if (ret) {
		if (tmp)
			unlink(tmp);
		snprintf(err, errlen, "%s: cannot write: %s", to, strerror(-ret));
	}
	return ret;
}
