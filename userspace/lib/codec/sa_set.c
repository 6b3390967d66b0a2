// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* A VNF's security associations as the controller hands them over: which
 * SAs a VNF takes part in, their derivation, and the bytes they travel as
 * (codec.h). Key bytes are wiped with explicit_bzero, so OpenSSL stays in
 * aead.c. */
#include <errno.h>
#include <string.h>

#include <calvin/telemetry.h>
#include "codec/codec.h"

int calvin_sa_set_derive(const struct calvin_chain_spec *spec, unsigned int vnf,
			 const uint8_t ltk[32], const uint8_t deploy_random[32], uint32_t epoch,
			 struct calvin_sa_set *out)
{
	const struct calvin_vnf_spec *v;
	struct calvin_sa *sa;
	unsigned int dir;
	int err;

	memset(out, 0, sizeof(*out));
	if (vnf >= spec->nr_vnfs || !epoch)
		return -EINVAL;
	v = &spec->vnfs[vnf];
	if (v->kind != CALVIN_VNF_ENCRYPT && v->kind != CALVIN_VNF_DECRYPT)
		return -EINVAL;
	out->epoch = epoch;
	for (dir = CALVIN_DIR_FWD; dir <= CALVIN_DIR_REV; dir++) {
		if (calvin_pair_role(v->kind, v->crypt.direction, dir) == CALVIN_ROLE_NONE)
			continue;
		sa = &out->sa[out->nr++];
		sa->dir = (uint8_t)dir;
		sa->spi = calvin_sa_spi(&v->crypt, dir);
		err = calvin_sa_derive(ltk, deploy_random, spec->name, sa->spi, dir, epoch, &sa->k);
		if (err) {
			calvin_sa_set_wipe(out);
			return err;
		}
	}
	return 0;
}

static uint8_t *put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
	return p + 4;
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

ssize_t calvin_sa_set_encode(const struct calvin_sa_set *s, uint8_t *buf, size_t len)
{
	size_t need = CALVIN_SA_SET_HDR_LEN + s->nr * CALVIN_SA_LEN;
	uint8_t *p = buf;
	unsigned int i;

	if (s->nr > CALVIN_SA_SET_MAX_SAS || !s->epoch)
		return -EINVAL;
	if (len < need)
		return -ENOSPC;
	memset(buf, 0, need);
	p[0] = CALVIN_SA_SET_VERSION;
	p[1] = (uint8_t)s->nr;
	p = put32(p + 4, s->epoch);
	for (i = 0; i < s->nr; i++) {
		p[0] = s->sa[i].dir;
		p = put32(p + 4, s->sa[i].spi);
		memcpy(p, s->sa[i].k.key, sizeof(s->sa[i].k.key));
		p += sizeof(s->sa[i].k.key);
		memcpy(p, s->sa[i].k.salt, sizeof(s->sa[i].k.salt));
		p += sizeof(s->sa[i].k.salt);
	}
	return (ssize_t)need;
}

static int decode_sa(const uint8_t *p, struct calvin_sa *sa, unsigned int *seen)
{
	if (p[1] || p[2] || p[3] || (p[0] != CALVIN_DIR_FWD && p[0] != CALVIN_DIR_REV) ||
	    (*seen & (1u << p[0])))
		return -EBADMSG;
	*seen |= 1u << p[0];
	sa->dir = p[0];
	sa->spi = get32(p + 4);
	if (!sa->spi)
		return -EBADMSG;
	memcpy(sa->k.key, p + 8, sizeof(sa->k.key));
	memcpy(sa->k.salt, p + 8 + sizeof(sa->k.key), sizeof(sa->k.salt));
	return 0;
}

int calvin_sa_set_decode(const uint8_t *buf, size_t len, struct calvin_sa_set *out)
{
	unsigned int i, seen = 0;
	int err = -EBADMSG;

	memset(out, 0, sizeof(*out));
	if (len < CALVIN_SA_SET_HDR_LEN)
		return -EBADMSG;
	if (buf[0] != CALVIN_SA_SET_VERSION)
		return -EPROTO;
	out->nr = buf[1];
	out->epoch = get32(buf + 4);
	if (buf[2] || buf[3] || !out->epoch || out->nr > CALVIN_SA_SET_MAX_SAS ||
	    len != CALVIN_SA_SET_HDR_LEN + out->nr * CALVIN_SA_LEN)
		goto err;
	for (i = 0; i < out->nr; i++) {
		err =
		    decode_sa(buf + CALVIN_SA_SET_HDR_LEN + i * CALVIN_SA_LEN, &out->sa[i], &seen);
		if (err)
			goto err;
	}
	return 0;
err:
	calvin_sa_set_wipe(out);
	return err;
}

const struct calvin_sa *calvin_sa_set_find(const struct calvin_sa_set *s, unsigned int dir)
{
	unsigned int i;

	for (i = 0; i < s->nr; i++)
		if (s->sa[i].dir == dir)
			return &s->sa[i];
	return NULL;
}

void calvin_sa_set_wipe(struct calvin_sa_set *s)
{
	explicit_bzero(s, sizeof(*s));
}
