// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Interrupts and kernel work off the isolated CPUs: every IRQ's affinity,
 * the default affinity of IRQs yet to come, and the cpumask of unbound
 * workqueues, all onto housekeeping. Some IRQs cannot move (per-CPU ones,
 * managed ones); they are counted, not fatal. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isolate_priv.h"
#include "util.h"

struct irq_list {
	unsigned int nr;
	char (*path)[PATH_MAX];
};

static int irq_list(const struct isolate_host *h, struct irq_list *l)
{
	char dir[PATH_MAX];
	struct dirent *de;
	unsigned int max = 0;
	void *grown;
	DIR *d;
	int err = 0;

	memset(l, 0, sizeof(*l));
	if (pathf(dir, sizeof(dir), "%s/irq", h->proc))
		return -ENAMETOOLONG;
	d = opendir(dir);
	if (!d)
		return -errno;
	while (!err && (de = readdir(d))) {
		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		if (l->nr == max) {
			max = max ? 2 * max : 64;
			grown = realloc(l->path, max * sizeof(*l->path));
			if (!grown) {
				err = -ENOMEM;
				break;
			}
			l->path = grown;
		}
		err = pathf(l->path[l->nr++], PATH_MAX, "%s/%s/smp_affinity_list", dir, de->d_name);
	}
	closedir(d);
	return err;
}

/* The IRQs not on housekeeping yet: their old affinity journalled in one
 * step, then each moved. */
static int move_irqs(struct isolate_ctx *x, const struct irq_list *l, const char *want)
{
	struct calvin_hostrec_entry *e;
	struct calvin_cpumask now;
	unsigned int i, n = 0;
	bool *todo;
	char cur[CALVIN_HOSTREC_VALUE_MAX];
	int err = 0;

	e = calloc(l->nr + 1, sizeof(*e));
	todo = calloc(l->nr + 1, sizeof(*todo));
	if (!e || !todo) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < l->nr; i++) {
		if (read_text(l->path[i], cur, sizeof(cur)) || calvin_cpumask_parse_list(cur, &now))
			continue; /* gone meanwhile, or not an IRQ we can read */
		x->irqs++;
		/* on housekeeping already; one calvin moved follows housekeeping
		 * as it changes with the chains */
		if (calvin_hostrec_original(&x->rec.r, l->path[i])) {
			todo[i] = !calvin_cpumask_equal(&x->irq_cpus, &now);
			x->irqs_moved += !todo[i];
			continue;
		}
		if (calvin_cpumask_contains(&x->irq_cpus, &now)) {
			x->irqs_moved++;
			continue;
		}
		todo[i] = true;
		e[n].kind = HR_FILE;
		pathf(e[n].path, sizeof(e[n].path), "%s", l->path[i]);
		pathf(e[n].value, sizeof(e[n].value), "%s", cur);
		n++;
	}
	err = hostrec_append(&x->rec, e, n);
	for (i = 0; !err && i < l->nr; i++)
		if (todo[i] && !write_text(l->path[i], want))
			x->irqs_moved++;
out:
	free(todo);
	free(e);
	return err;
}

/* Journal the workqueue mask as requested, not as in effect (where the
 * kernel narrowed it, e.g. for isolcpus, the two differ). */
static int workqueue(struct isolate_ctx *x, const char *want)
{
	char path[PATH_MAX], asked[PATH_MAX];

	if (pathf(path, sizeof(path), "%s/devices/virtual/workqueue/cpumask", x->h->sys) ||
	    pathf(asked, sizeof(asked), "%s_requested", path))
		return -ENAMETOOLONG;
	return rec_write_from(x, path, path_exists(asked) ? asked : path, want);
}

int irq_converge(struct isolate_ctx *x)
{
	char list[CALVIN_CPUS_TEXT_MAX], hex[CALVIN_CPUS_TEXT_MAX], path[PATH_MAX];
	struct irq_list l;
	int err;

	if (!calvin_cpumask_list(&x->irq_cpus, list, sizeof(list)) ||
	    !calvin_cpumask_hex(&x->irq_cpus, hex, sizeof(hex)))
		return -ENAMETOOLONG;
	err = irq_list(x->h, &l);
	if (!err)
		err = move_irqs(x, &l, list);
	free(l.path);
	if (err == -ENOENT) {
		ctx_note(x, "no %s/irq to move IRQs in", x->h->proc);
		err = 0;
	}
	if (err)
		return err;
	x->default_irq = !pathf(path, sizeof(path), "%s/irq/default_smp_affinity", x->h->proc) &&
			 !rec_write(x, path, hex);
	x->workqueue = !workqueue(x, hex);
	return 0;
}

void irq_count(const struct isolate_host *h, const struct calvin_cpumask *cpus, unsigned int *nr,
	       unsigned int *on)
{
	char cur[CALVIN_CPUS_TEXT_MAX];
	struct calvin_cpumask now;
	struct irq_list l;
	unsigned int i;

	*nr = *on = 0;
	if (irq_list(h, &l) == 0)
		for (i = 0; i < l.nr; i++) {
			if (read_text(l.path[i], cur, sizeof(cur)) ||
			    calvin_cpumask_parse_list(cur, &now))
				continue;
			(*nr)++;
			*on += calvin_cpumask_contains(cpus, &now);
		}
	free(l.path);
}
