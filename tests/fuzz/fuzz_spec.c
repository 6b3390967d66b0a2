// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* libFuzzer harness: arbitrary bytes into the chain spec parser. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <calvin/telemetry.h>

#include "chainspec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A valid spec with one value per line; libyaml is not instrumented, so
 * raw bytes rarely get past it into the value checks. Putting the input
 * into one slot of this template fuzzes those checks directly. */
static const char *const slots[][2] = {
    {"name: ", "c"},	       {"budget: ", "1ms"},
    {"placement: ", "pinned"}, {"allow-sharing: ", "true"},
    {"backend: ", "netns"},    {"vnfs:\n  - name: ", "a"},
    {"    kind: ", "forward"}, {"    space: ", "user"},
    {"    burst: ", "1"},      {"    pmd: ", "af_xdp"},
    {"  - name: ", "b"},       {"    kind: ", "forward"},
    {"    space: ", "kernel"}, {"server:\n  name: ", "s"},
    {"  kind: ", "echo"},      {"probe:\n  port: ", "7357"},
    {"  count: ", "1000"},     {"  rate: ", "1000"},
    {"  mode: ", "paced"},     {"  size: ", "256"},
};
#define NR_SLOTS (sizeof(slots) / sizeof(slots[0]))

/* Beyond memory safety, check the contract: a spec that parses is within
 * its limits, and an error is one line that starts with the path. */
static void parse_checked(const char *data, size_t size)
{
	struct calvin_chain_spec spec;
	char err[CALVIN_ERR_MAX];
	unsigned int i;
	char *text;
	int ret;

	/* an exact-size copy, so reading past size is caught by ASan */
	text = malloc(size ? size : 1);
	if (!text)
		return;
	memcpy(text, data, size);
	ret = calvin_spec_parse(text, size, "f.yaml", &spec, err, sizeof(err));
	free(text);
	if (ret) {
		if ((ret != -EINVAL && ret != -ENOMEM) || strncmp(err, "f.yaml:", 7) ||
		    strchr(err, '\n'))
			abort();
		return;
	}
	if (!calvin_name_valid(spec.name) || spec.budget_ns == 0 || spec.nr_vnfs < 1 ||
	    spec.nr_vnfs > CALVIN_MAX_VNFS || !calvin_name_valid(spec.server.name) ||
	    spec.probe.port < 1 || spec.probe.port > 65535 || spec.probe.size > 1472 ||
	    spec.probe.size < CALVIN_TLM_LEN(CALVIN_MAX_VNFS) || spec.probe.count < 1 ||
	    spec.probe.count > 10000000 || spec.probe.rate < 1 || spec.probe.rate > 1000000)
		abort();
	for (i = 0; i < spec.nr_vnfs; i++)
		if (!calvin_name_valid(spec.vnfs[i].name) || spec.vnfs[i].burst < 1 ||
		    spec.vnfs[i].burst > 512 || !strcmp(spec.vnfs[i].name, spec.server.name) ||
		    (spec.vnfs[i].space == CALVIN_KERNEL && spec.vnfs[i].burst != 1))
			abort();
}

/* The first byte picks a slot, the rest is its value. */
static void parse_in_template(const uint8_t *data, size_t size)
{
	size_t slot, i, len = 0, cap = size + 1024;
	char *text;

	if (size < 1)
		return;
	text = malloc(cap);
	if (!text)
		return;
	slot = data[0] % NR_SLOTS;
	for (i = 0; i < NR_SLOTS; i++) {
		len += (size_t)snprintf(text + len, cap - len, "%s", slots[i][0]);
		if (i == slot) {
			memcpy(text + len, data + 1, size - 1);
			len += size - 1;
		} else {
			len += (size_t)snprintf(text + len, cap - len, "%s", slots[i][1]);
		}
		text[len++] = '\n';
	}
	parse_checked(text, len);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	parse_checked((const char *)data, size);
	parse_in_template(data, size);
	return 0;
}
