// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Test tool: audit captured frames of an encrypted link for (key, nonce)
 * reuse (tests/integration/test_supervise_nonce.sh; the rule is in
 * wire_audit.h).
 *
 *   nonce_audit KEYFILE DEPLOY_RANDOM_FILE CHAIN MAX_EPOCH [chacha] < CAPTURE
 *
 * CAPTURE is what tests/tools/capture prints (SPORT DPORT KIND HEX), one
 * or more captures one after the other. Prints one line,
 *
 *   frames N unknown N repeats N duplicates N seq_reused N epochs N
 *
 * then one line per epoch that sealed frames: "epoch E frames N". Exit 0
 * when it could read everything, 1 when not (the verdict is the test's). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wire_audit.h"

static struct wire_audit w;

static int unhex(const char *s, uint8_t *out, size_t cap)
{
	size_t n = strlen(s), i;
	unsigned int b;

	if (n % 2 || n / 2 > cap)
		return -1;
	for (i = 0; i < n / 2; i++) {
		if (sscanf(s + 2 * i, "%2x", &b) != 1)
			return -1;
		out[i] = (uint8_t)b;
	}
	return (int)(n / 2);
}

static int setup(char **argv, int argc)
{
	uint8_t rnd[CALVIN_DEPLOY_RANDOM_LEN];
	struct calvin_key *k = calvin_key_new();
	char err[512], hex[128] = "";
	FILE *f;

	if (!k || calvin_keyfile_load(argv[1], k, err, sizeof(err))) {
		fprintf(stderr, "nonce_audit: %s\n", k ? err : "no memory");
		return -1;
	}
	f = fopen(argv[2], "re");
	if (f) {
		if (!fgets(hex, sizeof(hex), f))
			hex[0] = '\0';
		fclose(f);
	}
	hex[strcspn(hex, "\n")] = '\0';
	if (calvin_deploy_random_parse(hex, rnd)) {
		fprintf(stderr, "nonce_audit: %s: no deployment random\n", argv[2]);
		calvin_key_free(k);
		return -1;
	}
	audit_init(&w, k->key, rnd, argv[3],
		   argc == 6 ? CALVIN_CIPHER_CHACHA20_POLY1305 : CALVIN_CIPHER_AES_256_GCM,
		   (uint32_t)strtoul(argv[4], NULL, 10));
	calvin_key_free(k);
	return 0;
}

int main(int argc, char **argv)
{
	static char line[2 * AUDIT_FRAME_MAX + 128], hex[2 * AUDIT_FRAME_MAX + 2];
	static uint8_t frame[AUDIT_FRAME_MAX];
	struct audit_verdict v;
	unsigned int e;
	int n;

	if (argc != 5 && !(argc == 6 && !strcmp(argv[5], "chacha"))) {
		fprintf(stderr, "usage: nonce_audit KEYFILE DEPLOY_RANDOM_FILE CHAIN MAX_EPOCH "
				"[chacha] < CAPTURE\n");
		return 2;
	}
	if (setup(argv, argc))
		return 1;
	while (fgets(line, sizeof(line), stdin)) {
		if (sscanf(line, "%*u %*u %*s %4097s", hex) != 1)
			continue;
		n = unhex(hex, frame, sizeof(frame));
		if (n > 0 && audit_frame(&w, frame, (size_t)n) == -ENOMEM) {
			fprintf(stderr, "nonce_audit: out of memory\n");
			return 1;
		}
	}
	v = audit_verdict(&w);
	printf("frames %lu unknown %lu repeats %lu duplicates %lu seq_reused %lu epochs %u\n",
	       w.frames, w.unknown, v.repeats, v.duplicates, v.seq_reused, v.epochs);
	for (e = 1; e <= w.max_epoch; e++)
		if (w.per_epoch[e])
			printf("epoch %u frames %lu\n", e, w.per_epoch[e]);
	audit_free(&w);
	return 0;
}
