// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Unit tests of the libvirt backend's pure part: port, bridge and MAC
 * names, clock domains, the guest command line, and the domain XML against
 * golden files (tests/unit/guest/golden/; CALVIN_UPDATE_GOLDEN=1 rewrites them
 * after a change that is meant). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "guest/guest.h"
#include "spec/spec.h"

static void test_port_names(void **state)
{
	char a[CALVIN_IFNAME_MAX + 1], b[CALVIN_IFNAME_MAX + 1];
	const char *longest = "abcdefghijklmnopqrstuvwx"; /* CALVIN_NAME_MAX */
	unsigned int n, m;

	assert_int_equal(calvin_vm_port_name(a, longest, 9, CALVIN_EAST), 0);
	assert_true(strlen(a) <= CALVIN_IFNAME_MAX);
	assert_int_equal(strncmp(a, "cv", 2), 0);
	/* stable: the same chain gives the same names on every host */
	assert_int_equal(calvin_vm_port_name(a, "tactile-fwd-vm", 1, CALVIN_WEST), 0);
	assert_string_equal(a, "cv76c0f967-1w");
	/* no two ports of one chain, and no bridge, share a name */
	for (n = 0; n < 10 * 2; n++)
		for (m = 0; m < 10 * 2; m++) {
			calvin_vm_port_name(a, "c", n / 2, n % 2);
			calvin_vm_port_name(b, "c", m / 2, m % 2);
			assert_true((n == m) == !strcmp(a, b));
			calvin_vm_bridge_name(b, "c", m / 2);
			assert_string_not_equal(a, b);
		}
	/* chains whose names differ only at the end still differ */
	calvin_vm_port_name(a, "edge-a", 1, CALVIN_WEST);
	calvin_vm_port_name(b, "edge-b", 1, CALVIN_WEST);
	assert_string_not_equal(a, b);
	assert_int_equal(calvin_vm_bridge_name(a, longest, 8), 0);
	assert_true(strlen(a) <= CALVIN_IFNAME_MAX);
	/* a VM's veth to the Open vSwitch: fits with two-digit nodes, and
	 * shares no name with a tap, a bridge or its other end */
	assert_int_equal(calvin_vm_ovs_port_name(a, longest, CALVIN_MAX_NODES - 1, CALVIN_EAST, 'o'),
			 0);
	assert_true(strlen(a) <= CALVIN_IFNAME_MAX);
	assert_int_equal(calvin_vm_ovs_port_name(a, "tactile-fwd-vm", 1, CALVIN_WEST, 'v'), 0);
	assert_string_equal(a, "cv76c0f967-1wv");
	for (n = 0; n < 10 * 2; n++)
		for (m = 0; m < 10 * 2; m++) {
			calvin_vm_ovs_port_name(a, "c", n / 2, n % 2, 'v');
			calvin_vm_ovs_port_name(b, "c", m / 2, m % 2, 'o');
			assert_string_not_equal(a, b);
			calvin_vm_port_name(b, "c", m / 2, m % 2);
			assert_string_not_equal(a, b);
			calvin_vm_bridge_name(b, "c", m / 2);
			assert_string_not_equal(a, b);
		}
}

static void test_macs(void **state)
{
	uint8_t a[6], b[6];
	unsigned int n, m;

	for (n = 0; n < 20; n++) {
		calvin_vm_mac(a, "c", n / 2, n % 2);
		/* unicast, locally administered: never a vendor's */
		assert_int_equal(a[0] & 0x03, 0x02);
		for (m = 0; m < 20; m++) {
			calvin_vm_mac(b, "c", m / 2, m % 2);
			assert_true((n == m) == !memcmp(a, b, 6));
		}
	}
}

static void test_clock_domains(void **state)
{
	struct calvin_chain_spec s;
	char err[CALVIN_ERR_MAX];
	const char *yaml = "name: c\nbudget: 1ms\nbackend: libvirt\nvnfs:\n"
			   "  - {name: a, kind: forward}\n  - {name: b, kind: acl, node: a}\n"
			   "  - {name: u, kind: forward, space: user}\n";

	assert_int_equal(calvin_spec_parse(yaml, strlen(yaml), "t.yaml", &s, err, sizeof(err)), 0);
	/* one domain per VM, none the host's */
	assert_int_equal(calvin_vnf_clock(&s, 0), 1);
	assert_int_equal(calvin_vnf_clock(&s, 1), 1);
	assert_int_equal(calvin_vnf_clock(&s, 2), 2);
	s.backend = CALVIN_BACKEND_NETNS;
	assert_int_equal(calvin_vnf_clock(&s, 2), 0);
}

static void desc(struct calvin_vm_desc *d, bool kvm)
{
	memset(d, 0, sizeof(*d));
	d->name = "calvin-tactile-fwd-vm.fwd-k";
	d->kvm = kvm;
	d->memory_mib = 512;
	d->emulator = "/usr/bin/qemu-system-x86_64";
	d->kernel = "/usr/lib/calvin/vm/vmlinuz";
	d->initrd = "/usr/lib/calvin/vm/initramfs.img";
	d->console_log = "/run/calvin/tactile-fwd-vm.d/fwd-k.console";
	d->agent_socket = "/run/calvin/tactile-fwd-vm.d/fwd-k.agent";
	d->port[CALVIN_WEST] = "cv76c0f967-1w";
	d->port[CALVIN_EAST] = "cv76c0f967-1e";
	calvin_vm_mac(d->mac[CALVIN_WEST], "tactile-fwd-vm", 1, CALVIN_WEST);
	calvin_vm_mac(d->mac[CALVIN_EAST], "tactile-fwd-vm", 1, CALVIN_EAST);
}

static void check_golden(const char *name, const char *xml)
{
	char path[256], buf[16384];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "tests/unit/guest/golden/%s", name);
	if (getenv("CALVIN_UPDATE_GOLDEN")) {
		f = fopen(path, "w");
		assert_non_null(f);
		fputs(xml, f);
		fclose(f);
	}
	f = fopen(path, "r");
	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	assert_string_equal(xml, buf);
}

static void test_xml_kvm_pinned(void **state)
{
	struct calvin_vm_desc d;
	char xml[16384];

	desc(&d, true);
	d.housekeeping_cpu = 0;
	d.vnf_cpu = 3;
	d.fifo = true;
	d.hugepages = true;
	d.locked = true;
	/* QEMU as Debian's libvirt-qemu */
	d.qemu_uid = 64055;
	d.qemu_gid = 64055;
	assert_int_equal(calvin_vm_xml(&d, xml, sizeof(xml)), 0);
	check_golden("vm-kvm-pinned.xml", xml);
}

static void test_xml_tcg_shared(void **state)
{
	struct calvin_vm_desc d;
	char xml[16384];

	desc(&d, false);
	d.housekeeping_cpu = -1;
	d.vnf_cpu = -1;
	/* what a path may hold is escaped, not trusted */
	d.kernel = "/home/o'brien/<vm>&/vmlinuz";
	assert_int_equal(calvin_vm_xml(&d, xml, sizeof(xml)), 0);
	check_golden("vm-tcg-shared.xml", xml);
	assert_int_equal(calvin_vm_xml(&d, xml, 100), -ENOSPC);
}

/* A VM on a remote host whose east NIC joins a link between hosts: an
 * openvswitch virtualport on br-int, named by the OVN port's UUID; what
 * is no UUID (libvirt would refuse it, or read more into it) is refused. */
static void test_xml_ovn_port(void **state)
{
	struct calvin_vm_desc d;
	char xml[16384];

	desc(&d, false);
	d.housekeeping_cpu = -1;
	d.vnf_cpu = -1;
	d.ovs_bridge = "br-int";
	d.ovn_port[CALVIN_EAST] = "0f1e2d3c-4b5a-4697-8899-aabbccddeeff";
	assert_int_equal(calvin_vm_xml(&d, xml, sizeof(xml)), 0);
	check_golden("vm-tcg-ovn.xml", xml);
	d.ovn_port[CALVIN_EAST] = "0f1e2d3c-4b5a-4697-8899-aabbccddeeff'/><x a='";
	assert_int_equal(calvin_vm_xml(&d, xml, sizeof(xml)), -EINVAL);
	d.ovn_port[CALVIN_EAST] = "0f1e2d3c-4b5a-4697-8899-aabbccddeef";
	assert_int_equal(calvin_vm_xml(&d, xml, sizeof(xml)), -EINVAL);
	d.ovn_port[CALVIN_EAST] = "0f1e2d3c-4b5a-4697-8899-aabbccddeeff";
	d.ovs_bridge = NULL;
	assert_int_equal(calvin_vm_xml(&d, xml, sizeof(xml)), -EINVAL);
}

/* A server's VM on a remote host: one NIC, west, on its OVN port; no
 * interface element and no guest NIC named east. */
static void test_xml_one_nic(void **state)
{
	struct calvin_vm_desc d;
	char xml[16384], line[512];

	desc(&d, false);
	d.ovs_bridge = "br-int";
	d.port[CALVIN_WEST] = d.port[CALVIN_EAST] = NULL;
	d.ovn_port[CALVIN_WEST] = "0f1e2d3c-4b5a-4697-8899-aabbccddeeff";
	assert_int_equal(calvin_vm_xml(&d, xml, sizeof(xml)), 0);
	assert_non_null(strstr(xml, "<mac address='02:ca:f9:67:01:00'/>"));
	assert_null(strstr(xml, "02:ca:f9:67:01:01"));
	assert_non_null(strstr(xml, "interfaceid='0f1e2d3c-4b5a-4697-8899-aabbccddeeff'"));
	assert_null(strstr(strstr(xml, "<interface") + 1, "<interface"));
	assert_int_equal(calvin_vm_cmdline(&d, line, sizeof(line)), 0);
	assert_non_null(strstr(line, "calvin.west=02:ca:f9:67:01:00 calvin.east=none "));
}

/* What libvirt 9.0 on Debian 12 says (virsh capabilities), trimmed. */
static const char caps[] = "<capabilities>\n  <host>\n"
			   "    <secmodel>\n      <model>none</model>\n      <doi>0</doi>\n"
			   "    </secmodel>\n    <secmodel>\n      <model>dac</model>\n"
			   "      <doi>0</doi>\n"
			   "      <baselabel type='kvm'>+64055:+107</baselabel>\n"
			   "      <baselabel type='qemu'>+64055:+64055</baselabel>\n"
			   "    </secmodel>\n  </host>\n</capabilities>\n";

static void test_dac_label(void **state)
{
	unsigned int uid = 1, gid = 1;
	char other[sizeof(caps)];

	assert_int_equal(calvin_vm_dac_label(caps, true, &uid, &gid), 0);
	assert_int_equal(uid, 64055);
	assert_int_equal(gid, 107);
	assert_int_equal(calvin_vm_dac_label(caps, false, &uid, &gid), 0);
	assert_int_equal(gid, 64055);
	/* qemu.conf's user = "root" */
	assert_int_equal(calvin_vm_dac_label("<model>dac</model><baselabel type='qemu'>+0:+0"
					     "</baselabel></secmodel>",
					     false, &uid, &gid),
			 0);
	assert_int_equal(uid, 0);
	/* no DAC model (an unprivileged libvirt), or a label of another model */
	assert_int_equal(calvin_vm_dac_label("<model>none</model>", false, &uid, &gid), -ENOENT);
	assert_int_equal(calvin_vm_dac_label("<model>dac</model></secmodel><secmodel><model>"
					     "selinux</model><baselabel type='qemu'>+1:+1"
					     "</baselabel>",
					     false, &uid, &gid),
			 -ENOENT);
	/* a label that is not +UID:+GID */
	snprintf(other, sizeof(other), "%s", caps);
	memcpy(strstr(other, "+64055:+64055"), "libvirt-qemu:", 13);
	assert_int_equal(calvin_vm_dac_label(other, false, &uid, &gid), -ENOENT);
}

static void test_cmdline(void **state)
{
	struct calvin_vm_desc d;
	char line[512];

	desc(&d, false);
	assert_int_equal(calvin_vm_cmdline(&d, line, sizeof(line)), 0);
	assert_non_null(strstr(line, "isolcpus=1 nohz_full=1 rcu_nocbs=1 irqaffinity=0"));
	assert_non_null(
	    strstr(line, "calvin.west=02:ca:f9:67:01:00 calvin.east=02:ca:f9:67:01:01"));
	assert_non_null(strstr(line, "calvin.port=" CALVIN_AGENT_PORT));
	assert_int_equal(calvin_vm_cmdline(&d, line, 20), -ENOSPC);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_port_names),     cmocka_unit_test(test_macs),
		cmocka_unit_test(test_clock_domains),  cmocka_unit_test(test_cmdline),
		cmocka_unit_test(test_xml_one_nic),    cmocka_unit_test(test_xml_kvm_pinned),
		cmocka_unit_test(test_xml_tcg_shared), cmocka_unit_test(test_xml_ovn_port),
		cmocka_unit_test(test_dac_label),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
