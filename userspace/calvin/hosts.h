/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Chains across hosts: what validate and plan say about them, and what
 * up checks before it creates anything (hosts.c). */
#ifndef CALVIN_HOSTS_H
#define CALVIN_HOSTS_H

#include "spec/spec.h"

/* A chain with hosts: one line "hosts: local: probe, fwd-k; b (chassis b,
 * URI): fwd-u, server; ..." on stdout, or under -j the members hosts,
 * where and ovn_nb. Nothing for a chain on one host. */
void hosts_show(const struct calvin_chain_spec *spec);
/* plan: each host a node is on, its CPUs and NUMA nodes read through its
 * libvirt, and what calvin cannot do there, a line each (text only). 0, or
 * CALVIN_EXIT_FAIL with one line when a host's libvirt cannot be reached. */
int hosts_plan_show(const struct calvin_chain_spec *spec);
/* 0, or CALVIN_EXIT_HOST with one line for a chain across hosts this
 * build cannot deploy: its server on another host, or a VNF on this one
 * (the probe and the server stay here, every VNF is a VM elsewhere). */
int hosts_check(const struct calvin_chain_spec *spec);

#endif /* CALVIN_HOSTS_H */
