// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* One libvirt domain per VNF node: defined from the pure domain XML
 * (userspace/lib/guest/vm_xml.c) and started; destroyed and undefined by down.
 * Host facts decide what the XML may ask for: hugepages where enough are
 * free, locked memory where libvirt may raise the memlock limit. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lv.h"
#include "util.h"

#define EMULATOR "/usr/bin/qemu-system-x86_64"
#define QEMU_LOG_DIR "/var/log/libvirt/qemu"

void lv_node_file(char *out, size_t len, const char *chain, const char *node, const char *suffix)
{
	snprintf(out, len, "%s/%s.d/%s.%s", calvin_run_dir(), chain, node, suffix);
}

/* Enough free hugepages for mib? */
static bool hugepages_free(unsigned int mib)
{
	unsigned long long free_pages = 0, page_kb = 0, v;
	char key[64];
	FILE *f = fopen("/proc/meminfo", "re");

	if (!f)
		return false;
	while (fscanf(f, "%63s %llu%*[^\n]", key, &v) == 2) {
		if (!strcmp(key, "HugePages_Free:"))
			free_pages = v;
		else if (!strcmp(key, "Hugepagesize:"))
			page_kb = v;
	}
	fclose(f);
	return free_pages * page_kb >= (unsigned long long)mib * 1024;
}

/* Can memory be locked: may a process here raise RLIMIT_MEMLOCK without
 * bound, as libvirt does for a locked guest? Tried in a child, so calvin's
 * own limit stays as it is. */
static bool memlock_allowed(void)
{
	struct rlimit r = { RLIM_INFINITY, RLIM_INFINITY };
	int status;
	pid_t pid;

	if (!getrlimit(RLIMIT_MEMLOCK, &r) && r.rlim_max == RLIM_INFINITY)
		return true;
	pid = fork();
	if (pid == 0) {
		r.rlim_cur = r.rlim_max = RLIM_INFINITY;
		_exit(setrlimit(RLIMIT_MEMLOCK, &r) ? 1 : 0);
	}
	return pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	       WEXITSTATUS(status) == 0;
}

void lv_memory_facts(const struct calvin_chain_spec *s, bool *huge, bool *locked)
{
	*huge = hugepages_free(s->libvirt.memory_mib);
	*locked = memlock_allowed();
}

struct vm_files {
	char name[128], console[PATH_MAX], agent[PATH_MAX], kernel[PATH_MAX + 16],
	    initrd[PATH_MAX + 16], port[2][CALVIN_IFNAME_MAX + 1];
};

static int vm_desc(struct deploy *d, unsigned int n, struct vm_files *f, struct calvin_vm_desc *vm)
{
	const struct calvin_chain_spec *s = d->spec;
	const char *node = d->nodes[n].name;
	bool shared = s->placement == CALVIN_PLACE_SHARED;
	const struct lv_qemu_user *u;
	char dir[PATH_MAX], why[256];
	int err;

	memset(vm, 0, sizeof(*vm));
	err = lv_accel(s, &vm->kvm, why, sizeof(why));
	if (!err)
		err = lv_qemu_user(s, vm->kvm, &u);
	if (err)
		return -EINVAL;
	if (u->refused) {
		calvin_err("%s: %s; give 'image:' a folder it can read", node, u->why);
		return -EACCES;
	}
	vm->qemu_uid = u->uid;
	vm->qemu_gid = u->gid;
	lv_image(s, dir, sizeof(dir));
	snprintf(f->kernel, sizeof(f->kernel), "%s/vmlinuz", dir);
	snprintf(f->initrd, sizeof(f->initrd), "%s/initramfs.img", dir);
	lv_node_file(f->console, sizeof(f->console), s->name, node, "console");
	lv_node_file(f->agent, sizeof(f->agent), s->name, node, "agent");
	err = lv_port_name(d, n, CALVIN_WEST, f->port[CALVIN_WEST]);
	if (!err)
		err = lv_port_name(d, n, CALVIN_EAST, f->port[CALVIN_EAST]);
	if (err)
		return err;
	vm->name = f->name;
	vm->memory_mib = s->libvirt.memory_mib;
	lv_memory_facts(s, &vm->hugepages, &vm->locked);
	vm->housekeeping_cpu = shared ? -1 : calvin_cpumask_first(&d->plan->housekeeping);
	vm->vnf_cpu = d->plan->vnf[d->nodes[n].first_vnf].cpu;
	vm->fifo = s->libvirt.fifo;
	vm->emulator = EMULATOR;
	vm->kernel = f->kernel;
	vm->initrd = f->initrd;
	vm->console_log = f->console;
	vm->agent_socket = f->agent;
	vm->port[CALVIN_WEST] = f->port[CALVIN_WEST];
	vm->port[CALVIN_EAST] = f->port[CALVIN_EAST];
	calvin_vm_mac(vm->mac[CALVIN_WEST], s->name, n, CALVIN_WEST);
	calvin_vm_mac(vm->mac[CALVIN_EAST], s->name, n, CALVIN_EAST);
	return 0;
}

/* Journal what the domain leaves behind, then the domain itself. */
static int domain_intent(struct deploy *d, const struct vm_files *f)
{
	char log[PATH_MAX];
	int err;

	snprintf(log, sizeof(log), "%s/%s.log", QEMU_LOG_DIR, f->name);
	err = state_add(d->state, ST_PATH, log, NULL, 0, 0);
	if (!err)
		err = state_add(d->state, ST_DOMAIN, f->name, d->spec->libvirt.uri, 0, 0);
	return err;
}

static int domain_start(struct deploy *d, virConnectPtr conn, const char *xml, const char *name)
{
	virDomainPtr dom;
	int err = 0;

	dom = virDomainDefineXML(conn, xml);
	if (!dom) {
		calvin_err("libvirt refused domain %s: %s", name, lv_error());
		return -EIO;
	}
	if (virDomainCreate(dom) < 0) {
		calvin_err("cannot start domain %s: %s%s", name, lv_error(),
			   d->spec->libvirt.fifo ? " (with 'fifo: true': the host may not allow "
						   "SCHED_FIFO for VMs; set 'fifo: false')"
						 : "");
		err = -EIO;
	}
	virDomainFree(dom);
	return err;
}

int lv_domain_create(struct deploy *d, unsigned int n)
{
	struct calvin_vm_desc vm;
	struct vm_files f;
	virConnectPtr conn;
	virDomainPtr dom;
	char *xml;
	int err;

	err = node_netns(f.name, sizeof(f.name), d->spec->name, d->nodes[n].name);
	if (!err)
		err = vm_desc(d, n, &f, &vm);
	if (!err)
		err = lv_open(d->spec->libvirt.uri, &conn);
	if (err)
		return err;
	/* never journal what is not ours: down would destroy it */
	dom = virDomainLookupByName(conn, f.name);
	if (dom) {
		virDomainFree(dom);
		calvin_err("libvirt domain %s exists already and is not chain %s's; remove it "
			   "('virsh undefine %s') or rename the chain",
			   f.name, d->spec->name, f.name);
		return -EEXIST;
	}
	xml = malloc(65536);
	if (!xml)
		return -ENOMEM;
	err = calvin_vm_xml(&vm, xml, 65536);
	if (!err)
		err = domain_intent(d, &f);
	if (!err)
		err = domain_start(d, conn, xml, f.name);
	free(xml);
	return err;
}

void lv_vcpu_host(const struct calvin_chain_spec *s, const char *domain, int vcpu, int *last,
		  struct calvin_cpumask *allowed)
{
	unsigned char maps[2][CALVIN_MAX_CPUS / 8];
	virVcpuInfo info[2];
	virConnectPtr conn;
	virDomainPtr dom;
	int n, c;

	*last = -1;
	if (vcpu < 0 || vcpu > 1 || lv_open(s->libvirt.uri, &conn))
		return;
	dom = virDomainLookupByName(conn, domain);
	if (!dom)
		return;
	memset(maps, 0, sizeof(maps));
	n = virDomainGetVcpus(dom, info, 2, &maps[0][0], sizeof(maps[0]));
	virDomainFree(dom);
	if (n <= vcpu)
		return;
	memset(allowed, 0, sizeof(*allowed));
	for (c = 0; c < CALVIN_MAX_CPUS; c++)
		if (VIR_CPU_USABLE(&maps[0][0], sizeof(maps[0]), vcpu, c))
			calvin_cpumask_set(allowed, c);
	*last = info[vcpu].cpu;
}

static int domain_destroy(const struct state_entry *e)
{
	virConnectPtr conn;
	virDomainPtr dom;
	int err = 0;

	err = lv_open(e->uri, &conn);
	if (err)
		return err;
	dom = virDomainLookupByName(conn, e->name);
	if (!dom)
		return 0; /* never defined, or gone already */
	/* a domain that stopped between the two calls (its host's libvirtd
	 * just restarted and found its qemu gone) is as good as destroyed */
	if (virDomainIsActive(dom) == 1 && virDomainDestroy(dom) < 0 &&
	    virDomainIsActive(dom) != 0)
		err = -EIO;
	if (!err && virDomainUndefine(dom) < 0)
		err = -EIO;
	if (err)
		calvin_err("cannot remove domain %s: %s", e->name, lv_error());
	virDomainFree(dom);
	return err;
}

int lv_domains_destroy(struct chain_state *s)
{
	unsigned int i;
	int err = 0;

	for (i = 0; i < s->nr; i++)
		if (s->e[i].kind == ST_DOMAIN && domain_destroy(&s->e[i]))
			err = -EIO;
	return err;
}
