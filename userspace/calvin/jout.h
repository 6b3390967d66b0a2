/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* The one JSON document each command prints under -j: the command adds
 * its members as it goes (up its chain, probe the report, run both and
 * the tear-down), and main prints the document once, at the end,
 * whatever happened. A command that failed has its first error line in
 * the document's "error" as well as on stderr. Without -j nothing is
 * kept and nothing is printed. */
#ifndef CALVIN_JOUT_H
#define CALVIN_JOUT_H

#include <stddef.h>

struct json_object;

/* The document: an object, made on first use (never NULL under -j
 * unless out of memory; the jw_ helpers take NULL harmlessly). */
struct json_object *jout(void);
/* Replace the document with doc, which jout now owns (status: an array
 * of chains; bench: its own document back, see jout_take()). */
void jout_set(struct json_object *doc);
/* Take the document away; the next jout() starts a new one. What a step
 * adds that is not the command's own (the chain_up() of each of bench's
 * rounds) goes into the new one, and jout_set() puts it back. */
struct json_object *jout_take(void);
/* Print the document indented, as a report reads, not on one line. */
void jout_pretty(void);
/* An error line (calvin_err()'s, without "calvin: "): the first one is
 * kept for the document of a command that fails. */
void jout_error(const char *line);
/* The first error line since the last call, into buf ("" if none), and
 * forget it: for a document that reports errors per item (status). */
void jout_error_take(char *buf, size_t len);
/* main, when the command returned rc: under -j, print the document,
 * with "error" when rc is not 0, an error line was said and the
 * document is an object. Returns rc. */
int jout_done(int rc);

#endif /* CALVIN_JOUT_H */
