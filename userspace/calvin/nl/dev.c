// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* What is spoken by ioctl rather than rtnetlink: taps (/dev/net/tun) and
 * the transmit checksum feature (SIOCETHTOOL). */
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/ethtool.h>
#include <linux/if_tun.h>
#include <linux/sockios.h>

#include "sock.h"
#include "util.h"

/* IFF_TUN_EXCL: a tap of that name made meanwhile by someone else is
 * refused (EBUSY) instead of being attached to and made persistent, which
 * would make it calvin's to delete. Closing the fd before TUNSETPERSIST
 * took removes the tap again. */
int nl_tap_add(const char *name)
{
	struct ifreq ifr = { .ifr_flags = IFF_TAP | IFF_NO_PI | IFF_TUN_EXCL };
	int fd, err = 0;

	nl_show(NULL, "tuntap add dev %s mode tap", name);
	if (!nl_ifname_ok(name))
		return nl_fail(-EINVAL, NULL, NULL, "add tap %s", name);
	fd = open("/dev/net/tun", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return nl_fail(-errno, NULL, NULL, "add tap %s: /dev/net/tun", name);
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", name);
	if (ioctl(fd, TUNSETIFF, &ifr) < 0 || ioctl(fd, TUNSETPERSIST, 1L) < 0)
		err = -errno;
	close(fd);
	return nl_fail(err, NULL, NULL, "add tap %s", name);
}

/* ETHTOOL_STXCSUM covers the same five features ethtool's "tx" names
 * (tx-checksum-ipv4, -ipv6, -ip-generic, -sctp, -fcoe-crc); the kernel
 * drops what depends on them (segmentation offloads) as it does for
 * ethtool. */
int nl_tx_csum_off(const char *ns, const char *ifname)
{
	struct ethtool_value ev = { .cmd = ETHTOOL_STXCSUM, .data = 0 };
	struct nl_sock s = { .fd = -1 };
	struct ifreq ifr = { 0 };
	int err;

	calvin_info("+%s%s%s ethtool -K %s tx off", ns ? " [netns " : "", ns ? ns : "",
		    ns ? "]" : "", ifname);
	err = nl_ifname_ok(ifname) ? nl_open(&s, ns) : -EINVAL;
	if (!err) {
		snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
		ifr.ifr_data = (void *)&ev;
		if (ioctl(s.fd, SIOCETHTOOL, &ifr) < 0)
			err = -errno;
	}
	nl_close(&s);
	return nl_fail(err, NULL, ns, "turn off tx checksumming of %s", ifname);
}
