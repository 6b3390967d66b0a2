// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Chain spec parser: the supervise section, the supervisor's restart rule
 * (how many starts within how long, and the backoff between them). */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "spec_priv.h"

#define NS_PER_MS 1000000ULL
#define WITHIN_MIN_NS (1000 * NS_PER_MS)
#define WITHIN_MAX_NS (3600 * 1000 * NS_PER_MS)
#define BACKOFF_MIN_NS (10 * NS_PER_MS)
#define BACKOFF_MAX_NS (60 * 1000 * NS_PER_MS)

void calvin_spec_supervise_defaults(struct calvin_supervise_spec *s)
{
	s->restarts = 5;
	s->within_ns = 60 * 1000 * NS_PER_MS;
	s->backoff_min_ns = 100 * NS_PER_MS;
	s->backoff_max_ns = 5000 * NS_PER_MS;
}

/* One end of a backoff range: a duration from 10ms to 60s. */
static int backoff_end(struct spec_ctx *c, yaml_node_t *n, const char *which, const char *s,
		       uint64_t *ns)
{
	char buf[SHOWN_MAX + 4];

	if (calvin_parse_duration(s, ns))
		return calvin_spec_err(c, n->start_mark,
				       "backoff's %s wait '%s' is not a duration; write a number "
				       "and a unit ms or s, e.g. 100ms..5s",
				       which, calvin_spec_shown(s, buf));
	if (*ns < BACKOFF_MIN_NS || *ns > BACKOFF_MAX_NS)
		return calvin_spec_err(c, n->start_mark,
				       "backoff's %s wait %s is not from 10ms to 60s; give e.g. "
				       "100ms..5s",
				       which, calvin_spec_shown(s, buf));
	return 0;
}

/* backoff: FIRST..LONGEST, the wait before the second start and the longest. */
static int set_backoff(struct spec_ctx *c, const struct spec_key *k, yaml_node_t *n, void *field)
{
	struct calvin_supervise_spec *sv = field;
	char text[64], buf[SHOWN_MAX + 4], *dots;
	const char *s = "";
	int err;

	err = calvin_spec_scalar(c, n, k->name, &s);
	if (err)
		return err;
	dots = strlen(s) < sizeof(text) ? strstr(strcpy(text, s), "..") : NULL;
	if (!dots)
		return calvin_spec_err(
		    c, n->start_mark,
		    "backoff '%s' is not FIRST..LONGEST; write the first wait and the "
		    "longest, e.g. 100ms..5s",
		    calvin_spec_shown(s, buf));
	*dots = '\0';
	err = backoff_end(c, n, "first", text, &sv->backoff_min_ns);
	if (!err)
		err = backoff_end(c, n, "longest", dots + 2, &sv->backoff_max_ns);
	if (!err && sv->backoff_min_ns > sv->backoff_max_ns)
		return calvin_spec_err(c, n->start_mark,
				       "backoff '%s' waits longer first than last; write the "
				       "shorter wait first, e.g. 100ms..5s",
				       calvin_spec_shown(s, buf));
	return err;
}

int calvin_spec_supervise_after(struct spec_ctx *c, void *obj, struct spec_seen *seen)
{
	const struct calvin_supervise_spec *sv = obj;
	yaml_node_t *v = seen->val[1];

	if (v && (sv->within_ns < WITHIN_MIN_NS || sv->within_ns > WITHIN_MAX_NS))
		return calvin_spec_err(c, v->start_mark,
				       "within must be from 1s to 1h; give e.g. 60s");
	return 0;
}

const struct spec_key calvin_supervise_keys[] = {
	{ .name = "restarts",
	  .type = KEY_UINT,
	  .off = offsetof(struct calvin_supervise_spec, restarts),
	  .min = 1,
	  .max = CALVIN_RESTARTS_MAX },
	{ .name = "within",
	  .type = KEY_DURATION,
	  .off = offsetof(struct calvin_supervise_spec, within_ns),
	  .hint = "how long restarts are counted, e.g. 60s" },
	{ .name = "backoff", .type = KEY_STRING, .off = 0, .set = set_backoff },
	{ NULL },
};
