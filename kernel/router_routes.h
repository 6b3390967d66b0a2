/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Routes (struct calvin_xdp_routes, loader.h) to router.bpf.c's LPM tries: check, key, and
 * bring a trie to the routes given.
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
#include <bpf/bpf.h>

#include "calvin_xdp.h"
#include "loader.h"

/* Big enough for either family's key; keys are compared whole. */
union calvin_lpm_key {
	struct calvin_lpm4_key v4;
	struct calvin_lpm6_key v6;
};

/* The key of prefix p in the IPv4 (v6 false) or IPv6 trie, host bits
 * cleared, so one prefix has one key however it was written. */
static inline void router_route_key(const struct calvin_xdp_prefix *p, bool v6,
				    union calvin_lpm_key *k)
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

/* Which tries a route goes into: family any (length 0) into both. */
static inline bool router_in_trie(const struct calvin_xdp_route *r, bool v6)
{
	return r->prefix.family == CALVIN_FAMILY_ANY ||
	       r->prefix.family == (v6 ? CALVIN_FAMILY_IPV6 : CALVIN_FAMILY_IPV4);
}

static inline int calvin_router_check(const struct calvin_xdp_routes *routes)
{
	const struct calvin_xdp_route *r;
	unsigned int i;

	if (!routes)
		return -EINVAL;
	if (routes->nr_routes > CALVIN_XDP_ROUTER_MAX_ROUTES)
		return -E2BIG;
	for (i = 0; i < routes->nr_routes; i++) {
		r = &routes->routes[i];
		if (r->via != CALVIN_XDP_VIA_WEST && r->via != CALVIN_XDP_VIA_EAST &&
		    r->via != CALVIN_XDP_VIA_DROP)
			return -EINVAL;
		if (r->prefix.family == CALVIN_FAMILY_ANY    ? r->prefix.len != 0
		    : r->prefix.family == CALVIN_FAMILY_IPV4 ? r->prefix.len > 32
		    : r->prefix.family == CALVIN_FAMILY_IPV6 ? r->prefix.len > 128
							     : true)
			return -EINVAL;
	}
	return 0;
}

static inline bool router_wanted(const struct calvin_xdp_routes *routes, bool v6,
				 const union calvin_lpm_key *k)
{
	union calvin_lpm_key want;
	unsigned int i;

	for (i = 0; i < routes->nr_routes; i++) {
		if (!router_in_trie(&routes->routes[i], v6))
			continue;
		router_route_key(&routes->routes[i].prefix, v6, &want);
		if (!memcmp(&want, k, sizeof(want)))
			return true;
	}
	return false;
}

/* Bring one trie to the routes given: add or replace first, then delete the rest, so a
 * prefix in both the old and the new routes is never missing. */
static inline int router_sync_trie(int fd, const struct calvin_xdp_routes *routes, bool v6)
{
	union calvin_lpm_key k, next, *stale;
	unsigned int i, nr_stale = 0;
	uint32_t via;
	int err = 0;

	for (i = 0; i < routes->nr_routes; i++) {
		if (!router_in_trie(&routes->routes[i], v6))
			continue;
		router_route_key(&routes->routes[i].prefix, v6, &k);
		via = routes->routes[i].via;
		if (bpf_map_update_elem(fd, &k, &via, BPF_ANY))
			return -errno;
	}
	/* Collect before deleting: deleting while walking can skip keys. */
	stale = calloc(CALVIN_XDP_ROUTER_MAX_ROUTES * 2, sizeof(*stale));
	if (!stale)
		return -ENOMEM;
	memset(&next, 0, sizeof(next));
	for (i = 0; !bpf_map_get_next_key(fd, i ? &k : NULL, &next); i++) {
		k = next;
		if (!router_wanted(routes, v6, &k) && nr_stale < CALVIN_XDP_ROUTER_MAX_ROUTES * 2)
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

static inline int calvin_router_write(int fd4, int fd6, const struct calvin_xdp_routes *routes)
{
	int err = calvin_router_check(routes);

	if (!err)
		err = router_sync_trie(fd4, routes, false);
	if (!err)
		err = router_sync_trie(fd6, routes, true);
	return err;
}

#endif /* CALVIN_ROUTER_ROUTES_H */
