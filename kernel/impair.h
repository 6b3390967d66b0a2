/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Impairment VNF: types shared by impair.bpf.c, its loader impair.c and tests; the loader's API.
 *
 * Repeatable means: for the same settings (seed included) and the same frames
 * arriving on the same CPU in the same order, the same frames are lost and
 * duplicated. Each CPU has a PRNG (xorshift64*) of its own, seeded from
 * the seed given and the CPU's index, because bpf_get_prandom_u32()
 * cannot be seeded and a shared state would need a lock per frame. So
 * when traffic spreads over several CPUs, each CPU's sequence repeats but
 * their interleaving need not. Gilbert-Elliott's good/bad state is per CPU
 * too.
 */
#ifndef CALVIN_IMPAIR_H
#define CALVIN_IMPAIR_H

#include <linux/types.h>

#define CALVIN_PIN_IMPAIR_CONFIG "impair_config"
#define CALVIN_PIN_IMPAIR_RNG "impair_rng"

/* Loss models: each frame lost with loss_ppm, or Gilbert-Elliott's two
 * states, good and bad, each with a loss probability of its own. */
#define CALVIN_IMPAIR_UNIFORM 0
#define CALVIN_IMPAIR_GILBERT_ELLIOTT 1

#define CALVIN_PPM 1000000U

/* The one value of the impair_config array, and what the loader takes;
 * probabilities in parts per million (CALVIN_PPM is "always"). */
struct calvin_impair_config {
	__u32 model; /* CALVIN_IMPAIR_* */
	__u32 loss_ppm;
	__u32 ge_p_ppm, ge_r_ppm; /* good->bad, bad->good, per frame */
	__u32 ge_loss_good_ppm, ge_loss_bad_ppm;
	__u32 duplicate_ppm;
	__u32 dirs; /* bit CALVIN_DIR_FWD and/or bit CALVIN_DIR_REV: directions impaired */
	__u64 seed; /* the seed the PRNGs were last seeded from */
};

/* Per-CPU value of the impair_rng array. */
struct calvin_impair_rng {
	__u64 state; /* xorshift64* state, never 0 */
	__u32 bad;   /* Gilbert-Elliott: 1 in the bad state */
	__u32 pad;
};

/* Initial PRNG state of a CPU: splitmix64 of the seed and the CPU index,
 * so that CPUs draw different sequences and seeds 1, 2, 3 are unrelated. */
static inline __u64 calvin_impair_seed_state(__u64 seed, unsigned int cpu)
{
	__u64 z = seed + (cpu + 1ULL) * 0x9e3779b97f4a7c15ULL;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return z ? z : 0x9e3779b97f4a7c15ULL; /* xorshift is stuck at 0 */
}

#ifndef __bpf__
#include "loader.h"

struct calvin_xdp_impair_cfg {
	struct calvin_xdp_forward_cfg fwd; /* ports, ids, place in the node */
	const struct calvin_impair_config *imp;
};

/* Attach impair.bpf.c like the forwarder, with its config and per-CPU
 * PRNGs set before it forwards anything; also pins CALVIN_PIN_IMPAIR_*.
 * Duplication sends a frame to a devmap of two entries that both name
 * the egress port (bpf_redirect_map with BPF_F_BROADCAST), so only the
 * node's last VNF for a direction duplicates (see fwd.node_index); where
 * it is not last, a frame drawn for duplication is forwarded once.
 * -EINVAL for a probability above 100%, an unknown model, or dirs naming
 * no direction or another bit. */
int calvin_xdp_impair_attach(const struct calvin_xdp_impair_cfg *cfg);

/* Change the probabilities, model and directions of a running impair VNF
 * (one map write). The PRNGs are reseeded only if imp->seed differs from
 * the seed in force, and then every CPU's Gilbert-Elliott state goes back
 * to good. */
int calvin_xdp_impair_update(const char *pin_dir, const struct calvin_impair_config *imp);
#endif

#endif /* CALVIN_IMPAIR_H */
