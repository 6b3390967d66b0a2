// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The hand-over program on each port (kernel/handover.bpf.c): where a
 * probe's hop record at this VNF begins.
 *
 * A kernel VNF's residence starts at the first instruction that sees the
 * frame; so does this VNF's when the program runs on its port: it opens
 * our record (t_in) before the frame crosses the AF_XDP ring (af_xdp) or
 * the stack and the AF_PACKET ring (af_packet), and pkt.c closes it (t_out)
 * before tx_burst. On af_xdp the PMD loads the program itself (devarg
 * xdp_prog) and we configure the copy it attached; on af_packet we attach
 * it. The object is found beside calvin-vnf, in kernel/, where the build
 * tree, make install and the VM image put it. Where it is
 * missing or cannot be attached the port still works, and its records
 * start when rx_burst returns, as `calvin status` says (west_t_in).
 */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "handover.h"
#include "loader.h"
#include "vnf.h"

static const char *const side_name[VNF_SIDES] = { "west", "east" };

/* The object's path, or NULL if there is none beside us (said once). */
const char *vnf_handover_obj(void)
{
	static char path[PATH_MAX];
	static int state; /* 0: not looked for yet, 1: found, -1: not found */
	char self[PATH_MAX];
	ssize_t n;

	if (state)
		return state > 0 ? path : NULL;
	state = -1;
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return NULL;
	self[n] = '\0';
	n = snprintf(path, sizeof(path), "%s/kernel/" CALVIN_HANDOVER_OBJ, dirname(self));
	if (n < 0 || (size_t)n >= sizeof(path) || access(path, R_OK)) {
		vnf_err("warning: %s not found: hop records start when rx_burst returns",
			n > 0 && (size_t)n < sizeof(path) ? path : CALVIN_HANDOVER_OBJ);
		return NULL;
	}
	state = 1;
	return path;
}

/* After the port started: configure the PMD's program (af_xdp) or attach
 * ours (af_packet). Failing that, the port runs without. */
void vnf_handover_start(struct vnf *vnf, enum vnf_side side)
{
	struct vnf_port *p = &vnf->port[side];
	const char *obj = vnf_handover_obj(), *ifname = vnf->cfg.ifname[side];
	struct calvin_handover_cfg cfg = {
		.vnf_id = vnf->cfg.vnf_id,
		.probe_port = vnf->cfg.probe_port,
		.dir = p->dir_in,
		.clock = vnf->cfg.clock,
	};
	int ifindex = (int)if_nametoindex(ifname), err;

	p->handover = false;
	if (!obj)
		return;
	if (!ifindex)
		err = -ENODEV;
	else if (p->pmd == VNF_PMD_AF_XDP)
		err = calvin_handover_configure(ifindex, &cfg);
	else
		err = calvin_handover_attach(obj, ifindex, &cfg);
	if (err) {
		vnf_err("warning: port %s (%s): Failed to %s the hand-over program: %s; hop records"
			" start when rx_burst returns",
			side_name[side], ifname, p->pmd == VNF_PMD_AF_XDP ? "configure" : "attach",
			strerror(-err));
		return;
	}
	p->handover = true;
}

/* Before the port closes: ours goes with the af_packet port (af_xdp's PMD
 * detaches its own). */
void vnf_handover_stop(struct vnf *vnf, enum vnf_side side)
{
	struct vnf_port *p = &vnf->port[side];
	int ifindex;

	if (!p->handover || p->pmd != VNF_PMD_AF_PACKET)
		return;
	ifindex = (int)if_nametoindex(vnf->cfg.ifname[side]);
	if (ifindex)
		calvin_handover_detach(ifindex);
	p->handover = false;
}
