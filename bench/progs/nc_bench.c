// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Micro-benchmark of the network-coding codec per source packet, against raw ISA-L.
 *
 * k = 32, r = 8, payloads of 256 and 1400 bytes. Each figure is the median
 * over 15 batches of 10000 source packets (rounded up to whole generations
 * where a batch is a stream of generations), per source packet, in thread
 * CPU time and in wall-clock time:
 * - encode: nc_encoder_add() of every source (header + copy) and, every
 *   32nd, the 8 repairs (coefficients, ec_init_tables, ec_encode_data),
 *   drained with nc_encoder_next_repair();
 * - decode: nc_decoder_push() of a pre-encoded stream with one source lost
 *   per generation (all 8 repairs arrive; the first one recovers it), and
 *   nc_decoder_next(); a fresh decoder per batch, made outside the clock;
 * - ISA-L: ec_encode_data() alone on the same 32 payloads to 8 parity rows
 *   with tables made once, then with ec_init_tables() every generation too.
 * Prints a Markdown table.
 *
 * Build: gcc -O2 -D_GNU_SOURCE -Iinclude -Iuserspace/lib bench/progs/nc_bench.c \
 *        build/lib/libcalvin.a -lisal -o build/bench/nc_bench */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <isa-l.h>

#include "codec/codec.h"

#define K 32
#define R 8
#define BATCHES 15
#define BATCH 10000
#define NGEN ((BATCH + K - 1) / K)
#define CALVIN_PAPER_US 3.2 /* CALVIN, Kodo RLNC, 1400-byte packet, their testbed */

struct pkt {
	uint16_t len;
	uint8_t b[CALVIN_NC_HDR_LEN + CALVIN_NC_MAX_SYMBOL];
};

static uint8_t payload[K][CALVIN_NC_MAX_PAYLOAD];
static struct pkt *stream; /* NGEN * (K + R) packets */
static unsigned int stream_len;

/* Thread CPU time leaves out the time other processes held the core (this
 * machine is shared); wall-clock time is what a packet waits. */
struct stamp {
	double cpu, wall;
};

struct sample {
	double cpu[BATCHES], wall[BATCHES];
};

static struct stamp now(void)
{
	struct timespec c, w;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c);
	clock_gettime(CLOCK_MONOTONIC, &w);
	return (struct stamp){c.tv_sec * 1e9 + c.tv_nsec, w.tv_sec * 1e9 + w.tv_nsec};
}

static void record(struct sample *sa, unsigned int b, struct stamp t0, unsigned int n)
{
	struct stamp t1 = now();

	sa->cpu[b] = (t1.cpu - t0.cpu) / n;
	sa->wall[b] = (t1.wall - t0.wall) / n;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v)
{
	qsort(v, BATCHES, sizeof(v[0]), cmp_double);
	return v[BATCHES / 2];
}

/* A table cell: "cpu (wall)" medians. */
static const char *cell(struct sample *sa, char *buf, size_t len)
{
	double c = median(sa->cpu);

	snprintf(buf, len, "%.0f (%.0f)", c, median(sa->wall));
	return buf;
}

static void die(const char *what)
{
	fprintf(stderr, "nc_bench: %s failed\n", what);
	exit(1);
}

static void bench_encode(struct sample *sa, size_t size)
{
	struct nc_params p = {.k = K, .r = R};
	uint8_t hdr[CALVIN_NC_HDR_LEN];
	struct nc_encoder *enc;
	struct stamp t0;
	const uint8_t *rp;
	unsigned int b, i;
	size_t rl;

	if (nc_encoder_new(&p, &enc))
		die("nc_encoder_new");
	for (b = 0; b < BATCHES; b++) {
		t0 = now();
		for (i = 0; i < BATCH; i++) {
			if (nc_encoder_add(enc, payload[i % K], size, 0, hdr) > 0)
				while (nc_encoder_next_repair(enc, &rp, &rl))
					;
		}
		record(sa, b, t0, BATCH);
	}
	nc_encoder_free(enc);
}

/* NGEN generations as the decoder would receive them: source g % K of
 * generation g is lost. */
static void make_stream(size_t size)
{
	struct nc_params p = {.k = K, .r = R};
	struct nc_encoder *enc;
	const uint8_t *rp;
	unsigned int g, i;
	size_t rl;

	if (nc_encoder_new(&p, &enc))
		die("nc_encoder_new");
	stream_len = 0;
	for (g = 0; g < NGEN; g++) {
		for (i = 0; i < K; i++) {
			struct pkt *s = &stream[stream_len];

			nc_encoder_add(enc, payload[i], size, 0, s->b);
			memcpy(s->b + CALVIN_NC_HDR_LEN, payload[i], size);
			s->len = (uint16_t)(CALVIN_NC_HDR_LEN + size);
			if (i != g % K)
				stream_len++;
		}
		while (nc_encoder_next_repair(enc, &rp, &rl)) {
			memcpy(stream[stream_len].b, rp, rl);
			stream[stream_len++].len = (uint16_t)rl;
		}
	}
	nc_encoder_free(enc);
}

static void bench_decode(struct sample *sa, size_t size)
{
	struct nc_params p = {.k = K, .r = R};
	struct nc_decoder *dec;
	struct stamp t0;
	const uint8_t *d;
	unsigned int b, i;
	size_t l;

	make_stream(size);
	for (b = 0; b < BATCHES; b++) {
		if (nc_decoder_new(&p, &dec))
			die("nc_decoder_new");
		t0 = now();
		for (i = 0; i < stream_len; i++) {
			nc_decoder_push(dec, stream[i].b, stream[i].len, &d, &l);
			while (nc_decoder_next(dec, &d, &l))
				;
		}
		record(sa, b, t0, NGEN * K);
		if (nc_decoder_stats(dec)->recovered != NGEN)
			die("recovery check");
		nc_decoder_free(dec);
	}
}

/* Raw ISA-L, 32 -> 8; with_init: ec_init_tables() every generation too. */
static void bench_isal(struct sample *sa, size_t size, int with_init)
{
	static uint8_t parity[R][CALVIN_NC_MAX_SYMBOL];
	uint8_t coefs[R * K], tbls[32 * K * R], *in[K], *out[R];
	struct stamp t0;
	unsigned int b, g, i;

	for (i = 0; i < K; i++)
		in[i] = payload[i];
	for (i = 0; i < R; i++)
		out[i] = parity[i];
	for (i = 0; i < R; i++)
		nc_coefs(nc_seed(0, i), K, coefs + i * K);
	ec_init_tables(K, R, coefs, tbls);
	for (b = 0; b < BATCHES; b++) {
		t0 = now();
		for (g = 0; g < NGEN; g++) {
			if (with_init)
				ec_init_tables(K, R, coefs, tbls);
			ec_encode_data((int)size, K, R, tbls, in, out);
		}
		record(sa, b, t0, NGEN * K);
	}
}

int main(void)
{
	static const size_t sizes[] = {256, 1400};
	struct sample sa[4];
	unsigned int s, i, j;
	char c[4][32];

	stream = calloc((size_t)NGEN * (K + R), sizeof(*stream));
	if (!stream)
		die("calloc");
	srand(42);
	for (i = 0; i < K; i++)
		for (j = 0; j < CALVIN_NC_MAX_PAYLOAD; j++)
			payload[i][j] = (uint8_t)rand();
	printf("Network coding per source packet, k = %d, r = %d: median of %d batches of "
	       "%d packets, ns: thread CPU time (wall-clock time)\n\n",
	       K, R, BATCHES, BATCH);
	printf("| payload (B) | nc encode | nc decode, 1 loss/gen | ISA-L ec_encode_data "
	       "| ISA-L + ec_init_tables |\n");
	printf("|---:|---:|---:|---:|---:|\n");
	for (s = 0; s < 2; s++) {
		bench_encode(&sa[0], sizes[s]);
		bench_decode(&sa[1], sizes[s]);
		bench_isal(&sa[2], sizes[s], 0);
		bench_isal(&sa[3], sizes[s], 1);
		printf("| %zu | %s | %s | %s | %s |\n", sizes[s], cell(&sa[0], c[0], sizeof(c[0])),
		       cell(&sa[1], c[1], sizeof(c[1])), cell(&sa[2], c[2], sizeof(c[2])),
		       cell(&sa[3], c[3], sizeof(c[3])));
	}
	printf("\nCALVIN's figure for comparison: %.1f us (%.0f ns) per 1400-byte packet for block "
	       "network coding (Kodo RLNC) on their testbed.\n",
	       CALVIN_PAPER_US, CALVIN_PAPER_US * 1000);
	free(stream);
	return 0;
}
