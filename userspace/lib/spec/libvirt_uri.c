// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Chain spec: the libvirt URIs calvin connects to (see spec.h).
 * libvirt acts on a URI as the caller, root here: the ext transport runs
 * the program its `command` names, ssh runs `netcat` and `command` on both
 * ends, `socket`, `keyfile` and `pkipath` choose what it connects to and
 * trusts. So the URI is read against an allow-list, never a deny-list:
 * driver qemu, the local daemon or a remote one over ssh, tls or tcp, a
 * plain host, and only parameters that choose nothing libvirt runs, opens
 * or trusts. */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "spec_priv.h"

#define bad calvin_spec_why

#define USE_INSTEAD                                                                                \
	"use qemu:///system, qemu:///session, or qemu+ssh://, qemu+tls:// or qemu+tcp://HOST/"     \
	"system"

/* Parameters allowed, with the values each may take. */
static const struct {
	const char *name;
	const char *const values[4];
} allowed[] = {
	/* ssh: fail instead of asking for a password on a terminal */
	{ "no_tty", { "0", "1" } },
	/* which daemon of a host to reach: libvirtd or the per-driver one */
	{ "mode", { "auto", "legacy", "direct" } },
};

/* Why a known parameter is refused; any other is refused as unknown. */
static const struct {
	const char *name, *why;
} refused[] = {
	{ "command", "names a program libvirt would run as root" },
	{ "netcat", "names a program libvirt would run" },
	{ "proxy", "chooses a program libvirt would run on the remote host" },
	{ "socket", "names a socket libvirt would connect to as root" },
	{ "keyfile", "names a key file libvirt would read as root" },
	{ "pkipath", "names a folder of keys and certificates libvirt would trust" },
	{ "known_hosts", "names a file of host keys libvirt would trust" },
	{ "known_hosts_verify", "can turn off the check of the remote host's key" },
	{ "no_verify", "turns off the check of the remote host's certificate" },
	{ "tls_priority", "can weaken the TLS the connection uses" },
	{ "sshauth", "chooses how libvirt logs in with ssh" },
	{ "name", "names another URI for the remote daemon to open" },
};

/* s[0..n) is one of the NULL-ended words. */
static bool is_word(const char *s, size_t n, const char *const *words, size_t nr)
{
	size_t i;

	for (i = 0; i < nr && words[i]; i++)
		if (strlen(words[i]) == n && !strncmp(s, words[i], n))
			return true;
	return false;
}

int calvin_spec_why(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* One parameter, name=value, of n bytes. */
static int check_param(const char *p, size_t n, char *why, size_t len)
{
	const char *eq = memchr(p, '=', n);
	size_t name_len = eq ? (size_t)(eq - p) : n, i;
	const char *value = eq ? eq + 1 : p + n;
	size_t value_len = (size_t)(p + n - value);

	if (!n)
		return bad(why, len, "has an empty parameter; remove the extra '?', '&' or ';'");
	for (i = 0; i < sizeof(allowed) / sizeof(allowed[0]); i++) {
		if (strlen(allowed[i].name) != name_len || strncmp(p, allowed[i].name, name_len))
			continue;
		if (eq && is_word(value, value_len, allowed[i].values, 4))
			return 0;
		return bad(why, len, "parameter %s takes %s%s%s%s%s; write one of them",
			   allowed[i].name, allowed[i].values[0], allowed[i].values[1] ? ", " : "",
			   allowed[i].values[1] ? allowed[i].values[1] : "",
			   allowed[i].values[2] ? ", " : "",
			   allowed[i].values[2] ? allowed[i].values[2] : "");
	}
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		if (strlen(refused[i].name) == name_len && !strncmp(p, refused[i].name, name_len))
			return bad(why, len,
				   "parameter %s %s; remove it (calvin allows no_tty and "
				   "mode only)",
				   refused[i].name, refused[i].why);
	return bad(why, len,
		   "parameter '%.*s' is not one calvin knows to be harmless (a libvirt parameter "
		   "can name a program, socket or key file); remove it (calvin allows no_tty and "
		   "mode only)",
		   (int)(name_len > 32 ? 32 : name_len), p);
}

static int check_query(const char *q, char *why, size_t len)
{
	size_t n;
	int err;

	for (;;) {
		/* libvirt splits on both */
		n = strcspn(q, "&;");
		err = check_param(q, n, why, len);
		if (err || !q[n])
			return err;
		q += n + 1;
	}
}

static bool host_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '-' || c == '.';
}

/* [user@]host[:port] of a remote URI, n bytes: names and numbers only, so
 * nothing reaches ssh's command line as an option. */
static int check_authority(const char *a, size_t n, char *why, size_t len)
{
	const char *at = memchr(a, '@', n), *host = at ? at + 1 : a, *end = a + n, *colon;
	size_t i;

	if (at) {
		for (i = 0; a + i < at; i++)
			if (!host_char(a[i]) && a[i] != '_')
				break;
		if (a + i != at || at == a || a[0] == '-' || at - a > 32)
			return bad(why, len,
				   "user '%.*s' is not a user name; write letters, digits, "
				   "'.', '_' and '-'",
				   (int)(at - a > 32 ? 32 : at - a), a);
	}
	if (host < end && *host == '[') {
		colon = memchr(host, ']', (size_t)(end - host));
		for (i = 1; colon && host + i < colon; i++)
			if (!strchr("0123456789abcdefABCDEF:.", host[i]))
				break;
		if (!colon || host + i != colon || i < 3)
			return bad(why, len, "host '%.*s' is not an IPv6 address in brackets",
				   (int)(end - host > 48 ? 48 : end - host), host);
		colon++;
	} else {
		for (colon = host; colon < end && host_char(*colon); colon++)
			;
		if (colon == host || *host == '-' || *host == '.' || colon - host > 253)
			return bad(why, len,
				   "needs a host name or address after '//' (e.g. qemu+ssh://edge1/"
				   "system)");
	}
	if (colon == end)
		return 0;
	for (i = 1; colon + i < end && colon[i] >= '0' && colon[i] <= '9'; i++)
		;
	if (*colon != ':' || colon + i != end || i < 2 || i > 6 ||
	    (i == 6 && strncmp(colon + 1, "65535", 5) > 0) || !strncmp(colon + 1, "0", 1))
		return bad(why, len, "'%.*s' after the host is not a port; write :1 to :65535",
			   (int)(end - colon > 16 ? 16 : end - colon), colon);
	return 0;
}

/* driver[+transport]:// */
static int check_scheme(const char *uri, size_t n, bool *remote, char *why, size_t len)
{
	static const char *const transports[] = { "ssh", "tls", "tcp" };
	const char *plus = memchr(uri, '+', n), *t;
	size_t dn = plus ? (size_t)(plus - uri) : n, tn;

	if (dn != 4 || strncmp(uri, "qemu", 4))
		return bad(why, len, "driver '%.*s' is not qemu, which runs calvin's VMs; %s",
			   (int)(dn > 16 ? 16 : dn), uri, USE_INSTEAD);
	*remote = plus != NULL;
	if (!plus)
		return 0;
	t = plus + 1;
	tn = (size_t)(uri + n - t);
	if (is_word(t, tn, transports, 3))
		return 0;
	if (tn == 3 && !strncmp(t, "ext", 3))
		return bad(why, len, "transport ext runs a program the URI names, as root; %s",
			   USE_INSTEAD);
	if (tn == 4 && !strncmp(t, "unix", 4))
		return bad(why, len, "transport unix connects to a socket the URI may name; %s",
			   USE_INSTEAD);
	return bad(why, len, "transport '%.*s' is not one calvin allows; %s",
		   (int)(tn > 16 ? 16 : tn), t, USE_INSTEAD);
}

int calvin_libvirt_uri_check(const char *uri, char *why, size_t len)
{
	const char *sep = strstr(uri, "://"), *auth, *path, *query;
	size_t i, path_len;
	bool remote;
	int err;

	for (i = 0; uri[i]; i++)
		if (uri[i] <= ' ' || uri[i] >= 0x7f)
			return bad(why, len,
				   "has a space or a control character; write it without");
	if (strpbrk(uri, "%#\\"))
		return bad(why, len,
			   "has '%%', '#' or '\\' (escapes and fragments can hide what "
			   "libvirt reads); write it without");
	if (!sep)
		return bad(why, len, "is not a libvirt URI; %s", USE_INSTEAD);
	err = check_scheme(uri, (size_t)(sep - uri), &remote, why, len);
	if (err)
		return err;
	auth = sep + 3;
	path = auth + strcspn(auth, "/?");
	if (!remote && path != auth)
		return bad(why, len,
			   "names a host without a transport; write qemu+ssh://%.*s/system "
			   "or qemu:///system for this host",
			   (int)(path - auth > 32 ? 32 : path - auth), auth);
	if (remote) {
		err = check_authority(auth, (size_t)(path - auth), why, len);
		if (err)
			return err;
	}
	query = path + strcspn(path, "?");
	path_len = (size_t)(query - path);
	if ((path_len != 7 || strncmp(path, "/system", 7)) &&
	    (path_len != 8 || strncmp(path, "/session", 8)))
		return bad(why, len, "path '%.*s' is not /system or /session; write one of them",
			   (int)(path_len > 32 ? 32 : path_len), path);
	return *query ? check_query(query + 1, why, len) : 0;
}

bool calvin_libvirt_uri_local(const char *uri)
{
	return !strncmp(uri, "qemu:///", 8);
}
