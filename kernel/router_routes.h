/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Routes from chain spec to router.bpf.c's LPM tries: check, key, and bring a trie to spec.
 *
 * Header-only so the BPF tests (which do not link the loader) fill the
 * tries exactly as the loader does, live updates included.
 */
#ifndef CALVIN_ROUTER_ROUTES_H
#define CALVIN_ROUTER_ROUTES_H

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <bpf/bpf.h>

#include "calvin_xdp.h"
#include "spec/spec.h"

_Static_assert(CALVIN_XDP_VIA_WEST == CALVIN_VIA_WEST && CALVIN_XDP_VIA_EAST == CALVIN_VIA_EAST &&
		   CALVIN_XDP_VIA_DROP == CALVIN_VIA_DROP,
	       "via is passed through as it is");

/* Big enough for either family's key; keys are compared whole. */
union calvin_lpm_key {
	struct calvin_lpm4_key v4;
	struct calvin_lpm6_key v6;
};

/* The key of prefix p in the IPv4 (v6 false) or IPv6 trie, host bits
 * cleared, so one prefix has one key however it was written. */
static inline void router_route_key(const struct calvin_prefix *p, bool v6, union calvin_lpm_key *k)
{
	unsigned int i, len = p->family ? p->len : 0;
	uint8_t *addr = v6 ? k->v6.addr : k->v4.addr;

	memset(k, 0, sizeof(*k));
	k->v4.prefixlen = len; /* prefixlen is the first field of both */
	for (i = 0; i < (v6 ? 16u : 4u) && p->family; i++) {
		unsigned int bits = len > i * 8 ? len - i * 8 : 0;

		addr[i] = p->addr[i] & (bits >= 8 ? 0xff : (uint8_t)(0xff00 >> bits));
	}
}

/* Which tries a route goes into: family 0 (any, length 0) into both. */
static inline bool router_in_trie(const struct calvin_route *r, bool v6)
{
	return r->prefix.family == 0 || r->prefix.family == (v6 ? AF_INET6 : AF_INET);
}

static inline int calvin_router_check(const struct calvin_router_spec *spec)
{
	const struct calvin_route *r;
	unsigned int i;

	if (!spec)
		return -EINVAL;
	if (spec->nr_routes > CALVIN_ROUTER_MAX_ROUTES)
		return -E2BIG;
	for (i = 0; i < spec->nr_routes; i++) {
		r = &spec->routes[i];
		if (r->via != CALVIN_VIA_WEST && r->via != CALVIN_VIA_EAST &&
		    r->via != CALVIN_VIA_DROP)
			return -EINVAL;
		if (r->prefix.family == 0	   ? r->prefix.len != 0
		    : r->prefix.family == AF_INET  ? r->prefix.len > 32
		    : r->prefix.family == AF_INET6 ? r->prefix.len > 128
						   : true)
			return -EINVAL;
	}
	return 0;
}

static inline bool router_wanted(const struct calvin_router_spec *spec, bool v6,
				 const union calvin_lpm_key *k)
{
	union calvin_lpm_key want;
	unsigned int i;

	for (i = 0; i < spec->nr_routes; i++) {
		if (!router_in_trie(&spec->routes[i], v6))
			continue;
		router_route_key(&spec->routes[i].prefix, v6, &want);
		if (!memcmp(&want, k, sizeof(want)))
			return true;
	}
	return false;
}

/* Bring one trie to spec: add or replace first, then delete the rest, so a
 * prefix in both the old and the new routes is never missing. */
static inline int router_sync_trie(int fd, const struct calvin_router_spec *spec, bool v6)
{
	union calvin_lpm_key k, next, *stale;
	unsigned int i, nr_stale = 0;
	uint32_t via;
	int err = 0;

	for (i = 0; i < spec->nr_routes; i++) {
		if (!router_in_trie(&spec->routes[i], v6))
			continue;
		router_route_key(&spec->routes[i].prefix, v6, &k);
		via = (uint32_t)spec->routes[i].via;
		if (bpf_map_update_elem(fd, &k, &via, BPF_ANY))
			return -errno;
	}
	/* Collect before deleting: deleting while walking can skip keys. */
	stale = calloc(CALVIN_ROUTER_MAX_ROUTES * 2, sizeof(*stale));
	if (!stale)
		return -ENOMEM;
	memset(&next, 0, sizeof(next));
	for (i = 0; !bpf_map_get_next_key(fd, i ? &k : NULL, &next); i++) {
		k = next;
		if (!router_wanted(spec, v6, &k) && nr_stale < CALVIN_ROUTER_MAX_ROUTES * 2)
			stale[nr_stale++] = k;
	}
	for (i = 0; i < nr_stale; i++)
		if (bpf_map_delete_elem(fd, &stale[i]) && errno != ENOENT) {
			err = -errno;
			break;
		}
	free(stale);
	return err;
}

static inline int calvin_router_write(int fd4, int fd6, const struct calvin_router_spec *spec)
{
	int err = calvin_router_check(spec);

	if (!err)
		err = router_sync_trie(fd4, spec, false);
	if (!err)
		err = router_sync_trie(fd6, spec, true);
	return err;
}

#endif /* CALVIN_ROUTER_ROUTES_H */
