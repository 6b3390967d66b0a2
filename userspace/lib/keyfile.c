// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Key files: refuse unsafe files, parse the hex line, keep key bytes in
 * locked, undumpable memory and wipe them after use (explicit_bzero, so
 * OpenSSL stays in aead.c). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "keyfile.h"

/* Both the key and the file's text live on pages like this one. */
static void *secret_page_new(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	/* best effort: an unprivileged process may have no mlock allowance,
	 * and the key is still wiped after use */
	(void)mlock(p, len);
	(void)madvise(p, len, MADV_DONTDUMP);
	return p;
}

static void secret_page_free(void *p, size_t len)
{
	if (!p)
		return;
	explicit_bzero(p, len);
	munlock(p, len);
	munmap(p, len);
}

struct calvin_key *calvin_key_new(void)
{
	return secret_page_new(sizeof(struct calvin_key));
}

void calvin_key_free(struct calvin_key *k)
{
	secret_page_free(k, sizeof(*k));
}

static int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* One key line, blanks at either end trimmed: exactly the hex digits of
 * the key (v2), or of the key and the old salt (v1, the salt ignored).
 * Errors say where, never what the bytes were. */
static int parse_key_line(const char *s, size_t n, int line, const char *path, struct calvin_key *k,
			  char *err, size_t errlen)
{
	int hi, lo;
	size_t i;

	if (n != CALVIN_KEYFILE_HEX_LEN && n != CALVIN_KEYFILE_V1_HEX_LEN) {
		snprintf(err, errlen,
			 "%s:%d: key line has %zu characters; it must be %d hex digits "
			 "(a 32-byte key; make a new file with 'calvin keygen FILE')",
			 path, line, n, CALVIN_KEYFILE_HEX_LEN);
		return -EINVAL;
	}
	for (i = 0; i < n / 2; i++) {
		hi = hex_value(s[2 * i]);
		lo = hex_value(s[2 * i + 1]);
		if (hi < 0 || lo < 0) {
			snprintf(err, errlen,
				 "%s:%d:%zu: not a hex digit; the key line must be %d hex digits",
				 path, line, 2 * i + (hi < 0 ? 1 : 2), CALVIN_KEYFILE_HEX_LEN);
			explicit_bzero(k, sizeof(*k));
			return -EINVAL;
		}
		if (i < CALVIN_KEY_LEN)
			k->key[i] = (uint8_t)(hi << 4 | lo);
	}
	return 0;
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

int calvin_keyfile_parse(const char *text, size_t len, const char *path, struct calvin_key *k,
			 char *err, size_t errlen)
{
	size_t pos = 0, start, end;
	int line = 0, key_line = 0, ret;

	while (pos < len) {
		line++;
		start = pos;
		while (pos < len && text[pos] != '\n')
			pos++;
		end = pos++;
		while (start < end && is_blank(text[start]))
			start++;
		while (end > start && is_blank(text[end - 1]))
			end--;
		if (start == end || text[start] == '#')
			continue;
		if (key_line) {
			snprintf(err, errlen,
				 "%s:%d: a second key line (the first is line %d); keep one", path,
				 line, key_line);
			explicit_bzero(k, sizeof(*k));
			return -EINVAL;
		}
		ret = parse_key_line(text + start, end - start, line, path, k, err, errlen);
		if (ret)
			return ret;
		key_line = line;
	}
	if (!key_line) {
		snprintf(
		    err, errlen,
		    "%s: no key line; add one line of %d hex digits (a 32-byte key), or make a "
		    "new file with 'calvin keygen FILE'",
		    path, CALVIN_KEYFILE_HEX_LEN);
		return -EINVAL;
	}
	return 0;
}

/* The file itself, not a link to it, and only its owner may touch it. */
static int open_key_file(const char *path, char *err, size_t errlen)
{
	struct stat st;
	int fd, ret;

	/* O_NONBLOCK: a FIFO must not hang us before fstat refuses it */
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		ret = -errno;
		if (ret == -ELOOP)
			snprintf(err, errlen, "%s: is a symbolic link; name the key file itself",
				 path);
		else if (ret == -ENOENT)
			snprintf(err, errlen,
				 "%s: no such key file; make one with 'calvin keygen %s'", path,
				 path);
		else
			snprintf(err, errlen, "%s: cannot open key file: %s", path, strerror(-ret));
		return ret;
	}
	if (fstat(fd, &st)) {
		ret = -errno;
		snprintf(err, errlen, "%s: cannot stat key file: %s", path, strerror(-ret));
		goto err_close;
	}
	if (!S_ISREG(st.st_mode)) {
		ret = -EINVAL;
		snprintf(err, errlen, "%s: not a regular file; name the key file itself", path);
		goto err_close;
	}
	if (st.st_mode & 077) {
		ret = -EPERM;
		snprintf(err, errlen, "%s: mode %04o lets others %s the key; chmod 600 %s", path,
			 (unsigned int)(st.st_mode & 07777), st.st_mode & 044 ? "read" : "change",
			 path);
		goto err_close;
	}
	if (st.st_size >= CALVIN_KEYFILE_MAX) {
		ret = -EFBIG;
		snprintf(err, errlen,
			 "%s: %lld bytes is too big for a key file (one line of %d hex digits)",
			 path, (long long)st.st_size, CALVIN_KEYFILE_HEX_LEN);
		goto err_close;
	}
	return fd;

err_close:
	close(fd);
	return ret;
}

int calvin_keyfile_load(const char *path, struct calvin_key *k, char *err, size_t errlen)
{
	size_t len = 0;
	ssize_t n;
	char *text;
	int fd, ret;

	fd = open_key_file(path, err, errlen);
	if (fd < 0)
		return fd;
	text = secret_page_new(CALVIN_KEYFILE_MAX);
	if (!text) {
		ret = -ENOMEM;
		snprintf(err, errlen, "%s: no memory to read the key file", path);
		goto err_close;
	}
	/* the file may change size after fstat; read what fits and judge that */
	while (len < CALVIN_KEYFILE_MAX) {
		n = read(fd, text + len, CALVIN_KEYFILE_MAX - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -errno;
			snprintf(err, errlen, "%s: cannot read key file: %s", path, strerror(-ret));
			goto err_wipe;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	if (len == CALVIN_KEYFILE_MAX) {
		ret = -EFBIG;
		snprintf(err, errlen, "%s: too big for a key file (one line of %d hex digits)",
			 path, CALVIN_KEYFILE_HEX_LEN);
		goto err_wipe;
	}
	ret = calvin_keyfile_parse(text, len, path, k, err, errlen);
err_wipe:
	secret_page_free(text, CALVIN_KEYFILE_MAX);
err_close:
	close(fd);
	if (ret)
		explicit_bzero(k, sizeof(*k));
	return ret;
}
