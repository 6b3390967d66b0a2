// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The monitor's Prometheus endpoint: GET /metrics over HTTP, served by
 * libmicrohttpd from a thread of its own. calvin binds the socket itself,
 * so a refusal (address in use, not an address of this host) says why. */
#include <errno.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "monitor/monitor.h"
#include "util.h"

#define CONTENT_TYPE "text/plain; version=0.0.4; charset=utf-8"
/* a scraper that hangs costs a connection slot, not the endpoint */
#define CONN_LIMIT 16
#define CONN_TIMEOUT_S 10

static enum MHD_Result reply(struct MHD_Connection *conn, unsigned int status, char *body,
			     size_t len, const char *type)
{
	struct MHD_Response *resp;
	enum MHD_Result ret;

	resp = MHD_create_response_from_buffer(len, body, MHD_RESPMEM_MUST_FREE);
	if (!resp) {
		free(body);
		return MHD_NO;
	}
	MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	ret = MHD_queue_response(conn, status, resp);
	MHD_destroy_response(resp);
	return ret;
}

static enum MHD_Result text_reply(struct MHD_Connection *conn, unsigned int status,
				  const char *text)
{
	char *body = strdup(text);

	return body ? reply(conn, status, body, strlen(body), "text/plain") : MHD_NO;
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *conn, const char *url,
			      const char *method, const char *version, const char *upload,
			      size_t *upload_len, void **req)
{
	struct mon_metrics *m = cls;
	char *body = NULL;
	size_t len = 0;
	FILE *f;

	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
		return text_reply(conn, MHD_HTTP_METHOD_NOT_ALLOWED, "GET /metrics only\n");
	if (strcmp(url, "/metrics"))
		return text_reply(conn, MHD_HTTP_NOT_FOUND, "calvin monitor: see /metrics\n");
	f = open_memstream(&body, &len);
	if (!f)
		return MHD_NO;
	mon_metrics_write(m, f);
	if (fclose(f)) {
		free(body);
		return MHD_NO;
	}
	return reply(conn, MHD_HTTP_OK, body, len, CONTENT_TYPE);
}

static int listen_socket(const struct calvin_listen *a, uint16_t *port)
{
	struct sockaddr_storage ss = { 0 };
	socklen_t sl;
	int fd, one = 1, err;

	if (a->family == AF_INET6) {
		struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&ss;

		s6->sin6_family = AF_INET6;
		s6->sin6_port = htons(a->port);
		memcpy(&s6->sin6_addr, a->addr, 16);
		sl = sizeof(*s6);
	} else {
		struct sockaddr_in *s4 = (struct sockaddr_in *)&ss;

		s4->sin_family = AF_INET;
		s4->sin_port = htons(a->port);
		memcpy(&s4->sin_addr, a->addr, 4);
		sl = sizeof(*s4);
	}
	fd = socket(a->family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&ss, sl) || listen(fd, 64) ||
	    getsockname(fd, (struct sockaddr *)&ss, &sl)) {
		err = -errno;
		close(fd);
		return err;
	}
	*port = ntohs(a->family == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port
					    : ((struct sockaddr_in *)&ss)->sin_port);
	return fd;
}

/* Whether PORT is in the kernel's range for the local ports of outgoing
 * connections: any client's connection may hold it then, and its
 * TIME_WAIT (a minute) refuses a listener even with SO_REUSEADDR. */
static bool ephemeral_port(unsigned int port)
{
	unsigned int lo, hi;
	FILE *f = fopen("/proc/sys/net/ipv4/ip_local_port_range", "re");
	bool in;

	if (!f)
		return false;
	in = fscanf(f, "%u %u", &lo, &hi) == 2 && port >= lo && port <= hi;
	fclose(f);
	return in;
}

int mon_http_start(struct mon_metrics *m, const struct calvin_listen *addr, uint16_t *port,
		   struct MHD_Daemon **d)
{
	int fd = listen_socket(addr, port);

	if (fd < 0) {
		calvin_err("cannot listen for Prometheus on port %u: %s; choose another "
			   "'listen:' (or --listen)%s",
			   addr->port, strerror(-fd),
			   fd == -EADDRINUSE && ephemeral_port(addr->port)
				   ? ", below net.ipv4.ip_local_port_range: a port in it may be "
				     "held by any outgoing connection"
				   : "");
		return fd;
	}
	*d = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL |
				  (addr->family == AF_INET6 ? MHD_USE_IPv6 : 0),
			      0, NULL, NULL, handle, m, MHD_OPTION_LISTEN_SOCKET, fd,
			      MHD_OPTION_CONNECTION_LIMIT, (unsigned int)CONN_LIMIT,
			      MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)CONN_TIMEOUT_S,
			      MHD_OPTION_END);
	if (!*d) {
		close(fd);
		calvin_err("cannot start the Prometheus endpoint (libmicrohttpd)");
		return -EIO;
	}
	return 0;
}

void mon_http_stop(struct MHD_Daemon *d)
{
	if (d)
		MHD_stop_daemon(d);
}
