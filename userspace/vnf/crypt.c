// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Encryption transforms of calvin-vnf: encrypt and decrypt (AEAD framing in
 * userspace/lib/aead.h, wire format in include/calvin/crypt.h).
 *
 * Direction: an encrypt VNF followed by a decrypt VNF protects the link
 * between them both ways (userspace/lib/pair.h): encrypt seals what goes
 * west -> east and opens what comes back, decrypt opens west -> east and
 * seals east -> west. Each direction is a security association of its
 * own, with its own SPI, traffic key, nonce salt, sequence numbers and
 * replay window. --direction fwd|rev keeps one of them; the other
 * direction is then forwarded untouched (and stamped).
 *
 * Sealing: the application bytes of each IPv4 UDP frame (after a probe's
 * telemetry block, which stays in clear and unauthenticated so later VNFs
 * can stamp it) become header + ciphertext + tag, 32 bytes more.
 * Opening: the reverse; a frame that is truncated, tampered with,
 * replayed, sealed in another deployment, or under another SPI is dropped
 * and counted, never forwarded. Other protocols than IPv4 UDP pass
 * untouched.
 *
 * Keys: the long-term key is read once at setup from --key-file (which
 * must be chmod 600); each SA's traffic key and salt are derived from it
 * with the deployment's random value (--deploy-random), the chain, the SPI
 * and the direction (calvin_sa_derive()), and wiped as soon as the cipher
 * context holds its schedule. A new deployment thus never reuses a (key,
 * nonce) pair, and packets of an earlier one fail the tag.
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

/* One security association: one direction of the pair. */
struct crypt_sa {
	struct calvin_aead aead;
	struct calvin_replay replay; /* opening SAs only */
};

struct crypt_state {
	/* by the side frames come in on: WEST is the forward direction */
	struct crypt_sa sa[VNF_SIDES];
	vnf_app_fn fn[VNF_SIDES]; /* seal_one, open_one, or NULL: untouched */
};

static void seal_one(struct vnf *vnf, struct vnf_lcore_stats *st, void *priv, struct rte_mbuf *m,
		     struct vnf_app *a, struct vnf_out *o);
static void open_one(struct vnf *vnf, struct vnf_lcore_stats *st, void *priv, struct rte_mbuf *m,
		     struct vnf_app *a, struct vnf_out *o);

/* Key the SA of direction dir: derive, key the cipher, wipe. */
static int sa_setup(const struct vnf_config *cfg, struct crypt_sa *sa, const struct calvin_key *key,
		    unsigned int dir, bool seal)
{
	const struct calvin_crypt_spec *spec = &cfg->crypt;
	uint32_t spi = calvin_sa_spi(spec, dir);
	struct calvin_sa_keys k;
	int err;

	err = calvin_sa_derive(key->key, cfg->deploy_random, cfg->chain, spi, dir, &k);
	if (err) {
		vnf_err("Failed to derive the keys of SA 0x%x: %s", spi, strerror(-err));
		return err;
	}
	err = calvin_aead_init(&sa->aead, spec->cipher, k.key, sizeof(k.key), k.salt, spi, seal);
	calvin_sa_keys_wipe(&k);
	if (err) {
		vnf_err("Failed to set up %s for SA 0x%x with the key of %s: %s",
			calvin_cipher_name(spec->cipher), spi, spec->key_file, strerror(-err));
		return err;
	}
	if (!seal && calvin_replay_init(&sa->replay, spec->replay_window)) {
		vnf_err("Failed to set up a replay window of %u", spec->replay_window);
		return -EINVAL;
	}
	return 0;
}

static int sas_setup(struct vnf *vnf, struct crypt_state *s, const struct calvin_key *key,
		     enum calvin_vnf_kind kind)
{
	enum calvin_pair_role role;
	enum vnf_side in;
	int err;

	for (in = VNF_WEST; in < VNF_SIDES; in++) {
		role = calvin_pair_role(kind, vnf->cfg.crypt.direction, vnf_side_dir(in));
		if (role == CALVIN_ROLE_NONE)
			continue;
		err = sa_setup(&vnf->cfg, &s->sa[in], key, vnf_side_dir(in),
			       role == CALVIN_ROLE_APPLY);
		if (err)
			return err;
		s->fn[in] = role == CALVIN_ROLE_APPLY ? seal_one : open_one;
	}
	return 0;
}

static void crypt_free(struct crypt_state *s)
{
	enum vnf_side in;

	if (!s)
		return;
	for (in = VNF_WEST; in < VNF_SIDES; in++)
		calvin_aead_free(&s->sa[in].aead);
	free(s);
}

static int crypt_setup(struct vnf *vnf, enum calvin_vnf_kind kind)
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
	err = sas_setup(vnf, s, key, kind);
	if (err)
		goto free_state;
	calvin_key_free(key);
	vnf->transform_priv = s;
	vnf_mtu_read(vnf);
	return 0;

free_state:
	calvin_key_free(key);
	crypt_free(s);
	return err;
}

static int encrypt_setup(struct vnf *vnf)
{
	return crypt_setup(vnf, CALVIN_VNF_ENCRYPT);
}

static int decrypt_setup(struct vnf *vnf)
{
	return crypt_setup(vnf, CALVIN_VNF_DECRYPT);
}

static void crypt_teardown(struct vnf *vnf)
{
	crypt_free(vnf->transform_priv);
	vnf->transform_priv = NULL;
}

static void seal_one(struct vnf *vnf, struct vnf_lcore_stats *st, void *priv, struct rte_mbuf *m,
		     struct vnf_app *a, struct vnf_out *o)
{
	struct crypt_sa *sa = priv;
	uint16_t len = a->len;
	uint8_t *d;
	int ret;

	if (unlikely(vnf_app_grow(m, a, CALVIN_CRYPT_HDR_LEN, CALVIN_CRYPT_TAG_LEN,
				  vnf->mtu[o->side]))) {
		st->xf.too_big++;
		rte_pktmbuf_free(m);
		return;
	}
	/* in place: the plaintext sits right after room for the header */
	d = rte_pktmbuf_mtod(m, uint8_t *) + a->off;
	ret = calvin_aead_seal(&sa->aead, d, a->len, d + CALVIN_CRYPT_HDR_LEN, len);
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
	struct crypt_sa *sa = priv;
	uint8_t *d = rte_pktmbuf_mtod(m, uint8_t *) + a->off;
	int ret;

	if (unlikely(a->len < CALVIN_CRYPT_OVERHEAD)) {
		st->xf.crypt_truncated++;
		rte_pktmbuf_free(m);
		return;
	}
	/* in place: the plaintext lands where the ciphertext was */
	ret = calvin_aead_open(&sa->aead, &sa->replay, d + CALVIN_CRYPT_HDR_LEN,
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

static void crypt_process(struct vnf *vnf, struct vnf_lcore_stats *st, enum vnf_side in,
			  struct rte_mbuf **pkts, uint16_t n, uint64_t t_in)
{
	struct crypt_state *s = vnf->transform_priv;

	vnf_app_burst(vnf, st, in, pkts, n, t_in, s->fn[in], &s->sa[in]);
}

#define CRYPT_OPTS " --key-file, --deploy-random, --cipher, --spi, --spi-rev, --direction"

const struct vnf_transform vnf_encrypt = {
    .name = "encrypt",
    .help = "AEAD seal west -> east, open east -> west;" CRYPT_OPTS,
    .needs_east = true,
    .setup = encrypt_setup,
    .teardown = crypt_teardown,
    .process = crypt_process,
    .counters = VNF_CNT_XFORM | VNF_CNT_CRYPT,
};

const struct vnf_transform vnf_decrypt = {
    .name = "decrypt",
    .help =
	"AEAD open west -> east, seal east -> west; forged and replayed packets dropped;" CRYPT_OPTS
	", --replay-window",
    .needs_east = true,
    .setup = decrypt_setup,
    .teardown = crypt_teardown,
    .process = crypt_process,
    .counters = VNF_CNT_XFORM | VNF_CNT_CRYPT,
};
