# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# calvin: build, run the reference chain, test. See README.md.
#
#   make          install missing Debian packages, build everything
#   make run      deploy the reference chain, probe it, print the report, tear down
#   make test     unit, bpf, fuzz (short), integration, vm and multihost tests
#   make fuzz     long fuzzing runs
#   make install  calvin, calvin-vnf, its hand-over XDP object and the man page
#                 under $(DESTDIR)$(PREFIX) (PREFIX=/usr/local)

CHAIN ?= chains/tactile-fwd.yaml
B := build

# Debian 12 packages the build, the tests, the run and the benchmarks need:
# iperf3 and rt-tests (cyclictest) for calvin bench, bc and openssl for
# bench/sharing.sh and bench/user.sh, strace for bench/updown.sh, perl for a
# test's attacker; iproute2 and ethtool for the tests (calvin runs neither);
# libmicrohttpd for calvin monitor's /metrics, prometheus for its test;
# Open vSwitch and OVN for the simulated edge hosts of tests/multihost.
DEB_PKGS := build-essential pkg-config clang llvm libbpf-dev libxdp-dev xdp-tools bpftool \
	gcc-multilib libdpdk-dev dpdk-dev libssl-dev libisal-dev libyaml-dev libjson-c-dev libcmocka-dev \
	libmnl-dev libclang-rt-14-dev iproute2 iputils-ping ethtool sockperf procps gnuplot-nox \
	stress-ng iperf3 rt-tests bc openssl strace perl \
	qemu-system-x86 busybox-static cpio zstd kmod \
	libvirt-dev libvirt-daemon-system libvirt-clients libvirt-daemon-driver-qemu \
	libmicrohttpd-dev prometheus openvswitch-switch ovn-central ovn-host

CC := gcc
CLANG := clang
BPFTOOL := bpftool
WARN := -Wall -Wextra -Werror -Wno-unused-parameter -Wmissing-prototypes -Wshadow
CFLAGS ?= -O2 -g
# Pure code is included by its folder: "spec/spec.h" (userspace/lib/),
# "bench/lib/bench_lib.h" (the top).
CFLAGS += -std=gnu11 $(WARN) -D_GNU_SOURCE -Iinclude -Iuserspace/lib -I. -Ikernel \
	-Iuserspace/calvin -Iuserspace/agent
BPF_CFLAGS := -O2 -g -target bpf -Wall -Werror -Iinclude -Ikernel \
	-I/usr/include/$(shell gcc -dumpmachine)

# libcalvin.a, the pure library: userspace/lib/ by subsystem (spec, plan,
# measure, codec, guest, util) and the benchmarks' pure code (bench/lib/).
LIB_SRCS := $(wildcard userspace/lib/*/*.c bench/lib/*.c)
LIB_OBJS := $(LIB_SRCS:%.c=$(B)/%.o)
# ar names a member by its file name alone: two alike would be one.
lib_twice = $(filter-out 1,$(words $(filter %/$(1),$(LIB_SRCS))))
LIB_DUPS := $(strip $(foreach n,$(sort $(notdir $(LIB_SRCS))),$(if $(call lib_twice,$(n)),$(n))))
$(if $(LIB_DUPS),$(error libcalvin.a: two files named $(LIB_DUPS); rename one))
LOADER_SRCS := $(filter-out %.bpf.c,$(wildcard kernel/*.c))
# userspace/agent/: the guest agent, and the pieces the host shares with it
# (the framed channel, the host's client, the DPDK telemetry query, the
# pipe that hands calvin-vnf its keys, reading the kernel's text files,
# starting calvin-vnf).
AGENT_SHARED_SRCS := userspace/agent/channel.c userspace/agent/dpdk_query.c \
	userspace/agent/sa_pipe.c userspace/agent/textfile.c userspace/agent/vnf_start.c
AGENT_SRCS := userspace/agent/main.c userspace/agent/vnf.c userspace/agent/proc.c \
	userspace/agent/server.c \
	$(AGENT_SHARED_SRCS)
AGENT_OBJS := $(AGENT_SRCS:%.c=$(B)/%.o)
AGENT_CLIENT_OBJS := $(B)/userspace/agent/client.o $(B)/userspace/agent/channel.o
# bench/calvin/: the modes of `calvin bench`, linked into calvin.
CALVIN_SRCS := $(wildcard userspace/calvin/*.c userspace/calvin/netns/*.c \
	userspace/calvin/isolate/*.c userspace/calvin/libvirt/*.c userspace/calvin/chain/*.c \
	userspace/calvin/nodes/*.c \
	bench/calvin/*.c \
	userspace/calvin/nl/*.c userspace/calvin/events/*.c userspace/calvin/monitor/*.c \
	userspace/calvin/supervise/*.c userspace/calvin/ovn/*.c) \
	$(LOADER_SRCS) \
	userspace/agent/dpdk_query.c userspace/agent/client.c userspace/agent/channel.c \
	userspace/agent/sa_pipe.c userspace/agent/textfile.c userspace/agent/vnf_start.c
CALVIN_OBJS := $(CALVIN_SRCS:%.c=$(B)/%.o)
# The chain spec is a quarter of a megabyte (268 KiB): on the heap, never
# on a stack. The build refuses a frame that could hold one; the largest
# other (a chain's journal, 236 KiB) fits. common.c asserts the spec is
# bigger than the limit, so that the check cannot go blind.
FRAME_MAX := 270336
$(CALVIN_OBJS) $(AGENT_OBJS): CFLAGS += -Wframe-larger-than=$(FRAME_MAX) \
	-DCALVIN_FRAME_MAX=$(FRAME_MAX)
VNF_SRCS := $(wildcard userspace/vnf/*.c)
VNF_OBJS := $(VNF_SRCS:%.c=$(B)/%.o)
BPF_SRCS := $(wildcard kernel/*.bpf.c)
BPF_OBJS := $(BPF_SRCS:kernel/%.bpf.c=$(B)/kernel/%.bpf.o)
# Every object but the hand-over program's is built into its loader as a
# skeleton; that one stays a file, which DPDK's af_xdp PMD loads by path.
SKELS := $(filter-out %/handover.skel.h,$(BPF_OBJS:%.bpf.o=%.skel.h))
UNIT_SRCS := $(wildcard tests/unit/*/test_*.c)
UNIT_BINS := $(UNIT_SRCS:%.c=$(B)/%)
BPFTEST_SRCS := $(wildcard tests/bpf/test_*.c)
BPFTEST_BINS := $(BPFTEST_SRCS:%.c=$(B)/%)
TOOL_SRCS := $(wildcard tests/tools/*.c)
TOOL_BINS := $(TOOL_SRCS:%.c=$(B)/%)
FUZZ_SRCS := $(wildcard tests/fuzz/*/fuzz_*.c)
FUZZ_BINS := $(FUZZ_SRCS:%.c=$(B)/%)

# What libcalvin.a's pure code links with: YAML, ISA-L (GF(2^8)), OpenSSL (AEAD),
# json-c (every JSON calvin writes or reads).
LIB_LDLIBS = $(call pc,--libs yaml-0.1 libcrypto json-c) -lisal -lm

DEPS_STAMP := $(B)/.deps-installed
# Package flags are read only after the packages are there.
pc = $(shell pkg-config $(1) 2>/dev/null)

.PHONY: all deps run run-multihost test test-unit test-bpf test-fuzz test-integration test-vm test-multihost fuzz clean \
	format bench bench-kernel bench-user bench-sharing bench-coloc bench-testpmd bench-vm-links \
	bench-updown bench-monitor bench-clock bench-heal bench-soak install vm-image vm-binaries
all: $(DEPS_STAMP)
	@$(MAKE) --no-print-directory build

.PHONY: build
build: $(B)/calvin $(B)/calvin-vnf $(B)/calvin-vnf.objs $(B)/calvin-agent $(B)/calvin-relay $(BPF_OBJS) $(UNIT_BINS) \
	$(BPFTEST_BINS) $(FUZZ_BINS) $(TOOL_BINS)

# Installs only what is missing; apt-get update runs once, only if needed.
deps: $(DEPS_STAMP)
$(DEPS_STAMP): Makefile
	@missing=$$(for p in $(DEB_PKGS); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; \
	done); \
	if [ -n "$$missing" ]; then \
		echo "Installing Debian packages:" $$missing; \
		[ "$$(id -u)" = 0 ] || { echo "make: installing packages needs root (run as root, or install: $$missing)" >&2; exit 2; }; \
		apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $$missing || exit 2; \
	fi
	@mkdir -p $(B) && touch $@

run: all
	$(B)/calvin run $(CHAIN)

# The two-host chain on simulated edge hosts (tests/multihost/run_2host.sh):
# hosts up, chain up, its report, all removed. Hold the lock:
# flock /tmp/calvin-net.lock make run-multihost
run-multihost: all
	bash tests/multihost/run_2host.sh

test: all
	tests/run

test-unit test-bpf test-fuzz test-integration test-vm test-multihost: all
	tests/run $(@:test-%=%)

fuzz: all
	tests/fuzz/run-long

# The VNF guest (vm-images/): Debian's kernel and an initramfs with what
# the guest runs. KERNEL=rt for the PREEMPT_RT kernel.
vm-binaries: $(B)/calvin-agent $(B)/calvin-vnf $(B)/kernel/handover.bpf.o

vm-image: all
	$(MAKE) -C vm-images

# Benchmarks: side-by-side comparisons in one run, Markdown reports in
# bench/results/. Not tests: this machine is shared, so they report medians
# and ratios, and never fail a build. `make bench` runs all of them with
# short settings (bench/all.sh: kernel, user, sharing, vm-links where the
# guest image is built, then calvin bench baseline, pinning, wakeup and
# throughput) and writes bench/REPORT.md (bench/report.sh); hold the lock:
# flock /tmp/calvin-net.lock make bench
bench: all $(B)/bench/nc_bench $(B)/bench/aead_bench $(B)/bench/rounds_table
	bench/all.sh

bench-kernel: all
	bench/kernel.sh

bench-user: all $(B)/bench/nc_bench $(B)/bench/aead_bench
	bench/user.sh

# user VNFs sharing a core: busy-polling against waking up (hold the lock:
# flock /tmp/calvin-net.lock make bench-sharing)
bench-sharing: all
	bench/sharing.sh

# user VNFs co-located on a core of their own (issue 17): taking turns
# polling (--wait yield, what calvin plans there; its leave as now and the
# two it replaced) against waking up, for
# tactile-crypt and tactile-nc (hold the lock: flock /tmp/calvin-net.lock
# make bench-coloc)
bench-coloc: all
	BENCH_SET=coloc bench/sharing.sh

# links between VNF VMs: calvin's XDP link program against a bridge (the
# libvirt backend; needs the guest image)
bench-vm-links: vm-image
	bench/vm-links.sh

# calvin up and down: wall time and processes started (hold the lock:
# flock /tmp/calvin-net.lock make bench-updown)
bench-updown: all
	bench/updown.sh

# The cost of calvin monitor at 10/s and 100/s to a chain's RTT, against
# none, in alternating rounds (flock /tmp/calvin-net.lock make bench-monitor)
bench-monitor: all $(B)/bench/rounds_table
	bench/monitor.sh

# The in-band clock offset estimate against the true offset (0 on chains of
# namespaces), per link, in rounds; fails when an error is outside its
# bound (flock /tmp/calvin-net.lock make bench-clock)
bench-clock: all $(B)/bench/clock_truth
	bench/clock.sh

# calvin-vnf against dpdk-testpmd on the same ports and CPU, with the
# suspects of calvin's tail one at a time (hold the lock:
# flock /tmp/calvin-net.lock make bench-testpmd)
bench-testpmd: all $(B)/bench/rounds_table
	bench/testpmd.sh

# the supervisor: 20 SIGKILLs of each user VNF kind to healed, probes lost
# (about 8 minutes; it takes the lock itself per kind: make bench-heal)
bench-heal: all
	bench/heal.sh

# The supervisor's and the monitor's RSS and CPU over a 30-minute run of a
# monitored chain of its own (DURATION=SECONDS); fails when RSS grows after
# the warm-up. Takes the lock only for up and down: make bench-soak
bench-soak: all
	bench/soak.sh

# The benchmarks' own programs (bench/progs/), built where the scripts run them.
$(B)/bench/%: bench/progs/%.c $(B)/lib/libcalvin.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $^ $(LIB_LDLIBS)

$(B)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

# Made anew each time: ar would keep the members of files that moved away.
$(B)/lib/libcalvin.a: $(LIB_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $^

# libvirt: only the libvirt backend's folder sees its headers, only calvin links it.
$(B)/userspace/calvin/libvirt/%.o: userspace/calvin/libvirt/%.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(call pc,--cflags libvirt) -MMD -MP -c $< -o $@

# calvin.objs names its objects for tests/unit/lib_acyclic.sh.
$(B)/calvin: $(CALVIN_OBJS) $(B)/lib/libcalvin.a
	$(CC) $(CFLAGS) -o $@ $^ $(call pc,--libs libxdp libbpf libvirt libmnl libmicrohttpd) \
		-lpthread $(LIB_LDLIBS)
	printf '%s\n' $(CALVIN_OBJS) >$(B)/calvin.objs

# DPDK's headers need their own flags; only userspace/vnf/ sees them.
$(B)/userspace/vnf/%.o: userspace/vnf/%.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(call pc,--cflags libdpdk) -Wno-shadow -MMD -MP -c $< -o $@

# The guest agent: the kernel/ loader and the chain spec parser, no DPDK.
$(B)/calvin-agent: $(AGENT_OBJS) $(LOADER_SRCS:%.c=$(B)/%.o) $(B)/lib/libcalvin.a
	$(CC) $(CFLAGS) -o $@ $^ -Wl,--as-needed $(call pc,--libs libxdp libbpf) $(LIB_LDLIBS)

# The conventional stack's relay and echo server (calvin bench).
$(B)/calvin-relay: $(B)/bench/relay/relay.o $(B)/lib/libcalvin.a
	$(CC) $(CFLAGS) -o $@ $^ $(LIB_LDLIBS)

# The tests' host-side agent client.
$(B)/tests/tools/agentctl: tests/tools/agentctl.c $(AGENT_CLIENT_OBJS) $(B)/lib/libcalvin.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $^ $(LIB_LDLIBS)

# calvin-vnf loads its ports' hand-over program (kernel/handover.c) with libbpf.
$(B)/calvin-vnf: $(VNF_OBJS) $(B)/kernel/handover.o $(B)/lib/libcalvin.a
	$(CC) $(CFLAGS) -o $@ $^ $(call pc,--libs libdpdk libbpf) $(LIB_LDLIBS)

# calvin-vnf's objects for tests/unit/lib_acyclic.sh, like calvin.objs:
# no file circle in userspace/vnf either.
$(B)/calvin-vnf.objs: $(VNF_OBJS)
	printf '%s\n' $(VNF_OBJS) >$@

$(B)/kernel/%.bpf.o: kernel/%.bpf.c $(wildcard kernel/*.h) $(wildcard include/calvin/*.h)
	@mkdir -p $(@D)
	$(CLANG) $(BPF_CFLAGS) -c $< -o $@

# The BPF skeletons (bpftool gen skeleton): each loader embeds its object
# and reaches its program, maps and read-only globals through typed fields.
# Embedded without DWARF, which names the build directory (the VM image is
# the same bytes wherever it is built); BTF, which libbpf needs, stays.
# bpftool's own notes (libbpf skips libxdp's .xdp_run_config) are shown
# only if it fails.
$(B)/kernel/%.skel.h: $(B)/kernel/%.bpf.o
	llvm-strip -g -o $@.o $<
	$(BPFTOOL) gen skeleton $@.o name $*_bpf >$@.tmp 2>$@.log || { cat $@.log >&2; exit 1; }
	@rm -f $@.o $@.log && mv $@.tmp $@

# The loaders: their skeletons, and no header of userspace/ (kernel/ is
# below it; what it takes is declared in kernel/ or include/calvin/).
$(LOADER_SRCS:%.c=$(B)/%.o): $(B)/kernel/%.o: kernel/%.c | $(SKELS)
	@mkdir -p $(@D)
	$(CC) $(filter-out -Iuserspace/%,$(CFLAGS)) -I$(B)/kernel -MMD -MP -c $< -o $@

$(B)/tests/unit/%: tests/unit/%.c $(B)/lib/libcalvin.a $(wildcard tests/unit/*/*.h tests/tools/*.h)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $< $(B)/lib/libcalvin.a $(call pc,--libs cmocka) $(LIB_LDLIBS)

# The isolation applier against a fake tree: the controller without its main.
$(B)/tests/unit/isolate/test_isolate_tree: tests/unit/isolate/test_isolate_tree.c \
		$(filter-out $(B)/userspace/calvin/main.o,$(CALVIN_OBJS)) $(B)/lib/libcalvin.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $^ $(call pc,--libs libxdp libbpf libvirt libmnl libmicrohttpd cmocka) \
		-lpthread $(LIB_LDLIBS)

# The chain journal in a run directory of its own: the controller without its main.
$(B)/tests/unit/state/test_journal: tests/unit/state/test_journal.c \
		$(filter-out $(B)/userspace/calvin/main.o,$(CALVIN_OBJS)) $(B)/lib/libcalvin.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $^ $(call pc,--libs libxdp libbpf libvirt libmnl libmicrohttpd cmocka) \
		-lpthread $(LIB_LDLIBS)

# The netlink module's operations from the command line (test_netlink.sh).
NL_OBJS = $(filter $(B)/userspace/calvin/nl/%,$(CALVIN_OBJS))
$(B)/tests/tools/nlctl: tests/tools/nlctl.c $(NL_OBJS) $(B)/userspace/calvin/util.o \
		$(B)/userspace/calvin/jout.o $(B)/userspace/calvin/tools.o $(B)/lib/libcalvin.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $^ $(call pc,--libs libmnl) $(LIB_LDLIBS)

# Links between hosts (userspace/calvin/ovn/) from the command line
# (tests/multihost/test_ovn_*.sh).
OVN_OBJS = $(filter $(B)/userspace/calvin/ovn/% $(B)/userspace/calvin/nl/%,$(CALVIN_OBJS))
$(B)/tests/tools/ovnlink: tests/tools/ovnlink.c $(OVN_OBJS) $(B)/userspace/calvin/state.o \
		$(B)/userspace/calvin/util.o $(B)/userspace/calvin/jout.o \
		$(B)/userspace/calvin/tools.o $(B)/lib/libcalvin.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $^ $(call pc,--libs libmnl) $(LIB_LDLIBS)

# Guest images on remote hosts (userspace/calvin/libvirt/storage.c) from
# the command line (tests/multihost/test_lv_image.sh): the controller
# without its main, as lv_open() needs the backend around it.
$(B)/tests/tools/lvimage: tests/tools/lvimage.c \
		$(filter-out $(B)/userspace/calvin/main.o,$(CALVIN_OBJS)) $(B)/lib/libcalvin.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $^ $(call pc,--libs libxdp libbpf libvirt libmnl libmicrohttpd) \
		-lpthread $(LIB_LDLIBS)

# The netlink module's requests, read back (no socket: no root needed).
$(B)/tests/unit/nl/test_nl_msg: tests/unit/nl/test_nl_msg.c $(B)/userspace/calvin/nl/msg.o
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $^ $(call pc,--libs libmnl cmocka)

# The supervisor's health as the monitor exports it (supervisor.json).
$(B)/tests/unit/monitor/test_supervisor_json: tests/unit/monitor/test_supervisor_json.c \
		$(B)/userspace/calvin/monitor/supervisor.o $(B)/lib/libcalvin.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $^ $(call pc,--libs cmocka) $(LIB_LDLIBS)

# The agent channel's deadlines, over real sockets.
$(B)/tests/unit/agent/test_agent_channel: tests/unit/agent/test_agent_channel.c \
		$(AGENT_CLIENT_OBJS) $(B)/lib/libcalvin.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $^ $(call pc,--libs cmocka) $(LIB_LDLIBS)

$(B)/tests/bpf/%: tests/bpf/%.c $(SKELS) $(B)/lib/libcalvin.a \
		$(wildcard tests/bpf/*.h kernel/*.h include/calvin/*.h)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -I$(B)/kernel -o $@ $< $(B)/lib/libcalvin.a \
		$(call pc,--libs libbpf cmocka) $(LIB_LDLIBS)

$(B)/tests/tools/%: tests/tools/%.c $(B)/lib/libcalvin.a $(wildcard tests/tools/*.h)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $< $(B)/lib/libcalvin.a $(LIB_LDLIBS)

# libFuzzer harnesses, with the pure library rebuilt under ASan/UBSan.
FUZZ_CFLAGS := -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	-D_GNU_SOURCE -Iinclude -Iuserspace/lib -I. -Ikernel
$(B)/tests/fuzz/%: tests/fuzz/%.c $(LIB_SRCS)
	@mkdir -p $(@D)
	$(CLANG) $(FUZZ_CFLAGS) -o $@ $^ $(LIB_LDLIBS)

# calvin finds calvin-vnf in ../lib/calvin from its own directory
# (calvin_lib_dir() in userspace/calvin/util.c), and calvin-vnf its
# hand-over program in kernel/ beside itself; the other XDP programs are
# built into calvin (their skeletons).
PREFIX ?= /usr/local
# calvin-supervise@.service, the supervisor under systemd
SYSTEMD_UNIT_DIR ?= $(PREFIX)/lib/systemd/system
install: $(B)/calvin $(B)/calvin-vnf $(B)/calvin-relay $(B)/kernel/handover.bpf.o
	install -d $(DESTDIR)$(PREFIX)/sbin $(DESTDIR)$(PREFIX)/lib/calvin/kernel \
		$(DESTDIR)$(PREFIX)/share/man/man8
	install -m 0755 $(B)/calvin $(DESTDIR)$(PREFIX)/sbin/calvin
	install -m 0755 $(B)/calvin-vnf $(DESTDIR)$(PREFIX)/lib/calvin/calvin-vnf
	install -m 0755 $(B)/calvin-relay $(DESTDIR)$(PREFIX)/lib/calvin/calvin-relay
	install -m 0644 $(B)/kernel/handover.bpf.o $(DESTDIR)$(PREFIX)/lib/calvin/kernel/
	install -m 0644 doc/calvin.8 $(DESTDIR)$(PREFIX)/share/man/man8/calvin.8
	install -d $(DESTDIR)$(SYSTEMD_UNIT_DIR)
	sed 's|@SBINDIR@|$(PREFIX)/sbin|' systemd/calvin-supervise@.service.in \
		>$(DESTDIR)$(SYSTEMD_UNIT_DIR)/calvin-supervise@.service

clean:
	rm -rf $(B)

format:
	clang-format -i $$(git ls-files '*.c' '*.h')

-include $(shell find $(B) -name '*.d' 2>/dev/null)
