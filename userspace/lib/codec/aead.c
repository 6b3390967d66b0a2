// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Per-packet AEAD framing over OpenSSL EVP; the project's one OpenSSL file. */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/params.h>
#include <openssl/rand.h>

#include "codec/codec.h"

int calvin_aead_init(struct calvin_aead *a, enum calvin_cipher c, const uint8_t *key, size_t keylen,
		     const uint8_t salt[CALVIN_CRYPT_SALT_LEN], uint32_t spi, int encrypt)
{
	const EVP_CIPHER *cipher;
	EVP_CIPHER_CTX *ctx;

	memset(a, 0, sizeof(*a));
	if (c == CALVIN_CIPHER_AES_256_GCM)
		cipher = EVP_aes_256_gcm();
	else if (c == CALVIN_CIPHER_CHACHA20_POLY1305)
		cipher = EVP_chacha20_poly1305();
	else
		return -EINVAL;
	if (!key || keylen != CALVIN_KEY_LEN || !salt || spi == 0)
		return -EINVAL;
	ctx = EVP_CIPHER_CTX_new();
	if (!ctx)
		return -ENOMEM;
	encrypt = !!encrypt;
	/* cipher and key once; each packet then sets only its IV */
	if (!EVP_CipherInit_ex(ctx, cipher, NULL, NULL, NULL, encrypt) ||
	    !EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_IVLEN, CALVIN_CRYPT_NONCE_LEN, NULL) ||
	    !EVP_CipherInit_ex(ctx, NULL, NULL, key, NULL, encrypt))
		goto err_free_ctx;
	a->ctx = ctx;
	a->cipher = c;
	a->spi = spi;
	a->encrypt = encrypt;
	memcpy(a->salt, salt, CALVIN_CRYPT_SALT_LEN);
	return 0;

err_free_ctx:
	EVP_CIPHER_CTX_free(ctx);
	ERR_clear_error();
	return -EIO;
}

void calvin_aead_free(struct calvin_aead *a)
{
	EVP_CIPHER_CTX_free(a->ctx); /* wipes the key schedule */
	OPENSSL_cleanse(a, sizeof(*a));
}

/* One AEAD operation with the context's key and direction. The tag is an
 * output when sealing, an input when opening. */
static int aead_pass(EVP_CIPHER_CTX *ctx, int encrypt, const uint8_t *nonce, const uint8_t *aad,
		     size_t aad_len, uint8_t *out, const uint8_t *in, size_t len, uint8_t *tag)
{
	int n = 0, fin = 0;

	if (aad_len > INT_MAX || len > INT_MAX)
		return -EMSGSIZE;
	if (!EVP_CipherInit_ex(ctx, NULL, NULL, NULL, nonce, -1))
		goto err_openssl;
	if (aad_len && !EVP_CipherUpdate(ctx, NULL, &n, aad, (int)aad_len))
		goto err_openssl;
	n = 0;
	if (len && !EVP_CipherUpdate(ctx, out, &n, in, (int)len))
		goto err_openssl;
	if (!encrypt && !EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, CALVIN_CRYPT_TAG_LEN, tag))
		goto err_openssl;
	if (!EVP_CipherFinal_ex(ctx, out + n, &fin)) {
		ERR_clear_error();
		return encrypt ? -EIO : -EBADMSG;
	}
	if (encrypt && !EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, CALVIN_CRYPT_TAG_LEN, tag))
		goto err_openssl;
	return 0;

err_openssl:
	ERR_clear_error();
	return -EIO;
}

int calvin_aead_raw(struct calvin_aead *a, const uint8_t nonce[CALVIN_CRYPT_NONCE_LEN],
		    const uint8_t *aad, size_t aad_len, uint8_t *out, const uint8_t *in, size_t len,
		    uint8_t tag[CALVIN_CRYPT_TAG_LEN])
{
	if (!a->ctx)
		return -EINVAL;
	return aead_pass(a->ctx, a->encrypt, nonce, aad, aad_len, out, in, len, tag);
}

/* Do [p, p+pn) and [q, q+qn) share a byte? */
static int overlap(const void *p, size_t pn, const void *q, size_t qn)
{
	uintptr_t a = (uintptr_t)p, b = (uintptr_t)q;

	return pn && qn && a < b + qn && b < a + pn;
}

static void make_nonce(uint8_t nonce[CALVIN_CRYPT_NONCE_LEN], const uint8_t *salt, uint64_t seq)
{
	uint64_t be = htobe64(seq);

	memcpy(nonce, salt, CALVIN_CRYPT_SALT_LEN);
	memcpy(nonce + CALVIN_CRYPT_SALT_LEN, &be, sizeof(be));
}

int calvin_aead_seal(struct calvin_aead *a, uint8_t *out, size_t out_cap, const uint8_t *in,
		     size_t len)
{
	uint8_t nonce[CALVIN_CRYPT_NONCE_LEN];
	struct calvin_crypt_hdr h = {.version = CALVIN_CRYPT_VERSION};
	int ret;

	if (!a->ctx || !a->encrypt)
		return -EINVAL;
	if (len > INT_MAX - CALVIN_CRYPT_OVERHEAD)
		return -EMSGSIZE;
	if (out_cap < len + CALVIN_CRYPT_OVERHEAD)
		return -ENOSPC;
	if (in != out + CALVIN_CRYPT_HDR_LEN && overlap(out, len + CALVIN_CRYPT_OVERHEAD, in, len))
		return -EINVAL;
	/* 2^64-1 is never sent, so a wrapped counter can never reuse a nonce */
	if (a->seq >= UINT64_MAX - 1)
		return -EOVERFLOW;
	a->seq++;
	h.spi = htobe32(a->spi);
	h.seq = htobe64(a->seq);
	make_nonce(nonce, a->salt, a->seq);
	memcpy(out, &h, sizeof(h));
	ret = aead_pass(a->ctx, 1, nonce, out, sizeof(h), out + sizeof(h), in, len,
			out + sizeof(h) + len);
	if (ret)
		return ret;
	return (int)(len + CALVIN_CRYPT_OVERHEAD);
}

int calvin_aead_open(struct calvin_aead *a, struct calvin_replay *w, uint8_t *out, size_t out_cap,
		     const uint8_t *in, size_t len)
{
	uint8_t nonce[CALVIN_CRYPT_NONCE_LEN], tag[CALVIN_CRYPT_TAG_LEN];
	struct calvin_crypt_hdr h;
	uint64_t seq;
	size_t n;
	int ret;

	if (!a->ctx || a->encrypt || !w)
		return -EINVAL;
	if (len > INT_MAX)
		return -EMSGSIZE;
	if (len < CALVIN_CRYPT_OVERHEAD)
		return -EPROTO;
	/* a copy, since an in-place open writes over what follows it */
	memcpy(&h, in, sizeof(h));
	if (h.version != CALVIN_CRYPT_VERSION || h.reserved[0] || h.reserved[1] || h.reserved[2])
		return -EPROTO;
	if (be32toh(h.spi) != a->spi)
		return -ENOKEY;
	seq = be64toh(h.seq);
	/* cheap check before the tag; the window moves only after it */
	ret = calvin_replay_check(w, seq);
	if (ret)
		return ret;
	n = len - CALVIN_CRYPT_OVERHEAD;
	if (out_cap < n)
		return -ENOSPC;
	if (out != in + CALVIN_CRYPT_HDR_LEN && overlap(out, n, in, len))
		return -EINVAL;
	memcpy(tag, in + sizeof(h) + n, sizeof(tag));
	make_nonce(nonce, a->salt, seq);
	ret = aead_pass(a->ctx, 0, nonce, (const uint8_t *)&h, sizeof(h), out, in + sizeof(h), n,
			tag);
	if (ret) {
		/* whatever was decrypted is unauthenticated: let none of it out */
		OPENSSL_cleanse(out, n);
		return ret;
	}
	calvin_replay_update(w, seq);
	return (int)n;
}

void calvin_aead_count(struct calvin_aead_counters *c, int ret)
{
	if (ret >= 0)
		c->ok++;
	else if (ret == -EPROTO)
		c->bad_header++;
	else if (ret == -ENOKEY)
		c->unknown_spi++;
	else if (ret == -EALREADY)
		c->replay++;
	else if (ret == -EBADMSG)
		c->bad_tag++;
	else
		c->other++;
}

static void hex_encode(char *dst, const uint8_t *src, size_t n)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < n; i++) {
		dst[2 * i] = digits[src[i] >> 4];
		dst[2 * i + 1] = digits[src[i] & 15];
	}
}

static int write_all(int fd, const char *p, size_t n)
{
	ssize_t w;

	while (n) {
		w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

int calvin_keyfile_generate(const char *path, char *err, size_t errlen)
{
	static const char comment[] = "# calvin key file v2: a 32-byte long-term key, hex\n";
	uint8_t raw[CALVIN_KEY_LEN];
	char text[sizeof(comment) + CALVIN_KEYFILE_HEX_LEN + 1];
	size_t n = sizeof(comment) - 1;
	int fd, ret;

	if (RAND_bytes(raw, sizeof(raw)) != 1) {
		ERR_clear_error();
		snprintf(err, errlen,
			 "%s: no random bytes for a key; check OpenSSL's random source", path);
		return -EIO;
	}
	memcpy(text, comment, n);
	hex_encode(text + n, raw, sizeof(raw));
	n += CALVIN_KEYFILE_HEX_LEN;
	text[n++] = '\n';
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "%s: cannot create key file: %s%s", path, strerror(-ret),
			 ret == -EEXIST ? "; remove it first to replace the key" : "");
		goto out_wipe;
	}
	ret = write_all(fd, text, n);
	if (!ret && fsync(fd))
		ret = -errno;
	if (close(fd) && !ret)
		ret = -errno;
	if (ret) {
		snprintf(err, errlen, "%s: cannot write key file: %s", path, strerror(-ret));
		unlink(path);
	}
out_wipe:
	OPENSSL_cleanse(raw, sizeof(raw));
	OPENSSL_cleanse(text, sizeof(text));
	return ret;
}

int calvin_hkdf_sha256(const uint8_t *ikm, size_t ikm_len, const uint8_t *salt, size_t salt_len,
		       const uint8_t *info, size_t info_len, uint8_t *okm, size_t okm_len)
{
	OSSL_PARAM params[5], *p = params;
	EVP_KDF_CTX *ctx = NULL;
	EVP_KDF *kdf;
	int ret = -EIO;

	/* RFC 5869: at most 255 blocks of output */
	if (!ikm || !ikm_len || !okm || !okm_len || okm_len > 255 * 32)
		return -EINVAL;
	kdf = EVP_KDF_fetch(NULL, OSSL_KDF_NAME_HKDF, NULL);
	if (kdf)
		ctx = EVP_KDF_CTX_new(kdf);
	if (!ctx)
		goto out;
	*p++ = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, (char *)"SHA256", 0);
	*p++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, (void *)ikm, ikm_len);
	/* absent means HashLen zeros, which is what an empty salt is to HMAC */
	if (salt_len)
		*p++ =
		    OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, (void *)salt, salt_len);
	if (info_len)
		*p++ =
		    OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, (void *)info, info_len);
	*p = OSSL_PARAM_construct_end();
	if (EVP_KDF_derive(ctx, okm, okm_len, params) == 1)
		ret = 0;
out:
	if (ret)
		ERR_clear_error();
	EVP_KDF_CTX_free(ctx); /* wipes its copy of the key */
	EVP_KDF_free(kdf);
	return ret;
}

int calvin_sa_derive(const uint8_t ltk[CALVIN_KEY_LEN],
		     const uint8_t deploy_random[CALVIN_DEPLOY_RANDOM_LEN], const char *chain,
		     uint32_t spi, unsigned int dir, uint32_t epoch, struct calvin_sa_keys *out)
{
	uint8_t info[CALVIN_SA_INFO_MAX], okm[CALVIN_KEY_LEN + CALVIN_CRYPT_SALT_LEN];
	int n, ret;

	n = calvin_sa_info(info, sizeof(info), chain, spi, dir, epoch);
	if (n < 0)
		return n;
	ret = calvin_hkdf_sha256(ltk, CALVIN_KEY_LEN, deploy_random, CALVIN_DEPLOY_RANDOM_LEN, info,
				 (size_t)n, okm, sizeof(okm));
	if (!ret) {
		memcpy(out->key, okm, CALVIN_KEY_LEN);
		memcpy(out->salt, okm + CALVIN_KEY_LEN, CALVIN_CRYPT_SALT_LEN);
	}
	OPENSSL_cleanse(okm, sizeof(okm));
	return ret;
}

void calvin_sa_keys_wipe(struct calvin_sa_keys *k)
{
	OPENSSL_cleanse(k, sizeof(*k));
}

int calvin_sha256_begin(void **ctx)
{
	EVP_MD_CTX *c = EVP_MD_CTX_new();

	*ctx = c;
	if (!c)
		return -ENOMEM;
	if (EVP_DigestInit_ex(c, EVP_sha256(), NULL) != 1) {
		EVP_MD_CTX_free(c);
		*ctx = NULL;
		return -EIO;
	}
	return 0;
}

int calvin_sha256_feed(void *ctx, const void *p, size_t len)
{
	return EVP_DigestUpdate(ctx, p, len) == 1 ? 0 : -EIO;
}

int calvin_sha256_end(void *ctx, uint8_t out[32])
{
	unsigned int n = 0;
	int ok = EVP_DigestFinal_ex(ctx, out, &n) == 1 && n == 32;

	EVP_MD_CTX_free(ctx);
	return ok ? 0 : -EIO;
}
