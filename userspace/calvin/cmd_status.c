// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* calvin status [CHAIN]: deployed chains and live per-VNF counters. Kernel
 * VNFs' per-CPU counters are read from their pinned maps and summed; user
 * VNFs answer /calvin/stats on their DPDK telemetry socket. */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "backend.h"
#include "commands.h"
#include "loader.h"
#include "util.h"

static const char *const dir_name[] = { "fwd", "rev" };

static void kernel_stats(const char *chain, const char *node, bool first)
{
	struct calvin_vnf_stats s[CALVIN_NR_DIRS];
	char pin[256];
	int d, err;

	vnf_pin_dir(pin, sizeof(pin), chain, node);
	err = calvin_xdp_read_stats(pin, s);
	if (calvin_json) {
		printf("%s{\"name\":\"%s\",\"space\":\"kernel\"", first ? "" : ",", node);
		for (d = 0; !err && d < CALVIN_NR_DIRS; d++)
			printf(",\"%s\":{\"rx_packets\":%llu,\"rx_bytes\":%llu,\"tx_packets\":%llu,"
			       "\"tx_bytes\":%llu,\"probes\":%llu,\"drop_malformed\":%llu,"
			       "\"drop_redirect\":%llu,\"pass_other\":%llu,\"tlm_overflow\":%llu}",
			       dir_name[d], s[d].rx_packets, s[d].rx_bytes, s[d].tx_packets,
			       s[d].tx_bytes, s[d].probes, s[d].drop_malformed, s[d].drop_redirect,
			       s[d].pass_other, s[d].tlm_overflow);
		printf("%s}", err ? ",\"error\":\"stats unavailable\"" : "");
		return;
	}
	if (err) {
		printf("  %-12s kernel  stats unavailable: %s\n", node, strerror(-err));
		return;
	}
	for (d = 0; d < CALVIN_NR_DIRS; d++)
		printf("  %-12s kernel  %s  rx %llu pkts %llu B  tx %llu pkts  probes %llu  "
		       "drop malformed %llu redirect %llu  pass %llu  overflow %llu\n",
		       d ? "" : node, dir_name[d], s[d].rx_packets, s[d].rx_bytes,
		       s[d].tx_packets, s[d].probes, s[d].drop_malformed, s[d].drop_redirect,
		       s[d].pass_other, s[d].tlm_overflow);
}

/* Ask a DPDK process's telemetry socket one command; reply in buf. */
static int dpdk_query(const char *prefix, const char *cmd, char *buf, size_t len)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	ssize_t n;
	int fd, err = 0;

	snprintf(sa.sun_path, sizeof(sa.sun_path), "/var/run/dpdk/%.60s/dpdk_telemetry.v2", prefix);
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    read(fd, buf, len - 1) < 0 /* greeting */ || write(fd, cmd, strlen(cmd)) < 0) {
		err = -errno;
		goto out;
	}
	n = read(fd, buf, len - 1);
	if (n <= 0)
		err = n < 0 ? -errno : -EPROTO;
	else
		buf[n] = '\0';
out:
	close(fd);
	return err;
}

static void user_stats(const char *chain, const char *node, bool first)
{
	char prefix[128], buf[16384];
	int err;

	vnf_file_prefix(prefix, sizeof(prefix), chain, node);
	err = dpdk_query(prefix, "/calvin/stats", buf, sizeof(buf));
	if (calvin_json) {
		printf("%s{\"name\":\"%s\",\"space\":\"user\",", first ? "" : ",", node);
		if (err)
			printf("\"error\":\"telemetry socket: %s\"}", strerror(-err));
		else
			printf("\"telemetry\":%s}", buf);
		return;
	}
	if (err)
		printf("  %-12s user    telemetry socket unavailable: %s\n", node, strerror(-err));
	else
		printf("  %-12s user    %s\n", node, buf);
}

static int chain_status(const char *chain, bool first)
{
	struct calvin_chain_spec spec;
	unsigned int i;
	int rc;

	rc = deployed_spec(chain, &spec);
	if (rc)
		return rc;
	if (calvin_json)
		printf("%s{\"chain\":\"%s\",\"vnfs\":[", first ? "" : ",", chain);
	else
		printf("chain %s (%s)\n", chain, spec.path);
	for (i = 0; i < spec.nr_vnfs; i++) {
		if (spec.vnfs[i].space == CALVIN_KERNEL)
			kernel_stats(chain, spec.vnfs[i].name, i == 0);
		else
			user_stats(chain, spec.vnfs[i].name, i == 0);
	}
	if (calvin_json)
		printf("]}");
	return 0;
}

int cmd_status(int argc, char **argv)
{
	struct dirent *de;
	bool first = true;
	int rc = 0;
	size_t n;
	DIR *dir;

	if (argc > 2) {
		calvin_err("usage: calvin status [CHAIN]");
		return CALVIN_EXIT_USAGE;
	}
	rc = need_root("calvin status");
	if (rc)
		return rc;
	if (calvin_json)
		printf("[");
	if (argc == 2) {
		rc = chain_status(argv[1], true);
	} else if ((dir = opendir(calvin_run_dir()))) {
		while ((de = readdir(dir))) {
			n = strlen(de->d_name);
			if (n <= 6 || strcmp(de->d_name + n - 6, ".state"))
				continue;
			de->d_name[n - 6] = '\0';
			if (!chain_status(de->d_name, first))
				first = false;
		}
		closedir(dir);
	}
	if (calvin_json)
		printf("]\n");
	return rc;
}
