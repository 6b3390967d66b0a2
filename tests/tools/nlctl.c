// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Test tool: each operation of calvin's netlink module
 * (userspace/calvin/nl/nl.h) from the command line, so that
 * tests/integration/test_netlink.sh runs them against the real kernel and
 * compares what they made with what ip(8) and ethtool(8) make. "-" as a
 * namespace is the tool's own. Exit 0, or 1 after calvin's one line. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nl/nl.h"
#include "util.h"

static const char *ns_arg(const char *s)
{
	return strcmp(s, "-") ? s : NULL;
}

static int mac_arg(const char *s, uint8_t mac[6])
{
	return sscanf(s, "%hhx:%hhx:%hhx:%hhx:%hhx:%hhx", &mac[0], &mac[1], &mac[2], &mac[3],
		      &mac[4], &mac[5]) == 6
		   ? 0
		   : -EINVAL;
}

static unsigned int num(const char *s)
{
	return (unsigned int)strtoul(s, NULL, 10);
}

/* veth A MTU NS B MTU NS [MAC of B] */
static int veth(int argc, char **argv)
{
	struct nl_veth_end a = { argv[0], num(argv[1]), ns_arg(argv[2]), NULL };
	struct nl_veth_end b = { argv[3], num(argv[4]), ns_arg(argv[5]), NULL };
	uint8_t mac[6];

	if (argc > 6) {
		if (mac_arg(argv[6], mac))
			return -EINVAL;
		b.mac = mac;
	}
	return nl_veth_add(&a, &b);
}

static int run(const char *op, int argc, char **argv)
{
	uint8_t mac[6];

	if (!strcmp(op, "netns-add") && argc == 1)
		return nl_netns_add(argv[0]);
	if (!strcmp(op, "netns-delete") && argc == 1)
		return nl_netns_delete(argv[0]);
	if (!strcmp(op, "veth") && (argc == 6 || argc == 7))
		return veth(argc, argv);
	if (!strcmp(op, "up") && (argc == 2 || argc == 3))
		return nl_link_up(ns_arg(argv[0]), argv[1], argc == 3 ? num(argv[2]) : 0);
	if (!strcmp(op, "delete") && argc == 2)
		return nl_link_delete(ns_arg(argv[0]), argv[1]);
	if (!strcmp(op, "tap") && argc == 1)
		return nl_tap_add(argv[0]);
	if (!strcmp(op, "bridge") && argc == 3)
		return nl_bridge_add(ns_arg(argv[0]), argv[1], num(argv[2]));
	if (!strcmp(op, "master") && argc == 3)
		return nl_link_master(ns_arg(argv[0]), argv[1], argv[2]);
	if (!strcmp(op, "addr") && argc == 3)
		return nl_addr_add(ns_arg(argv[0]), argv[1], argv[2]);
	if (!strcmp(op, "neigh") && argc == 4)
		return mac_arg(argv[3], mac)
			   ? -EINVAL
			   : nl_neigh_permanent(ns_arg(argv[0]), argv[1], argv[2], mac);
	if (!strcmp(op, "route") && argc == 4)
		return nl_route_add(ns_arg(argv[0]), argv[1], argv[2], argv[3]);
	if (!strcmp(op, "txoff") && argc == 2)
		return nl_tx_csum_off(ns_arg(argv[0]), argv[1]);
	fprintf(stderr, "nlctl: unknown operation or wrong arguments: %s\n", op);
	exit(2);
}

int main(int argc, char **argv)
{
	int i = 1;

	if (argc > 1 && !strcmp(argv[1], "-v")) {
		calvin_verbose = true;
		i++;
	}
	if (argc - i < 1) {
		fprintf(stderr, "usage: nlctl [-v] OPERATION ARGS...\n");
		return 2;
	}
	return run(argv[i], argc - i - 1, argv + i + 1) ? 1 : 0;
}
