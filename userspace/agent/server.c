// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The agent of a server's VM: the chain's server on another host is a VM
 * with one NIC, west, on which the agent attaches the XDP reflector in the
 * kind the spec's server: says (echo: probes only, reflect: every frame),
 * as the netns node of the server does on calvin's host. The reflector
 * does not stamp (the server is an endpoint, not a hop), so the turn at
 * the server is timed in the last VNF's clock domain, as on one host. */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>

#include "agent.h"
#include "loader.h"

int agent_server_configure(struct agent *a, const struct calvin_agent_configure *c, char *err,
			   size_t errlen)
{
	if (strlen(a->spec.server.name) != c->vnf.len ||
	    memcmp(a->spec.server.name, c->vnf.ptr, c->vnf.len)) {
		snprintf(err, errlen, "%.*s is not the server of chain %s (its server is %s)",
			 (int)c->vnf.len, c->vnf.ptr, a->spec.name, a->spec.server.name);
		return -ENOENT;
	}
	a->server = true;
	return 0;
}

int agent_server_start(struct agent *a, char *err, size_t errlen)
{
	const struct calvin_server_spec *s = &a->spec.server;
	struct calvin_xdp_reflect_cfg rc = { 0 };
	int e;

	snprintf(a->pin_dir, sizeof(a->pin_dir), "/sys/fs/bpf/calvin/%s/%s", a->spec.name, s->name);
	rc.pin_dir = a->pin_dir;
	rc.probe_port = (uint16_t)a->spec.probe.port;
	rc.all = s->kind == CALVIN_SERVER_REFLECT;
	rc.ifindex = (int)if_nametoindex(AGENT_WEST);
	if (!rc.ifindex) {
		snprintf(err, errlen, "%s: the VM has no NIC named west", s->name);
		return -ENODEV;
	}
	e = calvin_xdp_reflect_attach(&rc);
	if (e)
		snprintf(err, errlen, "%s: Failed to attach XDP reflector: %s", s->name,
			 strerror(-e));
	return e;
}
