/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Key files of the encrypt/decrypt VNFs: format, safe loading, key memory.
 *
 * A key file holds a long-term key only: one line of 64 hex digits, 32
 * bytes. No packet is ever sealed with it: each deployment derives the
 * traffic key and nonce salt of each security association from it (HKDF,
 * see calvin_sa_derive() in aead.h). Lines starting with '#' (after
 * optional blanks) and blank lines are ignored; upper- or lower-case hex;
 * nothing else may be on the key line. Example:
 *
 *   # calvin key file v2: a 32-byte long-term key, hex
 *   000102...1f   (written without the dots)
 *
 * Files of the first format (v1: 72 hex digits, the key then a 4-byte
 * nonce salt) keep working: the format is told by the line's length, the
 * key is read and the old salt ignored, since salts are now derived per
 * deployment (a fixed salt from the file is what let a redeployment reuse
 * nonces). calvin keygen writes v2. Both formats give the same long-term
 * key for the same 32 bytes, so a v1 file may be rewritten as v2 by
 * dropping its last 8 digits.
 *
 * The file must be a regular file (not a symlink) of the caller's that
 * neither group nor others can read or write (chmod 600), in a folder only
 * its owner can write, below folders that belong to root or the caller and
 * that others cannot write (or sticky ones, like /tmp). It is opened once
 * per command (calvin_keyring): the bytes checked are the bytes used.
 * calvin_keyfile_generate() in aead.h writes one. No message ever
 * contains key bytes. */
#ifndef CALVIN_LIB_KEYFILE_H
#define CALVIN_LIB_KEYFILE_H

#include <stddef.h>
#include <stdint.h>

#include "chainspec.h"

#define CALVIN_KEY_LEN 32
#define CALVIN_KEYFILE_HEX_LEN (2 * CALVIN_KEY_LEN)
/* v1: the key, then a 4-byte salt that is read and ignored */
#define CALVIN_KEYFILE_V1_HEX_LEN (CALVIN_KEYFILE_HEX_LEN + 8)
/* a key file is small; a bigger one is not a key file */
#define CALVIN_KEYFILE_MAX 4096

struct calvin_key {
	uint8_t key[CALVIN_KEY_LEN];
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

/* Is path a place for a key file: its folders as a key file's must be
 * (above)? 0 or -errno with one line in err. For keygen: a key made where
 * calvin up would refuse it helps nobody. */
int calvin_keyfile_check_place(const char *path, char *err, size_t errlen);

/* The key files one command uses, each read once, by path. */
#define CALVIN_KEYRING_MAX 32
struct calvin_keyring {
	unsigned int nr;
	struct {
		char *path;
		struct calvin_key *key;
	} e[CALVIN_KEYRING_MAX];
};

/* The key of path: read now (checked as calvin_keyfile_load() does) if the
 * ring does not hold it yet. Returns 0 and *key, or -errno with one line in
 * err. */
int calvin_keyring_add(struct calvin_keyring *r, const char *path, const struct calvin_key **key,
		       char *err, size_t errlen);
/* The key the ring holds for path, or NULL. */
const struct calvin_key *calvin_keyring_get(const struct calvin_keyring *r, const char *path);
/* Wipe and forget every key; the ring is empty and usable again. */
void calvin_keyring_clear(struct calvin_keyring *r);

/* The key files of spec's encrypt and decrypt VNFs, each read once into
 * ring. Returns 0 or -errno with one line in err, "path:line:col: what is
 * wrong; what to do" at the key-file value. */
int calvin_spec_load_keys(const struct calvin_chain_spec *spec, struct calvin_keyring *ring,
			  char *err, size_t errlen);
/* The same, keeping no key: a check. */
int calvin_spec_check_key_files(const struct calvin_chain_spec *spec, char *err, size_t errlen);

#endif /* CALVIN_LIB_KEYFILE_H */
