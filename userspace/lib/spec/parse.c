// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Chain spec parser: the chain's top level (its keys and sections, the
 * checks of the whole chain) and calvin_spec_parse(); the walk of each
 * mapping is chainspec_walk.c. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <calvin/telemetry.h>

#include "spec_priv.h"

static int server_after(struct spec_ctx *c, void *obj, struct spec_seen *seen)
{
	c->server_name = seen->val[0];
	c->server_host = seen->val[2];
	return 0;
}

static const struct spec_key server_keys[] = {
    {.name = "name", .type = KEY_NAME, .off = offsetof(struct calvin_server_spec, name)},
    {.name = "kind",
     .type = KEY_WORD,
     .off = offsetof(struct calvin_server_spec, kind),
     .words = calvin_server_kind_words},
    {.name = "host", .type = KEY_NAME, .off = offsetof(struct calvin_server_spec, host)},
    {NULL},
};

static const struct spec_key probe_keys[] = {
    {.name = "port",
     .type = KEY_UINT,
     .off = offsetof(struct calvin_probe_spec, port),
     .min = 1,
     .max = 65535},
    {.name = "count",
     .type = KEY_UINT,
     .off = offsetof(struct calvin_probe_spec, count),
     .min = 1,
     .max = 10000000},
    {.name = "rate",
     .type = KEY_UINT,
     .off = offsetof(struct calvin_probe_spec, rate),
     .min = 1,
     .max = 1000000},
    {.name = "mode",
     .type = KEY_WORD,
     .off = offsetof(struct calvin_probe_spec, mode),
     .words = calvin_probe_mode_words},
    /* at least the block of a one-VNF chain; the chain's own need is
     * checked once its VNFs are known (check_probe_size()), and what its
     * mtu holds by check_mtu(): 1472 fills the default 1500 */
    {.name = "size",
     .type = KEY_UINT,
     .off = offsetof(struct calvin_probe_spec, size),
     .min = CALVIN_TLM_LEN(2),
     .max = CALVIN_MTU_MAX - 28},
    {NULL},
};

/* Where a value was, kept for checks that run once the whole file is
 * read, and back to a mark for their error line. */
static struct calvin_pos pos_of(const yaml_node_t *n)
{
	struct calvin_pos p = {(int)n->start_mark.line + 1, (int)n->start_mark.column + 1};

	return p;
}

static yaml_mark_t mark_of(struct calvin_pos p)
{
	yaml_mark_t m = {0};

	m.line = (size_t)p.line - 1;
	m.column = (size_t)p.col - 1;
	return m;
}

static int probe_after(struct spec_ctx *c, void *obj, struct spec_seen *seen)
{
	struct calvin_probe_spec *p = obj;
	yaml_node_t *size = seen->val[calvin_spec_key_index(probe_keys, "size")];

	if (size)
		p->size_pos = pos_of(size);
	return 0;
}

unsigned int calvin_probe_size_needed(const struct calvin_chain_spec *spec)
{
	return CALVIN_TLM_LEN(2 * spec->nr_vnfs);
}

unsigned int calvin_probe_size_default(const struct calvin_chain_spec *spec)
{
	unsigned int need = calvin_probe_size_needed(spec);

	return need > 256 ? need : 256;
}

/* A size the file gives must hold every hop record of the chain; without
 * one, the probe gets what the records need. */
static int check_probe_size(struct spec_ctx *c)
{
	struct calvin_chain_spec *s = c->spec;
	unsigned int need = calvin_probe_size_needed(s);

	if (!s->probe.size_pos.line) {
		s->probe.size = calvin_probe_size_default(s);
		return 0;
	}
	if (s->probe.size >= need)
		return 0;
	return calvin_spec_err(c, mark_of(s->probe.size_pos),
			       "probe size %u is too small for the %u hop records of %u VNFs (a "
			       "%u-byte telemetry block); set size to at least %u, or leave it "
			       "out",
			       s->probe.size, 2 * s->nr_vnfs, s->nr_vnfs, need, need);
}

/* A priority only means something to SCHED_FIFO; the position of sched
 * is kept for what `up` finds later (VNFs that would share a core). */
static int realtime_after(struct spec_ctx *c, void *obj, struct spec_seen *seen)
{
	struct calvin_realtime_spec *rt = obj;

	if (seen->val[0])
		rt->sched_pos = pos_of(seen->val[0]);
	if (seen->key[1] && rt->sched != CALVIN_SCHED_FIFO)
		return calvin_spec_err(c, seen->key[1]->start_mark,
				       "priority applies to 'sched: fifo' only; add 'sched: fifo' "
				       "or remove the priority");
	return 0;
}

static const struct spec_key realtime_keys[] = {
    {.name = "sched",
     .type = KEY_WORD,
     .off = offsetof(struct calvin_realtime_spec, sched),
     .words = calvin_sched_words},
    {.name = "priority",
     .type = KEY_UINT,
     .off = offsetof(struct calvin_realtime_spec, priority),
     .min = 1,
     .max = CALVIN_FIFO_PRIORITY_MAX},
    {.name = "lock-memory",
     .type = KEY_BOOL,
     .off = offsetof(struct calvin_realtime_spec, lock_memory)},
    {NULL},
};

static const struct spec_key chain_keys[] = {
	{ .name = "name",
	  .type = KEY_NAME,
	  .off = offsetof(struct calvin_chain_spec, name),
	  .required = "the chain's name, e.g. 'name: tactile-fwd'" },
	{ .name = "budget",
	  .type = KEY_DURATION,
	  .off = offsetof(struct calvin_chain_spec, budget_ns),
	  .hint = "the RTT budget, e.g. 350us",
	  .required = "the RTT budget, e.g. 'budget: 350us'" },
	{ .name = "placement",
	  .type = KEY_WORD,
	  .off = offsetof(struct calvin_chain_spec, placement),
	  .words = calvin_placement_words },
	{ .name = "allow-sharing",
	  .type = KEY_BOOL,
	  .off = offsetof(struct calvin_chain_spec, allow_sharing) },
	{ .name = "shared-core",
	  .type = KEY_WORD,
	  .off = offsetof(struct calvin_chain_spec, shared_core),
	  .words = calvin_shared_core_words },
	{ .name = "backend",
	  .type = KEY_WORD,
	  .off = offsetof(struct calvin_chain_spec, backend),
	  .words = calvin_backend_words },
	{ .name = "mode",
	  .type = KEY_WORD,
	  .off = offsetof(struct calvin_chain_spec, mode),
	  .words = calvin_chain_mode_words },
	{ .name = "mtu",
	  .type = KEY_UINT,
	  .off = offsetof(struct calvin_chain_spec, mtu),
	  .min = CALVIN_MTU_MIN,
	  .max = 65535, /* check_mtu() refuses above CALVIN_MTU_MAX and says why */
	  .shown_max = CALVIN_MTU_MAX },
	{ .name = "vnfs",
	  .type = KEY_VNFS,
	  .off = 0,
	  .set = calvin_spec_set_vnfs,
	  .required = "a list of VNFs, e.g. '- name: fwd-k' items" },
	{ .name = "server",
	  .type = KEY_SECTION,
	  .off = offsetof(struct calvin_chain_spec, server),
	  .keys = server_keys,
	  .after = server_after },
	{ .name = "probe",
	  .type = KEY_SECTION,
	  .off = offsetof(struct calvin_chain_spec, probe),
	  .keys = probe_keys,
	  .after = probe_after },
	{ .name = "realtime",
	  .type = KEY_SECTION,
	  .off = offsetof(struct calvin_chain_spec, realtime),
	  .keys = realtime_keys,
	  .after = realtime_after },
	{ .name = "libvirt",
	  .type = KEY_SECTION,
	  .off = offsetof(struct calvin_chain_spec, libvirt),
	  .keys = calvin_libvirt_keys,
	  .after = calvin_spec_libvirt_after },
	{ .name = "monitor",
	  .type = KEY_SECTION,
	  .off = offsetof(struct calvin_chain_spec, monitor),
	  .set = calvin_spec_set_monitor },
	{ .name = "supervise",
	  .type = KEY_SECTION,
	  .off = offsetof(struct calvin_chain_spec, supervise),
	  .keys = calvin_supervise_keys,
	  .after = calvin_spec_supervise_after },
	{ .name = "hosts", .type = KEY_HOSTS, .off = 0, .set = calvin_spec_set_hosts },
	{ .name = "ovn",
	  .type = KEY_SECTION,
	  .off = offsetof(struct calvin_chain_spec, ovn),
	  .keys = calvin_ovn_keys,
	  .after = calvin_spec_ovn_after },
	{ NULL },
};

/* libyaml's reader errors carry a byte offset, not a mark. */
static yaml_mark_t mark_at(const char *text, size_t len, size_t offset)
{
	yaml_mark_t m = {0};
	size_t i;

	for (i = 0; i < offset && i < len; i++) {
		if (text[i] == '\n') {
			m.line++;
			m.column = 0;
		} else {
			m.column++;
		}
	}
	return m;
}

static int syntax_error(struct spec_ctx *c, yaml_parser_t *p, const char *text, size_t len)
{
	yaml_mark_t m = p->problem_mark;
	char where[64] = "";

	if (p->error == YAML_MEMORY_ERROR) {
		if (c->err && c->errlen)
			snprintf(c->err, c->errlen,
				 "%s: out of memory while parsing; free some memory", c->path);
		return -ENOMEM;
	}
	if (p->error == YAML_READER_ERROR)
		m = mark_at(text, len, p->problem_offset);
	/* an unclosed quote or bracket is found far from where it opened */
	if (p->context && p->context_mark.line != m.line)
		snprintf(where, sizeof(where), " started at line %zu, column %zu",
			 p->context_mark.line + 1, p->context_mark.column + 1);
	return calvin_spec_err(c, m, "YAML syntax error: %s%s%s%s; fix the syntax here",
			       p->problem ? p->problem : "unknown problem", p->context ? ", " : "",
			       p->context ? p->context : "", where);
}

static void spec_defaults(struct calvin_chain_spec *spec, const char *path)
{
	memset(spec, 0, sizeof(*spec));
	snprintf(spec->path, sizeof(spec->path), "%s", path);
	spec->placement = CALVIN_PLACE_PINNED;
	spec->backend = CALVIN_BACKEND_NETNS;
	strcpy(spec->server.name, "server");
	strcpy(spec->server.host, CALVIN_LOCAL_HOST);
	spec->server.kind = CALVIN_SERVER_ECHO;
	spec->probe.port = 7357;
	spec->probe.count = 1000;
	spec->probe.rate = 1000;
	spec->probe.mode = CALVIN_PROBE_PACED;
	spec->probe.size = 256;
	spec->realtime.priority = CALVIN_FIFO_PRIORITY_DEFAULT;
	strcpy(spec->libvirt.uri, "qemu:///system");
	spec->libvirt.memory_mib = 512;
	calvin_spec_monitor_defaults(&spec->monitor);
	calvin_spec_supervise_defaults(&spec->supervise);
	spec->ovn.underlay_mtu = CALVIN_UNDERLAY_MTU_DEFAULT;
	spec->mtu = CALVIN_MTU_DEFAULT;
}

/* Realtime options need user VNFs, and SCHED_FIFO needs them pinned: an
 * unpinned busy-poller at FIFO would take whichever CPU it lands on. */
static int check_realtime(struct spec_ctx *c, yaml_node_t *section)
{
	const struct calvin_chain_spec *s = c->spec;
	unsigned int i, user = 0;

	if (!section)
		return 0;
	for (i = 0; i < s->nr_vnfs; i++)
		user += s->vnfs[i].space == CALVIN_USER;
	if (!user)
		return calvin_spec_err(c, section->start_mark,
				       "realtime options apply to user VNFs, and this chain has "
				       "none; remove the realtime section");
	if (s->realtime.sched != CALVIN_SCHED_FIFO || s->placement != CALVIN_PLACE_SHARED)
		return 0;
	return calvin_spec_err(c, mark_of(s->realtime.sched_pos),
			       "sched: fifo needs pinned user VNFs (a busy-polling VNF at "
			       "SCHED_FIFO would starve whatever shares its CPU); use 'placement: "
			       "pinned' or 'isolated', or 'sched: other'");
}

/* Throughput mode runs kernel VNFs at tc, where only the forwarder has a
 * program (kernel/forward_tc.bpf.c), and deploys in namespaces only. */
static int check_mode(struct spec_ctx *c, yaml_node_t *value)
{
	struct calvin_chain_spec *s = c->spec;
	unsigned int i;

	if (!value)
		return 0;
	s->mode_pos = pos_of(value);
	if (s->mode != CALVIN_MODE_THROUGHPUT)
		return 0;
	if (s->backend != CALVIN_BACKEND_NETNS)
		return calvin_spec_err(c, value->start_mark,
				       "mode: throughput needs 'backend: netns' (kernel VNFs at tc "
				       "in namespaces); use 'mode: latency' or the netns backend");
	for (i = 0; i < s->nr_vnfs; i++) {
		const struct calvin_vnf_spec *v = &s->vnfs[i];

		if (v->space != CALVIN_KERNEL || v->kind == CALVIN_VNF_FORWARD)
			continue;
		return calvin_spec_err(c, mark_of(v->pos),
				       "%s: kind %s has no tc program, and mode: throughput runs "
				       "kernel VNFs at tc; use 'space: user', kind forward, or "
				       "'mode: latency'",
				       v->name, calvin_vnf_kind_name(v->kind));
	}
	return 0;
}

/* mtu: below the ceiling of XDP on a veth (see CALVIN_MTU_MAX), on the
 * netns backend only (VM links and links between hosts have MTUs of their
 * own), and with room for the probe. */
static int check_mtu(struct spec_ctx *c, yaml_node_t *value)
{
	struct calvin_chain_spec *s = c->spec;

	if (!value) {
		if (s->probe.size + 28 <= s->mtu)
			return 0;
		return calvin_spec_err(c, mark_of(s->probe.size_pos),
				       "probe size %u does not fit the chain's mtu of %u with 28 "
				       "bytes of IP and UDP headers; use at most %u, or raise the "
				       "chain's mtu to at least %u",
				       s->probe.size, s->mtu, s->mtu - 28, s->probe.size + 28);
	}
	s->mtu_pos = pos_of(value);
	if (s->mtu > CALVIN_MTU_MAX)
		return calvin_spec_err(c, value->start_mark,
				       "mtu %u is too large: every netns chain runs XDP programs on "
				       "veths, which take frames of at most %u bytes (4 KB pages), "
				       "and links between VNFs carry %u bytes more than the "
				       "endpoints'; use at most %u",
				       s->mtu, CALVIN_MTU_XDP_MAX, CALVIN_INNER_MTU_EXTRA,
				       CALVIN_MTU_MAX);
	if (s->mtu != CALVIN_MTU_DEFAULT &&
	    (s->backend != CALVIN_BACKEND_NETNS || s->nr_hosts))
		return calvin_spec_err(c, value->start_mark,
				       "mtu applies to chains in namespaces on this host ('backend: "
				       "netns', no hosts); VM links and links between hosts keep "
				       "their own; remove it");
	if (s->probe.size + 28 > s->mtu)
		return calvin_spec_err(c, value->start_mark,
				       "mtu %u leaves no room for the probe's %u bytes (and 28 of IP "
				       "and UDP headers); use at least %u, or a smaller probe size",
				       s->mtu, s->probe.size, s->probe.size + 28);
	return 0;
}

static int walk_chain(struct spec_ctx *c)
{
	yaml_node_t *root = yaml_document_get_root_node(c->doc);
	struct spec_seen seen;
	yaml_mark_t start = {0};
	int err;

	if (!root || root->type != YAML_MAPPING_NODE)
		return calvin_spec_err(c, root ? root->start_mark : start,
				       "the top level must be a mapping of keys (name, budget, "
				       "vnfs, ...); start with 'name: CHAIN'");
	err = calvin_spec_walk_mapping(c, root, "the chain", chain_keys, c->spec, &seen);
	if (!err)
		err = calvin_spec_check_names(c);
	if (!err)
		err = check_probe_size(c);
	if (!err)
		err = check_mode(c, seen.val[calvin_spec_key_index(chain_keys, "mode")]);
	if (!err)
		err = calvin_spec_check_pairs(c);
	if (!err)
		err = calvin_spec_check_libvirt(
		    c, seen.key[calvin_spec_key_index(chain_keys, "libvirt")]);
	if (!err)
		err = calvin_spec_check_hosts(c, seen.key[calvin_spec_key_index(chain_keys, "hosts")],
					      seen.key[calvin_spec_key_index(chain_keys, "ovn")]);
	if (!err)
		err = check_mtu(c, seen.val[calvin_spec_key_index(chain_keys, "mtu")]);
	return err ? err
		   : check_realtime(c, seen.key[calvin_spec_key_index(chain_keys, "realtime")]);
}

/* A second document would be silently ignored; say so instead. */
static int check_one_document(struct spec_ctx *c, yaml_parser_t *parser, const char *text,
			      size_t len)
{
	yaml_document_t extra;
	yaml_node_t *root;
	int err = 0;

	if (!yaml_parser_load(parser, &extra))
		return syntax_error(c, parser, text, len);
	root = yaml_document_get_root_node(&extra);
	if (root)
		err = calvin_spec_err(
		    c, root->start_mark,
		    "a second YAML document; keep one chain per file, without '---' separators");
	yaml_document_delete(&extra);
	return err;
}

int calvin_spec_parse(const char *text, size_t len, const char *path,
		      struct calvin_chain_spec *spec, char *err, size_t errlen)
{
	struct spec_ctx c = {
	    .path = path ? path : "<input>", .err = err, .errlen = errlen, .spec = spec};
	yaml_parser_t parser;
	yaml_document_t doc;
	int ret;

	if (err && errlen)
		err[0] = 0;
	spec_defaults(spec, c.path);
	if (!yaml_parser_initialize(&parser))
		return -ENOMEM;
	yaml_parser_set_input_string(&parser, (const unsigned char *)(text ? text : ""),
				     text ? len : 0);
	if (!yaml_parser_load(&parser, &doc)) {
		ret = syntax_error(&c, &parser, text, len);
		goto out_parser;
	}
	c.doc = &doc;
	ret = check_one_document(&c, &parser, text, len);
	if (!ret)
		ret = walk_chain(&c);
	yaml_document_delete(&doc);
out_parser:
	yaml_parser_delete(&parser);
	return ret;
}
