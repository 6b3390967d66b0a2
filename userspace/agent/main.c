// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* calvin-agent: answers the host on a virtio-serial port, one message at a
 * time, until the host asks it to power the VM off. Started by the
 * guest's init (vm-images/init). */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <string.h>
#include <sys/reboot.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "agent.h"
#include "channel.h"

static struct agent agent; /* large: the chain spec */

typedef int (*handler_fn)(struct agent *a, const struct calvin_agent_msg *m,
			  struct calvin_agent_msg *reply, char *err, size_t errlen);

static int on_hello(struct agent *a, const struct calvin_agent_msg *m,
		    struct calvin_agent_msg *reply, char *err, size_t errlen)
{
	static char who[256];
	struct utsname u;

	uname(&u);
	snprintf(who, sizeof(who), AGENT_PROG " on Linux %s, %ld CPUs, %s", u.release,
		 sysconf(_SC_NPROCESSORS_ONLN), calvin_agent_state_name(a->state));
	reply->type = CALVIN_AGENT_HELLO;
	reply->hello.version = CALVIN_AGENT_VERSION;
	reply->hello.who = calvin_agent_str(who);
	return 0;
}

static int on_configure(struct agent *a, const struct calvin_agent_msg *m,
			struct calvin_agent_msg *reply, char *err, size_t errlen)
{
	return agent_configure(a, &m->configure, err, errlen);
}

static int on_start(struct agent *a, const struct calvin_agent_msg *m,
		    struct calvin_agent_msg *reply, char *err, size_t errlen)
{
	return agent_start(a, err, errlen);
}

static int on_keys(struct agent *a, const struct calvin_agent_msg *m,
		   struct calvin_agent_msg *reply, char *err, size_t errlen)
{
	return agent_keys(a, &m->keys, err, errlen);
}

static int on_status(struct agent *a, const struct calvin_agent_msg *m,
		     struct calvin_agent_msg *reply, char *err, size_t errlen)
{
	reply->type = CALVIN_AGENT_COUNTERS;
	return agent_counters(a, &reply->counters, err, errlen);
}

static int on_stop(struct agent *a, const struct calvin_agent_msg *m,
		   struct calvin_agent_msg *reply, char *err, size_t errlen)
{
	return agent_stop(a, err, errlen);
}

/* The power-off itself comes after the answer is sent (see serve()). */
static int on_shutdown(struct agent *a, const struct calvin_agent_msg *m,
		       struct calvin_agent_msg *reply, char *err, size_t errlen)
{
	return agent_stop(a, err, errlen);
}

/* What the host may send; the agent's own answers are not in it. */
static const handler_fn handlers[CALVIN_AGENT_TYPE_END] = {
	[CALVIN_AGENT_HELLO] = on_hello, [CALVIN_AGENT_CONFIGURE] = on_configure,
	[CALVIN_AGENT_START] = on_start, [CALVIN_AGENT_STATUS] = on_status,
	[CALVIN_AGENT_STOP] = on_stop,	 [CALVIN_AGENT_SHUTDOWN] = on_shutdown,
	[CALVIN_AGENT_KEYS] = on_keys,
};

static void reply_error(struct calvin_channel *ch, const char *line)
{
	struct calvin_agent_msg reply = {.type = CALVIN_AGENT_ERROR};

	reply.error = calvin_agent_str(line);
	if (calvin_channel_send(ch, &reply, CALVIN_CHANNEL_FRAME_MS))
		fprintf(stderr, AGENT_PROG ": could not send error: %s\n", line);
}

/* One request, one answer. Returns 1 when the VM is to power off. */
static int serve_one(struct calvin_channel *ch, const struct calvin_agent_msg *m)
{
	struct calvin_agent_msg reply = {.type = CALVIN_AGENT_OK};
	char err[CALVIN_AGENT_LINE_MAX] = "";
	handler_fn h = handlers[m->type];
	int e;

	if (!h) {
		snprintf(err, sizeof(err), AGENT_PROG ": a host does not send %s",
			 calvin_agent_type_name(m->type));
		reply_error(ch, err);
		return 0;
	}
	if (h(&agent, m, &reply, err, sizeof(err))) {
		if (!err[0])
			snprintf(err, sizeof(err), AGENT_PROG ": %s failed",
				 calvin_agent_type_name(m->type));
		fprintf(stderr, AGENT_PROG ": %s\n", err);
		reply_error(ch, err);
		return 0;
	}
	/* a host that stops reading costs a timeout, not the agent */
	e = calvin_channel_send(ch, &reply, CALVIN_CHANNEL_FRAME_MS);
	if (e)
		fprintf(stderr, AGENT_PROG ": could not answer %s: %s\n",
			calvin_agent_type_name(m->type), strerror(-e));
	return m->type == CALVIN_AGENT_SHUTDOWN;
}

static int serve(int fd)
{
	struct timespec idle = {0, 100 * 1000 * 1000};
	struct calvin_channel ch;
	struct calvin_agent_msg m;
	char line[128];
	int err;

	if (calvin_channel_init(&ch, fd))
		return 1;
	for (;;) {
		err = calvin_channel_recv(&ch, &m, -1);
		if (err == -EPIPE) {
			/* no host on the port: poll says so at once, so wait here */
			calvin_channel_reset(&ch);
			nanosleep(&idle, NULL);
			continue;
		}
		if (err == -ETIMEDOUT) {
			/* a host that stopped within a frame: drop what it sent */
			fprintf(stderr, AGENT_PROG ": dropped a frame the host did not finish\n");
			calvin_channel_reset(&ch);
			continue;
		}
		if (err) {
			snprintf(line, sizeof(line), AGENT_PROG ": bad frame from the host: %s",
				 strerror(-err));
			reply_error(&ch, line);
			calvin_channel_reset(&ch);
			continue;
		}
		if (serve_one(&ch, &m))
			break;
	}
	calvin_channel_free(&ch);
	fprintf(stderr, AGENT_PROG ": powering off\n");
	sync();
	reboot(RB_POWER_OFF);
	return 1;
}

int main(int argc, char **argv)
{
	char self[sizeof(agent.lib_dir)];
	ssize_t n;
	int fd;

	if (argc != 3 || strcmp(argv[1], "--port")) {
		fprintf(stderr, "usage: " AGENT_PROG " --port /dev/virtio-ports/NAME\n");
		return 2;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0) {
		fprintf(stderr, AGENT_PROG ": cannot find my own directory\n");
		return 1;
	}
	self[n] = '\0';
	snprintf(agent.lib_dir, sizeof(agent.lib_dir), "%s", dirname(self));
	fd = open(argv[2], O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, AGENT_PROG ": cannot open %s: %s\n", argv[2], strerror(errno));
		return 2;
	}
	fprintf(stderr, AGENT_PROG ": listening on %s\n", argv[2]);
	return serve(fd);
}
