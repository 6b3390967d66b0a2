// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Network-coding transforms of calvin-vnf: nc-encode and nc-decode (RLNC,
 * codec in userspace/lib/codec/codec.h, wire format in include/calvin/nc.h).
 *
 * Direction: an encoder VNF followed by a decoder VNF protects the link
 * between them both ways (userspace/lib/pair.h): nc-encode encodes what
 * goes west -> east and decodes what comes back, nc-decode decodes west ->
 * east and encodes east -> west. Each VNF thus holds one encoder and one
 * decoder, one per direction, each with its own generations; --direction
 * fwd|rev keeps one, and the other direction is then forwarded untouched
 * (and stamped). Below, "encoder" and "decoder" are those halves, whichever
 * VNF holds them; east and west are the encoder's output and input sides
 * for the forward direction and the other way round for the reverse one.
 *
 * What is coded. The codec codes opaque symbols; the symbol of a source is
 *   layout (1) | UDP source port (2) | UDP destination port (2)
 *   | canonical telemetry block (if layout & NC_SYM_TLM) | application bytes
 * with ports in network order, layout's other bits 0. The canonical block
 * is the probe's block with nr_hops 0, flags 0 and every hop record zeroed
 * (magic, version, max_hops, seq, session kept): the hops stamped on the
 * way differ between encoder and decoder, this form both can compute. So
 * a recovered source gets its own ports back (a generation may mix flows)
 * and a recovered probe is a probe again. The NC header's len is the
 * symbol's length, not what follows the header on the wire.
 *
 * Encoder: each IPv4 UDP frame becomes a source packet at once, on the
 * wire [telemetry block in clear, if a probe][NC header][application
 * bytes]: the block stays in front for the VNFs further down to stamp, and
 * the ports and canonical block are not sent twice, as the decoder rebuilds
 * the symbol from what it receives. When a generation of k closes, or a
 * partial one is flushed by the deadline checked on every turn of the
 * polling loop, r repair frames [NC header][coded symbol] follow: new
 * frames from the pool with the Ethernet/IPv4/UDP headers of the
 * generation's last source. Their UDP payload starts with the NC header,
 * not a telemetry block, so they are never probes. Every frame of a
 * generation fits the east MTU: a repair's IP packet is the longest
 * source's plus NC_SYM_HDR + CALVIN_NC_LEN_BYTES (7) bytes.
 *
 * Decoder: a source loses its NC header and goes on at once, its real
 * (stamped) block in front; the codec gets [NC header][symbol] rebuilt in
 * a scratch buffer. A repair is consumed. Sources the codec recovers go
 * out right after the frame that completed them: the ports from the
 * symbol, the canonical block (no hop records yet: the decoder's is the
 * first) and the application bytes, with the Ethernet/IPv4 headers of
 * that frame: addresses are not coded, since a chain carries one address
 * pair each way (probe -> server and back). Frames the codec refuses (stale,
 * duplicate, malformed, or not NC at all) are dropped and counted; after
 * NC_RESYNC_STALE stale ones in a row (an encoder restarted with older
 * generation ids) the decoder starts afresh. Other protocols than IPv4 UDP
 * pass untouched.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_mbuf.h>
#include <rte_udp.h>

#include "codec/codec.h"
#include "vnf.h"

/* Consecutive stale packets after which the decoder starts afresh: an
 * encoder that restarted may number its generations behind the decoder's
 * window, and the codec would then refuse it forever. */
#define NC_RESYNC_STALE 64

/* Symbol layout (see the top of the file). */
#define NC_SYM_TLM 0x01 /* layout: a canonical telemetry block follows the ports */
#define NC_SYM_HDR 5u	/* layout and the two ports */

/* The encoder of one direction. */
struct nc_enc {
	struct nc_encoder *enc;
	enum vnf_side out; /* where its sources and repairs leave */
	/* the repairs of a generation its lone source closed (early flush),
	 * left for a quiet moment: idle counts the empty turns since */
	bool pending;
	unsigned int idle;
	/* headers of the last source, for the repairs that follow it */
	struct vnf_app tmpl_at;
	uint8_t tmpl[VNF_TMPL_MAX];
	uint8_t sym[CALVIN_NC_MAX_PAYLOAD]; /* a source's symbol being built */
};

/* The decoder of the other direction. */
struct nc_dec {
	struct nc_decoder *dec;
	/* counters of the decoders replaced by a resync */
	struct nc_decoder_stats base;
	struct nc_params params;
	unsigned int stale_run;
	/* a packet rebuilt for the codec: NC header, then the symbol */
	uint8_t scratch[CALVIN_NC_HDR_LEN + CALVIN_NC_MAX_PAYLOAD];
};

struct nc_state {
	struct nc_enc *enc; /* NULL: that direction is not coded */
	struct nc_dec *dec;
	/* by the side frames come in on: source_add, decode_one or NULL */
	vnf_app_fn fn[VNF_SIDES];
	void *priv[VNF_SIDES];
};

static void source_add(struct vnf *vnf, struct vnf_lcore_stats *st, void *priv, struct rte_mbuf *m,
		       struct vnf_app *a, struct vnf_out *o);
static void decode_one(struct vnf *vnf, struct vnf_lcore_stats *st, void *priv, struct rte_mbuf *m,
		       struct vnf_app *a, struct vnf_out *o);

static int coder_new(struct nc_state *s, enum vnf_side in, bool encode, struct nc_params *p)
{
	struct timespec ts;

	if (encode) {
		s->enc = calloc(1, sizeof(*s->enc));
		if (!s->enc)
			return -ENOMEM;
		/* numbered from the wall clock in microseconds, which outruns
		 * generations, a restarted encoder is ahead of its decoder's
		 * window (for 35 minutes of wraparound; past that, the decoder
		 * resyncs) */
		clock_gettime(CLOCK_REALTIME, &ts);
		p->first_gen =
		    (uint32_t)((uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000);
		s->enc->out = vnf_other_side(in);
		s->fn[in] = source_add;
		s->priv[in] = s->enc;
		return nc_encoder_new(p, &s->enc->enc);
	}
	s->dec = calloc(1, sizeof(*s->dec));
	if (!s->dec)
		return -ENOMEM;
	s->dec->params = *p;
	s->fn[in] = decode_one;
	s->priv[in] = s->dec;
	return nc_decoder_new(p, &s->dec->dec);
}

static void nc_free(struct nc_state *s)
{
	if (!s)
		return;
	if (s->enc)
		nc_encoder_free(s->enc->enc);
	if (s->dec)
		nc_decoder_free(s->dec->dec);
	free(s->enc);
	free(s->dec);
	free(s);
}

static int nc_setup(struct vnf *vnf, enum calvin_vnf_kind kind)
{
	const struct calvin_nc_spec *spec = &vnf->cfg.nc;
	struct nc_params p = {
	    .k = spec->k, .r = spec->r, .flush_ns = spec->flush_ns, .flush_early = spec->flush_early};
	enum calvin_pair_role role;
	struct nc_state *s;
	enum vnf_side in;
	int err = 0;

	s = calloc(1, sizeof(*s));
	if (!s) {
		vnf_err("Failed to allocate the network-coding state: out of memory");
		return -ENOMEM;
	}
	for (in = VNF_WEST; !err && in < VNF_SIDES; in++) {
		role = calvin_pair_role(kind, spec->direction, vnf_side_dir(in));
		if (role == CALVIN_ROLE_NONE)
			continue;
		err = coder_new(s, in, role == CALVIN_ROLE_APPLY, &p);
		if (err)
			vnf_err("Failed to create the network-coding %s (k %u, r %u): %s",
				role == CALVIN_ROLE_APPLY ? "encoder" : "decoder", p.k, p.r,
				strerror(-err));
	}
	if (err) {
		nc_free(s);
		return err;
	}
	vnf->transform_priv = s;
	vnf_mtu_read(vnf);
	return 0;
}

static int nc_encode_setup(struct vnf *vnf)
{
	return nc_setup(vnf, CALVIN_VNF_NC_ENCODE);
}

static int nc_decode_setup(struct vnf *vnf)
{
	return nc_setup(vnf, CALVIN_VNF_NC_DECODE);
}

static void nc_teardown(struct vnf *vnf)
{
	nc_free(vnf->transform_priv);
	vnf->transform_priv = NULL;
}

/* Queue the repairs the encoder has ready right behind their sources. In
 * latency mode (burst 1) the source leaves first, so it does not wait for
 * the coding; in throughput mode the whole burst leaves at once. */
static void repairs_queue(struct vnf *vnf, struct vnf_lcore_stats *st, struct nc_enc *e,
			  struct vnf_out *o)
{
	const uint8_t *bytes;
	struct rte_mbuf *m;
	size_t len;

	if (vnf->cfg.burst == 1)
		vnf_out_flush(vnf, st, o);
	e->pending = false;
	while (nc_encoder_next_repair(e->enc, &bytes, &len) == 1) {
		m = vnf_frame_build(vnf->pool, e->tmpl, &e->tmpl_at, bytes, (uint16_t)len);
		if (unlikely(!m)) {
			st->xf.no_mbuf++;
			continue;
		}
		st->xf.nc_repair_sent++;
		vnf_out_add(vnf, st, o, m, false, 0);
	}
}

/* Write at sym the symbol of the source frame d (laid out as a says, the
 * telemetry block if any ending at a->off), whose application bytes are
 * (app, app_len). Returns its length, or 0 when the codec would refuse it. */
static uint16_t symbol_build(uint8_t *sym, const uint8_t *d, const struct vnf_app *a,
			     const uint8_t *app, uint16_t app_len)
{
	const struct rte_udp_hdr *udp = (const void *)(d + a->l4_off);
	unsigned int blk = a->probe ? a->off - a->l4_off - sizeof(*udp) : 0;
	struct calvin_tlm_hdr *t;
	uint8_t *p = sym;

	if (NC_SYM_HDR + blk + app_len > CALVIN_NC_MAX_PAYLOAD)
		return 0;
	*p++ = a->probe ? NC_SYM_TLM : 0;
	memcpy(p, &udp->src_port, sizeof(udp->src_port));
	memcpy(p + 2, &udp->dst_port, sizeof(udp->dst_port));
	p += 4;
	if (blk) {
		t = (struct calvin_tlm_hdr *)p;
		memcpy(t, udp + 1, CALVIN_TLM_HDR_LEN);
		t->nr_hops = 0;
		t->flags = 0;
		memset(p + CALVIN_TLM_HDR_LEN, 0, blk - CALVIN_TLM_HDR_LEN);
		p += blk;
	}
	memcpy(p, app, app_len);
	return (uint16_t)(NC_SYM_HDR + blk + app_len);
}

static void source_add(struct vnf *vnf, struct vnf_lcore_stats *st, void *priv, struct rte_mbuf *m,
		       struct vnf_app *a, struct vnf_out *o)
{
	struct nc_enc *e = priv;
	/* a repair carries the symbol and its 2-byte length, longer than the
	 * source's bytes on the wire by the layout and ports: it must fit too */
	unsigned int extra = CALVIN_NC_LEN_BYTES + NC_SYM_HDR, out_mtu = vnf->mtu[o->side];
	unsigned int mtu = out_mtu > extra ? out_mtu - extra : 0;
	uint8_t *d = rte_pktmbuf_mtod(m, uint8_t *), *sym = e->sym;
	uint16_t sym_len = symbol_build(sym, d, a, d + a->off, a->len);
	const struct calvin_nc_hdr *h;
	int ready;

	/* repairs still waiting go first: the codec reuses their room */
	if (e->pending)
		repairs_queue(vnf, st, e, o);
	if (unlikely(!sym_len || vnf_app_grow(m, a, CALVIN_NC_HDR_LEN, 0, mtu))) {
		st->xf.too_big++;
		rte_pktmbuf_free(m);
		return;
	}
	d = rte_pktmbuf_mtod(m, uint8_t *);
	/* the codec copies the symbol; the header it writes says its length */
	ready = nc_encoder_add(e->enc, sym, sym_len, o->probes.t_in, d + a->off);
	memcpy(e->tmpl, d, a->l4_off + sizeof(struct rte_udp_hdr));
	e->tmpl_at = *a;
	st->xf.nc_source++;
	vnf_out_add(vnf, st, o, m, a->probe, a->l4_off);
	if (ready <= 0)
		return;
	/* A generation its lone source closed before k (early flush, so no
	 * other source is expected before the flush): its repairs wait for two
	 * empty turns of this VNF, off the probe's way through the core it
	 * shares (a co-located neighbour has then had its turn), at worst
	 * until the next source. A full generation's leave now. */
	h = (const struct calvin_nc_hdr *)(d + a->off);
	if (h->index + 1u < h->k && vnf->cfg.burst == 1) {
		e->pending = true;
		e->idle = 0;
		return;
	}
	repairs_queue(vnf, st, e, o);
}

/* Turns without a frame after which a closed generation's waiting repairs
 * leave (source_add()). */
#define NC_PENDING_IDLE 2

/* Waiting repairs leave on a quiet turn; a partial generation whose
 * deadline passed is closed here. The clock is read only while one is
 * open. */
static void nc_poll(struct vnf *vnf, struct vnf_lcore_stats *st, unsigned int got)
{
	struct nc_enc *e = ((struct nc_state *)vnf->transform_priv)->enc;
	uint64_t deadline, now;
	struct vnf_out o;

	if (!e)
		return;
	if (e->pending) {
		e->idle = got ? 0 : e->idle + 1;
		if (e->idle >= NC_PENDING_IDLE) {
			vnf_out_init(&o, e->out, vnf_other_side(e->out), 0);
			repairs_queue(vnf, st, e, &o);
			vnf_out_flush(vnf, st, &o);
		}
	}
	deadline = nc_encoder_deadline(e->enc);
	if (deadline == UINT64_MAX)
		return;
	now = vnf_now_ns();
	if (now < deadline)
		return;
	vnf_out_init(&o, e->out, vnf_other_side(e->out), now);
	if (nc_encoder_poll(e->enc, now) > 0) {
		repairs_queue(vnf, st, e, &o);
		vnf_out_flush(vnf, st, &o);
	}
}

/* When nc_poll() must run next: the wakeup loop sleeps no longer (not at
 * all while repairs wait). */
static uint64_t nc_deadline(const struct vnf *vnf)
{
	const struct nc_enc *e = ((const struct nc_state *)vnf->transform_priv)->enc;

	if (e && e->pending)
		return 0;
	return e ? nc_encoder_deadline(e->enc) : UINT64_MAX;
}

/* Whether a recovered symbol starts with a telemetry block: 1 yes, 0 no,
 * -EBADMSG when it is not a symbol an nc-encode made. */
static int symbol_tlm(const uint8_t *sym, size_t len)
{
	if (len < NC_SYM_HDR || (sym[0] & ~NC_SYM_TLM))
		return -EBADMSG;
	if (!(sym[0] & NC_SYM_TLM))
		return 0;
	return vnf_tlm_len(sym + NC_SYM_HDR, (uint16_t)(len - NC_SYM_HDR)) ? 1 : -EBADMSG;
}

/* Recovered sources go out with their own ports and the other headers of
 * the frame at hand (tmpl, which gets their ports); a probe with its
 * canonical block, stamped here as the first hop it records. */
static void recovered_send(struct vnf *vnf, struct vnf_lcore_stats *st, struct nc_dec *s,
			   uint8_t *tmpl, const struct vnf_app *a, struct vnf_out *o)
{
	struct rte_udp_hdr *udp = (struct rte_udp_hdr *)(tmpl + a->l4_off);
	const uint8_t *sym;
	struct rte_mbuf *m;
	size_t len;
	int tlm;

	while (nc_decoder_next(s->dec, &sym, &len) == 1) {
		tlm = symbol_tlm(sym, len);
		if (unlikely(tlm < 0)) {
			s->base.malformed++;
			continue;
		}
		memcpy(&udp->src_port, sym + 1, sizeof(udp->src_port));
		memcpy(&udp->dst_port, sym + 3, sizeof(udp->dst_port));
		m = vnf_frame_build(vnf->pool, tmpl, a, sym + NC_SYM_HDR,
				    (uint16_t)(len - NC_SYM_HDR));
		if (unlikely(!m)) {
			st->xf.no_mbuf++;
			continue;
		}
		vnf_out_add(vnf, st, o, m, tlm == 1, a->l4_off);
	}
}

/* A rare event, so the allocation it costs is acceptable; when it fails
 * the old decoder stays. */
static void decoder_resync(struct nc_dec *s)
{
	const struct nc_decoder_stats *ds = nc_decoder_stats(s->dec);
	struct nc_decoder *dec;

	s->stale_run = 0;
	if (nc_decoder_new(&s->params, &dec))
		return;
	s->base.forwarded += ds->forwarded;
	s->base.recovered += ds->recovered;
	s->base.unrecoverable += ds->unrecoverable;
	s->base.duplicate += ds->duplicate;
	s->base.stale += ds->stale;
	s->base.malformed += ds->malformed;
	s->base.repair_unused += ds->repair_unused;
	nc_decoder_free(s->dec);
	s->dec = dec;
}

static void decode_one(struct vnf *vnf, struct vnf_lcore_stats *st, void *priv, struct rte_mbuf *m,
		       struct vnf_app *a, struct vnf_out *o)
{
	struct nc_dec *s = priv;
	const uint8_t *d = rte_pktmbuf_mtod(m, const uint8_t *), *pkt = d + a->off, *data;
	size_t pkt_len = a->len, len;
	uint8_t tmpl[VNF_TMPL_MAX];
	uint16_t sym_len;
	int ret;

	/* a copy: m may be on its way before the last recovered frame is built */
	memcpy(tmpl, d, a->l4_off + sizeof(struct rte_udp_hdr));
	/* the codec gets a source's symbol as the encoder coded it; anything
	 * else as it came (a symbol too long to rebuild is refused for its len) */
	if (a->len >= CALVIN_NC_HDR_LEN &&
	    pkt[offsetof(struct calvin_nc_hdr, type)] == CALVIN_NC_SOURCE) {
		sym_len =
		    symbol_build(s->scratch + CALVIN_NC_HDR_LEN, d, a, pkt + CALVIN_NC_HDR_LEN,
				 (uint16_t)(a->len - CALVIN_NC_HDR_LEN));
		if (sym_len) {
			memcpy(s->scratch, pkt, CALVIN_NC_HDR_LEN);
			pkt = s->scratch;
			pkt_len = CALVIN_NC_HDR_LEN + sym_len;
		}
	}
	ret = nc_decoder_push(s->dec, pkt, pkt_len, &data, &len);
	if (ret == 1) {
		vnf_app_shrink(m, a, CALVIN_NC_HDR_LEN, 0);
		vnf_out_add(vnf, st, o, m, a->probe, a->l4_off);
	} else {
		rte_pktmbuf_free(m); /* a repair (consumed), or refused */
	}
	recovered_send(vnf, st, s, tmpl, a, o);
	s->stale_run = ret == -ESTALE ? s->stale_run + 1 : 0;
	if (unlikely(s->stale_run >= NC_RESYNC_STALE)) {
		decoder_resync(s);
		st->xf.nc_resync++;
	}
}

/* The codec keeps its own counters; the lcore's copy is what stats read. */
static void decoder_counters(struct vnf_lcore_stats *st, const struct nc_dec *s)
{
	const struct nc_decoder_stats *ds = nc_decoder_stats(s->dec), *b = &s->base;

	st->xf.nc_forwarded = b->forwarded + ds->forwarded;
	st->xf.nc_recovered = b->recovered + ds->recovered;
	st->xf.nc_unrecoverable = b->unrecoverable + ds->unrecoverable;
	st->xf.nc_duplicate = b->duplicate + ds->duplicate;
	st->xf.nc_stale = b->stale + ds->stale;
	st->xf.nc_malformed = b->malformed + ds->malformed;
	st->xf.nc_repair_unused = b->repair_unused + ds->repair_unused;
}

static void nc_process(struct vnf *vnf, struct vnf_lcore_stats *st, enum vnf_side in,
		       struct rte_mbuf **pkts, uint16_t n, uint64_t t_in)
{
	struct nc_state *s = vnf->transform_priv;

	vnf_app_burst(vnf, st, in, pkts, n, t_in, s->fn[in], s->priv[in]);
	if (s->fn[in] == decode_one)
		decoder_counters(st, s->dec);
}

const struct vnf_transform vnf_nc_encode = {
    .name = "nc-encode",
    .help = "RLNC west -> east (sources and repairs), decoding east -> west;"
	    " --nc-k, --nc-r, --nc-flush-ns, --nc-flush-early, --direction",
    .needs_east = true,
    .setup = nc_encode_setup,
    .teardown = nc_teardown,
    .process = nc_process,
    .poll = nc_poll,
    .deadline = nc_deadline,
    .counters = VNF_CNT_XFORM | VNF_CNT_NC,
};

const struct vnf_transform vnf_nc_decode = {
    .name = "nc-decode",
    .help = "RLNC decoding west -> east (lost sources recovered), encoding east -> west;"
	    " --nc-k, --nc-r, --nc-flush-ns, --nc-flush-early, --direction",
    .needs_east = true,
    .setup = nc_decode_setup,
    .teardown = nc_teardown,
    .process = nc_process,
    .poll = nc_poll,
    .deadline = nc_deadline,
    .counters = VNF_CNT_XFORM | VNF_CNT_NC,
};
