/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* A chain spec's kernel VNF as its loader takes it (kernel/kvnf.h),
 * converted the same way wherever the VNF runs: by the netns backend on
 * the host, at a live update, by calvin-agent in a VM. Pure code: no I/O,
 * no allocation. */
#ifndef CALVIN_LIB_KVNF_SPEC_H
#define CALVIN_LIB_KVNF_SPEC_H

#include "chainspec.h"
#include "kvnf.h"

/* The kernel VNF kind of a chain file's kind, or -EOPNOTSUPP for a kind
 * with no kernel implementation. */
int calvin_kvnf_kind_of(enum calvin_vnf_kind kind);

/* v's kind and parameters into k. -EOPNOTSUPP for a kind with no kernel
 * implementation, -E2BIG for more rules or routes than the program holds,
 * -EINVAL for a value with no equivalent there (an unknown address
 * family, action, via, scope, model or direction). What the program
 * cannot express within its own terms (a prefix longer than its family)
 * is the loader's to refuse. */
int calvin_kvnf_from_spec(const struct calvin_vnf_spec *v, struct calvin_kvnf *k);

#endif /* CALVIN_LIB_KVNF_SPEC_H */
