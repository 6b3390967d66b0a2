// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The VNFs of one calvin-vnf process: one command line, or with --wait
 * loop several joined by --next (the co-located VNFs of a core, polled by
 * one loop), and entering the namespace of a VNF's node (--netns). */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vnf.h"

#define VNF_NEXT "--next"

/* What the VNFs of one loop must share, and keep apart. */
static int group_check(const struct vnf_group *g)
{
	const struct vnf_config *a = &g->vnf[0].cfg, *b;
	unsigned int i, j;

	for (i = 0; i < g->n; i++) {
		b = &g->vnf[i].cfg;
		if (b->wait != CALVIN_WAIT_LOOP) {
			fprintf(stderr, VNF_PROG ": %s: several VNFs (--next) need --wait loop\n",
				b->name);
			return -EINVAL;
		}
		if (strcmp(a->chain, b->chain) || a->lcore != b->lcore) {
			fprintf(stderr,
				VNF_PROG ": %s: the VNFs of one loop need one --chain and one"
					 " --lcore (%s on %u, %s on %u)\n",
				b->name, a->chain, a->lcore, b->chain, b->lcore);
			return -EINVAL;
		}
		for (j = 0; j < i; j++)
			if (!strcmp(g->vnf[j].cfg.name, b->name) ||
			    g->vnf[j].cfg.vnf_id == b->vnf_id) {
				fprintf(stderr,
					VNF_PROG ": %s: given twice (its name or --vnf-id)\n",
					b->name);
				return -EINVAL;
			}
	}
	return 0;
}

/* Returns 0, 1 when help was asked for, or -EINVAL (message printed). */
int vnf_group_parse(int argc, char **argv, struct vnf_group *g)
{
	char **seg = calloc((size_t)argc + 1, sizeof(*seg));
	int start = 1, end, n, err = 0;

	if (!seg)
		return -ENOMEM;
	memset(g, 0, sizeof(*g));
	while (!err) {
		for (end = start; end < argc && strcmp(argv[end], VNF_NEXT); end++)
			;
		if (g->n == VNF_GROUP_MAX) {
			fprintf(stderr, VNF_PROG ": at most %d VNFs in one process\n",
				VNF_GROUP_MAX);
			err = -EINVAL;
			break;
		}
		/* getopt reorders what it is given: each VNF gets a copy */
		n = end - start;
		seg[0] = argv[0];
		memcpy(seg + 1, argv + start, (size_t)n * sizeof(*seg));
		seg[n + 1] = NULL;
		err = vnf_args_parse(n + 1, seg, &g->vnf[g->n].cfg);
		if (err)
			break;
		g->vnf[g->n].cfg.index = g->n;
		g->n++;
		if (end == argc)
			break;
		start = end + 1;
		if (start == argc) {
			fprintf(stderr, VNF_PROG ": " VNF_NEXT " is the last argument: the"
						 " options of a VNF must follow it\n");
			err = -EINVAL;
		}
	}
	free(seg);
	if (!err && g->n > 1)
		err = group_check(g);
	return err;
}

int vnf_netns_enter(const struct vnf *vnf)
{
	int fd, err = 0;

	if (!vnf->cfg.netns)
		return 0;
	fd = open(vnf->cfg.netns, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || setns(fd, CLONE_NEWNET) < 0)
		err = -errno;
	if (fd >= 0)
		close(fd);
	if (err)
		vnf_err("Failed to enter the network namespace %s: %s", vnf->cfg.netns,
			strerror(-err));
	return err;
}
