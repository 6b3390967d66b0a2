// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Key files: refuse unsafe files, parse the hex line, keep key bytes in
 * locked, undumpable memory and wipe them after use (explicit_bzero, so
 * OpenSSL stays in aead.c); and the key files a chain spec names. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "codec/codec.h"

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

/* One folder on the way to a key file (holder: the one that holds it).
 * Whoever else could write there could put another file in the key's
 * place, or another folder in its parent's place. */
static int check_folder(const char *dir, bool holder, const char *path, char *err, size_t errlen)
{
	struct stat st;

	if (lstat(dir, &st)) {
		snprintf(err, errlen, "%s: cannot check folder %s: %s", path, dir, strerror(errno));
		return -errno;
	}
	if (st.st_uid != 0 && st.st_uid != geteuid()) {
		snprintf(err, errlen,
			 "%s: folder %s belongs to uid %u, who could replace the key; keep key "
			 "files in folders of yours or root's",
			 path, dir, (unsigned int)st.st_uid);
		return -EPERM;
	}
	/* /tmp above is fine: its sticky bit keeps others from renaming ours */
	if ((st.st_mode & 022) && (holder || !(st.st_mode & S_ISVTX))) {
		if (st.st_mode & S_ISVTX)
			snprintf(err, errlen,
				 "%s: folder %s may be written by others, who could put a key "
				 "there; keep the key in a folder of its own (mkdir -m 700)",
				 path, dir);
		else
			snprintf(err, errlen,
				 "%s: folder %s may be written by %s, who could replace the key; "
				 "chmod go-w %s, or keep the key in a folder only you can write",
				 path, dir, st.st_mode & 002 ? "others" : "its group", dir);
		return -EPERM;
	}
	return 0;
}

/* Every folder from the key file's up to /, of its real path. */
static int check_folders(const char *real, const char *path, char *err, size_t errlen)
{
	char dir[PATH_MAX], *slash;
	bool holder = true;
	int ret;

	snprintf(dir, sizeof(dir), "%s", real);
	while ((slash = strrchr(dir, '/'))) {
		slash[slash == dir] = '\0';
		ret = check_folder(dir, holder, path, err, errlen);
		if (ret || !strcmp(dir, "/"))
			return ret;
		holder = false;
	}
	return 0;
}

int calvin_keyfile_check_place(const char *path, char *err, size_t errlen)
{
	char real[PATH_MAX], dir[PATH_MAX], *slash;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		slash[slash == dir] = '\0';
	if (!realpath(dir, real)) {
		snprintf(err, errlen, "%s: cannot find folder %s: %s", path, dir, strerror(errno));
		return -errno;
	}
	/* the folders of a file in real */
	strncat(real, "/k", sizeof(real) - strlen(real) - 1);
	return check_folders(real, path, err, errlen);
}

static int check_file(const struct stat *st, const char *path, char *err, size_t errlen)
{
	if (!S_ISREG(st->st_mode)) {
		snprintf(err, errlen, "%s: not a regular file; name the key file itself", path);
		return -EINVAL;
	}
	if (st->st_uid != geteuid()) {
		snprintf(err, errlen,
			 "%s: belongs to uid %u, not to you (uid %u); use a key file of your "
			 "own ('calvin keygen FILE')",
			 path, (unsigned int)st->st_uid, (unsigned int)geteuid());
		return -EPERM;
	}
	if (st->st_mode & 077) {
		snprintf(err, errlen, "%s: mode %04o lets others %s the key; chmod 600 %s", path,
			 (unsigned int)(st->st_mode & 07777), st->st_mode & 044 ? "read" : "change",
			 path);
		return -EPERM;
	}
	if (st->st_size >= CALVIN_KEYFILE_MAX) {
		snprintf(err, errlen,
			 "%s: %lld bytes is too big for a key file (one line of %d hex digits)",
			 path, (long long)st->st_size, CALVIN_KEYFILE_HEX_LEN);
		return -EFBIG;
	}
	return 0;
}

static int open_error(const char *path, int ret, char *err, size_t errlen)
{
	if (ret == -ELOOP)
		snprintf(err, errlen, "%s: is a symbolic link; name the key file itself", path);
	else if (ret == -ENOENT)
		snprintf(err, errlen, "%s: no such key file; make one with 'calvin keygen %s'",
			 path, path);
	else
		snprintf(err, errlen, "%s: cannot open key file: %s", path, strerror(-ret));
	return ret;
}

/* The file itself, not a link to it, the caller's, and only the caller
 * may touch it or the folders it is reached through. */
static int open_key_file(const char *path, char *err, size_t errlen)
{
	char real[PATH_MAX];
	struct stat st;
	int fd, ret;

	/* the name itself must not be a link; folders above may be (/var/run) */
	if (lstat(path, &st))
		return open_error(path, -errno, err, errlen);
	if (S_ISLNK(st.st_mode))
		return open_error(path, -ELOOP, err, errlen);
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file; name the key file itself", path);
		return -EINVAL;
	}
	if (!realpath(path, real))
		return open_error(path, -errno, err, errlen);
	ret = check_folders(real, path, err, errlen);
	if (ret)
		return ret;
	/* O_NONBLOCK: a FIFO must not hang us before fstat refuses it */
	fd = open(real, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return open_error(path, -errno, err, errlen);
	if (fstat(fd, &st)) {
		ret = -errno;
		snprintf(err, errlen, "%s: cannot stat key file: %s", path, strerror(-ret));
	} else {
		ret = check_file(&st, path, err, errlen);
	}
	if (ret) {
		close(fd);
		return ret;
	}
	return fd;
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

const struct calvin_key *calvin_keyring_get(const struct calvin_keyring *r, const char *path)
{
	unsigned int i;

	for (i = 0; i < r->nr; i++)
		if (!strcmp(r->e[i].path, path))
			return r->e[i].key;
	return NULL;
}

int calvin_keyring_add(struct calvin_keyring *r, const char *path, const struct calvin_key **key,
		       char *err, size_t errlen)
{
	struct calvin_key *k;
	char *copy;
	int ret;

	*key = calvin_keyring_get(r, path);
	if (*key)
		return 0;
	if (r->nr == CALVIN_KEYRING_MAX) {
		snprintf(err, errlen, "%s: more than %d key files in one chain", path,
			 CALVIN_KEYRING_MAX);
		return -E2BIG;
	}
	k = calvin_key_new();
	copy = strdup(path);
	if (!k || !copy) {
		snprintf(err, errlen, "%s: no memory for the key", path);
		ret = -ENOMEM;
		goto err;
	}
	ret = calvin_keyfile_load(path, k, err, errlen);
	if (ret)
		goto err;
	r->e[r->nr].path = copy;
	r->e[r->nr].key = k;
	r->nr++;
	*key = k;
	return 0;
err:
	free(copy);
	calvin_key_free(k);
	return ret;
}

void calvin_keyring_clear(struct calvin_keyring *r)
{
	unsigned int i;

	for (i = 0; i < r->nr; i++) {
		free(r->e[i].path);
		calvin_key_free(r->e[i].key);
	}
	memset(r, 0, sizeof(*r));
}

int calvin_spec_load_keys(const struct calvin_chain_spec *spec, struct calvin_keyring *ring,
			  char *err, size_t errlen)
{
	const struct calvin_vnf_spec *v;
	const struct calvin_key *k;
	char why[CALVIN_ERR_MAX];
	unsigned int i;
	int ret;

	for (i = 0; i < spec->nr_vnfs; i++) {
		v = &spec->vnfs[i];
		if (v->kind != CALVIN_VNF_ENCRYPT && v->kind != CALVIN_VNF_DECRYPT)
			continue;
		ret = calvin_keyring_add(ring, v->crypt.key_file, &k, why, sizeof(why));
		if (ret) {
			snprintf(err, errlen, "%s:%d:%d: %s", spec->path, v->key_file_pos.line,
				 v->key_file_pos.col, why);
			return ret;
		}
	}
	return 0;
}

int calvin_spec_check_key_files(const struct calvin_chain_spec *spec, char *err, size_t errlen)
{
	struct calvin_keyring ring = { 0 };
	int ret;

	ret = calvin_spec_load_keys(spec, &ring, err, errlen);
	calvin_keyring_clear(&ring);
	return ret;
}
