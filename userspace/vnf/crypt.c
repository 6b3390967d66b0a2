// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Encryption transforms of calvin-vnf: encrypt and decrypt (AEAD framing in
 * userspace/lib/codec/codec.h, wire format in include/calvin/crypt.h).
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
 * Keys: calvin derives each SA's traffic key and salt from the key file's
 * long-term key, the deployment's random value, the chain, the SPI, the
 * direction and the epoch (calvin_sa_derive()), and hands them over
 * through --keys-fd (codec/codec.h), read once at setup and wiped as soon as
 * the cipher contexts hold their schedules. This process never sees the
 * long-term key. A new deployment or a restart (a new epoch) thus never
 * reuses a (key, nonce) pair, and packets of an earlier one fail the tag.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <rte_mbuf.h>

#include "codec/codec.h"
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

/* Key the SA of direction dir with what calvin handed over. */
static int sa_setup(const struct vnf_config *cfg, struct crypt_sa *sa,
		    const struct calvin_sa_set *keys, unsigned int dir, bool seal)
{
	const struct calvin_crypt_spec *spec = &cfg->crypt;
	uint32_t spi = calvin_sa_spi(spec, dir);
	const struct calvin_sa *k = calvin_sa_set_find(keys, dir);
	int err;

	if (!k || k->spi != spi) {
		vnf_err("Failed to key SA 0x%x: calvin sent no keys for it (got %u SAs)", spi,
			keys->nr);
		return -ENOKEY;
	}
	err = calvin_aead_init(&sa->aead, spec->cipher, k->k.key, sizeof(k->k.key), k->k.salt, spi,
			       seal);
	if (err) {
		vnf_err("Failed to set up %s for SA 0x%x: %s", calvin_cipher_name(spec->cipher),
			spi, strerror(-err));
		return err;
	}
	if (!seal && calvin_replay_init(&sa->replay, spec->replay_window)) {
		vnf_err("Failed to set up a replay window of %u", spec->replay_window);
		return -EINVAL;
	}
	return 0;
}

static int sas_setup(struct vnf *vnf, struct crypt_state *s, const struct calvin_sa_set *keys,
		     enum calvin_vnf_kind kind)
{
	enum calvin_pair_role role;
	enum vnf_side in;
	int err;

	for (in = VNF_WEST; in < VNF_SIDES; in++) {
		role = calvin_pair_role(kind, vnf->cfg.crypt.direction, vnf_side_dir(in));
		if (role == CALVIN_ROLE_NONE)
			continue;
		err = sa_setup(&vnf->cfg, &s->sa[in], keys, vnf_side_dir(in),
			       role == CALVIN_ROLE_APPLY);
		if (err)
			return err;
		s->fn[in] = role == CALVIN_ROLE_APPLY ? seal_one : open_one;
	}
	return 0;
}

/* The SAs' keys from --keys-fd: all of it, to its end, then closed. */
static int keys_read(int fd, struct calvin_sa_set *keys)
{
	uint8_t buf[CALVIN_SA_SET_MAX + 1];
	size_t len = 0;
	ssize_t n;
	int err;

	while (len < sizeof(buf)) {
		n = read(fd, buf + len, sizeof(buf) - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	err = n < 0 ? -errno : calvin_sa_set_decode(buf, len, keys);
	explicit_bzero(buf, sizeof(buf));
	close(fd);
	if (err)
		vnf_err("Failed to read the keys calvin sent on descriptor %d: %s", fd,
			strerror(-err));
	return err;
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
	struct calvin_sa_set keys;
	int err;

	/* OpenSSL keeps its own key schedule on its heap, out of our reach: a
	 * process that holds keys makes no core dumps at all */
	if (prctl(PR_SET_DUMPABLE, 0) < 0) {
		vnf_err("Failed to turn off core dumps before reading the keys: %s",
			strerror(errno));
		return -errno;
	}
	s = calloc(1, sizeof(*s));
	if (!s) {
		vnf_err("Failed to allocate the cipher state: out of memory");
		close(vnf->cfg.keys_fd);
		return -ENOMEM;
	}
	err = keys_read(vnf->cfg.keys_fd, &keys);
	vnf->cfg.keys_fd = -1;
	if (!err)
		err = sas_setup(vnf, s, &keys, kind);
	if (!err)
		fprintf(stderr, VNF_PROG ": %s: keyed %u SAs (%s), epoch %u\n", vnf->cfg.name,
			keys.nr, calvin_cipher_name(spec->cipher), keys.epoch);
	calvin_sa_set_wipe(&keys);
	if (err) {
		crypt_free(s);
		return err;
	}
	vnf->transform_priv = s;
	vnf_mtu_read(vnf);
	return 0;
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

#define CRYPT_OPTS " --keys-fd, --cipher, --spi, --spi-rev, --direction"

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
	.help = "AEAD open west -> east, seal east -> west; forged and replayed packets "
		"dropped;" CRYPT_OPTS ", --replay-window",
	.needs_east = true,
	.setup = decrypt_setup,
	.teardown = crypt_teardown,
	.process = crypt_process,
	.counters = VNF_CNT_XFORM | VNF_CNT_CRYPT,
};
