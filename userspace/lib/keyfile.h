/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Key files of the encrypt/decrypt VNFs: format, safe loading, key memory.
 *
 * A key file holds one line of 72 hex digits: the 32-byte AEAD key, then
 * the 4-byte nonce salt (include/calvin/crypt.h). Lines starting with '#'
 * (after optional blanks) and blank lines are ignored; upper- or lower-case
 * hex; nothing else may be on the key line. Example:
 *
 *   # calvin key file: 32-byte key then 4-byte salt, hex
 *   000102...1f a0a1a2a3   (written without the blank and the dots)
 *
 * The file must be a regular file (not a symlink) that neither group nor
 * others can read or write (chmod 600). calvin_keyfile_generate() in aead.h
 * writes one. No message ever contains key bytes. */
#ifndef CALVIN_LIB_KEYFILE_H
#define CALVIN_LIB_KEYFILE_H

#include <stddef.h>
#include <stdint.h>

#define CALVIN_KEY_LEN 32
#define CALVIN_SALT_LEN 4
#define CALVIN_KEYFILE_HEX_LEN (2 * (CALVIN_KEY_LEN + CALVIN_SALT_LEN))
/* a key file is small; a bigger one is not a key file */
#define CALVIN_KEYFILE_MAX 4096

struct calvin_key {
	uint8_t key[CALVIN_KEY_LEN];
	uint8_t salt[CALVIN_SALT_LEN];
};

/* A key on a page of its own, locked in memory where the limits allow
 * (mlock) and left out of core dumps (MADV_DONTDUMP). NULL on failure. */
struct calvin_key *calvin_key_new(void);

/* Wipe and release a key from calvin_key_new(); NULL is fine. */
void calvin_key_free(struct calvin_key *k);

/* Parse key file text (len bytes, need not be NUL-terminated). Pure.
 * Returns 0, or -EINVAL with one line in err naming path and what is wrong. */
int calvin_keyfile_parse(const char *text, size_t len, const char *path, struct calvin_key *k,
			 char *err, size_t errlen);

/* Check and read the key file at path into k. Returns 0 or -errno with one
 * line in err, e.g. "k.key: mode 0644 lets others read the key; chmod 600
 * k.key". On failure k is wiped. */
int calvin_keyfile_load(const char *path, struct calvin_key *k, char *err, size_t errlen);

#endif /* CALVIN_LIB_KEYFILE_H */
