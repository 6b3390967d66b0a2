// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Chain spec pairs: every decrypt (nc-decode) closes an encrypt (nc-encode)
 * before it with the same settings, every encrypt (nc-encode) is closed,
 * pairs nest, and no two security associations of a chain share an SPI
 * (with one key file in one chain they would derive the same key and
 * nonces); and what a pair does: which way each of its VNFs transforms,
 * the SPI of each direction (see spec.h). */
#include <stdio.h>
#include <string.h>
#include <calvin/telemetry.h>

#include "spec_priv.h"

#define WHY_MAX 200

static yaml_mark_t mark_of(const struct calvin_pos *p)
{
	yaml_mark_t m = {0};

	m.line = (size_t)(p->line - 1);
	m.column = (size_t)(p->col - 1);
	return m;
}

static const char *label(const struct calvin_vnf_spec *v, char *buf, size_t size)
{
	snprintf(buf, size, "%s '%s'", calvin_vnf_kind_name(v->kind), v->name);
	return buf;
}

/* "an encrypt", "a decrypt", "an nc-decode" */
static const char *a_kind(enum calvin_vnf_kind k, char *buf, size_t size)
{
	snprintf(buf, size, "%s %s", k == CALVIN_VNF_DECRYPT ? "a" : "an", calvin_vnf_kind_name(k));
	return buf;
}

static const char *settings(enum calvin_vnf_kind k)
{
	return k == CALVIN_VNF_ENCRYPT || k == CALVIN_VNF_DECRYPT
		   ? "cipher, key-file, spi, spi-rev and direction"
		   : "k, r and direction";
}

/* The first setting in which the tail t differs from its head h, or NULL. */
static const char *crypt_differs(const struct calvin_crypt_spec *t,
				 const struct calvin_crypt_spec *h, char *why, size_t len)
{
	if (t->cipher != h->cipher)
		snprintf(why, len, "cipher %s here, %s there", calvin_cipher_name(t->cipher),
			 calvin_cipher_name(h->cipher));
	else if (strcmp(t->key_file, h->key_file))
		snprintf(why, len, "key-file %.60s here, %.60s there", t->key_file, h->key_file);
	else if (t->spi != h->spi)
		snprintf(why, len, "spi 0x%x here, 0x%x there", t->spi, h->spi);
	else if (t->spi_rev != h->spi_rev)
		snprintf(why, len, "spi-rev 0x%x here, 0x%x there", t->spi_rev, h->spi_rev);
	else if (t->direction != h->direction)
		snprintf(why, len, "direction %s here, %s there",
			 calvin_direction_name(t->direction), calvin_direction_name(h->direction));
	else
		return NULL;
	return why;
}

static const char *nc_differs(const struct calvin_nc_spec *t, const struct calvin_nc_spec *h,
			      char *why, size_t len)
{
	if (t->k != h->k)
		snprintf(why, len, "k %u here, %u there", t->k, h->k);
	else if (t->r != h->r)
		snprintf(why, len, "r %u here, %u there", t->r, h->r);
	else if (t->direction != h->direction)
		snprintf(why, len, "direction %s here, %s there",
			 calvin_direction_name(t->direction), calvin_direction_name(h->direction));
	else
		return NULL;
	return why;
}

/* Does tail close head, the innermost pair still open (NULL: none)? */
static int check_close(struct spec_ctx *c, const struct calvin_vnf_spec *head,
		       const struct calvin_vnf_spec *tail)
{
	enum calvin_vnf_kind opener =
	    tail->kind == CALVIN_VNF_DECRYPT ? CALVIN_VNF_ENCRYPT : CALVIN_VNF_NC_ENCODE;
	char t[64], h[64], a[32], why[WHY_MAX];
	const char *diff;

	label(tail, t, sizeof(t));
	if (!head)
		return calvin_spec_err(c, mark_of(&tail->pos),
				       "%s has no %s before it; put %s VNF with the same %s "
				       "before it",
				       t, calvin_vnf_kind_name(opener),
				       a_kind(opener, a, sizeof(a)), settings(opener));
	label(head, h, sizeof(h));
	if (head->kind != opener)
		return calvin_spec_err(c, mark_of(&tail->pos),
				       "%s comes before the %s that closes %s (line %d); pairs "
				       "must nest, so close the inner pair first",
				       t, calvin_vnf_kind_name(calvin_pair_closer(head->kind)), h,
				       head->pos.line);
	if (opener == CALVIN_VNF_ENCRYPT)
		diff = crypt_differs(&tail->crypt, &head->crypt, why, sizeof(why));
	else
		diff = nc_differs(&tail->nc, &head->nc, why, sizeof(why));
	if (diff)
		return calvin_spec_err(c, mark_of(&tail->pos),
				       "%s does not match %s (line %d): %s; give both ends of the "
				       "pair the same %s",
				       t, h, head->pos.line, diff, settings(opener));
	return 0;
}

/* The SPIs of the security associations an encrypt VNF really has. */
static unsigned int active_spis(const struct calvin_vnf_spec *v, uint32_t spi[2])
{
	unsigned int n = 0, dir;

	for (dir = CALVIN_DIR_FWD; dir <= CALVIN_DIR_REV; dir++)
		if (calvin_pair_role(v->kind, v->crypt.direction, dir) != CALVIN_ROLE_NONE)
			spi[n++] = calvin_sa_spi(&v->crypt, dir);
	return n;
}

static int check_spis(struct spec_ctx *c)
{
	const struct calvin_vnf_spec *a, *b;
	uint32_t sa[2], sb[2];
	unsigned int i, j, na, nb, x, y;
	char la[64], lb[64];

	for (i = 0; i < c->spec->nr_vnfs; i++) {
		a = &c->spec->vnfs[i];
		if (a->kind != CALVIN_VNF_ENCRYPT)
			continue;
		na = active_spis(a, sa);
		for (j = 0; j < i; j++) {
			b = &c->spec->vnfs[j];
			if (b->kind != CALVIN_VNF_ENCRYPT)
				continue;
			nb = active_spis(b, sb);
			for (x = 0; x < na; x++)
				for (y = 0; y < nb; y++)
					if (sa[x] == sb[y])
						return calvin_spec_err(
						    c, mark_of(&a->pos),
						    "%s uses spi 0x%x, as %s (line %d) does; give "
						    "each encrypt/decrypt pair SPIs of its own",
						    label(a, la, sizeof(la)), sa[x],
						    label(b, lb, sizeof(lb)), b->pos.line);
		}
	}
	return 0;
}

int calvin_spec_check_pairs(struct spec_ctx *c)
{
	const struct calvin_vnf_spec *open[CALVIN_MAX_VNFS], *v;
	unsigned int n = 0, i;
	char l[64], a[32];
	int err;

	for (i = 0; i < c->spec->nr_vnfs; i++) {
		v = &c->spec->vnfs[i];
		if (calvin_pair_head(v->kind)) {
			open[n++] = v;
		} else if (calvin_pair_tail(v->kind)) {
			err = check_close(c, n ? open[n - 1] : NULL, v);
			if (err)
				return err;
			n--;
		}
	}
	if (n) {
		v = open[n - 1];
		return calvin_spec_err(
		    c, mark_of(&v->pos),
		    "%s has no %s after it; put %s VNF with the same %s after "
		    "it",
		    label(v, l, sizeof(l)), calvin_vnf_kind_name(calvin_pair_closer(v->kind)),
		    a_kind(calvin_pair_closer(v->kind), a, sizeof(a)), settings(v->kind));
	}
	return check_spis(c);
}

bool calvin_pair_head(enum calvin_vnf_kind k)
{
	return k == CALVIN_VNF_ENCRYPT || k == CALVIN_VNF_NC_ENCODE;
}

bool calvin_pair_tail(enum calvin_vnf_kind k)
{
	return k == CALVIN_VNF_DECRYPT || k == CALVIN_VNF_NC_DECODE;
}

enum calvin_vnf_kind calvin_pair_closer(enum calvin_vnf_kind head)
{
	return head == CALVIN_VNF_ENCRYPT ? CALVIN_VNF_DECRYPT : CALVIN_VNF_NC_DECODE;
}

static bool dirs_include(enum calvin_direction dirs, unsigned int dir)
{
	if (dirs == CALVIN_DIRS_BOTH)
		return dir == CALVIN_DIR_FWD || dir == CALVIN_DIR_REV;
	return (dirs == CALVIN_DIRS_FWD && dir == CALVIN_DIR_FWD) ||
	       (dirs == CALVIN_DIRS_REV && dir == CALVIN_DIR_REV);
}

enum calvin_pair_role calvin_pair_role(enum calvin_vnf_kind k, enum calvin_direction dirs,
				       unsigned int dir)
{
	bool head = calvin_pair_head(k);

	if (!(head || calvin_pair_tail(k)) || !dirs_include(dirs, dir))
		return CALVIN_ROLE_NONE;
	/* the head applies on the way out (forward), the tail on the way back */
	return head == (dir == CALVIN_DIR_FWD) ? CALVIN_ROLE_APPLY : CALVIN_ROLE_UNDO;
}

uint32_t calvin_spi_rev_default(uint32_t spi)
{
	return spi == UINT32_MAX ? 1 : spi + 1;
}

uint32_t calvin_sa_spi(const struct calvin_crypt_spec *c, unsigned int dir)
{
	return dir == CALVIN_DIR_REV ? c->spi_rev : c->spi;
}
