// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Micro-benchmark of calvin_aead_seal/open per packet, against OpenSSL's per-record mode.
 *
 * The yardstick is `openssl speed -aead -evp CIPHER -bytes N` (-decrypt
 * for open): like calvin, it gives each record a fresh IV, additional data
 * (13 bytes) and a tag of its own. It runs in the same session, side by
 * side: REF_RUNS runs of one second between calvin's batches, and calvin's
 * rate is given as a ratio to their median.
 *
 * On this project's build machine the openssl binary's figure is not the
 * cost of its own loop, though: the same calls in a process of ours (set
 * the IV, 13 bytes of additional data, the payload, final) take about 1.5
 * times less CPU per record for AES-256-GCM, and more for
 * ChaCha20-Poly1305, whichever clock measures them (thread CPU time,
 * getrusage user time and times() agree). So that loop runs here too, a
 * batch after each of calvin's under the same clock, as a second ratio;
 * the only place outside aead.c that calls EVP, and only as a yardstick.
 * openssl speed's streaming rate (plain -evp: one buffer again and again,
 * no per-record IV or tag) is shown once, as the cipher's ceiling.
 *
 * calvin's figure is the median of 15 batches of 100000 packets, in thread
 * CPU time (openssl speed divides by user CPU time) and in wall-clock time
 * (what a packet waits). Prints a Markdown table.
 *
 * Build: gcc -O2 -D_GNU_SOURCE -Iinclude -Iuserspace/lib bench/progs/aead_bench.c \
 *        build/lib/libcalvin.a -lcrypto -o build/bench/aead_bench */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/evp.h>

#include "codec/codec.h"

#define BATCHES 15
#define BATCH 100000
#define REF_RUNS 3 /* openssl speed -aead runs, one every BATCHES / REF_RUNS batches */
/* sealed packets the open benchmark cycles through: distinct sequence
 * numbers, small enough to stay in cache like a VNF's few live mbufs */
#define RING 256
#define MAXLEN 1400
#define CALVIN_PAPER_US 22.4 /* CALVIN, 1400-byte packet, AES-256 in C, no AES-NI */

static const uint8_t key[32] = {1,  2,	3,  4,	5,  6,	7,  8,	9,  10, 11, 12, 13, 14, 15, 16,
				17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32};
static const uint8_t salt[4] = {9, 8, 7, 6};

static uint8_t ring[RING][MAXLEN + CALVIN_CRYPT_OVERHEAD];
static uint8_t plain[MAXLEN], out[MAXLEN + CALVIN_CRYPT_OVERHEAD];

struct sample {
	double cpu_ns, wall_ns;	       /* per packet, medians */
	double ref[REF_RUNS], ref_mbs; /* openssl speed -aead: runs, median (MB/s) */
	double loop_ns;		       /* its loop in process, CPU ns per record, median */
};

/* One cipher, as calvin and openssl name it. */
struct cipher {
	enum calvin_cipher id;
	const char *name, *openssl_name;
};

static double now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(v[0]), cmp_double);
	return v[n / 2];
}

/* openssl speed's rate for one cipher and size in MB/s (10^6 bytes per
 * second of user CPU time): per record (aead) or streaming, encrypting or
 * decrypting. 0 if it could not be run. */
static double openssl_speed(const char *name, size_t len, bool aead, bool decrypt)
{
	char cmd[192], line[256];
	double rate = 0, r;
	FILE *p;

	/* by its path: make bench runs as root, and PATH is whoever's ran it */
	snprintf(cmd, sizeof(cmd),
		 "/usr/bin/openssl speed -mr %s%s-evp %s -bytes %zu -seconds 1 2>/dev/null",
		 aead ? "-aead " : "", decrypt ? "-decrypt " : "", name, len);
	p = popen(cmd, "r");
	if (!p)
		return 0;
	/* machine-readable result line: +F:N:NAME:BYTES_PER_SECOND */
	while (fgets(line, sizeof(line), p)) {
		char *colon = strrchr(line, ':');

		if (!strncmp(line, "+F:", 3) && colon && sscanf(colon + 1, "%lf", &r) == 1)
			rate = r;
	}
	pclose(p);
	return rate / 1e6;
}

/* One batch; returns the number of failures (should be 0). */
static int run_batch(struct calvin_aead *a, struct calvin_replay *w, int seal, size_t len)
{
	size_t plen = len + CALVIN_CRYPT_OVERHEAD;
	int bad = 0;

	for (int i = 0; i < BATCH; i++) {
		if (seal) {
			bad += calvin_aead_seal(a, out, sizeof(out), plain, len) != (int)plen;
			continue;
		}
		/* a fresh window per pass over the ring, so every open is a
		 * full check, decrypt, verify, update */
		if (i % RING == 0)
			calvin_replay_init(w, 1024);
		bad += calvin_aead_open(a, w, out, sizeof(out), ring[i % RING], plen) != (int)len;
	}
	return bad;
}

/* openssl speed -aead's loop, one batch of it: what one record costs
 * OpenSSL when the caller does nothing else. Decrypting, the tag is a
 * fake one, as openssl speed's is: the final check fails, after the work. */
static void record_batch(EVP_CIPHER_CTX *ctx, bool decrypt, size_t len)
{
	static const uint8_t aad[13] = { 0xcc };
	uint8_t iv[12] = { 0 }, tag[16] = { 0xcc };
	int n;

	for (int i = 0; i < BATCH; i++) {
		EVP_CipherInit_ex(ctx, NULL, NULL, NULL, iv, -1);
		if (decrypt)
			EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, sizeof(tag), tag);
		EVP_CipherUpdate(ctx, NULL, &n, aad, sizeof(aad));
		EVP_CipherUpdate(ctx, out, &n, plain, (int)len);
		EVP_CipherFinal_ex(ctx, out + n, &n);
	}
}

static EVP_CIPHER_CTX *record_ctx(const struct cipher *c, bool decrypt)
{
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	const EVP_CIPHER *cipher =
	    c->id == CALVIN_CIPHER_AES_256_GCM ? EVP_aes_256_gcm() : EVP_chacha20_poly1305();

	if (ctx && !EVP_CipherInit_ex(ctx, cipher, NULL, key, NULL, !decrypt)) {
		EVP_CIPHER_CTX_free(ctx);
		return NULL;
	}
	return ctx;
}

/* calvin's batches, each followed by one of openssl speed -aead's loop,
 * with openssl speed -aead's own runs between them. */
static int measure(const struct cipher *c, int seal, size_t len, struct sample *s)
{
	double cpu[BATCHES], wall[BATCHES], loop[BATCHES], c0, w0;
	EVP_CIPHER_CTX *ctx = record_ctx(c, !seal);
	struct calvin_aead enc, dec;
	struct calvin_replay w;
	int bad = 0, ret;

	if (!ctx)
		return -EIO;
	ret = calvin_aead_init(&enc, c->id, key, sizeof(key), salt, 1, 1);
	if (ret)
		goto out_free_ctx;
	ret = calvin_aead_init(&dec, c->id, key, sizeof(key), salt, 1, 0);
	if (ret)
		goto out_free_enc;
	for (int i = 0; i < RING; i++)
		bad += calvin_aead_seal(&enc, ring[i], sizeof(ring[i]), plain, len) < 0;
	run_batch(seal ? &enc : &dec, &w, seal, len); /* warm up */
	for (int b = 0; b < BATCHES; b++) {
		if (b % (BATCHES / REF_RUNS) == 0)
			s->ref[b / (BATCHES / REF_RUNS)] =
			    openssl_speed(c->openssl_name, len, true, !seal);
		c0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
		w0 = now_ns(CLOCK_MONOTONIC);
		bad += run_batch(seal ? &enc : &dec, &w, seal, len);
		wall[b] = (now_ns(CLOCK_MONOTONIC) - w0) / BATCH;
		cpu[b] = (now_ns(CLOCK_THREAD_CPUTIME_ID) - c0) / BATCH;
		c0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
		record_batch(ctx, !seal, len);
		loop[b] = (now_ns(CLOCK_THREAD_CPUTIME_ID) - c0) / BATCH;
	}
	s->cpu_ns = median(cpu, BATCHES);
	s->wall_ns = median(wall, BATCHES);
	s->loop_ns = median(loop, BATCHES);
	memcpy(cpu, s->ref, sizeof(s->ref));
	s->ref_mbs = median(cpu, REF_RUNS);
	ret = bad ? -EIO : 0;
	calvin_aead_free(&dec);
out_free_enc:
	calvin_aead_free(&enc);
out_free_ctx:
	EVP_CIPHER_CTX_free(ctx);
	return ret;
}

/* A reference and calvin's rate against it: "MB/s | ratio". */
static void print_ref(double ref, double mbs)
{
	if (ref > 0)
		printf(" %.0f | %.2f |", ref, mbs / ref);
	else /* bench/report.sh and the reader see why, and make bench fails */
		printf(" not measured: openssl speed gave no rate | - |");
}

/* One row: calvin, the median of openssl speed -aead (and its runs), the
 * streaming rate. */
static void print_row(const struct cipher *c, size_t len, int seal, const struct sample *s,
		      double stream)
{
	double mbs = len / s->cpu_ns * 1e3, lo = s->ref[0], hi = s->ref[0];

	for (int i = 1; i < REF_RUNS; i++) {
		lo = s->ref[i] < lo ? s->ref[i] : lo;
		hi = s->ref[i] > hi ? s->ref[i] : hi;
	}
	printf("| %s | %zu | %s | %.0f | %.0f | %.0f |", c->name, len, seal ? "seal" : "open",
	       s->cpu_ns, s->wall_ns, mbs);
	print_ref(s->ref_mbs, mbs);
	printf(" %.0f to %.0f |", lo, hi);
	print_ref(len / s->loop_ns * 1e3, mbs);
	print_ref(stream, mbs);
	printf("\n");
}

static const struct cipher ciphers[] = {
	{ CALVIN_CIPHER_AES_256_GCM, "AES-256-GCM", "aes-256-gcm" },
	{ CALVIN_CIPHER_CHACHA20_POLY1305, "ChaCha20-Poly1305", "chacha20-poly1305" },
};
static const size_t sizes[] = {256, 1400};

int main(void)
{
	struct sample s;
	double stream;
	int ret;

	for (size_t i = 0; i < sizeof(plain); i++)
		plain[i] = (uint8_t)i;
	printf("| cipher | bytes | op | CPU ns/pkt | wall ns/pkt | MB/s (CPU) "
	       "| `openssl speed -aead` MB/s | calvin / it | its %d runs, MB/s "
	       "| its loop in process, MB/s (CPU) | calvin / it "
	       "| `openssl speed` streaming MB/s | calvin / it |\n",
	       REF_RUNS);
	printf("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
	for (size_t c = 0; c < sizeof(ciphers) / sizeof(ciphers[0]); c++) {
		for (size_t z = 0; z < sizeof(sizes) / sizeof(sizes[0]); z++) {
			for (int seal = 1; seal >= 0; seal--) {
				ret = measure(&ciphers[c], seal, sizes[z], &s);
				if (ret) {
					fprintf(stderr, "aead_bench: %s %s failed: %s\n",
						ciphers[c].name, seal ? "seal" : "open",
						strerror(-ret));
					return 1;
				}
				stream =
				    openssl_speed(ciphers[c].openssl_name, sizes[z], false, !seal);
				print_row(&ciphers[c], sizes[z], seal, &s, stream);
			}
		}
	}
	printf("| CALVIN (paper) | 1400 | encrypt | %.0f | | %.0f | | | | | | | |\n",
	       CALVIN_PAPER_US * 1e3, 1400 / (CALVIN_PAPER_US * 1e3) * 1e3);
	printf("\nMedians of %d batches of %d packets; CPU time is thread CPU time (openssl "
	       "speed divides by user CPU time). `openssl speed -aead` seals or opens one "
	       "record at a time: IV, 13 bytes of additional data, payload, tag; it ran %d "
	       "times for 1 s between calvin's batches. Its loop in process: the same calls, a "
	       "batch after each of calvin's, timed like calvin. Streaming: one buffer, no "
	       "per-record IV, additional data or tag. CALVIN's figure is AES-256 in portable "
	       "C without AES-NI.\n",
	       BATCHES, BATCH, REF_RUNS);
	return 0;
}
