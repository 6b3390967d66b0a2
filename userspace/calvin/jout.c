// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The command's JSON document under -j (jout.h). */
#include <stdbool.h>
#include <stdio.h>

#include "commands.h"
#include "jout.h"
#include "util.h"
#include "util/util.h"

/* -j, given to any command */
bool calvin_json;

static struct json_object *doc;
static bool pretty;
static char first_error[CALVIN_ERR_MAX];

struct json_object *jout(void)
{
	if (!doc && calvin_json)
		doc = jw_obj();
	return doc;
}

void jout_set(struct json_object *o)
{
	json_object_put(doc);
	doc = o;
}

struct json_object *jout_take(void)
{
	struct json_object *o = doc;

	doc = NULL;
	return o;
}

void jout_pretty(void)
{
	pretty = true;
}

void jout_error(const char *line)
{
	if (calvin_json && !first_error[0])
		snprintf(first_error, sizeof(first_error), "%s", line);
}

void jout_error_take(char *buf, size_t len)
{
	snprintf(buf, len, "%s", first_error);
	first_error[0] = '\0';
}

int jout_done(int rc)
{
	if (!calvin_json)
		return rc;
	if (!jout())
		return rc ? rc : CALVIN_EXIT_FAIL;
	/* a miss of the budget (exit 3) is a verdict, said in the report */
	if (rc && first_error[0] && json_object_is_type(doc, json_type_object) &&
	    !json_object_object_get_ex(doc, "error", NULL))
		jw_str(doc, "error", first_error);
	jw_write(stdout, doc, pretty);
	json_object_put(doc);
	doc = NULL;
	return rc;
}
