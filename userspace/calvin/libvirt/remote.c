// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* A VM on another host: its guest image put there through the storage
 * API (storage.c), its NICs joining links between hosts as OVN logical
 * switch ports through libvirt's openvswitch virtualport, the domain
 * journalled (with that host's URI) before it is defined, so `down`
 * removes it there. What the host's libvirt runs QEMU as is read from its
 * capabilities, as on this host. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lv.h"
#include "remote.h"
#include "storage.h"
#include "util.h"

#define REMOTE_EMULATOR "/usr/bin/qemu-system-x86_64"
#define REMOTE_FILES "/var/lib/libvirt/qemu"

/* QEMU's user on that host, or no DAC model at all. */
static int remote_dac(virConnectPtr c, const char *uri, struct calvin_vm_desc *vm)
{
	char *caps = virConnectGetCapabilities(c);
	int err;

	if (!caps) {
		calvin_err("libvirt at %s gave no capabilities: %s", uri, lv_error());
		return -EIO;
	}
	err = calvin_vm_dac_label(caps, vm->kvm, &vm->qemu_uid, &vm->qemu_gid);
	free(caps);
	vm->no_dac = err == -ENOENT;
	return err == -ENOENT ? 0 : err;
}

static int define_start(virConnectPtr c, const char *uri, const char *xml, const char *name)
{
	virDomainPtr dom = virDomainDefineXML(c, xml);
	int err = 0;

	if (!dom) {
		calvin_err("libvirt at %s refused domain %s: %s", uri, name, lv_error());
		return -EIO;
	}
	if (virDomainCreate(dom) < 0) {
		calvin_err("libvirt at %s cannot start domain %s: %s", uri, name, lv_error());
		err = -EIO;
	}
	virDomainFree(dom);
	return err;
}

int lv_remote_vm_create(struct chain_state *s, const struct lv_remote_vm *r)
{
	char kernel[4096], initrd[4096], file[4096], console[512], agent[512], *xml;
	struct calvin_vm_desc vm = { .name = r->name, .memory_mib = r->memory_mib };
	virConnectPtr c;
	virDomainPtr dom;
	bool reused;
	int err;

	snprintf(file, sizeof(file), "%s/vmlinuz", r->image_dir);
	err = lv_image_put(s, r->uri, file, kernel, sizeof(kernel), &reused);
	snprintf(file, sizeof(file), "%s/initramfs.img", r->image_dir);
	if (!err)
		err = lv_image_put(s, r->uri, file, initrd, sizeof(initrd), &reused);
	if (!err)
		err = lv_open(r->uri, &c);
	if (!err)
		err = remote_dac(c, r->uri, &vm);
	if (err)
		return err;
	/* never journal what is not ours: down would destroy it */
	dom = virDomainLookupByName(c, r->name);
	if (dom) {
		virDomainFree(dom);
		calvin_err("libvirt at %s has a domain %s already, not this chain's; remove it",
			   r->uri, r->name);
		return -EEXIST;
	}
	snprintf(console, sizeof(console), "/var/log/libvirt/qemu/%s.console", r->name);
	snprintf(agent, sizeof(agent), REMOTE_FILES "/%s.agent", r->name);
	vm.housekeeping_cpu = r->pinned ? r->housekeeping_cpu : -1;
	vm.vnf_cpu = r->pinned ? r->vnf_cpu : -1;
	vm.emulator = REMOTE_EMULATOR;
	vm.kernel = kernel;
	vm.initrd = initrd;
	vm.console_log = console;
	vm.agent_socket = agent;
	vm.ovs_bridge = r->bridge;
	for (int i = 0; i < 2; i++) {
		vm.ovn_port[i] = r->ovn_port[i];
		memcpy(vm.mac[i], r->mac[i], 6);
	}
	xml = malloc(65536);
	if (!xml)
		return -ENOMEM;
	err = calvin_vm_xml(&vm, xml, 65536);
	if (err)
		calvin_err("domain %s: no XML for it: %s", r->name, strerror(-err));
	if (!err)
		err = state_add(s, ST_DOMAIN, r->name, r->uri, 0, 0);
	if (!err)
		err = define_start(c, r->uri, xml, r->name);
	free(xml);
	return err;
}
