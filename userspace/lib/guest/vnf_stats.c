// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* A user VNF's telemetry answer, read and shown (guest.h). */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "guest/guest.h"
#include "util/util.h"

/* {"/calvin/stats": {NAME: value}}: two levels, and one for a value
 * that is a container (refused below, with a reason). */
#define ANSWER_DEPTH 3
/* A longer name is cut when escaped; calvin-vnf's are under 32. */
#define NAME_MAX_LEN 64

/* One counter into out; 0, or -EBADMSG and why. */
static int counter(struct json_object *out, const char *name, struct json_object *v, char *why,
		   size_t whylen)
{
	char key[CALVIN_ESCAPED_LEN(NAME_MAX_LEN)], shown[48];

	calvin_text_escape(name, strnlen(name, NAME_MAX_LEN), key, sizeof(key));
	/* for a message, shorter, still cut between characters */
	calvin_text_escape(name, strnlen(name, NAME_MAX_LEN), shown, sizeof(shown));
	switch (json_object_get_type(v)) {
	case json_type_string:
		jw_text(out, key, json_object_get_string(v), (size_t)json_object_get_string_len(v));
		return 0;
	case json_type_int:
		if (json_object_get_int64(v) >= 0) {
			jw_u64(out, key, json_object_get_uint64(v));
			return 0;
		}
		snprintf(why, whylen, "counter '%s' is negative", shown);
		return -EBADMSG;
	default:
		snprintf(why, whylen, "counter '%s' is %s, not a whole number or a string", shown,
			 json_type_to_name(json_object_get_type(v)));
		return -EBADMSG;
	}
}

/* The counters of a parsed answer, copied into a new object. */
static int counters(struct json_object *answer, struct json_object **out, char *why, size_t whylen)
{
	struct json_object *dict;
	int err = 0;

	if (!json_object_is_type(answer, json_type_object) ||
	    !json_object_object_get_ex(answer, CALVIN_VNF_STATS_CMD, &dict) ||
	    json_object_object_length(answer) != 1 ||
	    !json_object_is_type(dict, json_type_object)) {
		snprintf(why, whylen, "not an answer to %s", CALVIN_VNF_STATS_CMD);
		return -EBADMSG;
	}
	if (json_object_object_length(dict) > CALVIN_VNF_STATS_MAX) {
		snprintf(why, whylen, "%d counters, more than %d", json_object_object_length(dict),
			 CALVIN_VNF_STATS_MAX);
		return -EBADMSG;
	}
	*out = jw_obj();
	if (!*out)
		return -ENOMEM;
	json_object_object_foreach(dict, name, v)
	{
		err = counter(*out, name, v, why, whylen);
		if (err)
			break;
	}
	if (err) {
		json_object_put(*out);
		*out = NULL;
	}
	return err;
}

int calvin_vnf_stats_parse(const char *answer, size_t len, struct json_object **out, char *why,
			   size_t whylen)
{
	struct json_object *doc;
	char what[160];
	int err;

	*out = NULL;
	err = jw_parse(answer, len, ANSWER_DEPTH, &doc, what, sizeof(what));
	if (err) {
		snprintf(why, whylen, "telemetry answer not understood: %s", what);
		return err;
	}
	err = counters(doc, out, what, sizeof(what));
	if (err)
		snprintf(why, whylen, "telemetry answer not understood: %s", what);
	json_object_put(doc);
	return err;
}

struct json_object *calvin_vnf_stats_jobj(struct json_object *counters_obj)
{
	struct json_object *o = jw_obj();

	jw_add(o, CALVIN_VNF_STATS_CMD, counters_obj);
	if (!o)
		json_object_put(counters_obj);
	return o;
}

/* A port's packet counts are shown even when zero: a port that saw
 * nothing is news. */
static int packet_count(const char *name)
{
	size_t n = strlen(name);

	return n > 11 &&
	       (!strcmp(name + n - 10, "rx_packets") || !strcmp(name + n - 10, "tx_packets"));
}

void calvin_vnf_stats_text(FILE *f, const char *vnf, struct json_object *counters_obj)
{
	uint64_t v;

	fprintf(f, "  %-12s user   ", vnf);
	/* names and strings were escaped when the answer was read */
	json_object_object_foreach(counters_obj, name, val)
	{
		if (json_object_is_type(val, json_type_string)) {
			fprintf(f, " %s %s", name, json_object_get_string(val));
			continue;
		}
		v = json_object_get_uint64(val);
		if (v || packet_count(name))
			fprintf(f, " %s %" PRIu64, name, v);
	}
	fprintf(f, "\n");
}
