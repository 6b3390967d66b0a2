// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Chain spec parser: the monitor section (continuous probing, the
 * Prometheus endpoint's address, the breach hook) and listen addresses. */
#include <arpa/inet.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec_priv.h"

#define WINDOW_MIN_NS 1000000000ULL
#define WINDOW_MAX_NS 3600000000000ULL
#define HOOK_TIMEOUT_MIN_NS 100000000ULL
#define HOOK_TIMEOUT_MAX_NS 60000000000ULL
/* a window's probes are held in memory: bound what one window sends */
#define WINDOW_PROBES_MAX 10000000ULL

void calvin_spec_monitor_defaults(struct calvin_monitor_spec *m)
{
	memset(m, 0, sizeof(*m));
	m->rate = 10;
	m->window_ns = 10 * WINDOW_MIN_NS;
	snprintf(m->listen_text, sizeof(m->listen_text), "127.0.0.1:%u", CALVIN_MONITOR_PORT);
	calvin_parse_listen(m->listen_text, &m->listen);
	m->hook_timeout_ns = 5 * WINDOW_MIN_NS;
}

static int parse_port(const char *s, uint16_t *port)
{
	char *end;
	unsigned long v;

	if (!*s || strspn(s, "0123456789") != strlen(s))
		return -EINVAL;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || v > 65535)
		return -EINVAL;
	*port = (uint16_t)v;
	return 0;
}

int calvin_parse_listen(const char *s, struct calvin_listen *l)
{
	char host[INET6_ADDRSTRLEN + 2];
	const char *colon;
	size_t n;

	memset(l, 0, sizeof(*l));
	if (s[0] == '[') {
		colon = strstr(s, "]:");
		if (!colon)
			return -EINVAL;
		n = (size_t)(colon - s - 1);
		if (n >= sizeof(host))
			return -EINVAL;
		memcpy(host, s + 1, n);
		host[n] = 0;
		l->family = AF_INET6;
		colon++;
	} else {
		colon = strrchr(s, ':');
		if (!colon || (size_t)(colon - s) >= sizeof(host))
			return -EINVAL;
		n = (size_t)(colon - s);
		memcpy(host, s, n);
		host[n] = 0;
		l->family = AF_INET;
	}
	if (inet_pton(l->family, host, l->addr) != 1)
		return -EINVAL;
	return parse_port(colon + 1, &l->port);
}

bool calvin_listen_is_local(const struct calvin_listen *l)
{
	static const uint8_t v6_loopback[16] = { [15] = 1 };

	if (l->family == AF_INET)
		return l->addr[0] == 127;
	return l->family == AF_INET6 && !memcmp(l->addr, v6_loopback, sizeof(v6_loopback));
}

static int set_listen(struct spec_ctx *c, const struct spec_key *k, yaml_node_t *n, void *field)
{
	struct calvin_monitor_spec *m = field;
	char buf[SHOWN_MAX + 4];
	const char *s = "";
	int err;

	err = calvin_spec_scalar(c, n, k->name, &s);
	if (err)
		return err;
	if (strlen(s) >= sizeof(m->listen_text) || calvin_parse_listen(s, &m->listen))
		return calvin_spec_err(c, n->start_mark,
				       "listen '%s' is not ADDR:PORT; write e.g. 127.0.0.1:%u or "
				       "[::1]:%u",
				       calvin_spec_shown(s, buf), CALVIN_MONITOR_PORT,
				       CALVIN_MONITOR_PORT);
	strcpy(m->listen_text, s);
	return 0;
}

static int hook_arg(struct spec_ctx *c, yaml_node_t *n, unsigned int i, char *out)
{
	char buf[SHOWN_MAX + 4];
	const char *s = "";
	int err;

	if (n->type != YAML_SCALAR_NODE)
		return calvin_spec_err(c, n->start_mark,
				       "each word of hook is a plain word, not a %s; write [PROG, "
				       "ARG...]",
				       n->type == YAML_MAPPING_NODE ? "mapping" : "list");
	err = calvin_spec_scalar(c, n, "hook", &s);
	if (err)
		return err;
	if (strlen(s) >= CALVIN_HOOK_ARG_MAX)
		return calvin_spec_err(c, n->start_mark,
				       "hook argument '%s' is longer than %d bytes; shorten it",
				       calvin_spec_shown(s, buf), CALVIN_HOOK_ARG_MAX - 1);
	if (i == 0 && s[0] != '/')
		return calvin_spec_err(c, n->start_mark,
				       "hook program '%s' is not an absolute path; give its full "
				       "path (it runs without a shell or PATH)",
				       calvin_spec_shown(s, buf));
	strcpy(out, s);
	return 0;
}

/* hook: [PROG, ARG...]: an argv, never a command line for a shell. */
static int set_hook(struct spec_ctx *c, const struct spec_key *k, yaml_node_t *n, void *field)
{
	struct calvin_monitor_spec *m = field;
	yaml_node_item_t *it;
	yaml_node_t *item;
	unsigned int i = 0;
	int err;

	if (n->type != YAML_SEQUENCE_NODE)
		return calvin_spec_err(c, n->start_mark,
				       "hook must be a list: the program's absolute path, then its "
				       "arguments, e.g. [/usr/local/bin/page, --chain, edge]");
	for (it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++, i++) {
		item = yaml_document_get_node(c->doc, *it);
		if (!item)
			return calvin_spec_err(c, n->start_mark,
					       "broken YAML document; report a bug");
		if (i == CALVIN_HOOK_MAX_ARGS)
			return calvin_spec_err(c, item->start_mark,
					       "hook has more than %d words; pass fewer arguments",
					       CALVIN_HOOK_MAX_ARGS);
		err = hook_arg(c, item, i, m->hook[i]);
		if (err)
			return err;
		if (!i) {
			m->hook_pos.line = (int)item->start_mark.line + 1;
			m->hook_pos.col = (int)item->start_mark.column + 1;
		}
	}
	if (!i)
		return calvin_spec_err(c, n->start_mark,
				       "hook is empty; give the program's absolute path, or remove "
				       "the hook");
	m->nr_hook = i;
	return 0;
}

static const struct spec_key monitor_keys[] = {
	{ .name = "rate",
	  .type = KEY_UINT,
	  .off = offsetof(struct calvin_monitor_spec, rate),
	  .min = 1,
	  .max = 100000 },
	{ .name = "window",
	  .type = KEY_DURATION,
	  .off = offsetof(struct calvin_monitor_spec, window_ns),
	  .hint = "the window length, e.g. 10s" },
	{ .name = "listen", .type = KEY_STRING, .off = 0, .set = set_listen },
	{ .name = "allow-remote",
	  .type = KEY_BOOL,
	  .off = offsetof(struct calvin_monitor_spec, allow_remote) },
	{ .name = "hook", .type = KEY_STRING, .off = 0, .set = set_hook },
	{ .name = "hook-timeout",
	  .type = KEY_DURATION,
	  .off = offsetof(struct calvin_monitor_spec, hook_timeout_ns),
	  .hint = "how long the hook may run, e.g. 5s" },
	{ NULL },
};

static yaml_node_t *seen_val(struct spec_seen *seen, const char *key)
{
	return seen->val[calvin_spec_key_index(monitor_keys, key)];
}

/* Checks of values against each other, at the value that is wrong. */
static int monitor_after(struct spec_ctx *c, struct calvin_monitor_spec *m, struct spec_seen *seen)
{
	yaml_node_t *v;

	v = seen_val(seen, "window");
	if (v && (m->window_ns < WINDOW_MIN_NS || m->window_ns > WINDOW_MAX_NS))
		return calvin_spec_err(c, v->start_mark,
				       "window must be from 1s to 1h; give e.g. 10s");
	v = seen_val(seen, "hook-timeout");
	if (v &&
	    (m->hook_timeout_ns < HOOK_TIMEOUT_MIN_NS || m->hook_timeout_ns > HOOK_TIMEOUT_MAX_NS))
		return calvin_spec_err(c, v->start_mark,
				       "hook-timeout must be from 100ms to 60s; give e.g. 5s");
	v = seen_val(seen, "rate");
	if (v && (uint64_t)m->rate * (m->window_ns / WINDOW_MIN_NS) > WINDOW_PROBES_MAX)
		return calvin_spec_err(c, v->start_mark,
				       "rate %u for %llu s windows is more than %llu probes a "
				       "window; lower the rate or the window",
				       m->rate, (unsigned long long)(m->window_ns / WINDOW_MIN_NS),
				       WINDOW_PROBES_MAX);
	v = seen_val(seen, "listen");
	if (v && !m->allow_remote && !calvin_listen_is_local(&m->listen))
		return calvin_spec_err(c, v->start_mark,
				       "listen %s is not a loopback address: the metrics would be "
				       "open to the network; add 'allow-remote: true' if that is "
				       "meant, or listen on 127.0.0.1",
				       m->listen_text);
	return 0;
}

/* "monitor:" alone turns monitoring on with the defaults. */
int calvin_spec_set_monitor(struct spec_ctx *c, const struct spec_key *k, yaml_node_t *n,
			    void *field)
{
	struct calvin_monitor_spec *m = field;
	struct spec_seen seen;
	const char *s;
	int err;

	m->on = true;
	if (n->type == YAML_SCALAR_NODE) {
		s = (const char *)n->data.scalar.value;
		if (!*s || !strcmp(s, "~") || !strcmp(s, "null"))
			return 0;
	}
	if (n->type != YAML_MAPPING_NODE)
		return calvin_spec_err(
		    c, n->start_mark,
		    "monitor must be a mapping; give it keys among: rate, window, "
		    "listen, allow-remote, hook, hook-timeout");
	err = calvin_spec_walk_mapping(c, n, k->name, monitor_keys, m, &seen);
	return err ? err : monitor_after(c, m, &seen);
}
