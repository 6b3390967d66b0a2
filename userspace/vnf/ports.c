// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The mbuf pool and the ports: one rx and one tx queue per interface.
 *
 * Ports are hot-plugged with rte_dev_probe() after EAL init rather than
 * given to the EAL as --vdev: a port whose af_xdp setup fails (no XDP
 * support, a program already attached, no locked memory) can then be
 * removed and probed again as af_packet, and the error names the port and
 * the step that failed instead of failing EAL init as a whole.
 */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/bpf.h> /* XDP_PACKET_HEADROOM */

#include <rte_bus.h>
#include <rte_cycles.h>
#include <rte_dev.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_mbuf_pool_ops.h>
#include <rte_mempool.h>

#include "vnf.h"

#define VNF_POOL_CACHE 64
/* af_xdp fills its fill ring to the default XSK ring size whatever nb_rxd */
#define VNF_AF_XDP_FILL 2048
#define VNF_LINK_POLL_MS 50

static const char *const side_name[VNF_SIDES] = {"west", "east"};

const char *vnf_pmd_name(enum vnf_pmd pmd)
{
	return pmd == VNF_PMD_AF_XDP ? "af_xdp" : "af_packet";
}

/* libbpf and libxdp, loaded by the af_xdp PMD, print to stderr on their
 * own, even on success (libxdp's dispatcher check); our one warning line
 * says what matters. They are silenced unless CALVIN_VNF_LOG_LEVEL asks
 * for DPDK's logs. Looked up at run time: the PMD is a plugin. */
static void bpf_libs_quiet(void)
{
	static const char *const libs[][2] = {
	    {"libbpf.so.1", "libbpf_set_print"},
	    {"libxdp.so.1", "libxdp_set_print"},
	};
	void *(*set_print)(void *fn);
	void *lib;
	size_t i;

	if (getenv("CALVIN_VNF_LOG_LEVEL"))
		return;
	for (i = 0; i < RTE_DIM(libs); i++) {
		lib = dlopen(libs[i][0], RTLD_NOW | RTLD_NOLOAD);
		if (!lib)
			continue;
		*(void **)&set_print = dlsym(lib, libs[i][1]);
		if (set_print)
			set_print(NULL);
		dlclose(lib);
	}
}

/* Data room for the longest frame the links carry (the controller sets
 * their MTUs before the VNF starts, chain key mtu:). With af_xdp the mbuf's
 * element is the umem chunk, and the kernel writes a frame
 * XDP_PACKET_HEADROOM past the mbuf's own headroom in it; a chunk may not
 * exceed a page, which caps the MTU near 3.5 KB, as an XDP program on a
 * veth does (3506 on 4 KB pages). DPDK's default room holds 1778 bytes. */
static unsigned int pool_data_room(const struct vnf *vnf)
{
	unsigned int mtu = RTE_MAX(vnf->mtu[VNF_WEST], vnf->mtu[VNF_EAST]);
	unsigned int room = RTE_PKTMBUF_HEADROOM + XDP_PACKET_HEADROOM + RTE_ETHER_HDR_LEN + mtu;

	return room > RTE_MBUF_DEFAULT_BUF_SIZE ? RTE_ALIGN_CEIL(room, RTE_CACHE_LINE_SIZE)
						: RTE_MBUF_DEFAULT_BUF_SIZE;
}

/* rte_pktmbuf_pool_create(), but without the mempool's spreading of
 * objects over memory channels: it pads an object to an odd number of
 * cache lines (4096 bytes become 4160), and an af_xdp umem chunk may not
 * exceed a page. DPDK's default room is 37 cache lines with its headers,
 * odd already: the same layout either way. */
static struct rte_mempool *mbuf_pool(const char *name, unsigned int n, uint16_t room)
{
	struct rte_pktmbuf_pool_private priv = { .mbuf_data_room_size = room };
	struct rte_mempool *mp;
	int err;

	mp = rte_mempool_create_empty(name, n, sizeof(struct rte_mbuf) + room, VNF_POOL_CACHE,
				      sizeof(priv), (int)rte_socket_id(), RTE_MEMPOOL_F_NO_SPREAD);
	if (!mp)
		return NULL;
	err = rte_mempool_set_ops_byname(mp, rte_mbuf_best_mempool_ops(), NULL);
	if (!err) {
		rte_pktmbuf_pool_init(mp, &priv);
		err = rte_mempool_populate_default(mp);
	}
	if (err < 0) {
		rte_mempool_free(mp);
		rte_errno = -err;
		return NULL;
	}
	rte_mempool_obj_iter(mp, rte_pktmbuf_init, NULL);
	return mp;
}

static int pool_create(struct vnf *vnf)
{
	/* every ring full, plus a burst in flight per port */
	unsigned int n =
	    VNF_SIDES * (VNF_AF_XDP_FILL + 2U * vnf->cfg.ring + VNF_MAX_BURST + VNF_POOL_CACHE);
	char name[RTE_MEMPOOL_NAMESIZE];

	n = rte_align32pow2(n) - 1; /* the mempool's best size */
	/* one pool per VNF: a loop's VNFs keep their frames apart */
	snprintf(name, sizeof(name), "calvin_pool%u", vnf->cfg.index);
	vnf->pool = mbuf_pool(name, n, (uint16_t)pool_data_room(vnf));
	if (!vnf->pool) {
		vnf_err("Failed to create the mbuf pool of %u mbufs of %u bytes: %s (raise "
			"--mem-mb)",
			n, pool_data_room(vnf), rte_strerror(rte_errno));
		return -rte_errno;
	}
	return 0;
}

static int queues_setup(uint16_t port_id, struct rte_mempool *pool, uint16_t ring,
			const char **step)
{
	struct rte_eth_conf conf;
	uint16_t nb_rxd = ring, nb_txd = ring;
	int socket = rte_eth_dev_socket_id(port_id);
	int err;

	memset(&conf, 0, sizeof(conf));
	*step = "configure";
	err = rte_eth_dev_configure(port_id, 1, 1, &conf);
	if (err)
		return err;
	err = rte_eth_dev_adjust_nb_rx_tx_desc(port_id, &nb_rxd, &nb_txd);
	if (err)
		return err;
	*step = "set up the rx queue";
	err = rte_eth_rx_queue_setup(port_id, 0, nb_rxd, socket, NULL, pool);
	if (err)
		return err;
	*step = "set up the tx queue";
	return rte_eth_tx_queue_setup(port_id, 0, nb_txd, socket, NULL);
}

/* af_packet's ring slots are 2 KB unless told, and it drops a frame
 * longer than its slot: links above DPDK's default room get slots as
 * large as the mbufs take (the PMD wants a slot's data, all but its
 * 32-byte header, to fit an mbuf). The PMD walks the ring slot by slot,
 * so a block must hold a whole number of them with nothing left over:
 * slots of a multiple of 128 bytes, 32 to a block of whole pages. */
static const char *af_packet_frames(const struct vnf *vnf, char *buf, size_t size)
{
	unsigned int room = pool_data_room(vnf), slot;

	if (room <= RTE_MBUF_DEFAULT_BUF_SIZE)
		return "";
	slot = RTE_ALIGN_FLOOR(room - RTE_PKTMBUF_HEADROOM + 32, 128);
	snprintf(buf, size, ",framesz=%u,blocksz=%u", slot, 32 * slot);
	return buf;
}

/* Bring one side up with one PMD; on failure everything it did is undone,
 * so the caller can try another PMD. */
static int port_try(struct vnf *vnf, enum vnf_side side, enum vnf_pmd pmd, const char **step)
{
	struct vnf_port *p = &vnf->port[side];
	const char *ifname = vnf->cfg.ifname[side];
	/* yielding VNFs and loops sleep on it too, while they leave the core (loop.c) */
	const bool wakeup = vnf->cfg.wait != CALVIN_WAIT_BUSY;
	const char *obj = vnf_handover_obj();
	struct vnf_fdset before;
	char devargs[PATH_MAX + 128], frames[64];
	int err;

	p->wait_fd = -1;
	/* unique in the process: a loop's VNFs all have a west */
	if (vnf->cfg.index)
		snprintf(p->devname, sizeof(p->devname), "net_%s_%s%u", vnf_pmd_name(pmd),
			 side_name[side], vnf->cfg.index);
	else
		snprintf(p->devname, sizeof(p->devname), "net_%s_%s", vnf_pmd_name(pmd),
			 side_name[side]);
	/* busy_budget=0 (the default of --busy-budget): the PMD's default
	 * preferred busy polling makes a recvfrom() syscall on every empty
	 * poll; on veth the frames reach the XSK ring from the sender's softirq
	 * anyway, so the lcore only has to read the ring (measured: no syscalls
	 * while idle). xdp_prog: our hand-over program instead of libxdp's
	 * (handover.c). */
	if (pmd == VNF_PMD_AF_XDP)
		snprintf(devargs, sizeof(devargs),
			 "%s,iface=%s,start_queue=0,queue_count=1,busy_budget=%u%s%s", p->devname,
			 ifname, vnf->cfg.busy_budget, obj ? ",xdp_prog=" : "", obj ? obj : "");
	else
		snprintf(devargs, sizeof(devargs), "%s,iface=%s%s", p->devname, ifname,
			 af_packet_frames(vnf, frames, sizeof(frames)));

	*step = "list the open sockets";
	err = wakeup ? vnf_sockets(pmd, &before) : 0;
	if (err)
		return err;
	*step = "probe";
	err = rte_dev_probe(devargs);
	if (err)
		return err;
	*step = "find the probed port";
	err = rte_eth_dev_get_port_by_name(p->devname, &p->port_id);
	if (err)
		goto remove_dev;
	err = queues_setup(p->port_id, vnf->pool, vnf->cfg.ring, step);
	if (err)
		goto close_port;
	*step = "start";
	err = rte_eth_dev_start(p->port_id);
	if (err)
		goto close_port;
	*step = "read the MAC address";
	err = rte_eth_macaddr_get(p->port_id, &p->mac);
	if (err)
		goto stop_port;
	/* the PMD opened its socket by now: in rx queue setup (af_xdp) or in
	 * probe (af_packet) */
	*step = "find the socket to sleep on (--wait busy needs none) for";
	p->wait_fd = wakeup ? vnf_port_socket(pmd, &before) : -1;
	if (wakeup && p->wait_fd < 0) {
		err = p->wait_fd;
		goto stop_port;
	}
	p->pmd = pmd;
	p->started = true;
	return 0;

stop_port:
	rte_eth_dev_stop(p->port_id);
close_port:
	rte_eth_dev_close(p->port_id);
remove_dev:
	rte_eal_hotplug_remove("vdev", p->devname);
	return err < 0 ? err : -EIO;
}

/* One-line reason: DPDK's own first message when it said one (its return
 * codes are often a bare -1), else the errno text. */
static const char *port_reason(int err)
{
	const char *log = vnf_log_first();

	return log ? log : strerror(-err);
}

/* af_xdp must not be tried on an interface that already runs XDP (see
 * xdp_query.c). Returns the PMD to try first, or -errno. */
static int pmd_choose(const struct vnf *vnf, enum vnf_side side, unsigned int ifindex)
{
	const char *ifname = vnf->cfg.ifname[side];
	int ret;

	if (vnf->cfg.pmd != VNF_PMD_AF_XDP)
		return vnf->cfg.pmd;
	ret = vnf_xdp_attached(ifindex);
	if (!ret)
		return VNF_PMD_AF_XDP;
	if (vnf->cfg.pmd_forced) {
		vnf_err("Failed to use af_xdp on port %s (%s): %s", side_name[side], ifname,
			ret > 0 ? "an XDP program is already attached (detach it, or use --pmd "
				  "af_packet)"
				: strerror(-ret));
		return -EBUSY;
	}
	vnf_err("warning: af_xdp unavailable on port %s (%s): %s; using af_packet", side_name[side],
		ifname, ret > 0 ? "an XDP program is already attached" : strerror(-ret));
	return VNF_PMD_AF_PACKET;
}

static int port_open(struct vnf *vnf, enum vnf_side side)
{
	const char *ifname = vnf->cfg.ifname[side];
	unsigned int ifindex = if_nametoindex(ifname);
	const char *step;
	int pmd, err;

	if (!ifindex) {
		vnf_err("Failed to find interface %s for port %s: %s", ifname, side_name[side],
			strerror(errno));
		return -ENODEV;
	}
	pmd = pmd_choose(vnf, side, ifindex);
	if (pmd < 0)
		return pmd;
	vnf_log_capture();
	err = port_try(vnf, side, pmd, &step);
	if (err && pmd == VNF_PMD_AF_XDP && !vnf->cfg.pmd_forced) {
		vnf_err("warning: af_xdp unavailable on port %s (%s): Failed to %s: %s;"
			" using af_packet",
			side_name[side], ifname, step, port_reason(err));
		pmd = VNF_PMD_AF_PACKET;
		vnf_log_capture();
		err = port_try(vnf, side, pmd, &step);
	}
	if (err) {
		vnf_err("Failed to %s port %s (%s, %s): %s", step, side_name[side], ifname,
			vnf_pmd_name(pmd), port_reason(err));
		return err;
	}
	vnf_handover_start(vnf, side);
	return 0;
}

int vnf_ports_open(struct vnf *vnf)
{
	enum vnf_side side;
	int err;

	bpf_libs_quiet();
	vnf_mtu_read(vnf);
	err = pool_create(vnf);
	if (err)
		return err;
	for (side = VNF_WEST; side < VNF_SIDES; side++) {
		struct vnf_port *p = &vnf->port[side];

		if (!vnf->cfg.ifname[side])
			continue;
		p->used = true;
		p->peer = vnf->cfg.peer[side];
		p->dir_in = side == VNF_WEST ? CALVIN_DIR_FWD : CALVIN_DIR_REV;
		err = port_open(vnf, side);
		if (err) {
			vnf_ports_close(vnf);
			return err;
		}
	}
	return 0;
}

/* af_xdp reports its link up whatever the interface does, so the kernel's
 * view (administratively up, carrier present) is asked as well. */
static bool iface_running(const char *ifname)
{
	struct ifreq ifr;
	bool up = false;
	int fd;

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return false;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	if (!ioctl(fd, SIOCGIFFLAGS, &ifr))
		up = (ifr.ifr_flags & (IFF_UP | IFF_RUNNING)) == (IFF_UP | IFF_RUNNING);
	close(fd);
	return up;
}

static bool port_link_up(const struct vnf *vnf, enum vnf_side side)
{
	struct rte_eth_link link;

	memset(&link, 0, sizeof(link));
	if (rte_eth_link_get_nowait(vnf->port[side].port_id, &link) < 0)
		return false;
	return link.link_status == RTE_ETH_LINK_UP && iface_running(vnf->cfg.ifname[side]);
}

/* Returns 0 once every port has its link up, -ENETDOWN at the timeout. */
int vnf_ports_wait_link(struct vnf *vnf, unsigned int timeout_ms)
{
	unsigned int waited = 0;
	enum vnf_side side, down;

	for (;;) {
		down = VNF_SIDES;
		for (side = VNF_WEST; side < VNF_SIDES; side++)
			if (vnf->port[side].used && !port_link_up(vnf, side))
				down = side;
		if (down == VNF_SIDES)
			return 0;
		if (waited >= timeout_ms)
			break;
		rte_delay_ms(VNF_LINK_POLL_MS);
		waited += VNF_LINK_POLL_MS;
	}
	vnf_err("Failed to see the link of port %s (%s) up after %u ms: is the interface up"
		" and its peer present?",
		side_name[down], vnf->cfg.ifname[down], timeout_ms);
	return -ENETDOWN;
}

/* Closing an af_xdp port is what detaches its XDP program from the
 * interface: this must run on every exit path after the ports opened. */
void vnf_ports_close(struct vnf *vnf)
{
	enum vnf_side side;

	for (side = VNF_WEST; side < VNF_SIDES; side++) {
		struct vnf_port *p = &vnf->port[side];

		if (!p->started)
			continue;
		vnf_handover_stop(vnf, side);
		rte_eth_dev_stop(p->port_id);
		rte_eth_dev_close(p->port_id);
		rte_eal_hotplug_remove("vdev", p->devname);
		p->started = false;
	}
	rte_mempool_free(vnf->pool);
	vnf->pool = NULL;
}
