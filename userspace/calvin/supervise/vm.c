// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The supervisor's side of a libvirt chain: every VNF is a VM of its own
 * (and a server on another host is one there),
 * watched through libvirt's lifecycle events and each domain's state
 * (libvirt/vmwatch.h: no libvirt call outside that folder), and healed by
 * starting the defined domain again and deploying its VNF through its
 * agent, as `up` did, under a new epoch for an encrypt/decrypt pair. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "libvirt/vmwatch.h"
#include "sup.h"
#include "util.h"

void sup_vm_name(const struct sup *s, unsigned int k, char *out, size_t len)
{
	node_netns(out, len, s->spec.name, sup_node(s, k));
}

int sup_vm_state(const struct sup *s, unsigned int k, char *why, size_t len)
{
	char dom[128];

	sup_vm_name(s, k, dom, sizeof(dom));
	return lv_vm_state(&s->spec, dom, why, len);
}

/* The spec's bytes as up gave them to the agents (the deployed copy),
 * and the watch of the chain's domains. */
int sup_vm_load(struct sup *s)
{
	char path[PATH_MAX], why[CALVIN_ERR_MAX];
	int err;

	err = state_file(path, sizeof(path), s->spec.name, ".yaml");
	if (!err && calvin_spec_load_text(path, &s->spec, &s->text, why, sizeof(why))) {
		calvin_err_line(why);
		return CALVIN_EXIT_FAIL;
	}
	if (!err)
		err = lv_watch_open(&s->spec);
	return err ? CALVIN_EXIT_FAIL : 0;
}

void sup_vm_attach(struct sup *s, unsigned int k)
{
	struct sup_vnf *v = &s->v[k];
	int st;

	v->vm = true;
	st = sup_vm_state(s, k, v->last_exit, sizeof(v->last_exit));
	if (st == LV_VM_RUNNING || st == LV_VM_PAUSED) {
		v->state = st == LV_VM_PAUSED ? SUP_STALLED : SUP_RUNNING;
		v->last_exit[0] = '\0';
		return;
	}
	v->state = SUP_RESTARTING;
	v->down_ms = v->up_ms;
	snprintf(v->last_exit, sizeof(v->last_exit), "gone before the supervisor");
}

int sup_vm_start(struct sup *s, unsigned int k, uint32_t epoch)
{
	struct deploy d = { .spec = &s->spec,
			    .text = &s->text,
			    .plan = &s->plan,
			    .keys = &s->keys,
			    .nr_nodes = s->nr_nodes };
	int n;

	memcpy(d.deploy_random, s->deploy_random, sizeof(d.deploy_random));
	memcpy(d.nodes, s->nodes, sizeof(d.nodes));
	n = node_index(s->nodes, s->nr_nodes, sup_node(s, k));
	if (n < 0)
		return -ENOENT;
	return lv_vnf_redeploy(&d, (unsigned int)n, epoch ? epoch : 1);
}

int sup_vm_fd(const struct sup *s)
{
	return s->vms ? lv_watch_fd() : -1;
}

int sup_vm_event(struct sup *s)
{
	char dom[128], name[128];
	unsigned int k;

	while (lv_watch_next(dom, sizeof(dom)))
		for (k = 0; k < s->nr; k++) {
			sup_vm_name(s, k, name, sizeof(name));
			if (!strcmp(name, dom))
				return (int)k;
		}
	return -1;
}

void sup_vm_close(struct sup *s)
{
	if (s->vms)
		lv_watch_close();
	calvin_spec_text_free(&s->text);
}
