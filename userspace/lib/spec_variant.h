/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Variants of a chain spec for `calvin bench`: the same chain with another
 * placement, user VNFs' burst, VM links or guest image, as YAML text that
 * `calvin up` deploys like any chain file (and keeps a copy of, so the
 * deployed copy says what really runs). Pure: text in, text out.
 *
 * The text is re-emitted by libyaml event by event: values are replaced
 * where they are written, and added where the file leaves them to their
 * defaults; comments and layout are not kept. Key-file values become the
 * absolute paths the spec resolved them to, so the variant may be written
 * anywhere. */
#ifndef CALVIN_LIB_SPEC_VARIANT_H
#define CALVIN_LIB_SPEC_VARIANT_H

#include <stddef.h>

#include "chainspec.h"

struct calvin_spec_override {
	int placement;	    /* enum calvin_placement; -1: as the file says */
	unsigned int burst; /* every user VNF's burst; 0: as the file says */
	int links;	    /* enum calvin_vm_links; -1: as the file says */
	const char *image;  /* libvirt image directory; NULL: as the file says */
};

/* An override that changes nothing. */
#define CALVIN_SPEC_OVERRIDE_NONE                                                                  \
	{                                                                                          \
		.placement = -1, .burst = 0, .links = -1, .image = NULL                            \
	}

/* The text (len bytes) spec was parsed from, with o applied: *out is
 * malloc'd and NUL-terminated. Returns 0, -ENOMEM, or -EINVAL when the text
 * is not spec's or libyaml cannot re-emit it. */
int calvin_spec_variant(const char *text, size_t len, const struct calvin_chain_spec *spec,
			const struct calvin_spec_override *o, char **out, size_t *out_len);

#endif /* CALVIN_LIB_SPEC_VARIANT_H */
