// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Test tool: a DPDK telemetry socket served by an attacker, put where a
 * user VNF's was (the VNF stopped first), to show what `calvin status`
 * makes of what comes back. Serves PATH (SOCK_SEQPACKET, DPDK's
 * telemetry v2: a greeting, then one answer per command) until killed;
 * says "serving" on stdout once it listens.
 *
 *   telemetry_server PATH hostile   a valid answer whose names and values
 *                                   carry terminal escapes, C1 controls,
 *                                   invalid UTF-8 and "}],"injected":
 *   telemetry_server PATH garbage   an answer that is not JSON but would
 *                                   close calvin's own document and open
 *                                   members of the attacker's
 *   telemetry_server PATH silent    accept, and never say a word (a wedged
 *                                   VNF: the connection stays open) */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "hostile_telemetry.h"

#define GREETING "{\"version\": \"DPDK 22.11.0\", \"pid\": 1, \"max_output_len\": 16384}"

static const char hostile[] = HOSTILE_TELEMETRY;
static const char garbage[] = GARBAGE_TELEMETRY;

static void serve(int c, const char *answer, size_t len)
{
	char cmd[256];

	if (write(c, GREETING, strlen(GREETING)) < 0)
		return;
	while (read(c, cmd, sizeof(cmd)) > 0)
		if (write(c, answer, len) < 0)
			return;
}

int main(int argc, char **argv)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	const char *mode = argc == 3 ? argv[2] : "";
	int fd, c, held[64], nheld = 0;

	if (argc != 3 || strlen(argv[1]) >= sizeof(sa.sun_path) ||
	    (strcmp(mode, "hostile") && strcmp(mode, "garbage") && strcmp(mode, "silent"))) {
		fprintf(stderr, "usage: telemetry_server PATH hostile|garbage|silent\n");
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	strcpy(sa.sun_path, argv[1]);
	unlink(argv[1]);
	fd = socket(AF_UNIX, SOCK_SEQPACKET, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) || listen(fd, 16)) {
		perror("telemetry_server");
		return 1;
	}
	printf("serving %s\n", mode);
	fflush(stdout);
	while ((c = accept(fd, NULL, NULL)) >= 0) {
		if (!strcmp(mode, "silent")) {
			/* hold it open, say nothing; the oldest goes when full */
			if (nheld == 64)
				close(held[--nheld]);
			held[nheld++] = c;
			continue;
		}
		if (!strcmp(mode, "hostile"))
			serve(c, hostile, sizeof(hostile) - 1);
		else
			serve(c, garbage, sizeof(garbage) - 1);
		close(c);
	}
	return 0;
}
