/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* The supervisor of a chain (`calvin supervise CHAIN`): one process per
 * chain, started by `up`, journalled before it exists, stopped by `down`
 * before anything else goes. It watches the chain's user VNFs through
 * pidfds (a libvirt chain's VMs through libvirt's lifecycle events and
 * domain states: libvirt/vmwatch.h), restarts one that died on its
 * planned cores (both ends of a transform pair, an encrypt/decrypt pair
 * under a new epoch; a VM from its defined domain), reports a
 * stopped one as stalled without killing it, and writes what it sees to
 * RUN_DIR/CHAIN.d/supervisor.json and the chain's event log.
 *
 * supervisor.json, replaced whole (write a new file, rename):
 *   {"chain": NAME, "pid": N, "started": RFC3339, "heartbeat": RFC3339
 *    (at least every 2 s), "vnfs": [{"name", "state": "running" |
 *    "restarting" | "stalled" | "failed", "restarts": N, "last_exit":
 *    "signal 9" | "exit 1" | "oom-kill" | "domain destroyed" | ... | null,
 *    "uptime_s": N, "pid": N | null, and for a VM "vm": DOMAIN}]} */
#ifndef CALVIN_SUPERVISE_H
#define CALVIN_SUPERVISE_H

#include <stdbool.h>
#include <sys/types.h>

#include "codec/codec.h"
#include "state.h"

struct json_object;

/* The supervisor's files in the chain's folder. */
#define SUPERVISOR_JSON "supervisor.json"
#define SUPERVISOR_LOG "supervisor.log"
#define SUPERVISOR_EPOCHS "epochs"
/* The environment variable that names the inherited pipe holding the key
 * ring `up` read (never a file or an argument). */
#define SUPERVISOR_KEYS_ENV "CALVIN_SUPERVISE_KEYS_FD"

/* start.c */
/* `up --no-supervise`: the chain is journalled as unsupervised (a
 * supervisor entry of PID 0) and none is started; on a deployed chain, its
 * supervisor is stopped. A later `up` without it attaches one. */
extern bool supervise_off;
/* Start the supervisor of the chain s journals (held open and locked by
 * the caller): journalled (ST_SUPERVISOR) before it runs anything,
 * detached (a session of its own, output to CHAIN.d/supervisor.log), keys
 * handed over through a pipe. 0 or -errno after one line. */
int supervise_start(struct chain_state *s, const struct calvin_keyring *keys);
/* `up` of a deployed chain: a new supervisor if none runs (the one `up`
 * started was killed), the data path untouched. An exit code. */
int supervise_attach(const struct calvin_chain_spec *spec, const struct calvin_keyring *keys);
/* Was the chain deployed (or last brought up) with --no-supervise? */
bool supervise_unwanted(const struct chain_state *s);
/* The running supervisor of a journal: its PID, or 0 when it has none. */
pid_t supervise_running(const struct chain_state *s);
/* Stop every supervisor a journal names (SIGTERM, then SIGKILL), and wait
 * until each is gone: nothing heals what is being removed. */
void supervise_stop(const struct chain_state *s);
/* The key ring from the pipe SUPERVISOR_KEYS_ENV names, if any; else
 * the spec's key files, read again. An exit code after one line. */
int supervise_keys_read(const struct calvin_chain_spec *spec, struct calvin_keyring *ring);

/* report.c */
/* `calvin status`: the supervisor's view of chain (or "unsupervised"),
 * and its recent events; into o under -j. */
void supervise_status(const char *chain, struct json_object *o);

#endif /* CALVIN_SUPERVISE_H */
