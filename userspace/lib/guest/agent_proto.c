// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Encoder and decoder of the host-agent protocol (guest.h). The
 * decoder reads untrusted bytes: every length is checked against what is
 * left before it is used, and nothing is trusted to be NUL-terminated. */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "codec/codec.h"
#include "guest/guest.h"

static const char *const type_names[CALVIN_AGENT_TYPE_END] = {
	[CALVIN_AGENT_HELLO] = "hello",
	[CALVIN_AGENT_CONFIGURE] = "configure",
	[CALVIN_AGENT_START] = "start",
	[CALVIN_AGENT_STATUS] = "status",
	[CALVIN_AGENT_STOP] = "stop",
	[CALVIN_AGENT_SHUTDOWN] = "shutdown",
	[CALVIN_AGENT_OK] = "ok",
	[CALVIN_AGENT_ERROR] = "error",
	[CALVIN_AGENT_COUNTERS] = "counters",
	[CALVIN_AGENT_KEYS] = "keys",
};

static const char *const state_names[CALVIN_AGENT_STATE_END] = {
    [CALVIN_AGENT_IDLE] = "idle",
    [CALVIN_AGENT_CONFIGURED] = "configured",
    [CALVIN_AGENT_RUNNING] = "running",
};

const char *calvin_agent_type_name(int type)
{
	return type > 0 && type < CALVIN_AGENT_TYPE_END ? type_names[type] : "unknown";
}

const char *calvin_agent_state_name(int state)
{
	return state >= 0 && state < CALVIN_AGENT_STATE_END ? state_names[state] : "unknown";
}

struct calvin_agent_str calvin_agent_str(const char *s)
{
	struct calvin_agent_str out = {s, s ? (uint32_t)strnlen(s, CALVIN_AGENT_MAX_PAYLOAD) : 0};

	return out;
}

/* A cursor over a buffer; any read or write past its end sets bad and
 * does nothing, so a sequence of calls is checked once at the end. */
struct cursor {
	uint8_t *w; /* NULL when decoding */
	const uint8_t *r;
	size_t len, off;
	bool bad;
};

static const uint8_t *take(struct cursor *c, size_t n)
{
	const uint8_t *p;

	if (c->bad || n > c->len - c->off) {
		c->bad = true;
		return NULL;
	}
	p = c->r + c->off;
	c->off += n;
	return p;
}

static uint64_t get_be(struct cursor *c, size_t n)
{
	const uint8_t *p = take(c, n);
	uint64_t v = 0;
	size_t i;

	for (i = 0; p && i < n; i++)
		v = v << 8 | p[i];
	return v;
}

static void get_bytes(struct cursor *c, void *out, size_t n)
{
	const uint8_t *p = take(c, n);

	if (p)
		memcpy(out, p, n);
}

static void get_str(struct cursor *c, struct calvin_agent_str *s, size_t max)
{
	uint32_t n = (uint32_t)get_be(c, 4);

	if (n > max)
		c->bad = true;
	s->len = n;
	s->ptr = (const char *)take(c, n);
}

static void put(struct cursor *c, const void *src, size_t n)
{
	if (c->bad || n > c->len - c->off) {
		c->bad = true;
		return;
	}
	if (n)
		memcpy(c->w + c->off, src, n);
	c->off += n;
}

static void put_be(struct cursor *c, uint64_t v, size_t n)
{
	uint8_t b[8];
	size_t i;

	for (i = 0; i < n; i++)
		b[i] = (uint8_t)(v >> (8 * (n - 1 - i)));
	put(c, b, n);
}

static void put_str(struct cursor *c, const struct calvin_agent_str *s)
{
	put_be(c, s->len, 4);
	put(c, s->ptr, s->len);
}

/* One line for a terminal: no control characters, so no newline either. */
static bool line_ok(const struct calvin_agent_str *s, bool may_be_empty)
{
	uint32_t i;

	if (s->len > CALVIN_AGENT_LINE_MAX || (!s->len && !may_be_empty) || (s->len && !s->ptr))
		return false;
	for (i = 0; i < s->len; i++)
		if ((unsigned char)s->ptr[i] < 0x20 || s->ptr[i] == 0x7f)
			return false;
	return true;
}

static bool counter_name_ok(const struct calvin_agent_str *s)
{
	uint32_t i;

	if (!s->len || s->len > CALVIN_AGENT_COUNTER_NAME_MAX || !s->ptr)
		return false;
	for (i = 0; i < s->len; i++) {
		char ch = s->ptr[i];

		if (!((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_' ||
		      ch == '.' || ch == '-'))
			return false;
	}
	return true;
}

ssize_t calvin_agent_frame_len(const void *buf, size_t len)
{
	const uint8_t *b = buf;
	uint32_t plen;

	if (len < 1)
		return -EAGAIN;
	/* The version first: a newer peer may lay out the rest otherwise. */
	if (b[0] != CALVIN_AGENT_VERSION)
		return -EPROTO;
	if (len < CALVIN_AGENT_HDR_LEN)
		return -EAGAIN;
	if (b[2] || b[3] || b[1] == 0 || b[1] >= CALVIN_AGENT_TYPE_END)
		return -EBADMSG;
	plen = (uint32_t)b[4] << 24 | (uint32_t)b[5] << 16 | (uint32_t)b[6] << 8 | b[7];
	if (plen > CALVIN_AGENT_MAX_PAYLOAD)
		return -EMSGSIZE;
	return (ssize_t)(CALVIN_AGENT_HDR_LEN + plen);
}

static void decode_configure(struct cursor *c, struct calvin_agent_configure *m)
{
	m->role = (uint8_t)get_be(c, 1);
	m->cpu = (int32_t)(uint32_t)get_be(c, 4);
	get_bytes(c, m->west_peer, 6);
	get_bytes(c, m->east_peer, 6);
	m->west_mtu = (uint16_t)get_be(c, 2);
	m->east_mtu = (uint16_t)get_be(c, 2);
	get_str(c, &m->vnf, CALVIN_AGENT_LINE_MAX);
	get_str(c, &m->spec, CALVIN_AGENT_MAX_PAYLOAD);
	if (!c->bad &&
	    (m->role >= CALVIN_AGENT_ROLE_END || m->cpu < -1 || !line_ok(&m->vnf, false)))
		c->bad = true;
}

static void decode_counters(struct cursor *c, struct calvin_agent_counters *m)
{
	struct calvin_agent_counter *k;
	uint16_t i;

	m->state = (uint8_t)get_be(c, 1);
	m->space = (uint8_t)get_be(c, 1);
	m->nr_counters = (uint16_t)get_be(c, 2);
	if (m->state >= CALVIN_AGENT_STATE_END || m->space > 1 ||
	    m->nr_counters > CALVIN_AGENT_MAX_COUNTERS)
		c->bad = true;
	for (i = 0; !c->bad && i < m->nr_counters; i++) {
		k = &m->counters[i];
		k->name.len = (uint32_t)get_be(c, 1);
		k->name.ptr = (const char *)take(c, k->name.len);
		k->value = get_be(c, 8);
		if (!c->bad && !counter_name_ok(&k->name))
			c->bad = true;
	}
	get_str(c, &m->telemetry, CALVIN_AGENT_MAX_PAYLOAD);
}

static bool keys_len_ok(const struct calvin_agent_str *k)
{
	return k->len >= CALVIN_SA_SET_HDR_LEN && k->len <= CALVIN_SA_SET_MAX && k->ptr;
}

static void decode_payload(struct cursor *c, struct calvin_agent_msg *m)
{
	switch (m->type) {
	case CALVIN_AGENT_HELLO:
		m->hello.version = (uint32_t)get_be(c, 4);
		get_str(c, &m->hello.who, CALVIN_AGENT_LINE_MAX);
		if (!c->bad && !line_ok(&m->hello.who, true))
			c->bad = true;
		break;
	case CALVIN_AGENT_CONFIGURE:
		decode_configure(c, &m->configure);
		break;
	case CALVIN_AGENT_COUNTERS:
		decode_counters(c, &m->counters);
		break;
	case CALVIN_AGENT_ERROR:
		m->error.len = (uint32_t)(c->len - c->off);
		m->error.ptr = (const char *)take(c, m->error.len);
		if (!c->bad && !line_ok(&m->error, false))
			c->bad = true;
		break;
	case CALVIN_AGENT_KEYS:
		m->keys.len = (uint32_t)(c->len - c->off);
		m->keys.ptr = (const char *)take(c, m->keys.len);
		if (!c->bad && !keys_len_ok(&m->keys))
			c->bad = true;
		break;
	default: /* start, status, stop, shutdown, ok: no payload */
		break;
	}
}

ssize_t calvin_agent_decode(const void *buf, size_t len, struct calvin_agent_msg *out)
{
	ssize_t flen = calvin_agent_frame_len(buf, len);
	struct cursor c = {0};

	if (flen < 0)
		return flen;
	if ((size_t)flen > len)
		return -EAGAIN;
	memset(out, 0, sizeof(*out));
	out->type = ((const uint8_t *)buf)[1];
	c.r = (const uint8_t *)buf + CALVIN_AGENT_HDR_LEN;
	c.len = (size_t)flen - CALVIN_AGENT_HDR_LEN;
	decode_payload(&c, out);
	if (c.bad || c.off != c.len)
		return -EBADMSG;
	return flen;
}

static bool configure_ok(const struct calvin_agent_configure *m)
{
	return m->role < CALVIN_AGENT_ROLE_END && m->cpu >= -1 && line_ok(&m->vnf, false) &&
	       (m->spec.ptr || !m->spec.len);
}

static bool counters_ok(const struct calvin_agent_counters *m)
{
	uint16_t i;

	if (m->state >= CALVIN_AGENT_STATE_END || m->space > 1 ||
	    m->nr_counters > CALVIN_AGENT_MAX_COUNTERS || (m->telemetry.len && !m->telemetry.ptr))
		return false;
	for (i = 0; i < m->nr_counters; i++)
		if (!counter_name_ok(&m->counters[i].name))
			return false;
	return true;
}

static void encode_payload(struct cursor *c, const struct calvin_agent_msg *m)
{
	const struct calvin_agent_configure *cf = &m->configure;
	uint16_t i;

	switch (m->type) {
	case CALVIN_AGENT_HELLO:
		put_be(c, m->hello.version, 4);
		put_str(c, &m->hello.who);
		break;
	case CALVIN_AGENT_CONFIGURE:
		put_be(c, cf->role, 1);
		put_be(c, (uint32_t)cf->cpu, 4);
		put(c, cf->west_peer, 6);
		put(c, cf->east_peer, 6);
		put_be(c, cf->west_mtu, 2);
		put_be(c, cf->east_mtu, 2);
		put_str(c, &cf->vnf);
		put_str(c, &cf->spec);
		break;
	case CALVIN_AGENT_COUNTERS:
		put_be(c, m->counters.state, 1);
		put_be(c, m->counters.space, 1);
		put_be(c, m->counters.nr_counters, 2);
		for (i = 0; i < m->counters.nr_counters; i++) {
			put_be(c, m->counters.counters[i].name.len, 1);
			put(c, m->counters.counters[i].name.ptr, m->counters.counters[i].name.len);
			put_be(c, m->counters.counters[i].value, 8);
		}
		put_str(c, &m->counters.telemetry);
		break;
	case CALVIN_AGENT_ERROR:
		put(c, m->error.ptr, m->error.len);
		break;
	case CALVIN_AGENT_KEYS:
		put(c, m->keys.ptr, m->keys.len);
		break;
	default:
		break;
	}
}

static bool msg_ok(const struct calvin_agent_msg *m)
{
	switch (m->type) {
	case CALVIN_AGENT_HELLO:
		return line_ok(&m->hello.who, true);
	case CALVIN_AGENT_CONFIGURE:
		return configure_ok(&m->configure);
	case CALVIN_AGENT_COUNTERS:
		return counters_ok(&m->counters);
	case CALVIN_AGENT_ERROR:
		return line_ok(&m->error, false);
	case CALVIN_AGENT_KEYS:
		return keys_len_ok(&m->keys);
	default:
		return m->type > 0 && m->type < CALVIN_AGENT_TYPE_END;
	}
}

ssize_t calvin_agent_encode(const struct calvin_agent_msg *m, void *buf, size_t len)
{
	struct cursor c = {.w = buf, .len = len};
	size_t plen;

	if (!m || !msg_ok(m))
		return -EINVAL;
	put_be(&c, CALVIN_AGENT_VERSION, 1);
	put_be(&c, (uint8_t)m->type, 1);
	put_be(&c, 0, 2);
	put_be(&c, 0, 4); /* the length, filled in below */
	encode_payload(&c, m);
	if (c.bad)
		return -ENOSPC;
	plen = c.off - CALVIN_AGENT_HDR_LEN;
	if (plen > CALVIN_AGENT_MAX_PAYLOAD)
		return -EINVAL;
	c.off = 4;
	put_be(&c, plen, 4);
	return (ssize_t)(plen + CALVIN_AGENT_HDR_LEN);
}
