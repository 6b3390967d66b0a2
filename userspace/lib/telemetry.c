// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Encoder and decoder of the probe telemetry block. */
#include <endian.h>
#include <errno.h>
#include <string.h>

#include "telemetry.h"

int calvin_tlm_init(void *buf, size_t len, uint8_t max_hops, uint32_t seq, uint32_t session)
{
	struct calvin_tlm_hdr *h = buf;

	if (max_hops == 0 || max_hops > CALVIN_TLM_MAX_HOPS)
		return -EINVAL;
	if (len < CALVIN_TLM_LEN(max_hops))
		return -EMSGSIZE;
	memset(buf, 0, CALVIN_TLM_LEN(max_hops));
	h->magic = htobe32(CALVIN_TLM_MAGIC);
	h->version = CALVIN_TLM_VERSION;
	h->max_hops = max_hops;
	h->seq = htobe32(seq);
	h->session = htobe32(session);
	return (int)CALVIN_TLM_LEN(max_hops);
}

/* Checks shared by decode and push: is buf a block we understand? */
static int tlm_check(const struct calvin_tlm_hdr *h, size_t len)
{
	if (len < CALVIN_TLM_HDR_LEN)
		return -EMSGSIZE;
	if (be32toh(h->magic) != CALVIN_TLM_MAGIC)
		return -EBADMSG;
	if (h->version != CALVIN_TLM_VERSION)
		return -EPROTONOSUPPORT;
	if (h->max_hops == 0 || h->max_hops > CALVIN_TLM_MAX_HOPS || h->nr_hops > h->max_hops)
		return -EINVAL;
	if (len < CALVIN_TLM_LEN(h->max_hops))
		return -EMSGSIZE;
	return 0;
}

int calvin_tlm_decode(const void *buf, size_t len, struct calvin_tlm *out)
{
	const struct calvin_tlm_hdr *h = buf;
	const struct calvin_tlm_hop *w;
	int err, i;

	err = tlm_check(h, len);
	if (err)
		return err;
	memset(out, 0, sizeof(*out));
	out->version = h->version;
	out->max_hops = h->max_hops;
	out->nr_hops = h->nr_hops;
	out->flags = h->flags;
	out->seq = be32toh(h->seq);
	out->session = be32toh(h->session);
	w = (const struct calvin_tlm_hop *)(h + 1);
	for (i = 0; i < h->nr_hops; i++) {
		out->hops[i].vnf_id = be16toh(w[i].vnf_id);
		out->hops[i].space = w[i].space;
		out->hops[i].clock = w[i].clock;
		out->hops[i].dir = w[i].dir;
		out->hops[i].t_in = be64toh(w[i].t_in);
		out->hops[i].t_out = be64toh(w[i].t_out);
	}
	return 0;
}

int calvin_tlm_push_hop(void *buf, size_t len, const struct calvin_hop *hop)
{
	struct calvin_tlm_hdr *h = buf;
	struct calvin_tlm_hop *w;
	int err, slot;

	err = tlm_check(h, len);
	if (err)
		return err;
	if (h->nr_hops == h->max_hops) {
		h->flags |= CALVIN_TLM_F_OVERFLOW;
		return -ENOSPC;
	}
	slot = h->nr_hops;
	w = (struct calvin_tlm_hop *)(h + 1) + slot;
	memset(w, 0, sizeof(*w));
	w->vnf_id = htobe16(hop->vnf_id);
	w->space = hop->space;
	w->clock = hop->clock;
	w->dir = hop->dir;
	w->t_in = htobe64(hop->t_in);
	w->t_out = htobe64(hop->t_out);
	h->nr_hops = (uint8_t)(slot + 1);
	return slot;
}

/* The record a hand-over program opened for this hop is the last one
 * filled: nothing else stamps between the program and calvin-vnf. */
int calvin_tlm_close_hop(void *buf, size_t len, const struct calvin_hop *hop)
{
	struct calvin_tlm_hdr *h = buf;
	struct calvin_tlm_hop *w;
	int err;

	err = tlm_check(h, len);
	if (err)
		return err;
	if (!h->nr_hops)
		return -ENOENT;
	w = (struct calvin_tlm_hop *)(h + 1) + h->nr_hops - 1;
	if (be16toh(w->vnf_id) != hop->vnf_id || w->space != hop->space || w->clock != hop->clock ||
	    w->dir != hop->dir || w->t_out)
		return -ENOENT;
	w->t_out = htobe64(hop->t_out);
	return h->nr_hops - 1;
}
