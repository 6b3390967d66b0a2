# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# calvin: build, run the reference chain, test. See README.md.
#
#   make          install missing Debian packages, build everything
#   make run      deploy the reference chain, probe it, print the report, tear down
#   make test     unit, bpf, fuzz (short) and integration tests
#   make fuzz     long fuzzing runs

CHAIN ?= chains/tactile-fwd.yaml
B := build

# Debian 12 packages the build, the tests and the run need.
DEB_PKGS := build-essential pkg-config clang llvm libbpf-dev libxdp-dev xdp-tools bpftool \
	gcc-multilib libdpdk-dev libssl-dev libisal-dev libyaml-dev libcmocka-dev \
	libclang-rt-14-dev iproute2 iputils-ping ethtool sockperf procps stress-ng

CC := gcc
CLANG := clang
WARN := -Wall -Wextra -Werror -Wno-unused-parameter -Wmissing-prototypes -Wshadow
CFLAGS ?= -O2 -g
CFLAGS += -std=gnu11 $(WARN) -D_GNU_SOURCE -Iinclude -Iuserspace/lib -Ikernel -Iuserspace/calvin
BPF_CFLAGS := -O2 -g -target bpf -Wall -Werror -Iinclude -Ikernel \
	-I/usr/include/$(shell gcc -dumpmachine)

LIB_SRCS := $(wildcard userspace/lib/*.c)
LIB_OBJS := $(LIB_SRCS:%.c=$(B)/%.o)
CALVIN_SRCS := $(wildcard userspace/calvin/*.c userspace/calvin/netns/*.c) $(filter-out %.bpf.c,$(wildcard kernel/*.c))
CALVIN_OBJS := $(CALVIN_SRCS:%.c=$(B)/%.o)
VNF_SRCS := $(wildcard userspace/vnf/*.c)
VNF_OBJS := $(VNF_SRCS:%.c=$(B)/%.o)
BPF_SRCS := $(wildcard kernel/*.bpf.c)
BPF_OBJS := $(BPF_SRCS:kernel/%.bpf.c=$(B)/kernel/%.bpf.o)
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(UNIT_SRCS:%.c=$(B)/%)
BPFTEST_SRCS := $(wildcard tests/bpf/test_*.c)
BPFTEST_BINS := $(BPFTEST_SRCS:%.c=$(B)/%)
TOOL_SRCS := $(wildcard tests/tools/*.c)
TOOL_BINS := $(TOOL_SRCS:%.c=$(B)/%)
FUZZ_SRCS := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BINS := $(FUZZ_SRCS:%.c=$(B)/%)

# What libcalvin.a's pure code links with: YAML, ISA-L (GF(2^8)), OpenSSL (AEAD).
LIB_LDLIBS = $(call pc,--libs yaml-0.1 libcrypto) -lisal -lm

DEPS_STAMP := $(B)/.deps-installed
# Package flags are read only after the packages are there.
pc = $(shell pkg-config $(1) 2>/dev/null)

.PHONY: all deps run test test-unit test-bpf test-fuzz test-integration fuzz clean format \
	bench bench-kernel bench-user
all: $(DEPS_STAMP)
	@$(MAKE) --no-print-directory build

.PHONY: build
build: $(B)/calvin $(B)/calvin-vnf $(BPF_OBJS) $(UNIT_BINS) $(BPFTEST_BINS) $(FUZZ_BINS) \
	$(TOOL_BINS)

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

test: all
	tests/run

test-unit test-bpf test-fuzz test-integration: all
	tests/run $(@:test-%=%)

fuzz: all
	tests/fuzz/run-long

# Benchmarks: side-by-side comparisons in one run, Markdown reports in
# bench/results/. Not tests: this machine is shared, so they report medians
# and ratios, and never fail a build.
bench: bench-kernel bench-user

bench-kernel: all
	bench/kernel.sh

bench-user: all $(B)/bench/nc_bench $(B)/bench/aead_bench
	bench/user.sh

$(B)/bench/%: bench/%.c $(B)/lib/libcalvin.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $^ $(LIB_LDLIBS)

$(B)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

$(B)/lib/libcalvin.a: $(LIB_OBJS)
	@mkdir -p $(@D)
	ar rcs $@ $^

$(B)/calvin: $(CALVIN_OBJS) $(B)/lib/libcalvin.a
	$(CC) $(CFLAGS) -o $@ $^ $(call pc,--libs libxdp libbpf) $(LIB_LDLIBS)

# DPDK's headers need their own flags; only userspace/vnf/ sees them.
$(B)/userspace/vnf/%.o: userspace/vnf/%.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(call pc,--cflags libdpdk) -Wno-shadow -MMD -MP -c $< -o $@

$(B)/calvin-vnf: $(VNF_OBJS) $(B)/lib/libcalvin.a
	$(CC) $(CFLAGS) -o $@ $^ $(call pc,--libs libdpdk) $(LIB_LDLIBS)

$(B)/kernel/%.bpf.o: kernel/%.bpf.c $(wildcard kernel/*.h) $(wildcard include/calvin/*.h)
	@mkdir -p $(@D)
	$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(B)/tests/unit/%: tests/unit/%.c $(B)/lib/libcalvin.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $^ $(call pc,--libs cmocka) $(LIB_LDLIBS)

$(B)/tests/bpf/%: tests/bpf/%.c $(BPF_OBJS) $(B)/lib/libcalvin.a \
		$(wildcard tests/bpf/*.h kernel/*.h include/calvin/*.h)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $< $(B)/lib/libcalvin.a $(call pc,--libs libbpf cmocka) $(LIB_LDLIBS)

$(B)/tests/tools/%: tests/tools/%.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $<

# libFuzzer harnesses, with the pure library rebuilt under ASan/UBSan.
FUZZ_CFLAGS := -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	-D_GNU_SOURCE -Iinclude -Iuserspace/lib
$(B)/tests/fuzz/%: tests/fuzz/%.c $(LIB_SRCS)
	@mkdir -p $(@D)
	$(CLANG) $(FUZZ_CFLAGS) -o $@ $^ $(LIB_LDLIBS)

clean:
	rm -rf $(B)

format:
	clang-format -i $$(git ls-files '*.c' '*.h')

-include $(shell find $(B) -name '*.d' 2>/dev/null)
