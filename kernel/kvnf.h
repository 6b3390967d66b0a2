/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Kernel VNFs by kind (kvnf.c): attach one as its XDP program with its
 * parameters, update them in place. Same rules as loader.h: the caller is
 * in the node's network namespace, bpffs is mounted, 0 or -errno and
 * nothing printed. What a chain file's VNF becomes here is
 * userspace/lib/kvnf_spec.c's to say. */
#ifndef CALVIN_KVNF_H
#define CALVIN_KVNF_H

#include <stdbool.h>

#include "impair.h"
#include "loader.h"
#include "ratelimit.h"

enum calvin_kvnf_kind {
	CALVIN_KVNF_FORWARD,
	CALVIN_KVNF_ACL,
	CALVIN_KVNF_ROUTER,
	CALVIN_KVNF_RATELIMIT,
	CALVIN_KVNF_IMPAIR,
};

/* A kernel VNF's kind and parameters (forward has none). */
struct calvin_kvnf {
	enum calvin_kvnf_kind kind;
	union {
		struct calvin_xdp_acl acl;
		struct calvin_xdp_routes router;
		struct calvin_rl_config ratelimit;
		struct calvin_impair_config impair;
	};
};

/* Attach k's program with its parameters; base says where it sits.
 * -EOPNOTSUPP for an unknown kind. */
int calvin_kvnf_attach(const struct calvin_kvnf *k, const struct calvin_xdp_forward_cfg *base);

/* Can a running VNF of this kind take new parameters? */
bool calvin_kvnf_updatable(enum calvin_kvnf_kind kind);

/* Give the running VNF pinned at pin_dir the parameters of k. */
int calvin_kvnf_update(const char *pin_dir, const struct calvin_kvnf *k);

#endif /* CALVIN_KVNF_H */
