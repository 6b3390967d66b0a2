// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Counters and their telemetry commands, /calvin/stats and /calvin/info,
 * served on the EAL's socket /var/run/dpdk/<file-prefix>/dpdk_telemetry.v2.
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

#include <rte_telemetry.h>

#include "vnf.h"

struct vnf_lcore_stats vnf_stats[RTE_MAX_LCORE];

/* Set once before the commands are registered; read-only afterwards. */
static const struct vnf *stats_vnf;

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

static uint64_t xform_counter_sum(size_t off)
{
	uint64_t sum = 0;
	unsigned int lcore;

	for (lcore = 0; lcore < RTE_MAX_LCORE; lcore++)
		sum += *(const volatile uint64_t *)((const char *)&vnf_stats[lcore].xf + off);
	return sum;
}

static uint64_t counter_sum(enum vnf_side side, size_t off)
{
	uint64_t sum = 0;
	unsigned int lcore;

	for (lcore = 0; lcore < RTE_MAX_LCORE; lcore++) {
		const volatile uint64_t *c =
		    (const volatile uint64_t *)((const char *)&vnf_stats[lcore].port[side] + off);

		sum += *c;
	}
	return sum;
}

static uint64_t sleeps_sum(void)
{
	uint64_t sum = 0;
	unsigned int lcore;

	for (lcore = 0; lcore < RTE_MAX_LCORE; lcore++)
		sum += *(const volatile uint64_t *)&vnf_stats[lcore].sleeps;
	return sum;
}

static int stats_cmd(const char *cmd, const char *params, struct rte_tel_data *d)
{
	char key[64];
	enum vnf_side side;
	size_t i;

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
			rte_tel_data_add_dict_u64(d, key, counter_sum(side, counters[i].off));
		}
	}
	for (i = 0; i < RTE_DIM(xform_counters); i++)
		if (stats_vnf->cfg.transform->counters & xform_counters[i].group)
			rte_tel_data_add_dict_u64(d, xform_counters[i].name,
						  xform_counter_sum(xform_counters[i].off));
	if (stats_vnf->cfg.wait == CALVIN_WAIT_WAKEUP)
		rte_tel_data_add_dict_u64(d, "sleeps", sleeps_sum());
	return 0;
}

static int info_cmd(const char *cmd, const char *params, struct rte_tel_data *d)
{
	const struct vnf_config *cfg = &stats_vnf->cfg;
	char key[64];
	enum vnf_side side;

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

int vnf_stats_register(const struct vnf *vnf)
{
	int err;

	stats_vnf = vnf;
	err = rte_telemetry_register_cmd(
	    "/calvin/stats", stats_cmd,
	    "Counters per port (rx/tx, probes stamped, drops) and of the transform. No parameters");
	if (err)
		return err;
	return rte_telemetry_register_cmd(
	    "/calvin/info", info_cmd,
	    "Chain, VNF name and id, PMD per port, burst, lcore, wait mode. No parameters");
}
