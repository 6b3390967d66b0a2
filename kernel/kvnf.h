/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Kernel VNFs by kind (kvnf.c): attach a chain-file VNF as its XDP
 * program, update its parameters in place. Same rules as loader.h: the
 * caller is in the node's network namespace, bpffs is mounted, 0 or -errno
 * and nothing printed. */
#ifndef CALVIN_KVNF_H
#define CALVIN_KVNF_H

#include <stdbool.h>

#include "loader.h"
#include "spec/spec.h"

/* Attach v's program with its parameters; base says where it sits.
 * -EOPNOTSUPP for a kind with no kernel implementation. */
int calvin_kvnf_attach(const struct calvin_vnf_spec *v, const struct calvin_xdp_forward_cfg *base);

/* Can a running VNF of this kind take new parameters? */
bool calvin_kvnf_updatable(enum calvin_vnf_kind kind);

/* Give the running VNF pinned at pin_dir the parameters of v. */
int calvin_kvnf_update(const char *pin_dir, const struct calvin_vnf_spec *v);

#endif /* CALVIN_KVNF_H */
