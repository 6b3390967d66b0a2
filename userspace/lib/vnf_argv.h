/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* calvin-vnf's command line for one user VNF of a chain spec, built the
 * same way wherever the VNF runs: by the netns backend on the host, by
 * calvin-agent in a VM. Pure code: no I/O, no allocation. */
#ifndef CALVIN_LIB_VNF_ARGV_H
#define CALVIN_LIB_VNF_ARGV_H

#include <stdint.h>

#include "chainspec.h"

/* What the node adds to the spec: where calvin-vnf is, its CPU, its ports. */
struct calvin_vnf_site {
	const char *bin;		    /* path of calvin-vnf */
	unsigned int vnf_id;		    /* index in spec->vnfs */
	int cpu;			    /* -1: any (placement shared) */
	const char *west, *east;	    /* interface names */
	uint8_t west_peer[6], east_peer[6]; /* far ends of the links */
	const char *wait;		    /* "busy", "wakeup"; NULL: calvin-vnf's default */
	/* encrypt, decrypt: the descriptor calvin-vnf reads its SAs' traffic
	 * keys from (sa_set.h), inherited; never a key on the command line */
	int keys_fd;
	int ready_fd; /* -1: none; else argv gets --ready-fd and a slot for it */
};

struct calvin_vnf_argv {
	char *argv[64]; /* NULL-terminated */
	unsigned int argc;
	/* argv[ready_arg] is the --ready-fd value, set by the caller once the
	 * descriptor is known (after fork); 0 when there is none */
	unsigned int ready_arg;
	char ready_fd[12];
	char buf[6144]; /* what argv points into */
	unsigned int used;
};

/* Fill a for VNF site->vnf_id of s. 0, or -E2BIG if it does not fit,
 * -EINVAL for a VNF that is not in user space. */
int calvin_vnf_argv_build(struct calvin_vnf_argv *a, const struct calvin_chain_spec *s,
			  const struct calvin_vnf_site *site);

#endif /* CALVIN_LIB_VNF_ARGV_H */
