// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Chain spec VNF parameters: integers, percentages, prefixes, ports, paths
 * and the libvirt section's strings (the acl's rules and the router's
 * routes are chainspec_lists.c). */
#include <errno.h>
#include <netinet/in.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "spec_priv.h"

static int set_int(struct spec_ctx *c, const struct spec_key *k, yaml_node_t *n, const char *s,
		   void *field)
{
	char buf[SHOWN_MAX + 4];
	uint64_t v = 0;
	uint32_t v32;
	int err;

	err = calvin_parse_u64(s, &v);
	if (err == -EINVAL)
		return calvin_spec_err(
		    c, n->start_mark, "%s '%s' is not an integer; use an integer from %u to %llu",
		    k->name, calvin_spec_shown(s, buf), k->min, (unsigned long long)k->max64);
	if (err || v < k->min || v > k->max64)
		return calvin_spec_err(
		    c, n->start_mark, "%s %s is out of range; use an integer from %u to %llu",
		    k->name, calvin_spec_shown(s, buf), k->min, (unsigned long long)k->max64);
	if (k->type == KEY_U32) {
		v32 = (uint32_t)v;
		memcpy(field, &v32, sizeof(v32));
	} else {
		memcpy(field, &v, sizeof(v));
	}
	return 0;
}

static int set_ppm(struct spec_ctx *c, const struct spec_key *k, yaml_node_t *n, const char *s,
		   uint32_t *out)
{
	char buf[SHOWN_MAX + 4];
	int err;

	err = calvin_parse_ppm(s, out);
	if (err == -ERANGE)
		return calvin_spec_err(c, n->start_mark,
				       "%s %s is above 100%%; use a percentage from 0%% to 100%%",
				       k->name, calvin_spec_shown(s, buf));
	if (err && *s && strspn(s, "0123456789.") == strlen(s))
		return calvin_spec_err(
		    c, n->start_mark, "%s '%s' has no '%%'; write a percentage, e.g. %s%%", k->name,
		    calvin_spec_shown(s, buf), calvin_spec_shown(s, buf));
	if (err)
		return calvin_spec_err(c, n->start_mark,
				       "%s '%s' is not a percentage; write e.g. 5%% or 0.5%%",
				       k->name, calvin_spec_shown(s, buf));
	return 0;
}

static int set_prefix(struct spec_ctx *c, const struct spec_key *k, yaml_node_t *n, const char *s,
		      struct calvin_prefix *out)
{
	char buf[SHOWN_MAX + 4], fixed[CALVIN_PREFIX_STR_MAX];
	int err;

	err = calvin_parse_prefix(s, out);
	if (err == -EDOM)
		return calvin_spec_err(
		    c, n->start_mark, "%s %s has host bits set; did you mean %s?", k->name,
		    calvin_spec_shown(s, buf), calvin_prefix_str(out, fixed, sizeof(fixed)));
	if (err)
		return calvin_spec_err(c, n->start_mark,
				       "%s '%s' is not an address prefix; write e.g. 10.70.0.0/24, "
				       "10.70.0.2, 2001:db8::/32 or any",
				       k->name, calvin_spec_shown(s, buf));
	return 0;
}

/* Relative to the spec file's directory, so a chain and its key travel
 * together; the file itself is checked by calvin_spec_check_key_files().
 * Where the value is written is kept, so that a copy of the spec can name
 * the same file (calvin_spec_copy()); on one line, so that the copy's
 * lines stay where they were. */
static int set_path(struct spec_ctx *c, const struct spec_key *k, yaml_node_t *n, const char *s,
		    char *out)
{
	size_t size = sizeof(((struct calvin_crypt_spec *)0)->key_file);

	_Static_assert(sizeof(((struct calvin_crypt_spec *)0)->key_file) ==
			       sizeof(((struct calvin_libvirt_spec *)0)->image),
		       "every KEY_PATH field has the same size");
	const char *slash = strrchr(c->path, '/');
	size_t dirlen = 0;

	if (!*s)
		return calvin_spec_err(
		    c, n->start_mark, "%s is empty; give the file's path, e.g. CHAIN.key", k->name);
	if (n->start_mark.line != n->end_mark.line)
		return calvin_spec_err(c, n->start_mark,
				       "%s spans several lines; write the path on one line",
				       k->name);
	if (s[0] != '/' && slash)
		dirlen = (size_t)(slash - c->path) + 1;
	if (dirlen + strlen(s) >= size)
		return calvin_spec_err(
		    c, n->start_mark,
		    "%s is longer than %zu characters with the spec's directory; "
		    "use a shorter path",
		    k->name, size - 1);
	memcpy(out, c->path, dirlen);
	strcpy(out + dirlen, s);
	/* a VNF's key file: where it is written, for the deployed copy that
	 * names it absolutely (other paths, like a guest image, are not VNFs') */
	if (!c->vnf)
		return 0;
	c->vnf->key_file_pos.line = (int)n->start_mark.line + 1;
	c->vnf->key_file_pos.col = (int)n->start_mark.column + 1;
	c->vnf->key_file_span.start = (uint32_t)n->start_mark.index;
	c->vnf->key_file_span.end = (uint32_t)n->end_mark.index;
	return 0;
}

int calvin_spec_set_param(struct spec_ctx *c, const struct spec_key *k, yaml_node_t *n, void *field)
{
	char buf[SHOWN_MAX + 4];
	const char *s = "";
	int err;

	err = calvin_spec_scalar(c, n, k->name, &s);
	if (err)
		return err;
	switch (k->type) {
	case KEY_U64:
	case KEY_U32:
		return set_int(c, k, n, s, field);
	case KEY_PPM:
		return set_ppm(c, k, n, s, field);
	case KEY_PREFIX:
		return set_prefix(c, k, n, s, field);
	case KEY_PORTS:
		if (calvin_parse_ports(s, field))
			return calvin_spec_err(c, n->start_mark,
					       "%s '%s' is not a port or port range; write PORT or "
					       "LO-HI with LO <= HI, from 0 to 65535",
					       k->name, calvin_spec_shown(s, buf));
		return 0;
	case KEY_PROTO:
		if (calvin_parse_proto(s, field))
			return calvin_spec_err(
			    c, n->start_mark,
			    "unknown proto '%s'; use any, tcp, udp, icmp, icmpv6 "
			    "or a protocol number from 0 to 255",
			    calvin_spec_shown(s, buf));
		return 0;
	case KEY_PATH:
		return set_path(c, k, n, s, field);
	case KEY_STRING:
		return calvin_spec_set_string(c, k, n, s, field);
	case KEY_URI:
		return calvin_spec_set_uri(c, k, n, s, field);
	case KEY_MIB:
		return calvin_spec_set_mib(c, k, n, s, field);
	default:
		return calvin_spec_err(c, n->start_mark, "unhandled key type; report a bug");
	}
}
