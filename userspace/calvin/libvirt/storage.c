// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Guest images on remote hosts through libvirt's storage API: a dir pool
 * LV_POOL and one volume per file, named by the file's SHA-256 and
 * uploaded with virStorageVolUpload() through a stream.
 *
 * Why the checksum is in the volume's name and a sidecar volume marks it
 * complete: the name cannot disagree with the content's identity, and a
 * lookup by name is the whole reuse test; but a volume exists (at its full
 * size) from before its upload starts, so a calvin killed mid-upload
 * leaves a volume whose name is right and whose bytes are not. The
 * sidecar (empty, NAME.ok) is made only after the stream finished and the
 * bytes sent hashed to the name again; no sidecar, no reuse. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "codec/codec.h"
#include "lv.h"
#include "storage.h"
#include "util.h"

#define LV_VOL_MAX 200
#define CHUNK (256 * 1024)

static int journal(struct chain_state *s, enum state_kind kind, const char *name, const char *uri)
{
	int err = state_add(s, kind, name, uri, 0, 0);

	if (err)
		calvin_err("cannot journal %s on %s: %s", name, uri, strerror(-err));
	return err;
}

/* A pool of that name that is not a dir pool at LV_POOL_PATH is someone
 * else's: calvin would put images, and `down --images` delete, there. */
static int pool_is_ours(virStoragePoolPtr p, const char *uri)
{
	char *xml = virStoragePoolGetXMLDesc(p, 0);
	int ok =
	    xml && strstr(xml, "<pool type='dir'") && strstr(xml, "<path>" LV_POOL_PATH "</path>");

	free(xml);
	if (!ok)
		calvin_err("libvirt at %s has a storage pool '%s' that is not a dir pool at %s; "
			   "remove or rename it",
			   uri, LV_POOL, LV_POOL_PATH);
	return ok ? 0 : -EEXIST;
}

static virStoragePoolPtr pool_ensure(struct chain_state *s, virConnectPtr c, const char *uri)
{
	static const char xml[] =
	    "<pool type='dir'><name>" LV_POOL "</name><target><path>" LV_POOL_PATH
	    "</path><permissions><mode>0711</mode></permissions></target></pool>";
	virStoragePoolPtr p = virStoragePoolLookupByName(c, LV_POOL);
	char pn[LV_VOL_MAX + 64];

	snprintf(pn, sizeof(pn), "%s", LV_POOL);
	if (journal(s, ST_LV_POOL, pn, uri))
		return NULL;
	if (p && pool_is_ours(p, uri))
		goto fail;
	if (!p) {
		p = virStoragePoolDefineXML(c, xml, 0);
		if (!p || virStoragePoolBuild(p, 0) < 0)
			goto said;
	}
	if (virStoragePoolIsActive(p) != 1 && virStoragePoolCreate(p, 0) < 0)
		goto said;
	virStoragePoolSetAutostart(p, 1);
	if (virStoragePoolRefresh(p, 0) < 0)
		goto said;
	return p;
said:
	calvin_err("libvirt at %s: cannot set up storage pool %s: %s", uri, LV_POOL, lv_error());
fail:
	if (p)
		virStoragePoolFree(p);
	return NULL;
}

/* SHA-256 of the file at fd, read from its start, in hex. */
static int hash_file(int fd, char hex[65], off_t *size)
{
	static unsigned char buf[CHUNK];
	uint8_t sum[32];
	void *ctx;
	ssize_t n;
	int err, i;

	*size = 0;
	err = calvin_sha256_begin(&ctx);
	if (err)
		return err;
	while (!err && (n = pread(fd, buf, sizeof(buf), *size)) > 0) {
		err = calvin_sha256_feed(ctx, buf, (size_t)n);
		*size += n;
	}
	if (!err && n < 0)
		err = -errno;
	i = calvin_sha256_end(ctx, sum);
	if (err || i)
		return err ? err : i;
	for (i = 0; i < 32; i++)
		snprintf(hex + 2 * i, 3, "%02x", sum[i]);
	return 0;
}

/* Stream size bytes of fd into vol, hashing what is sent: a file changed
 * since it was named is refused, not uploaded under the old name. */
static int upload(virConnectPtr c, virStorageVolPtr vol, int fd, off_t size, const char *hex)
{
	static unsigned char buf[CHUNK];
	virStreamPtr st = virStreamNew(c, 0);
	char again[65];
	off_t off = 0;
	ssize_t n = 0;
	void *ctx;
	int err;

	if (!st || virStorageVolUpload(vol, st, 0, (unsigned long long)size, 0) < 0) {
		if (st)
			virStreamFree(st);
		return -EIO;
	}
	err = calvin_sha256_begin(&ctx);
	while (!err && off < size && (n = pread(fd, buf, sizeof(buf), off)) > 0) {
		err = calvin_sha256_feed(ctx, buf, (size_t)n);
		for (ssize_t done = 0; !err && done < n;) {
			int w = virStreamSend(st, (const char *)buf + done, (size_t)(n - done));

			if (w < 0)
				err = -EIO;
			done += w;
		}
		off += n;
	}
	if (!err && off != size)
		err = -ESTALE;
	if (ctx) {
		uint8_t sum[32];

		if (!calvin_sha256_end(ctx, sum) && !err) {
			for (int i = 0; i < 32; i++)
				snprintf(again + 2 * i, 3, "%02x", sum[i]);
			if (strcmp(again, hex))
				err = -ESTALE;
		}
	}
	if (err)
		virStreamAbort(st);
	else if (virStreamFinish(st) < 0)
		err = -EIO;
	virStreamFree(st);
	return err;
}

static virStorageVolPtr vol_create(virStoragePoolPtr p, const char *name, off_t size)
{
	char xml[512];

	snprintf(xml, sizeof(xml),
		 "<volume><name>%s</name><capacity unit='bytes'>%lld</capacity><target>"
		 "<format type='raw'/><permissions><mode>0644</mode></permissions></target>"
		 "</volume>",
		 name, (long long)size);
	return virStorageVolCreateXML(p, xml, 0);
}

static bool name_ok(const char *base)
{
	size_t n = strlen(base);

	if (!n || n > 64 || base[0] == '.')
		return false;
	return strspn(base, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") ==
	       n;
}

/* The volume name of image hex/base, and of its sidecar. */
static void vol_names(const char *hex, const char *base, char *img, char *ok, size_t len)
{
	snprintf(img, len, "calvin-%s-%s", hex, base);
	snprintf(ok, len, "calvin-%s-%s.ok", hex, base);
}

/* Journal POOL/NAME, then make it (an image streamed from fd, or an
 * empty sidecar when fd < 0). */
static int vol_put(struct chain_state *s, virConnectPtr c, virStoragePoolPtr p, const char *uri,
		   const char *name, int fd, off_t size, const char *hex)
{
	char entry[LV_VOL_MAX + 64];
	virStorageVolPtr v;
	int err = 0;

	snprintf(entry, sizeof(entry), "%s/%s", LV_POOL, name);
	if (journal(s, ST_LV_VOL, entry, uri))
		return -EIO;
	v = vol_create(p, name, fd < 0 ? 0 : size);
	if (!v) {
		calvin_err("libvirt at %s: cannot create volume %s: %s", uri, name, lv_error());
		return -EIO;
	}
	if (fd >= 0)
		err = upload(c, v, fd, size, hex);
	if (err)
		calvin_err("libvirt at %s: cannot upload volume %s: %s", uri, name,
			   err == -ESTALE ? "the file changed while it was sent" : lv_error());
	virStorageVolFree(v);
	return err;
}

/* What is there of image img and its sidecar ok: a complete pair is
 * reused; an image without a sidecar (an upload cut short) is removed so
 * it is made again; a lone sidecar too. */
static bool complete(virStoragePoolPtr p, const char *img, const char *ok)
{
	virStorageVolPtr vi = virStorageVolLookupByName(p, img);
	virStorageVolPtr vo = virStorageVolLookupByName(p, ok);
	bool both = vi && vo;

	if (!both && vo)
		virStorageVolDelete(vo, 0);
	if (!both && vi)
		virStorageVolDelete(vi, 0);
	if (vi)
		virStorageVolFree(vi);
	if (vo)
		virStorageVolFree(vo);
	return both;
}

static int vol_path(virStoragePoolPtr p, const char *uri, const char *name, char *path, size_t len)
{
	virStorageVolPtr v = virStorageVolLookupByName(p, name);
	char *where = v ? virStorageVolGetPath(v) : NULL;

	if (v)
		virStorageVolFree(v);
	if (!where) {
		calvin_err("libvirt at %s: volume %s has no path: %s", uri, name, lv_error());
		return -EIO;
	}
	snprintf(path, len, "%s", where);
	free(where);
	return 0;
}

static int image_put(struct chain_state *s, virConnectPtr c, const char *uri, int fd,
		     const char *base, char *path, size_t len, bool *reused)
{
	char hex[65], img[LV_VOL_MAX], ok[LV_VOL_MAX], entry[LV_VOL_MAX + 64];
	virStoragePoolPtr p;
	off_t size;
	int err = hash_file(fd, hex, &size);

	if (err) {
		calvin_err("cannot read guest image %s: %s", base, strerror(-err));
		return err;
	}
	p = pool_ensure(s, c, uri);
	if (!p)
		return -EIO;
	vol_names(hex, base, img, ok, sizeof(img));
	*reused = complete(p, img, ok);
	if (*reused) {
		/* journalled as used, for `down --images` */
		snprintf(entry, sizeof(entry), "%s/%s", LV_POOL, img);
		err = journal(s, ST_LV_VOL, entry, uri);
	} else {
		err = vol_put(s, c, p, uri, img, fd, size, hex);
		if (!err)
			err = vol_put(s, c, p, uri, ok, -1, 0, hex);
	}
	if (!err)
		err = vol_path(p, uri, img, path, len);
	virStoragePoolFree(p);
	return err;
}

int lv_image_put(struct chain_state *s, const char *uri, const char *file, char *path, size_t len,
		 bool *reused)
{
	const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
	virConnectPtr c;
	struct stat st;
	int fd, err;

	if (!name_ok(base)) {
		calvin_err("guest image %s: its file name must be letters, digits, '.', '_' or '-' "
			   "(at most 64) to name a volume; rename it",
			   file);
		return -EINVAL;
	}
	fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		err = fd < 0 ? -errno : -EINVAL;
		calvin_err("cannot read guest image %s: %s", file,
			   err == -EINVAL ? "not a regular file" : strerror(-err));
		if (fd >= 0)
			close(fd);
		return err;
	}
	err = lv_open(uri, &c);
	if (!err)
		err = image_put(s, c, uri, fd, base, path, len, reused);
	close(fd);
	return err;
}

static bool is_sidecar(const char *name)
{
	size_t n = strlen(name);

	return n > 3 && !strcmp(name + n - 3, ".ok");
}

/* One journalled volume, in the pass that handles its kind: sidecars
 * (pass 0, purge only) before images (pass 1), so a down cut short never
 * leaves a sidecar vouching for a removed or partial image. */
static int vol_down(const struct state_entry *e, int pass, bool purge)
{
	char pool[STATE_NAME_MAX + 1], img[STATE_NAME_MAX + 1], ok[STATE_NAME_MAX + 8];
	virStoragePoolPtr p;
	virStorageVolPtr v, vo = NULL;
	virConnectPtr c;
	bool keep;
	char *slash;
	int err = 0;

	snprintf(pool, sizeof(pool), "%s", e->name);
	slash = strchr(pool, '/');
	if (!slash || is_sidecar(slash + 1) != (pass == 0))
		return 0;
	*slash = '\0';
	if (pass == 0 && !purge)
		return 0;
	if (lv_open(e->uri, &c)) {
		calvin_err(
		    "left on %s: volume %s in pool %s; run calvin down again when it answers",
		    e->uri, slash + 1, pool);
		return -EAGAIN;
	}
	p = virStoragePoolLookupByName(c, pool);
	v = p ? virStorageVolLookupByName(p, slash + 1) : NULL;
	snprintf(img, sizeof(img), "%s", slash + 1);
	snprintf(ok, sizeof(ok), "%s.ok", img);
	if (pass == 1 && v)
		vo = virStorageVolLookupByName(p, ok);
	keep = !purge && vo;
	/* a reused image is journalled without its sidecar: purge it first */
	if (purge && vo && virStorageVolDelete(vo, 0) < 0) {
		calvin_err("libvirt at %s: cannot remove volume %s: %s", e->uri, ok, lv_error());
		err = -EIO;
	}
	if (keep)
		calvin_err("kept on %s: guest image %s in pool %s, a cache for the next up; "
			   "calvin down --images removes it",
			   e->uri, img, pool);
	else if (!err && v && virStorageVolDelete(v, 0) < 0) {
		calvin_err("libvirt at %s: cannot remove volume %s: %s", e->uri, img, lv_error());
		err = -EIO;
	}
	if (vo)
		virStorageVolFree(vo);
	if (v)
		virStorageVolFree(v);
	if (p)
		virStoragePoolFree(p);
	return err;
}

/* purge: the pool, once no volume is left in it (another chain's cached
 * image keeps it). */
static int pool_down(const struct state_entry *e)
{
	virStoragePoolPtr p;
	virConnectPtr c;
	int err = 0;

	if (lv_open(e->uri, &c)) {
		calvin_err("left on %s: storage pool %s; run calvin down again when it answers",
			   e->uri, e->name);
		return -EAGAIN;
	}
	p = virStoragePoolLookupByName(c, e->name);
	if (!p)
		return 0;
	virStoragePoolRefresh(p, 0);
	if (virStoragePoolNumOfVolumes(p) == 0 && !pool_is_ours(p, e->uri)) {
		if (virStoragePoolIsActive(p) == 1)
			virStoragePoolDestroy(p);
		if (virStoragePoolDelete(p, 0) < 0 || virStoragePoolUndefine(p) < 0) {
			calvin_err("libvirt at %s: cannot remove storage pool %s: %s", e->uri,
				   e->name, lv_error());
			err = -EIO;
		}
	}
	virStoragePoolFree(p);
	return err;
}

/* Was entry i journalled before (one chain, two VMs, one image)? */
static bool seen_before(const struct chain_state *s, unsigned int i)
{
	for (unsigned int j = 0; j < i; j++)
		if (s->e[j].kind == s->e[i].kind && !strcmp(s->e[j].name, s->e[i].name) &&
		    !strcmp(s->e[j].uri, s->e[i].uri))
			return true;
	return false;
}

int lv_images_down(struct chain_state *s, bool purge)
{
	int err = 0, e, pass;
	unsigned int i;

	for (pass = 0; pass < 3; pass++)
		for (i = 0; i < s->nr; i++) {
			if (seen_before(s, i))
				continue;
			e = 0;
			if (pass < 2 && s->e[i].kind == ST_LV_VOL)
				e = vol_down(&s->e[i], pass, purge);
			else if (pass == 2 && purge && s->e[i].kind == ST_LV_POOL)
				e = pool_down(&s->e[i]);
			if (e && !err)
				err = e;
		}
	return err;
}
