// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Encoder and decoder of the probe telemetry block. */
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "measure/measure.h"

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
	if (h->max_hops == 0 || h->max_hops > CALVIN_TLM_MAX_HOPS || h->nr_hops > h->max_hops ||
	    (h->flags & ~CALVIN_TLM_F_KNOWN))
		return -EINVAL;
	if (len < CALVIN_TLM_LEN(h->max_hops))
		return -EMSGSIZE;
	return 0;
}

static int hop_decode(const struct calvin_tlm_hop *w, struct calvin_hop *out)
{
	uint32_t res = be32toh(w->residence);

	out->vnf_id = w->vnf_id;
	out->space = w->space;
	out->clock = w->clock;
	out->dir = w->dir;
	out->t_in = be64toh(w->t_in);
	out->t_out = out->t_in + res;
	if (w->space > CALVIN_SPACE_USER || w->dir > CALVIN_DIR_REV || out->t_out < out->t_in)
		return -EINVAL;
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
	for (i = 0; i < h->nr_hops; i++)
		if (hop_decode(&w[i], &out->hops[i]))
			return -EINVAL;
	return 0;
}

int calvin_tlm_push_hop(void *buf, size_t len, const struct calvin_hop *hop)
{
	struct calvin_tlm_hdr *h = buf;
	struct calvin_tlm_hop *w;
	uint64_t res;
	int err, slot;

	err = tlm_check(h, len);
	if (err)
		return err;
	if (hop->space > CALVIN_SPACE_USER || hop->dir > CALVIN_DIR_REV || hop->t_out < hop->t_in)
		return -EINVAL;
	if (h->nr_hops == h->max_hops) {
		h->flags |= CALVIN_TLM_F_OVERFLOW;
		return -ENOSPC;
	}
	slot = h->nr_hops;
	w = (struct calvin_tlm_hop *)(h + 1) + slot;
	res = hop->t_out - hop->t_in;
	w->vnf_id = hop->vnf_id;
	w->space = hop->space;
	w->dir = hop->dir;
	w->clock = hop->clock;
	w->residence = htobe32(res > CALVIN_TLM_RESIDENCE_MAX ? CALVIN_TLM_RESIDENCE_MAX
							       : (uint32_t)res);
	w->t_in = htobe64(hop->t_in);
	h->nr_hops = (uint8_t)(slot + 1);
	return slot;
}

/* The record a hand-over program opened for this hop is the last one
 * filled: nothing else stamps between the program and calvin-vnf. Its
 * residence is 0 until closed (kernel/telemetry.bpf.h). */
int calvin_tlm_close_hop(void *buf, size_t len, const struct calvin_hop *hop)
{
	struct calvin_tlm_hdr *h = buf;
	struct calvin_tlm_hop *w;
	uint64_t t_in, res;
	int err;

	err = tlm_check(h, len);
	if (err)
		return err;
	if (!h->nr_hops)
		return -ENOENT;
	w = (struct calvin_tlm_hop *)(h + 1) + h->nr_hops - 1;
	t_in = be64toh(w->t_in);
	if (w->vnf_id != hop->vnf_id || w->space != hop->space || w->clock != hop->clock ||
	    w->dir != hop->dir || w->residence || hop->t_out < t_in)
		return -ENOENT;
	res = hop->t_out - t_in;
	/* 0 would leave the record open; a 1 ns stay is what it means. */
	w->residence = htobe32(res > CALVIN_TLM_RESIDENCE_MAX ? CALVIN_TLM_RESIDENCE_MAX
							       : res ? (uint32_t)res : 1);
	return h->nr_hops - 1;
}

size_t calvin_tlm_block_len(const void *buf, size_t len)
{
	const struct calvin_tlm_hdr *h = buf;

	return tlm_check(h, len) ? 0 : CALVIN_TLM_LEN(h->max_hops);
}

void calvin_tlm_why(const void *buf, size_t len, int err, char *why, size_t size)
{
	const struct calvin_tlm_hdr *h = buf;

	if (err == -EBADMSG || len < CALVIN_TLM_HDR_LEN)
		snprintf(why, size, "no telemetry block (%zu bytes, %s)", len,
			 len < CALVIN_TLM_HDR_LEN ? "shorter than its header" : "magic is not CLVN");
	else if (err == -EPROTONOSUPPORT && h->version == 1)
		snprintf(why, size,
			 "telemetry version 1 (24-byte hop records), and this calvin reads "
			 "version %u: VNFs, probe and server of one calvin build",
			 CALVIN_TLM_VERSION);
	else if (err == -EPROTONOSUPPORT)
		snprintf(why, size, "telemetry version %u; this calvin reads version %u",
			 h->version, CALVIN_TLM_VERSION);
	else if (err == -EMSGSIZE)
		snprintf(why, size, "telemetry block cut short: %zu bytes, %u hop records need %u",
			 len, h->max_hops, CALVIN_TLM_LEN(h->max_hops));
	else if (err == -EINVAL)
		snprintf(why, size,
			 "telemetry block not understood (%u of %u hop records, flags 0x%02x, "
			 "or a record's values)",
			 h->nr_hops, h->max_hops, h->flags);
	else
		snprintf(why, size, "telemetry block: %s", strerror(-err));
}
