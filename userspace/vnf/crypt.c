// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Encryption transforms of calvin-vnf: encrypt and decrypt (AEAD framing in
 * userspace/lib/aead.h, wire format in include/calvin/crypt.h).
 *
 * Direction: both act only on what goes west -> east (probe -> server), so
 * an encrypt VNF followed by a decrypt VNF protects that direction; what
 * comes back east -> west is forwarded untouched (and stamped) by both.
 *
 * encrypt: the application bytes of each IPv4 UDP frame (after a probe's
 * telemetry block, which stays in clear and unauthenticated so later VNFs
 * can stamp it) become header + ciphertext + tag, 32 bytes more.
 * decrypt: the reverse; a frame that is truncated, tampered with, replayed,
 * or under another SPI is dropped and counted, never forwarded. Other
 * protocols than IPv4 UDP pass untouched.
 *
 * The key is read once at setup from --key-file (which must be chmod 600)
 * and wiped as soon as the cipher context holds its schedule.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>

#include <rte_mbuf.h>

#include "aead.h"
#include "keyfile.h"
#include "replay.h"
#include "vnf.h"

struct crypt_state {
	struct calvin_aead aead;
	struct calvin_replay replay; /* decrypt only */
};

static int crypt_setup(struct vnf *vnf, int encrypt)
{
	const struct calvin_crypt_spec *spec = &vnf->cfg.crypt;
	struct crypt_state *s;
	struct calvin_key *key;
	char msg[CALVIN_ERR_MAX];
	int err;

	/* OpenSSL keeps its own key schedule on its heap, out of our reach: a
	 * process that holds keys makes no core dumps at all */
	if (prctl(PR_SET_DUMPABLE, 0) < 0) {
		vnf_err("Failed to turn off core dumps before loading the key: %s",
			strerror(errno));
		return -errno;
	}
	s = calloc(1, sizeof(*s));
	key = calvin_key_new();
	if (!s || !key) {
		vnf_err("Failed to allocate the key and cipher state: out of memory");
		err = -ENOMEM;
		goto free_state;
	}
	err = calvin_keyfile_load(spec->key_file, key, msg, sizeof(msg));
	if (err) {
		vnf_err("%s", msg);
		goto free_state;
	}
	err = calvin_aead_init(&s->aead, spec->cipher, key->key, sizeof(key->key), key->salt,
			       spec->spi, encrypt);
	if (err) {
		vnf_err("Failed to set up %s with the key of %s: %s",
			calvin_cipher_name(spec->cipher), spec->key_file, strerror(-err));
		goto free_state;
	}
	if (!encrypt) {
		err = calvin_replay_init(&s->replay, spec->replay_window);
		if (err) {
			vnf_err("Failed to set up a replay window of %u", spec->replay_window);
			goto free_aead;
		}
	}
	calvin_key_free(key);
	vnf->transform_priv = s;
	vnf_east_mtu_read(vnf);
	return 0;

free_aead:
	calvin_aead_free(&s->aead);
free_state:
	calvin_key_free(key);
	free(s);
	return err;
}

static int encrypt_setup(struct vnf *vnf)
{
	return crypt_setup(vnf, 1);
}

static int decrypt_setup(struct vnf *vnf)
{
	return crypt_setup(vnf, 0);
}

static void crypt_teardown(struct vnf *vnf)
{
	struct crypt_state *s = vnf->transform_priv;

	if (!s)
		return;
	calvin_aead_free(&s->aead);
	free(s);
	vnf->transform_priv = NULL;
}

static void seal_one(struct vnf *vnf, struct vnf_lcore_stats *st, void *priv, struct rte_mbuf *m,
		     struct vnf_app *a, struct vnf_out *o)
{
	struct crypt_state *s = priv;
	uint16_t len = a->len;
	uint8_t *d;
	int ret;

	if (unlikely(
		vnf_app_grow(m, a, CALVIN_CRYPT_HDR_LEN, CALVIN_CRYPT_TAG_LEN, vnf->east_mtu))) {
		st->xf.too_big++;
		rte_pktmbuf_free(m);
		return;
	}
	/* in place: the plaintext sits right after room for the header */
	d = rte_pktmbuf_mtod(m, uint8_t *) + a->off;
	ret = calvin_aead_seal(&s->aead, d, a->len, d + CALVIN_CRYPT_HDR_LEN, len);
	if (unlikely(ret < 0)) {
		st->xf.crypt_failed++;
		rte_pktmbuf_free(m);
		return;
	}
	st->xf.crypt_sealed++;
	vnf_out_add(vnf, st, o, m, a->probe, a->l4_off);
}

static void open_count(struct vnf_xform_stats *xf, int ret)
{
	switch (ret) {
	case -EPROTO:
		xf->crypt_bad_header++;
		break;
	case -ENOKEY:
		xf->crypt_bad_spi++;
		break;
	case -EALREADY:
		xf->crypt_replay++;
		break;
	case -EBADMSG:
		xf->crypt_bad_tag++;
		break;
	default:
		xf->crypt_failed++;
	}
}

static void open_one(struct vnf *vnf, struct vnf_lcore_stats *st, void *priv, struct rte_mbuf *m,
		     struct vnf_app *a, struct vnf_out *o)
{
	struct crypt_state *s = priv;
	uint8_t *d = rte_pktmbuf_mtod(m, uint8_t *) + a->off;
	int ret;

	if (unlikely(a->len < CALVIN_CRYPT_OVERHEAD)) {
		st->xf.crypt_truncated++;
		rte_pktmbuf_free(m);
		return;
	}
	/* in place: the plaintext lands where the ciphertext was */
	ret = calvin_aead_open(&s->aead, &s->replay, d + CALVIN_CRYPT_HDR_LEN,
			       a->len - CALVIN_CRYPT_OVERHEAD, d, a->len);
	if (unlikely(ret < 0)) {
		open_count(&st->xf, ret);
		rte_pktmbuf_free(m);
		return;
	}
	st->xf.crypt_opened++;
	vnf_app_shrink(m, a, CALVIN_CRYPT_HDR_LEN, CALVIN_CRYPT_TAG_LEN);
	vnf_out_add(vnf, st, o, m, a->probe, a->l4_off);
}

static void encrypt_process(struct vnf *vnf, struct vnf_lcore_stats *st, enum vnf_side in,
			    struct rte_mbuf **pkts, uint16_t n, uint64_t t_in)
{
	vnf_west_to_east(vnf, st, in, pkts, n, t_in, seal_one);
}

static void decrypt_process(struct vnf *vnf, struct vnf_lcore_stats *st, enum vnf_side in,
			    struct rte_mbuf **pkts, uint16_t n, uint64_t t_in)
{
	vnf_west_to_east(vnf, st, in, pkts, n, t_in, open_one);
}

const struct vnf_transform vnf_encrypt = {
    .name = "encrypt",
    .help = "west -> east: AEAD seal; --key-file, --cipher, --spi",
    .needs_east = true,
    .setup = encrypt_setup,
    .teardown = crypt_teardown,
    .process = encrypt_process,
    .counters = VNF_CNT_XFORM | VNF_CNT_CRYPT,
};

const struct vnf_transform vnf_decrypt = {
    .name = "decrypt",
    .help = "west -> east: AEAD open, forged and replayed packets dropped;"
	    " --key-file, --cipher, --spi, --replay-window",
    .needs_east = true,
    .setup = decrypt_setup,
    .teardown = crypt_teardown,
    .process = decrypt_process,
    .counters = VNF_CNT_XFORM | VNF_CNT_CRYPT,
};
