// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Unit tests of a chain spec's kernel VNFs as their loaders take them
 * (kvnf_spec.h): what the netns backend, live updates and calvin-agent all
 * hand to kernel/kvnf.c. */
#include <arpa/inet.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "guest/guest.h"
#include "kvnf.h"

static const char spec_text[] =
    "name: t\n"
    "budget: 1ms\n"
    "vnfs:\n"
    "  - {name: fwd, kind: forward}\n"
    "  - name: fw\n"
    "    kind: acl\n"
    "    default: deny\n"
    "    rules:\n"
    "      - {action: allow, proto: udp, src: 10.70.0.0/24, dst: 10.70.0.2, "
    "sport: 1000-2000, dport: 7357}\n"
    "      - {action: deny, proto: 58, src: '2001:db8::/32'}\n"
    "      - {action: allow}\n"
    "  - name: rt\n"
    "    kind: router\n"
    "    routes:\n"
    "      - {prefix: 10.70.0.2/32, via: east}\n"
    "      - {prefix: '2001:db8:1::/48', via: drop}\n"
    "      - {prefix: any, via: west}\n"
    "  - {name: rl, kind: ratelimit, pps: 1000, burst: 7, bytes-per-second: 9000, per: flow}\n"
    "  - {name: imp, kind: impair, model: gilbert-elliott, p: 1%, r: 30%, loss-good: 0.0001%,"
    " loss-bad: 50%, duplicate: 2%, seed: 0x10, direction: rev}\n"
    "  - {name: enc, kind: nc-encode, k: 4, r: 1}\n"
    "  - {name: dec, kind: nc-decode, k: 4, r: 1}\n"
    "  - {name: fwd-u, kind: forward, space: user}\n";

static struct calvin_chain_spec spec; /* large: not on the stack */
static struct calvin_kvnf k;

static int setup(void **state)
{
	char err[CALVIN_ERR_MAX];
	int ret;

	ret =
	    calvin_spec_parse(spec_text, sizeof(spec_text) - 1, "t.yaml", &spec, err, sizeof(err));
	if (ret)
		print_message("%s\n", err);
	return ret;
}

static void assert_prefix(const struct calvin_xdp_prefix *p, int family, int len, const char *addr)
{
	uint8_t want[16] = { 0 };

	assert_int_equal(p->family, family);
	assert_int_equal(p->len, len);
	if (addr)
		assert_int_equal(
		    inet_pton(family == CALVIN_FAMILY_IPV6 ? AF_INET6 : AF_INET, addr, want), 1);
	assert_memory_equal(p->addr, want, sizeof(want));
}

static void forward_has_no_parameters(void **state)
{
	assert_int_equal(calvin_kvnf_from_spec(&spec.vnfs[0], &k), 0);
	assert_int_equal(k.kind, CALVIN_KVNF_FORWARD);
}

static void acl_rules_in_the_loaders_words(void **state)
{
	const struct calvin_xdp_acl_rule *r = k.acl.rules;

	assert_int_equal(calvin_kvnf_from_spec(&spec.vnfs[1], &k), 0);
	assert_int_equal(k.kind, CALVIN_KVNF_ACL);
	assert_int_equal(k.acl.default_action, CALVIN_XDP_ACL_DENY);
	assert_int_equal(k.acl.nr_rules, 3);
	assert_int_equal(r[0].action, CALVIN_XDP_ACL_ALLOW);
	assert_int_equal(r[0].proto, IPPROTO_UDP);
	assert_prefix(&r[0].src, CALVIN_FAMILY_IPV4, 24, "10.70.0.0");
	assert_prefix(&r[0].dst, CALVIN_FAMILY_IPV4, 32, "10.70.0.2");
	assert_int_equal(r[0].sport.lo, 1000);
	assert_int_equal(r[0].sport.hi, 2000);
	assert_int_equal(r[0].dport.lo, 7357);
	assert_int_equal(r[0].dport.hi, 7357);
	assert_int_equal(r[1].action, CALVIN_XDP_ACL_DENY);
	assert_int_equal(r[1].proto, 58);
	assert_prefix(&r[1].src, CALVIN_FAMILY_IPV6, 32, "2001:db8::");
	assert_prefix(&r[1].dst, CALVIN_FAMILY_ANY, 0, NULL);
	assert_int_equal(r[2].sport.lo, 0);
	assert_int_equal(r[2].dport.hi, 65535);
}

static void routes_in_the_loaders_words(void **state)
{
	const struct calvin_xdp_route *r = k.router.routes;

	assert_int_equal(calvin_kvnf_from_spec(&spec.vnfs[2], &k), 0);
	assert_int_equal(k.kind, CALVIN_KVNF_ROUTER);
	assert_int_equal(k.router.nr_routes, 3);
	assert_prefix(&r[0].prefix, CALVIN_FAMILY_IPV4, 32, "10.70.0.2");
	assert_int_equal(r[0].via, CALVIN_XDP_VIA_EAST);
	assert_prefix(&r[1].prefix, CALVIN_FAMILY_IPV6, 48, "2001:db8:1::");
	assert_int_equal(r[1].via, CALVIN_XDP_VIA_DROP);
	assert_prefix(&r[2].prefix, CALVIN_FAMILY_ANY, 0, NULL);
	assert_int_equal(r[2].via, CALVIN_XDP_VIA_WEST);
}

static void ratelimit_as_the_program_reads_it(void **state)
{
	assert_int_equal(calvin_kvnf_from_spec(&spec.vnfs[3], &k), 0);
	assert_int_equal(k.kind, CALVIN_KVNF_RATELIMIT);
	assert_int_equal(k.ratelimit.pps, 1000);
	assert_int_equal(k.ratelimit.burst_packets, 7);
	assert_int_equal(k.ratelimit.bytes_per_sec, 9000);
	assert_int_equal(k.ratelimit.burst_bytes, 1514); /* the parser's default */
	assert_int_equal(k.ratelimit.per, CALVIN_XDP_RL_PER_FLOW);
}

static void impair_as_the_program_reads_it(void **state)
{
	assert_int_equal(calvin_kvnf_from_spec(&spec.vnfs[4], &k), 0);
	assert_int_equal(k.kind, CALVIN_KVNF_IMPAIR);
	assert_int_equal(k.impair.model, CALVIN_IMPAIR_GILBERT_ELLIOTT);
	assert_int_equal(k.impair.ge_p_ppm, 10000);
	assert_int_equal(k.impair.ge_r_ppm, 300000);
	assert_int_equal(k.impair.ge_loss_good_ppm, 1);
	assert_int_equal(k.impair.ge_loss_bad_ppm, 500000);
	assert_int_equal(k.impair.duplicate_ppm, 20000);
	assert_int_equal(k.impair.seed, 0x10);
	assert_int_equal(k.impair.dirs, 1U << CALVIN_DIR_REV);
}

/* Kinds with no XDP program: the one error every caller words alike. */
static void user_kinds_have_no_kernel_vnf(void **state)
{
	assert_int_equal(calvin_kvnf_from_spec(&spec.vnfs[5], &k), -EOPNOTSUPP);
	assert_int_equal(calvin_kvnf_from_spec(&spec.vnfs[6], &k), -EOPNOTSUPP);
	assert_int_equal(calvin_kvnf_kind_of(CALVIN_VNF_ENCRYPT), -EOPNOTSUPP);
	assert_int_equal(calvin_kvnf_kind_of(CALVIN_VNF_FORWARD), CALVIN_KVNF_FORWARD);
	/* forward in user space is calvin-vnf's; the kind alone says forward */
	assert_int_equal(calvin_kvnf_kind_of(spec.vnfs[7].kind), CALVIN_KVNF_FORWARD);
}

/* A spec built by hand with values no parser gives: refused, not passed on
 * as numbers the program would read otherwise. */
static void values_without_an_equivalent_refused(void **state)
{
	struct calvin_vnf_spec v = spec.vnfs[1];

	v.acl.rules[1].src.family = 99;
	assert_int_equal(calvin_kvnf_from_spec(&v, &k), -EINVAL);
	v = spec.vnfs[1];
	v.acl.rules[0].action = (enum calvin_acl_action)7;
	assert_int_equal(calvin_kvnf_from_spec(&v, &k), -EINVAL);
	v = spec.vnfs[1];
	v.acl.nr_rules = CALVIN_XDP_ACL_MAX_RULES + 1;
	assert_int_equal(calvin_kvnf_from_spec(&v, &k), -E2BIG);
	v = spec.vnfs[2];
	v.router.routes[2].via = (enum calvin_route_via)3;
	assert_int_equal(calvin_kvnf_from_spec(&v, &k), -EINVAL);
	v = spec.vnfs[3];
	v.ratelimit.per = (enum calvin_rl_scope)2;
	assert_int_equal(calvin_kvnf_from_spec(&v, &k), -EINVAL);
	v = spec.vnfs[4];
	v.impair.direction = (enum calvin_direction)3;
	assert_int_equal(calvin_kvnf_from_spec(&v, &k), -EINVAL);
	v = spec.vnfs[4];
	v.impair.model = (enum calvin_loss_model)2;
	assert_int_equal(calvin_kvnf_from_spec(&v, &k), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(forward_has_no_parameters),
		cmocka_unit_test(acl_rules_in_the_loaders_words),
		cmocka_unit_test(routes_in_the_loaders_words),
		cmocka_unit_test(ratelimit_as_the_program_reads_it),
		cmocka_unit_test(impair_as_the_program_reads_it),
		cmocka_unit_test(user_kinds_have_no_kernel_vnf),
		cmocka_unit_test(values_without_an_equivalent_refused),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
