// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Counters and their telemetry commands, /calvin/stats and /calvin/info,
 * served on the EAL's socket /var/run/dpdk/<file-prefix>/dpdk_telemetry.v2.
 * A process that runs several VNFs (--wait loop) answers for the one its
 * parameter names ("/calvin/stats,NAME"); without one, for its first.
 *
 * Keys are flat ("west_rx_packets"), so a reader needs no nested JSON; all
 * values are numbers but the PMD of each port ("west_pmd": "af_xdp") and
 * where its hop records start ("west_t_in": "xdp" or "rx_burst"). The
 * telemetry thread reads counters while the lcore writes them: aligned
 * 64-bit loads and stores do not tear on the targets DPDK supports, and a
 * counter a few packets stale is fine for monitoring.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <rte_telemetry.h>

#include "vnf.h"

/* Set once before the commands are registered; read-only afterwards. */
static const struct vnf_group *stats_group;

static const char *const side_name[VNF_SIDES] = {"west", "east"};

static const struct {
	const char *name;
	size_t off;
} counters[] = {
#define COUNTER(f)                                                                                 \
	{                                                                                          \
#f, offsetof(struct vnf_port_stats, f)                                             \
	}
	COUNTER(rx_packets),	  COUNTER(rx_bytes),	   COUNTER(tx_packets),
	COUNTER(tx_bytes),	  COUNTER(tx_failed),	   COUNTER(probes_stamped),
	COUNTER(probes_handover), COUNTER(probes_full),	   COUNTER(probes_invalid),
	COUNTER(drop_not_ip),	  COUNTER(drop_truncated),
#undef COUNTER
};

/* Counters of the transforming VNFs: one group each, shown when the
 * transform says it keeps them. */
static const struct {
	const char *name;
	size_t off;
	unsigned int group;
} xform_counters[] = {
#define XF(f, g)                                                                                   \
	{                                                                                          \
#f, offsetof(struct vnf_xform_stats, f), g                                         \
	}
    XF(untouched, VNF_CNT_XFORM),	XF(too_big, VNF_CNT_XFORM),
    XF(no_mbuf, VNF_CNT_XFORM),		XF(nc_source, VNF_CNT_NC),
    XF(nc_repair_sent, VNF_CNT_NC),	XF(nc_forwarded, VNF_CNT_NC),
    XF(nc_recovered, VNF_CNT_NC),	XF(nc_unrecoverable, VNF_CNT_NC),
    XF(nc_duplicate, VNF_CNT_NC),	XF(nc_stale, VNF_CNT_NC),
    XF(nc_malformed, VNF_CNT_NC),	XF(nc_repair_unused, VNF_CNT_NC),
    XF(nc_resync, VNF_CNT_NC),		XF(crypt_sealed, VNF_CNT_CRYPT),
    XF(crypt_opened, VNF_CNT_CRYPT),	XF(crypt_bad_tag, VNF_CNT_CRYPT),
    XF(crypt_replay, VNF_CNT_CRYPT),	XF(crypt_bad_spi, VNF_CNT_CRYPT),
    XF(crypt_truncated, VNF_CNT_CRYPT), XF(crypt_bad_header, VNF_CNT_CRYPT),
    XF(crypt_failed, VNF_CNT_CRYPT),
#undef XF
};

static uint64_t counter_read(const void *base, size_t off)
{
	return *(const volatile uint64_t *)((const char *)base + off);
}

/* The VNF params names, the first if none; NULL: no such VNF here. */
static const struct vnf *vnf_named(const char *params)
{
	unsigned int i;

	if (!params || !*params)
		return &stats_group->vnf[0];
	for (i = 0; i < stats_group->n; i++)
		if (!strcmp(stats_group->vnf[i].cfg.name, params))
			return &stats_group->vnf[i];
	return NULL;
}

static int stats_cmd(const char *cmd, const char *params, struct rte_tel_data *d)
{
	const struct vnf *stats_vnf = vnf_named(params);
	const struct vnf_lcore_stats *st;
	char key[64];
	enum vnf_side side;
	size_t i;

	if (!stats_vnf)
		return -EINVAL;
	st = &stats_vnf->stats;
	rte_tel_data_start_dict(d);
	for (side = VNF_WEST; side < VNF_SIDES; side++) {
		if (!stats_vnf->port[side].used)
			continue;
		/* beside the counters, so a fallback to af_packet shows */
		snprintf(key, sizeof(key), "%s_pmd", side_name[side]);
		rte_tel_data_add_dict_string(d, key, vnf_pmd_name(stats_vnf->port[side].pmd));
		/* where the port's hop records start (handover.c) */
		snprintf(key, sizeof(key), "%s_t_in", side_name[side]);
		rte_tel_data_add_dict_string(d, key,
					     stats_vnf->port[side].handover ? "xdp" : "rx_burst");
		for (i = 0; i < RTE_DIM(counters); i++) {
			snprintf(key, sizeof(key), "%s_%s", side_name[side], counters[i].name);
			rte_tel_data_add_dict_u64(d, key,
						  counter_read(&st->port[side], counters[i].off));
		}
	}
	for (i = 0; i < RTE_DIM(xform_counters); i++)
		if (stats_vnf->cfg.transform->counters & xform_counters[i].group)
			rte_tel_data_add_dict_u64(d, xform_counters[i].name,
						  counter_read(&st->xf, xform_counters[i].off));
	if (stats_vnf->cfg.wait == CALVIN_WAIT_WAKEUP)
		rte_tel_data_add_dict_u64(d, "sleeps", st->sleeps);
	return 0;
}

static int info_cmd(const char *cmd, const char *params, struct rte_tel_data *d)
{
	const struct vnf *stats_vnf = vnf_named(params);
	const struct vnf_config *cfg;
	char key[64];
	enum vnf_side side;

	if (!stats_vnf)
		return -EINVAL;
	cfg = &stats_vnf->cfg;
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_string(d, "chain", cfg->chain);
	rte_tel_data_add_dict_string(d, "name", cfg->name);
	rte_tel_data_add_dict_int(d, "vnf_id", cfg->vnf_id);
	rte_tel_data_add_dict_string(d, "transform", cfg->transform->name);
	rte_tel_data_add_dict_int(d, "burst", cfg->burst);
	rte_tel_data_add_dict_int(d, "lcore", (int)cfg->lcore);
	rte_tel_data_add_dict_string(d, "wait", calvin_wait_name(cfg->wait));
	rte_tel_data_add_dict_int(d, "probe_port", cfg->probe_port);
	for (side = VNF_WEST; side < VNF_SIDES; side++) {
		const struct vnf_port *p = &stats_vnf->port[side];

		if (!p->used)
			continue;
		snprintf(key, sizeof(key), "%s_iface", side_name[side]);
		rte_tel_data_add_dict_string(d, key, cfg->ifname[side]);
		snprintf(key, sizeof(key), "%s_pmd", side_name[side]);
		rte_tel_data_add_dict_string(d, key, p->started ? vnf_pmd_name(p->pmd) : "none");
	}
	return 0;
}

int vnf_stats_register(const struct vnf_group *g)
{
	int err;

	stats_group = g;
	err = rte_telemetry_register_cmd(
	    "/calvin/stats", stats_cmd,
	    "Counters per port (rx/tx, probes, drops) and of the transform. Param: VNF name"
	    " (default: the first)");
	if (err)
		return err;
	return rte_telemetry_register_cmd(
	    "/calvin/info", info_cmd,
	    "Chain, VNF name and id, PMD per port, burst, lcore, wait. Param: VNF name (default:"
	    " the first)");
}
