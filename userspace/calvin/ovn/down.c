// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* `down` of links between hosts: each logical switch and port the journal
 * names is removed where it still carries the chain's tag; where the
 * northbound database cannot be reached, one line says what is left and
 * where, and the journal stays for the next `down`. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ovn.h"
#include "util.h"

#define NBCTL_TIMEOUT_S 5

/* An ssl: database's files are in the chain as it was deployed. */
static int nb_of_entry(const struct chain_state *s, const struct state_entry *e, struct ovn_nb *nb,
		       struct calvin_chain_spec **spec)
{
	char path[4096], err[CALVIN_ERR_MAX];

	memset(nb, 0, sizeof(*nb));
	snprintf(nb->remote, sizeof(nb->remote), "%s", e->uri);
	/* as the parser took it: a journal never carries another past it */
	if (calvin_ovn_remote_check(e->uri, err, sizeof(err)))
		return -EPERM;
	if (strncmp(e->uri, "ssl:", 4))
		return 0;
	if (!*spec) {
		*spec = malloc(sizeof(**spec));
		if (!*spec || state_file(path, sizeof(path), s->chain, ".yaml") ||
		    calvin_spec_load(path, *spec, err, sizeof(err)))
			return -EACCES;
	}
	ovn_nb_of_spec(nb, &(*spec)->ovn);
	return strcmp(nb->remote, e->uri) ? -EACCES : 0;
}

static void unquote(char *s)
{
	size_t n = strlen(s);

	if (n >= 2 && s[0] == '"' && s[n - 1] == '"') {
		memmove(s, s + 1, n - 2);
		s[n - 2] = '\0';
	}
}

/* 0: removed or gone; 1: there but not the chain's (left alone);
 * -EIO with err: the database did not answer. */
static int remove_one(const struct ovn_nb *nb, const char *chain, const struct state_entry *e,
		      char *err, size_t err_len)
{
	bool ls = e->kind == ST_OVN_LS;
	const char *table = ls ? "Logical_Switch" : "Logical_Switch_Port";
	const char *const get[] = {
		"--if-exists", "get", table, e->name, "external_ids:calvin-chain", NULL
	};
	const char *const del[] = { "--if-exists", ls ? "ls-del" : "lsp-del", e->name, NULL };
	char out[128];
	int rc;

	rc = ovn_nbctl(nb, NBCTL_TIMEOUT_S, get, out, sizeof(out), err, err_len);
	if (rc)
		return rc;
	unquote(out);
	if (!out[0])
		return 0; /* gone, or made by another: it carries no tag */
	if (strcmp(out, chain))
		return 1;
	return ovn_nbctl(nb, NBCTL_TIMEOUT_S, del, out, sizeof(out), err, err_len);
}

static void say_left(const struct chain_state *s, const char *remote, const char *why,
		     const char *left)
{
	calvin_err("OVN northbound %s: %s; left there: %s; run 'calvin down %s' again when it "
		   "answers",
		   remote, why, left, s->chain);
}

int ovn_links_destroy(struct chain_state *s)
{
	struct calvin_chain_spec *spec = NULL;
	char err[512] = "", left[1024] = "", remote[CALVIN_URI_MAX] = "";
	const struct state_entry *e;
	struct ovn_nb nb;
	size_t n = 0;
	int rc;

	/* ports before their switches, the last made first */
	for (unsigned int i = s->nr; i-- > 0;) {
		e = &s->e[i];
		if (e->kind != ST_OVN_LS && e->kind != ST_OVN_LSP)
			continue;
		/* a database that did not answer is not asked again */
		rc = remote[0] && !strcmp(remote, e->uri) ? -EIO : nb_of_entry(s, e, &nb, &spec);
		if (!rc)
			rc = remove_one(&nb, s->chain, e, err, sizeof(err));
		if (rc == -EACCES)
			snprintf(err, sizeof(err), "the deployed chain names no key files for it");
		if (rc == -EPERM)
			snprintf(err, sizeof(err), "not a database calvin takes, refused");
		if (rc >= 0)
			continue;
		snprintf(remote, sizeof(remote), "%s", e->uri);
		n += (size_t)snprintf(left + n, n < sizeof(left) ? sizeof(left) - n : 0, "%s%s %s",
				      n ? ", " : "",
				      e->kind == ST_OVN_LS ? "logical switch" : "port", e->name);
		if (n >= sizeof(left))
			n = sizeof(left) - 1;
	}
	free(spec);
	if (!left[0])
		return 0;
	say_left(s, remote, err, left);
	return -EAGAIN;
}
