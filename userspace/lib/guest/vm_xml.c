// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The libvirt domain XML of a VNF's VM (see guest.h): what CALVIN asks of a
 * low-latency guest, element by element. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "guest/guest.h"

struct xml_buf {
	char *buf;
	size_t len, used;
	int err;
};

__attribute__((format(printf, 2, 3))) static void put(struct xml_buf *x, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (x->err)
		return;
	va_start(ap, fmt);
	n = vsnprintf(x->buf + x->used, x->len - x->used, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= x->len - x->used)
		x->err = -ENOSPC;
	else
		x->used += (size_t)n;
}

/* Text for an attribute in single quotes, or an element's content. */
static void put_esc(struct xml_buf *x, const char *s)
{
	for (; *s && !x->err; s++) {
		switch (*s) {
		case '&':
			put(x, "&amp;");
			break;
		case '<':
			put(x, "&lt;");
			break;
		case '>':
			put(x, "&gt;");
			break;
		case '\'':
			put(x, "&apos;");
			break;
		case '"':
			put(x, "&quot;");
			break;
		default:
			put(x, "%c", *s);
		}
	}
}

/* An element with escaped text content, on a line of its own. */
static void put_elem(struct xml_buf *x, const char *indent, const char *tag, const char *text)
{
	put(x, "%s<%s>", indent, tag);
	put_esc(x, text);
	put(x, "</%s>\n", tag);
}

/* vCPU 1 on the VNF's core, vCPU 0 and the emulator threads (I/O, timers,
 * the monitor) on housekeeping, so nothing but the VNF's vCPU runs on the
 * VNF's core. Unpinned placement (shared) leaves the scheduler free. */
static void put_cputune(struct xml_buf *x, const struct calvin_vm_desc *d)
{
	if (d->housekeeping_cpu < 0 && d->vnf_cpu < 0 && !d->fifo)
		return;
	put(x, "  <cputune>\n");
	if (d->housekeeping_cpu >= 0)
		put(x, "    <vcpupin vcpu='0' cpuset='%d'/>\n", d->housekeeping_cpu);
	if (d->vnf_cpu >= 0)
		put(x, "    <vcpupin vcpu='1' cpuset='%d'/>\n", d->vnf_cpu);
	if (d->housekeeping_cpu >= 0)
		put(x, "    <emulatorpin cpuset='%d'/>\n", d->housekeeping_cpu);
	if (d->fifo)
		put(x, "    <vcpusched vcpus='1' scheduler='fifo' priority='1'/>\n");
	put(x, "  </cputune>\n");
}

static void put_os(struct xml_buf *x, const struct calvin_vm_desc *d)
{
	char cmdline[1024];

	x->err = x->err ? x->err : calvin_vm_cmdline(d, cmdline, sizeof(cmdline));
	put(x, "  <os>\n    <type arch='x86_64' machine='pc'>hvm</type>\n");
	put_elem(x, "    ", "kernel", d->kernel);
	put_elem(x, "    ", "initrd", d->initrd);
	put_elem(x, "    ", "cmdline", cmdline);
	put(x, "  </os>\n");
	/* ACPI for a clean power-off; no PMU: its MSR traps and NMIs are
	 * jitter a forwarding guest has no use for */
	put(x, "  <features>\n    <acpi/>\n    <pmu state='off'/>\n  </features>\n");
	/* KVM: the host's CPU as it is. TCG: the emulator's every feature, so
	 * DPDK finds SSE4.2 */
	put(x, "  <cpu mode='%s'/>\n", d->kvm ? "host-passthrough" : "maximum");
	put(x, "  <clock offset='utc'/>\n");
	/* a guest that stops is gone: calvin down never finds one rebooted */
	put(x, "  <on_poweroff>destroy</on_poweroff>\n  <on_reboot>destroy</on_reboot>\n"
	       "  <on_crash>destroy</on_crash>\n");
}

/* libvirt takes only a UUID as a virtualport's interfaceid. */
static bool is_uuid(const char *u)
{
	for (int i = 0; i < 36; i++)
		if ((i == 8 || i == 13 || i == 18 || i == 23) ? u[i] != '-'
							      : !isxdigit((unsigned char)u[i]))
			return false;
	return u[36] == '\0';
}

static void put_nic(struct xml_buf *x, const struct calvin_vm_desc *d, enum calvin_side side)
{
	const uint8_t *m = d->mac[side];
	const char *ovn = d->ovn_port[side];

	if (!calvin_vm_has_nic(d, side))
		return;

	/* ethernet, managed='no': calvin made the tap and journalled it;
	 * libvirt only opens it, and leaves it when the domain goes. bridge
	 * with an openvswitch virtualport: libvirt adds the port to the
	 * host's Open vSwitch with external_ids:iface-id, which
	 * ovn-controller binds to the logical switch port, and removes it
	 * when the domain goes */
	put(x, "    <interface type='%s'>\n", ovn ? "bridge" : "ethernet");
	put(x, "      <mac address='%02x:%02x:%02x:%02x:%02x:%02x'/>\n", m[0], m[1], m[2], m[3],
	    m[4], m[5]);
	if (ovn) {
		put(x, "      <source bridge='");
		put_esc(x, d->ovs_bridge);
		put(x, "'/>\n      <virtualport type='openvswitch'>\n");
		put(x, "        <parameters interfaceid='%s'/>\n      </virtualport>\n", ovn);
		put(x, "      <model type='virtio'/>\n");
	} else {
		put(x, "      <target dev='");
		put_esc(x, d->port[side]);
		put(x, "' managed='no'/>\n      <model type='virtio'/>\n");
	}
	/* no option ROM: a direct kernel boot never PXE-boots */
	put(x, "      <rom enabled='no'/>\n    </interface>\n");
}

static void put_devices(struct xml_buf *x, const struct calvin_vm_desc *d)
{
	put(x, "  <devices>\n");
	put_elem(x, "    ", "emulator", d->emulator);
	put(x, "    <controller type='usb' model='none'/>\n");
	put(x, "    <controller type='virtio-serial' index='0'/>\n");
	put_nic(x, d, CALVIN_WEST);
	put_nic(x, d, CALVIN_EAST);
	put(x, "    <serial type='file'>\n      <source path='");
	put_esc(x, d->console_log);
	put(x, "'/>\n      <target port='0'/>\n    </serial>\n");
	put(x, "    <channel type='unix'>\n      <source mode='bind' path='");
	put_esc(x, d->agent_socket);
	put(x, "'/>\n      <target type='virtio' name='%s'/>\n    </channel>\n", CALVIN_AGENT_PORT);
	/* the guest's memory is fixed: no balloon to take it back */
	put(x, "    <memballoon model='none'/>\n");
	put(x, "  </devices>\n");
}

int calvin_vm_dac_label(const char *caps, bool kvm, unsigned int *uid, unsigned int *gid)
{
	const char *model = strstr(caps, "<model>dac</model>"), *end, *label;
	char want[64];
	int n = 0;

	if (!model)
		return -ENOENT;
	end = strstr(model, "</secmodel>");
	snprintf(want, sizeof(want), "<baselabel type='%s'>", kvm ? "kvm" : "qemu");
	label = strstr(model, want);
	if (!label || (end && label > end) ||
	    sscanf(label + strlen(want), "+%u:+%u</baselabel>%n", uid, gid, &n) != 2 || !n)
		return -ENOENT;
	return 0;
}

int calvin_vm_xml(const struct calvin_vm_desc *d, char *buf, size_t len)
{
	struct xml_buf x = { .buf = buf, .len = len };

	if (!len)
		return -ENOSPC;
	buf[0] = '\0';
	for (int i = 0; i < 2; i++)
		if (d->ovn_port[i] && (!is_uuid(d->ovn_port[i]) || !d->ovs_bridge))
			return -EINVAL;
	put(&x, "<domain type='%s'>\n", d->kvm ? "kvm" : "qemu");
	put_elem(&x, "  ", "name", d->name);
	put(&x, "  <memory unit='MiB'>%u</memory>\n", d->memory_mib);
	if (d->hugepages || d->locked)
		put(&x, "  <memoryBacking>\n%s%s  </memoryBacking>\n",
		    d->hugepages ? "    <hugepages/>\n" : "", d->locked ? "    <locked/>\n" : "");
	put(&x, "  <vcpu placement='static'>2</vcpu>\n");
	put_cputune(&x, d);
	put_os(&x, d);
	put_devices(&x, d);
	/* QEMU as libvirt's unprivileged user (root only where the host
	 * allows no other, see the backend's qemu_user.c). relabel='no':
	 * libvirt opens the console log and binds the agent's socket itself
	 * and hands QEMU the descriptors, so QEMU opens only the kernel and
	 * the initramfs, which calvin checks that user can read. Relabelling
	 * would chown those, in a folder a chain file names and through
	 * whatever symlink lies there, to QEMU's user for the VM's life. */
	if (!d->no_dac)
		put(&x,
		    "  <seclabel type='static' model='dac' relabel='no'>\n"
		    "    <label>+%u:+%u</label>\n  </seclabel>\n",
		    d->qemu_uid, d->qemu_gid);
	put(&x, "</domain>\n");
	return x.err;
}
