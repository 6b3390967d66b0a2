/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Answers to /calvin/stats as an attacker who controls a user VNF (or
 * its VM) writes them: tests/tools/telemetry_server.c serves them in
 * place of a VNF, tests/unit/test_vnf_stats.c reads them directly. */
#ifndef CALVIN_TESTS_HOSTILE_TELEMETRY_H
#define CALVIN_TESTS_HOSTILE_TELEMETRY_H

/* Valid JSON whose names and values carry, as JSON escapes and as raw
 * bytes: ESC and BEL (a title change, a screen clear, a colour), the C1
 * CSI as UTF-8 and alone, a right-to-left override, a newline, a NUL,
 * invalid UTF-8, and text that would end calvin's string, object and
 * array and open members of the attacker's. Five counters. */
#define HOSTILE_TELEMETRY                                                                          \
	"{\"/calvin/stats\": {"                                                                    \
	"\"west_pmd\": \"af_xdp\\u001b]0;owned\\u0007\\\"}],\\\"injected\\\":true,\\\"x\\\":\\\"\","     \
	"\"west_rx_packets\\u001b[2J\": 7,"                                                        \
	"\"east_t_in\": \"xdp\x1b[31m\xc2\x9b"                                                     \
	"6n\x9b\xe2\x80\xae"                                                                       \
	"evil\\n\\u0000tail\xff\","                                                                \
	"\"rx_\\\"}],\\\"injected\\\":{\\\"a\\\":\": 3,"                                              \
	"\"east_tx_packets\": 18446744073709551615"                                                \
	"}}"

/* Not JSON: it closes calvin's own document where a reader that pastes
 * it in would have it, and opens the attacker's members. */
#define GARBAGE_TELEMETRY                                                                          \
	"{\"/calvin/stats\": {\"west_rx_packets\": 1}}}],\"injected\":true,\"vnfs\":[{\"x\":\""

#endif /* CALVIN_TESTS_HOSTILE_TELEMETRY_H */
