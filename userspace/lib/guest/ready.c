// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* calvin-vnf's ready line: format and parse (see guest.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "guest/guest.h"

static const char *const side_words[] = { "west", "east", NULL };

int calvin_ready_format(char *buf, size_t len, const int pmd[CALVIN_READY_SIDES])
{
	size_t used;
	int side, n;

	n = snprintf(buf, len, "ready");
	if (n < 0 || (size_t)n >= len)
		return -ENOSPC;
	used = (size_t)n;
	for (side = 0; side < CALVIN_READY_SIDES; side++) {
		if (pmd[side] == CALVIN_READY_NO_PORT)
			continue;
		n = snprintf(buf + used, len - used, " %s=%s", side_words[side],
			     calvin_pmd_name(pmd[side]));
		if (n < 0 || (size_t)n >= len - used)
			return -ENOSPC;
		used += (size_t)n;
	}
	n = snprintf(buf + used, len - used, "\n");
	if (n < 0 || (size_t)n >= len - used)
		return -ENOSPC;
	return (int)(used + (size_t)n);
}

/* One "side=pmd" word of length n at w. */
static int parse_word(const char *w, size_t n, int pmd[CALVIN_READY_SIDES])
{
	char word[32], *eq;
	int side, p;

	if (n >= sizeof(word))
		return -EPROTO;
	memcpy(word, w, n);
	word[n] = '\0';
	eq = strchr(word, '=');
	if (!eq)
		return -EPROTO;
	*eq = '\0';
	side = calvin_word_lookup(side_words, word);
	p = calvin_word_lookup(calvin_pmd_words, eq + 1);
	if (side < 0 || p < 0 || pmd[side] != CALVIN_READY_NO_PORT)
		return -EPROTO;
	pmd[side] = p;
	return 0;
}

int calvin_ready_parse(const char *line, int pmd[CALVIN_READY_SIDES])
{
	const char *p = line;
	size_t n;
	int side, err;

	for (side = 0; side < CALVIN_READY_SIDES; side++)
		pmd[side] = CALVIN_READY_NO_PORT;
	if (strncmp(p, "ready", 5))
		return -EPROTO;
	p += 5;
	while (*p == ' ') {
		p++;
		n = strcspn(p, " \n");
		err = parse_word(p, n, pmd);
		if (err)
			return err;
		p += n;
	}
	return !strcmp(p, "\n") || !*p ? 0 : -EPROTO;
}
