// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Packet transforms: the table of what a VNF can do with a burst.
 *
 * A transform is one more entry: its setup() builds its state in
 * vnf->transform_priv, its process() rewrites the application bytes after
 * the telemetry block and sends with vnf_tx(), which stamps probes as they
 * leave; it may send more or fewer frames than it got (coding adds repair
 * frames, decoding holds some back). Forward and echo live in forward.c,
 * the transforming ones in nc.c and crypt.c, with their helpers in
 * payload.c.
 */
#include <string.h>

#include "vnf.h"

static const struct vnf_transform *const vnf_transforms[] = {
    &vnf_forward, &vnf_echo, &vnf_nc_encode, &vnf_nc_decode, &vnf_encrypt, &vnf_decrypt,
};

const struct vnf_transform *vnf_transform_find(const char *name)
{
	size_t i;

	for (i = 0; i < RTE_DIM(vnf_transforms); i++)
		if (!strcmp(vnf_transforms[i]->name, name))
			return vnf_transforms[i];
	return NULL;
}

void vnf_transforms_list(FILE *out)
{
	size_t i;

	for (i = 0; i < RTE_DIM(vnf_transforms); i++)
		fprintf(out, "%s %s (%s)", i ? "," : "", vnf_transforms[i]->name,
			vnf_transforms[i]->help);
	fprintf(out, "\n");
}
