// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* A deployment's keys: the random value each `up` makes, the key files read
 * once, and the traffic keys of one VNF's SAs derived from both. Only the
 * controller holds the long-term keys; VNFs (and VMs) get their own SAs'
 * traffic keys (userspace/lib/codec/codec.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "backend.h"
#include "codec/codec.h"
#include "commands.h"
#include "util.h"

int deploy_random_make(struct deploy *d, const char *dir)
{
	char path[PATH_MAX + sizeof(CALVIN_DEPLOY_RANDOM_FILE) + 1];
	char hex[2 * CALVIN_DEPLOY_RANDOM_LEN + 1];
	int fd, err = 0;

	if (getrandom(d->deploy_random, sizeof(d->deploy_random), 0) !=
	    (ssize_t)sizeof(d->deploy_random))
		return -EIO;
	calvin_deploy_random_format(d->deploy_random, hex);
	snprintf(path, sizeof(path), "%s/%s", dir, CALVIN_DEPLOY_RANDOM_FILE);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	if (dprintf(fd, "%s\n", hex) < 0)
		err = -EIO;
	close(fd);
	return err;
}

int deploy_keys_load(const struct calvin_chain_spec *spec, struct calvin_keyring *ring)
{
	char err[CALVIN_ERR_MAX];

	if (!calvin_spec_load_keys(spec, ring, err, sizeof(err)))
		return 0;
	fprintf(stderr, "%s\n", err);
	calvin_keyring_clear(ring);
	return CALVIN_EXIT_USAGE;
}

int deploy_sa_set(const struct deploy *d, unsigned int vnf, uint32_t epoch,
		  struct calvin_sa_set *out)
{
	const struct calvin_vnf_spec *v = &d->spec->vnfs[vnf];
	const struct calvin_key *ltk =
	    d->keys ? calvin_keyring_get(d->keys, v->crypt.key_file) : NULL;
	int err;

	if (!ltk) {
		calvin_err("%s: no key was read for it from %s", v->name, v->crypt.key_file);
		return -ENOKEY;
	}
	err = calvin_sa_set_derive(d->spec, vnf, ltk->key, d->deploy_random, epoch, out);
	if (err)
		calvin_err("%s: cannot derive the keys of its SAs: %s", v->name, strerror(-err));
	return err;
}
