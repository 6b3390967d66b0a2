/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* A chain's lifecycle: what the subcommands call to bring a chain up,
 * change it in place, probe it, admit it by budget and take it down. */
#ifndef CALVIN_CHAIN_H
#define CALVIN_CHAIN_H

struct node_backend;
struct chain_state;

/* Tear a chain down (returns an exit code; harmless when not deployed). */
int chain_down(const char *chain);
/* Undo what a journal names: isolation, then the backend's resources.
 * 0 or -errno. */
int chain_undo(const struct node_backend *be, struct chain_state *s);

#endif /* CALVIN_CHAIN_H */
