// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Micro-benchmark of calvin_aead_seal/open per packet, against openssl speed.
 *
 * For each cipher and packet size: the median of 15 batches of 100000
 * packets, in thread CPU time (what openssl speed divides by: user CPU time)
 * and in wall-clock time (what a packet waits). openssl speed's figure for
 * the same cipher and size is its streaming rate (no per-packet IV, AAD or
 * tag), so the percentage shows what per-packet framing costs. Because
 * openssl speed's figures on a busy VM come from coarse user-time ticks,
 * the bench also runs openssl speed's own loop (EVP_CipherUpdate over one
 * buffer, again and again) in process, under the same clock: the one
 * place outside aead.c that calls EVP, and only as a yardstick.
 * Prints a Markdown table.
 *
 * Build: gcc -O2 -D_GNU_SOURCE -Iinclude -Iuserspace/lib bench/aead_bench.c \
 *        build/lib/libcalvin.a -lcrypto -o build/bench/aead_bench */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/evp.h>

#include "aead.h"

#define BATCHES 15
#define BATCH 100000
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
	double cpu_ns, wall_ns; /* per packet, medians */
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

static double median(double *v)
{
	qsort(v, BATCHES, sizeof(v[0]), cmp_double);
	return v[BATCHES / 2];
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

static int measure(enum calvin_cipher c, int seal, size_t len, struct sample *s)
{
	double cpu[BATCHES], wall[BATCHES], c0, w0;
	struct calvin_aead enc, dec;
	struct calvin_replay w;
	int bad = 0, ret;

	ret = calvin_aead_init(&enc, c, key, sizeof(key), salt, 1, 1);
	if (ret)
		return ret;
	ret = calvin_aead_init(&dec, c, key, sizeof(key), salt, 1, 0);
	if (ret)
		goto out_free_enc;
	for (int i = 0; i < RING; i++)
		bad += calvin_aead_seal(&enc, ring[i], sizeof(ring[i]), plain, len) < 0;
	run_batch(seal ? &enc : &dec, &w, seal, len); /* warm up */
	for (int b = 0; b < BATCHES; b++) {
		c0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
		w0 = now_ns(CLOCK_MONOTONIC);
		bad += run_batch(seal ? &enc : &dec, &w, seal, len);
		wall[b] = (now_ns(CLOCK_MONOTONIC) - w0) / BATCH;
		cpu[b] = (now_ns(CLOCK_THREAD_CPUTIME_ID) - c0) / BATCH;
	}
	s->cpu_ns = median(cpu);
	s->wall_ns = median(wall);
	ret = bad ? -EIO : 0;
	calvin_aead_free(&dec);
out_free_enc:
	calvin_aead_free(&enc);
	return ret;
}

/* openssl speed's inner loop, timed like ours: CPU ns per buffer of len. */
static double evp_stream_ns(enum calvin_cipher c, size_t len)
{
	const EVP_CIPHER *cipher =
	    c == CALVIN_CIPHER_AES_256_GCM ? EVP_aes_256_gcm() : EVP_chacha20_poly1305();
	uint8_t iv[12] = {0};
	double cpu[BATCHES], c0;
	EVP_CIPHER_CTX *ctx;
	int n;

	ctx = EVP_CIPHER_CTX_new();
	if (!ctx || !EVP_CipherInit_ex(ctx, cipher, NULL, key, iv, 1))
		return 0;
	for (int b = 0; b < BATCHES; b++) {
		c0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
		for (int i = 0; i < BATCH; i++)
			EVP_CipherUpdate(ctx, out, &n, plain, (int)len);
		cpu[b] = (now_ns(CLOCK_THREAD_CPUTIME_ID) - c0) / BATCH;
	}
	EVP_CIPHER_CTX_free(ctx);
	return median(cpu);
}

/* openssl speed's rate for one cipher and size, in bytes per second of
 * user CPU time; 0 if it could not be run. */
static double openssl_speed(const char *name, size_t len)
{
	char cmd[160], line[256];
	double rate = 0, r;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "openssl speed -mr -evp %s -bytes %zu -seconds 1 2>/dev/null",
		 name, len);
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
	return rate;
}

static void print_ref(double ref, double mbs)
{
	if (ref > 0)
		printf(" %.0f | %.0f%% |", ref, 100 * mbs / ref);
	else
		printf(" n/a | n/a |");
}

static const struct {
	enum calvin_cipher cipher;
	const char *name, *openssl_name;
} ciphers[] = {
    {CALVIN_CIPHER_AES_256_GCM, "AES-256-GCM", "aes-256-gcm"},
    {CALVIN_CIPHER_CHACHA20_POLY1305, "ChaCha20-Poly1305", "chacha20-poly1305"},
};
static const size_t sizes[] = {256, 1400};

int main(void)
{
	struct sample s;
	double ref, ref_loop, mbs;
	int ret;

	for (size_t i = 0; i < sizeof(plain); i++)
		plain[i] = (uint8_t)i;
	printf("| cipher | bytes | op | CPU ns/pkt | wall ns/pkt | MB/s (CPU) | openssl speed MB/s "
	       "| %% of it | EVP loop in process MB/s | %% of it |\n");
	printf("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|\n");
	for (size_t c = 0; c < sizeof(ciphers) / sizeof(ciphers[0]); c++) {
		for (size_t z = 0; z < sizeof(sizes) / sizeof(sizes[0]); z++) {
			ref = openssl_speed(ciphers[c].openssl_name, sizes[z]) / 1e6;
			ref_loop = evp_stream_ns(ciphers[c].cipher, sizes[z]);
			ref_loop = ref_loop > 0 ? sizes[z] / ref_loop * 1e3 : 0;
			for (int seal = 1; seal >= 0; seal--) {
				ret = measure(ciphers[c].cipher, seal, sizes[z], &s);
				if (ret) {
					fprintf(stderr, "aead_bench: %s %s failed: %s\n",
						ciphers[c].name, seal ? "seal" : "open",
						strerror(-ret));
					return 1;
				}
				mbs = sizes[z] / s.cpu_ns * 1e3;
				printf("| %s | %zu | %s | %.0f | %.0f | %.0f |", ciphers[c].name,
				       sizes[z], seal ? "seal" : "open", s.cpu_ns, s.wall_ns, mbs);
				print_ref(ref, mbs);
				print_ref(ref_loop, mbs);
				printf("\n");
			}
		}
	}
	printf("| CALVIN (paper) | 1400 | encrypt | %.0f | | %.0f | | | | |\n",
	       CALVIN_PAPER_US * 1e3, 1400 / (CALVIN_PAPER_US * 1e3) * 1e3);
	printf(
	    "\nMedians of %d batches of %d packets; CPU time is thread CPU time, as openssl "
	    "speed uses user CPU time. openssl speed and the EVP loop stream one buffer (no "
	    "per-packet IV, AAD, tag); CALVIN's figure is AES-256 in portable C without AES-NI.\n",
	    BATCHES, BATCH);
	return 0;
}
