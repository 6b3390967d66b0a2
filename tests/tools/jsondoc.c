// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Test tool: is stdin exactly one JSON document (json-c, strict)? And
 * what does it hold? calvin's -j output is read with it, never grepped.
 *
 *   jsondoc              exit 0 when stdin is one document, 1 (and why) if not
 *   jsondoc PATH         print the value at PATH: a string as it is, else as JSON
 *   jsondoc -k PATH      print the members' names of the object at PATH, one a line
 *   jsondoc -n PATH      print how many elements the array (or object) at PATH has
 *
 * PATH: members and array indexes joined by dots ("counts.received",
 * "0.vnfs.1.error"); "[KEY=VALUE]" is the array element whose member KEY
 * is the string VALUE ("0.vnfs.[name=fwd-u].error"); "." is the document.
 * A PATH that leads nowhere exits 3. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* The element of array a whose member key is the string value. */
static struct json_object *find(struct json_object *a, const char *sel)
{
	char key[128], *value;
	struct json_object *e, *v;
	size_t i;

	if (snprintf(key, sizeof(key), "%s", sel + 1) >= (int)sizeof(key) ||
	    !(value = strchr(key, '=')) || key[strlen(key) - 1] != ']')
		return NULL;
	*value++ = '\0';
	value[strlen(value) - 1] = '\0';
	for (i = 0; i < json_object_array_length(a); i++) {
		e = json_object_array_get_idx(a, i);
		if (json_object_object_get_ex(e, key, &v) &&
		    json_object_is_type(v, json_type_string) &&
		    !strcmp(json_object_get_string(v), value))
			return e;
	}
	return NULL;
}

static struct json_object *walk(struct json_object *o, const char *path)
{
	char *copy = strdup(path), *save = NULL, *step;
	char *end;
	long i;

	for (step = strtok_r(copy, ".", &save); o && step; step = strtok_r(NULL, ".", &save)) {
		if (json_object_is_type(o, json_type_array)) {
			i = strtol(step, &end, 10);
			o = step[0] == '['  ? find(o, step)
			    : *end || i < 0 ? NULL
					    : json_object_array_get_idx(o, (size_t)i);
		} else if (!json_object_is_type(o, json_type_object) ||
			   !json_object_object_get_ex(o, step, &o)) {
			o = NULL;
		}
	}
	free(copy);
	return o;
}

static char *slurp(size_t *len)
{
	size_t cap = 1 << 16;
	char *buf = malloc(cap);
	size_t n;

	*len = 0;
	while (buf && (n = fread(buf + *len, 1, cap - *len, stdin)) > 0) {
		*len += n;
		if (*len == cap)
			buf = realloc(buf, cap *= 2);
	}
	return buf;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 2 ? argv[1] : "", *path = argv[argc - 1];
	struct json_object *doc, *o;
	char why[256], *text;
	size_t len;

	text = slurp(&len);
	if (!text || jw_parse(text, len, 64, &doc, why, sizeof(why))) {
		fprintf(stderr, "jsondoc: %s\n", text ? why : "out of memory");
		return 1;
	}
	if (argc < 2)
		return 0;
	o = strcmp(path, ".") ? walk(doc, path) : doc;
	if (!o) {
		fprintf(stderr, "jsondoc: nothing at %s\n", path);
		return 3;
	}
	if (!strcmp(mode, "-k")) {
		json_object_object_foreach(o, key, v)
		{
			(void)v;
			printf("%s\n", key);
		}
	} else if (!strcmp(mode, "-n")) {
		printf("%zu\n", json_object_is_type(o, json_type_array)
				    ? json_object_array_length(o)
				    : (size_t)json_object_object_length(o));
	} else if (json_object_is_type(o, json_type_string)) {
		printf("%s\n", json_object_get_string(o));
	} else {
		printf("%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_NOSLASHESCAPE));
	}
	return 0;
}
