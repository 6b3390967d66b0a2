// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Chain spec parameter values: prefixes, ports, protocols, percentages and
 * integers; pure string functions, no YAML here. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "spec_priv.h"

/* Keeps the first len bits of addr; says whether any other bit was set. */
static bool clear_host_bits(uint8_t addr[16], unsigned int len)
{
	bool host = false;
	unsigned int i, bits;
	uint8_t mask;

	for (i = 0; i < 16; i++) {
		bits = len > 8 * i ? len - 8 * i : 0;
		mask = bits >= 8 ? 0xff : (uint8_t)(0xff00 >> bits);
		host |= (addr[i] & (uint8_t)~mask) != 0;
		addr[i] &= mask;
	}
	return host;
}

int calvin_parse_prefix(const char *s, struct calvin_prefix *p)
{
	char addr[INET6_ADDRSTRLEN];
	const char *slash = strchr(s, '/');
	size_t alen = slash ? (size_t)(slash - s) : strlen(s);
	unsigned int len, max;

	memset(p, 0, sizeof(*p));
	if (!strcmp(s, "any"))
		return 0;
	if (alen == 0 || alen >= sizeof(addr))
		return -EINVAL;
	memcpy(addr, s, alen);
	addr[alen] = 0;
	if (inet_pton(AF_INET, addr, p->addr) == 1) {
		p->family = AF_INET;
		max = 32;
	} else if (inet_pton(AF_INET6, addr, p->addr) == 1) {
		p->family = AF_INET6;
		max = 128;
	} else {
		goto err_zero;
	}
	len = max;
	if (slash) {
		s = slash + 1;
		if (!*s || strlen(s) > 3 || strspn(s, "0123456789") != strlen(s))
			goto err_zero;
		for (len = 0; *s; s++)
			len = len * 10 + (unsigned int)(*s - '0');
		if (len > max)
			goto err_zero;
	}
	p->len = (uint8_t)len;
	return clear_host_bits(p->addr, len) ? -EDOM : 0;

err_zero:
	memset(p, 0, sizeof(*p));
	return -EINVAL;
}

const char *calvin_prefix_str(const struct calvin_prefix *p, char *buf, size_t size)
{
	char addr[INET6_ADDRSTRLEN];

	if (!p->family || !inet_ntop(p->family, p->addr, addr, sizeof(addr)))
		snprintf(buf, size, "any");
	else
		snprintf(buf, size, "%s/%u", addr, p->len);
	return buf;
}

/* A port: 1 to 5 digits, at most 65535; advances *s past it. */
static int parse_port(const char **s, uint16_t *port)
{
	unsigned int v = 0, n = 0;

	for (; **s >= '0' && **s <= '9'; (*s)++, n++)
		if (n < 6)
			v = v * 10 + (unsigned int)(**s - '0');
	if (n == 0 || n > 5 || v > 65535)
		return -EINVAL;
	*port = (uint16_t)v;
	return 0;
}

int calvin_parse_ports(const char *s, struct calvin_port_range *r)
{
	uint16_t lo, hi;

	if (parse_port(&s, &lo))
		return -EINVAL;
	hi = lo;
	if (*s == '-') {
		s++;
		if (parse_port(&s, &hi))
			return -EINVAL;
	}
	if (*s || lo > hi)
		return -EINVAL;
	r->lo = lo;
	r->hi = hi;
	return 0;
}

int calvin_parse_proto(const char *s, uint8_t *proto)
{
	static const struct {
		const char *word;
		uint8_t proto;
	} words[] = {
	    {"any", 0},
	    {"tcp", IPPROTO_TCP},
	    {"udp", IPPROTO_UDP},
	    {"icmp", IPPROTO_ICMP},
	    {"icmpv6", IPPROTO_ICMPV6},
	};
	unsigned int i, v = 0;

	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		if (!strcmp(s, words[i].word)) {
			*proto = words[i].proto;
			return 0;
		}
	}
	if (!*s || strlen(s) > 3 || strspn(s, "0123456789") != strlen(s))
		return -EINVAL;
	for (; *s; s++)
		v = v * 10 + (unsigned int)(*s - '0');
	if (v > 255)
		return -EINVAL;
	*proto = (uint8_t)v;
	return 0;
}

/* Computed in integers like calvin_parse_duration(), so "0.5%" is exactly
 * 5000 ppm; finer fractions round to the nearest ppm. */
int calvin_parse_ppm(const char *s, uint32_t *ppm)
{
	unsigned __int128 frac_num = 0, frac_den = 1;
	uint64_t whole = 0, v;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	for (; *s >= '0' && *s <= '9'; s++)
		if (whole <= 1000) /* beyond that, it is above 100% anyway */
			whole = whole * 10 + (uint64_t)(*s - '0');
	if (*s == '.') {
		s++;
		if (*s < '0' || *s > '9')
			return -EINVAL;
		for (; *s >= '0' && *s <= '9'; s++) {
			if (frac_den < 10000000000000000000ull) {
				frac_num = frac_num * 10 + (unsigned int)(*s - '0');
				frac_den *= 10;
			}
		}
	}
	if (strcmp(s, "%"))
		return -EINVAL;
	v = whole * 10000 + (uint64_t)((frac_num * 10000 + frac_den / 2) / frac_den);
	if (v > 1000000)
		return -ERANGE;
	*ppm = (uint32_t)v;
	return 0;
}

int calvin_parse_u64(const char *s, uint64_t *out)
{
	unsigned int base = 10, d;
	uint64_t v = 0;
	char ch;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (!*s)
		return -EINVAL;
	for (; *s; s++) {
		ch = *s;
		if (ch >= '0' && ch <= '9')
			d = (unsigned int)(ch - '0');
		else if (base == 16 && ch >= 'a' && ch <= 'f')
			d = (unsigned int)(ch - 'a' + 10);
		else if (base == 16 && ch >= 'A' && ch <= 'F')
			d = (unsigned int)(ch - 'A' + 10);
		else
			return -EINVAL;
		if (__builtin_mul_overflow(v, base, &v) || __builtin_add_overflow(v, d, &v)) {
			/* still a number: say so once the digits are all checked */
			for (s++; *s; s++)
				if (!strchr(base == 16 ? "0123456789abcdefABCDEF" : "0123456789",
					    *s))
					return -EINVAL;
			return -ERANGE;
		}
	}
	*out = v;
	return 0;
}
