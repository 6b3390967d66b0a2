/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Chain spec parser internals shared by parse.c (the top level), walk.c
 * (the walk of a mapping), vnf.c (VNF kinds), lists.c (rules and routes),
 * nodes.c (names and nodes), values.c, params.c and net.c (values),
 * pairs.c and libvirt.c (checks); not for use outside spec/ (its tests
 * read the parameter values too). */
#ifndef CALVIN_LIB_SPEC_PRIV_H
#define CALVIN_LIB_SPEC_PRIV_H

#include <yaml.h>

#include "spec/spec.h"

/* The probe size when the chain file gives none: 256 bytes, or the block
 * spec needs where that is more. */
unsigned int calvin_probe_size_default(const struct calvin_chain_spec *spec);

/* The words of the enums only the parser reads (see spec.h for the
 * others). */
extern const char *const calvin_space_words[];
extern const char *const calvin_placement_words[];
extern const char *const calvin_backend_words[];
extern const char *const calvin_chain_mode_words[];
extern const char *const calvin_shared_core_words[];
extern const char *const calvin_server_kind_words[];
extern const char *const calvin_probe_mode_words[];
extern const char *const calvin_sched_words[];
extern const char *const calvin_vm_links_words[];
extern const char *const calvin_accel_words[];
extern const char *const calvin_acl_action_words[];
extern const char *const calvin_route_via_words[];
extern const char *const calvin_rl_scope_words[];
extern const char *const calvin_loss_model_words[];
extern const char *const calvin_cipher_words[];

/* Parameter values, pure (no YAML): each returns 0 or -EINVAL, plus the
 * cases noted. */

/* "10.70.0.0/24", "10.70.0.2" (/32), "2001:db8::/32", "::1" (/128), "any".
 * -EDOM: host bits set; *p then holds the prefix with them cleared. */
int calvin_parse_prefix(const char *s, struct calvin_prefix *p);
#define CALVIN_PREFIX_STR_MAX 56
/* The spec form of p ("any", "10.70.0.0/24"); buf of CALVIN_PREFIX_STR_MAX. */
const char *calvin_prefix_str(const struct calvin_prefix *p, char *buf, size_t size);
/* "80" or "1000-2000": 0..65535, lo <= hi. */
int calvin_parse_ports(const char *s, struct calvin_port_range *r);
/* any (0), tcp, udp, icmp, icmpv6, or a protocol number 0..255. */
int calvin_parse_proto(const char *s, uint8_t *proto);
/* "5%", "0.5%", "100%" to parts per million, rounded to the nearest;
 * -ERANGE: above 100%. A number without '%' is -EINVAL. */
int calvin_parse_ppm(const char *s, uint32_t *ppm);
/* A memory size with a unit: "512MiB", "2GiB", in MiB; -ERANGE if it
 * does not fit 32 bits of MiB. */
int calvin_parse_mib(const char *s, unsigned int *mib);
/* Decimal or 0x hex, 0..UINT64_MAX; -ERANGE on overflow. */
int calvin_parse_u64(const char *s, uint64_t *v);

/* keys of one mapping's table: calvin_spec_walk_mapping() refuses a longer one */
#define SPEC_MAX_KEYS 24
#define SPEC_LIST_MAX 256 /* valid keys or words, joined for an error line */
#define SHOWN_MAX 40 /* user text quoted in an error line */

struct spec_ctx {
	yaml_document_t *doc;
	const char *path;
	char *err;
	size_t errlen;
	struct calvin_chain_spec *spec;
	/* where each node name was written, for the distinct-names check */
	yaml_node_t *vnf_name[CALVIN_MAX_VNFS];
	yaml_node_t *server_name; /* NULL: the default name */
	yaml_node_t *vnf_node[CALVIN_MAX_VNFS]; /* NULL: the default node */
	yaml_node_t *vnf_host[CALVIN_MAX_VNFS]; /* NULL: the default host, local */
	yaml_node_t *server_host;
	/* the VNF being walked, for messages about its rules and routes */
	struct calvin_vnf_spec *vnf;
	unsigned int vnf_index;
	yaml_mark_t vnf_mark; /* where its mapping starts */
};

/* The key and value node of each key of a mapping, indexed like its table. */
struct spec_seen {
	yaml_node_t *key[SPEC_MAX_KEYS];
	yaml_node_t *val[SPEC_MAX_KEYS];
};

enum key_type {
	KEY_NAME,
	KEY_DURATION,
	KEY_BOOL,
	KEY_WORD,
	KEY_UINT,
	KEY_SECTION,
	KEY_VNFS, /* set by its key's set(): vnf.c */
	/* VNF parameters, set by calvin_spec_set_param() */
	KEY_U64,    /* uint64_t, decimal or 0x hex, min..max64 */
	KEY_U32,    /* uint32_t, decimal or 0x hex, min..max64 */
	KEY_PPM,    /* uint32_t parts per million, written as a percentage */
	KEY_PREFIX, /* struct calvin_prefix */
	KEY_PORTS,  /* struct calvin_port_range */
	KEY_PROTO,  /* uint8_t */
	KEY_PATH,   /* char[4096], resolved against the spec file's directory */
	KEY_RULES,  /* struct calvin_acl_spec, set by its key's set() */
	KEY_ROUTES, /* struct calvin_router_spec, set by its key's set() */
	/* backend settings, set by calvin_spec_set_param() too */
	KEY_STRING, /* char[CALVIN_URI_MAX]: printable, no spaces */
	KEY_URI,    /* a KEY_STRING calvin_libvirt_uri_check() allows */
	KEY_MIB,    /* unsigned int MiB, written with a unit; min..max */
	KEY_HOSTS,  /* the hosts list, set by its key's set(): hosts.c */
};

struct spec_key {
	const char *name;
	enum key_type type;
	size_t off;		     /* of the field in the struct the mapping fills */
	const char *const *words;    /* KEY_WORD */
	unsigned int min, max;	     /* KEY_UINT; min also for KEY_U64, KEY_U32 */
	unsigned int shown_max;	     /* KEY_UINT: the largest a message offers, if below max */
	uint64_t max64;		     /* KEY_U64, KEY_U32 */
	const char *hint;	     /* KEY_DURATION: what to give if it is zero */
	const struct spec_key *keys; /* KEY_SECTION */
	/* KEY_SECTION: checks that need the whole section */
	int (*after)(struct spec_ctx *c, void *obj, struct spec_seen *seen);
	const char *required; /* how to add the key if missing; NULL: optional */
	/* a value that is a list of mappings (KEY_VNFS, KEY_RULES,
	 * KEY_ROUTES): what sets it, walking each item with its own keys */
	int (*set)(struct spec_ctx *c, const struct spec_key *k, yaml_node_t *n, void *field);
};

__attribute__((format(printf, 3, 4))) int calvin_spec_err(struct spec_ctx *c, yaml_mark_t m,
							  const char *fmt, ...);
const char *calvin_spec_shown(const char *s, char buf[SHOWN_MAX + 4]);
void calvin_spec_join_words(const char *const *words, char *buf, size_t size);
int calvin_spec_scalar(struct spec_ctx *c, yaml_node_t *n, const char *key, const char **s);
int calvin_spec_set_name(struct spec_ctx *c, const struct spec_key *k, yaml_node_t *n, char *out);
int calvin_spec_set_duration(struct spec_ctx *c, const struct spec_key *k, yaml_node_t *n,
			     uint64_t *out);
int calvin_spec_set_bool(struct spec_ctx *c, const struct spec_key *k, yaml_node_t *n, bool *out);
int calvin_spec_set_word(struct spec_ctx *c, const struct spec_key *k, yaml_node_t *n, int *out);
int calvin_spec_set_uint(struct spec_ctx *c, const struct spec_key *k, yaml_node_t *n,
			 unsigned int *out);

/* "acl 'fw'", or "acl in VNF 2" before its name is read */
const char *calvin_spec_vnf_label(struct spec_ctx *c, char *buf, size_t size);

/* "why" of a check that returns -EINVAL with a sentence (libvirt_uri.c) */
__attribute__((format(printf, 3, 4))) int calvin_spec_why(char *why, size_t len, const char *fmt,
							  ...);
/* walk.c */
int calvin_spec_walk_mapping(struct spec_ctx *c, yaml_node_t *map, const char *what,
			     const struct spec_key *keys, void *obj, struct spec_seen *seen);
void calvin_spec_join_keys(const struct spec_key *keys, char *buf, size_t size);
/* Index of name in keys, or -1. */
int calvin_spec_key_index(const struct spec_key *keys, const char *name);
/* params.c: the VNF parameter types and the libvirt strings */
int calvin_spec_set_param(struct spec_ctx *c, const struct spec_key *k, yaml_node_t *n,
			  void *field);
/* vnf.c and lists.c: the lists of mappings */
int calvin_spec_set_vnfs(struct spec_ctx *c, const struct spec_key *k, yaml_node_t *n,
			 void *field);
int calvin_spec_set_rules(struct spec_ctx *c, const struct spec_key *k, yaml_node_t *n,
			  void *field);
int calvin_spec_set_routes(struct spec_ctx *c, const struct spec_key *k, yaml_node_t *n,
			   void *field);
/* libvirt.c: the libvirt section */
extern const struct spec_key calvin_libvirt_keys[];
int calvin_spec_set_string(struct spec_ctx *c, const struct spec_key *k, yaml_node_t *n,
			   const char *s, char *out);
int calvin_spec_set_mib(struct spec_ctx *c, const struct spec_key *k, yaml_node_t *n,
			const char *s, unsigned int *out);
int calvin_spec_set_uri(struct spec_ctx *c, const struct spec_key *k, yaml_node_t *n,
			const char *s, char *out);
int calvin_spec_libvirt_after(struct spec_ctx *c, void *obj, struct spec_seen *seen);
/* After the whole chain: the section fits the backend. */
int calvin_spec_check_libvirt(struct spec_ctx *c, yaml_node_t *key);
int calvin_spec_check_names(struct spec_ctx *c);
/* monitor.c: the monitor section; its defaults, also for `up --monitor` */
void calvin_spec_monitor_defaults(struct calvin_monitor_spec *m);
int calvin_spec_set_monitor(struct spec_ctx *c, const struct spec_key *k, yaml_node_t *n,
			    void *field);
/* supervise.c: the supervise section and its defaults */
extern const struct spec_key calvin_supervise_keys[];
void calvin_spec_supervise_defaults(struct calvin_supervise_spec *s);
int calvin_spec_supervise_after(struct spec_ctx *c, void *obj, struct spec_seen *seen);
/* hosts.c: the hosts list, the ovn section, and every node's host */
extern const struct spec_key calvin_ovn_keys[];
int calvin_spec_set_hosts(struct spec_ctx *c, const struct spec_key *k, yaml_node_t *n,
			  void *field);
int calvin_spec_ovn_after(struct spec_ctx *c, void *obj, struct spec_seen *seen);
int calvin_spec_check_hosts(struct spec_ctx *c, yaml_node_t *hosts, yaml_node_t *ovn);
/* encrypt/decrypt and nc-encode/nc-decode pairs (pairs.c) */
int calvin_spec_check_pairs(struct spec_ctx *c);

#endif /* CALVIN_LIB_SPEC_PRIV_H */
