/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Network-coding codec (systematic RLNC over GF(2^8), include/calvin/nc.h) for the NC VNF.
 * Pure code: no I/O; all memory is allocated by nc_*_new(), none per packet.
 * Codes opaque byte buffers: the caller keeps headers and telemetry in clear
 * and passes only the application bytes. Link with -lisal. */
#ifndef CALVIN_LIB_NC_H
#define CALVIN_LIB_NC_H

#include <stddef.h>
#include <stdint.h>
#include <calvin/nc.h>

/* A decoded header in host byte order. */
struct nc_hdr {
	uint8_t version;
	uint8_t type;
	uint8_t k;
	uint8_t r;
	uint32_t gen;
	uint8_t index;
	uint16_t len;
	uint32_t seed;
};

/* Write h at buf (CALVIN_NC_HDR_LEN bytes), version and flags filled in. */
void nc_hdr_encode(const struct nc_hdr *h, void *buf);

/* Decode the header of the packet pkt[0..len). Returns 0, or -EMSGSIZE
 * (shorter than the header, or len does not match the packet),
 * -EPROTONOSUPPORT (unknown version), -EBADMSG (unknown type or flags, k, r
 * or index out of range, bad length). */
int nc_hdr_decode(const void *pkt, size_t len, struct nc_hdr *out);

/* Coefficient row of a repair packet: k bytes from seed (see include/calvin/nc.h). */
void nc_coefs(uint32_t seed, unsigned int k, uint8_t *coefs);
/* Seed the encoder puts in repair j of generation gen. */
uint32_t nc_seed(uint32_t gen, unsigned int j);

struct nc_params {
	unsigned int k;	     /* generation size, 1..CALVIN_NC_MAX_K */
	unsigned int r;	     /* repair packets per generation, 0..CALVIN_NC_MAX_R */
	uint64_t flush_ns;   /* encoder: flush a partial generation this long after
			      * its first packet; 0: never */
	uint32_t first_gen;  /* encoder: id of the first generation */
	unsigned int window; /* decoder: generations kept, a power of two 2..64;
			      * 0: NC_DEFAULT_WINDOW */
};

#define NC_DEFAULT_WINDOW 8

/* Encoder. Per source payload: nc_encoder_add() gives the header to put in
 * front of it (the caller sends header + payload at once); when it closes a
 * generation, the repair packets are fetched with nc_encoder_next_repair().
 * The caller's loop calls nc_encoder_poll() to flush late partial generations. */
struct nc_encoder;

/* Returns 0 or -EINVAL (bad k or r), -ENOMEM. */
int nc_encoder_new(const struct nc_params *p, struct nc_encoder **out);
void nc_encoder_free(struct nc_encoder *enc);

/* Take one source payload (len <= CALVIN_NC_MAX_PAYLOAD), write its header
 * in hdr (CALVIN_NC_HDR_LEN bytes). Returns the number of repair packets now
 * ready (r when this packet closed the generation, else 0), or -EMSGSIZE. */
int nc_encoder_add(struct nc_encoder *enc, const void *payload, size_t len, uint64_t now_ns,
		   void *hdr);

/* Close the current generation early (k' < k packets): make its repair
 * packets and start a new generation. Returns the number of repair packets
 * ready (0 when the generation was empty). */
int nc_encoder_flush(struct nc_encoder *enc, uint64_t now_ns);

/* When the current partial generation must be flushed; UINT64_MAX if never. */
uint64_t nc_encoder_deadline(const struct nc_encoder *enc);

/* Flush if the deadline has passed. Returns as nc_encoder_flush(). */
int nc_encoder_poll(struct nc_encoder *enc, uint64_t now_ns);

/* Next ready repair packet (header + coded symbol) in *pkt, *len. Returns 1,
 * or 0 when there is none left. The bytes stay valid until the next
 * generation closes. */
int nc_encoder_next_repair(struct nc_encoder *enc, const uint8_t **pkt, size_t *len);

/* Decoder. Per received packet, nc_decoder_push() says whether to forward it
 * (a source: payload at once) and may recover lost sources, which the caller
 * then drains with nc_decoder_next() before the next push. */
struct nc_decoder;

struct nc_decoder_stats {
	uint64_t forwarded;	/* source packets passed on as they came */
	uint64_t recovered;	/* lost sources rebuilt from repair packets */
	uint64_t unrecoverable; /* sources known missing when their generation
				 * left the window */
	uint64_t duplicate;	/* a source or repair seen (or recovered) before */
	uint64_t stale;		/* generation older than the window */
	uint64_t malformed;	/* rejected header, or inconsistent with its generation */
	uint64_t repair_unused; /* repair for a generation already complete */
};

/* Returns 0 or -EINVAL (bad k, r or window), -ENOMEM. p->k and p->r bound
 * what the decoder accepts; flush_ns and first_gen are not used. */
int nc_decoder_new(const struct nc_params *p, struct nc_decoder **out);
void nc_decoder_free(struct nc_decoder *dec);

/* Receive one packet (header + payload). Returns 1 for a new source, to
 * forward now: its payload is (*data, *len_out), inside pkt. Returns 0 for a
 * repair (consumed), or a negative errno when the packet is dropped: -ESTALE
 * (older than the window), -EALREADY (duplicate), or a header error of
 * nc_hdr_decode() or -EBADMSG (malformed). Either way, recovered sources may
 * then be waiting in nc_decoder_next(). */
int nc_decoder_push(struct nc_decoder *dec, const void *pkt, size_t len, const uint8_t **data,
		    size_t *len_out);

/* Next recovered source payload in (*data, *len), valid until the next push.
 * Returns 1, or 0 when none is left. */
int nc_decoder_next(struct nc_decoder *dec, const uint8_t **data, size_t *len);

/* Retire every generation in the window (at shutdown, or in tests), counting
 * its missing sources as unrecoverable. */
void nc_decoder_retire_all(struct nc_decoder *dec);

const struct nc_decoder_stats *nc_decoder_stats(const struct nc_decoder *dec);

#endif /* CALVIN_LIB_NC_H */
