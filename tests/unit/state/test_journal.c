// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Unit tests of the chain journal (userspace/calvin/state.c) in a run
 * directory of the test's own (CALVIN_RUN_DIR): a VNF restarted a
 * thousand times (more than the journal's 256 entries) keeps one proc
 * line, rewritten in place, which a reader finds as the last process; a
 * live process's line is never taken; other nodes' lines stay. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "state.h"
#include "util.h"

#define CHAIN "t-journal"
#define NS "calvin-t-journal.enc"

/* above the kernel's largest pid_max (2^22): never a process */
#define GONE 4194400

static char dir[64];
static struct chain_state st, back;

static int lines_of(const char *word)
{
	char path[4096], line[1024];
	int n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.state", dir, CHAIN);
	f = fopen(path, "re");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		n += !strncmp(line, word, strlen(word)) && line[strlen(word)] == ' ';
	fclose(f);
	return n;
}

static int setup(void **state)
{
	snprintf(dir, sizeof(dir), "/tmp/calvin-unit-journal.XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	chmod(dir, 0700);
	setenv("CALVIN_RUN_DIR", dir, 1);
	return state_create(&st, CHAIN);
}

static int teardown(void **state)
{
	state_close(&st, true);
	rmdir(dir);
	return 0;
}

/* Each of these processes is gone. */
static void test_restarts_replace(void **state)
{
	unsigned int i;
	pid_t pid = 0;

	assert_int_equal(state_add(&st, ST_BACKEND, "netns", NULL, 0, 0), 0);
	assert_int_equal(state_add(&st, ST_PROC, "calvin-t-journal.dec", NULL, GONE, 1), 0);
	for (i = 0; i < 1000; i++) {
		pid = (pid_t)(GONE + i);
		assert_int_equal(state_add(&st, ST_PROC, NS, NULL, pid, 1000000ULL * i + 7), 0);
	}
	assert_int_equal(st.nr, 3);
	assert_int_equal(lines_of("proc"), 2);
	/* what down and the supervisor read: the last process of the node */
	state_close(&st, false);
	assert_int_equal(state_open(&st, CHAIN), 0);
	assert_int_equal(state_peek(&back, CHAIN), 0);
	assert_int_equal(back.nr, 3);
	assert_int_equal(back.e[2].kind, ST_PROC);
	assert_string_equal(back.e[2].name, NS);
	assert_int_equal(back.e[2].pid, pid);
	assert_int_equal(back.e[2].start, 1000000ULL * 999 + 7);
	assert_string_equal(back.e[1].name, "calvin-t-journal.dec");
	/* other entries still go at the end */
	assert_int_equal(state_add(&st, ST_PATH, "/tmp/x", NULL, 0, 0), 0);
	assert_int_equal(state_peek(&back, CHAIN), 0);
	assert_int_equal(back.nr, 4);
	assert_string_equal(back.e[3].name, "/tmp/x");
}

/* A process that runs keeps its line: a second one of the node is added. */
static void test_live_kept(void **state)
{
	pid_t me = getpid();

	assert_int_equal(state_add(&st, ST_PROC, NS, NULL, me, proc_start_time(me)), 0);
	assert_int_equal(state_add(&st, ST_PROC, NS, NULL, GONE + 1, 9), 0);
	assert_int_equal(st.nr, 2);
	assert_int_equal(state_peek(&back, CHAIN), 0);
	assert_int_equal(back.nr, 2);
	assert_int_equal(back.e[0].pid, me);
	assert_int_equal(back.e[1].pid, GONE + 1);
	/* the gone one's place is taken next; the live one stays */
	assert_int_equal(state_add(&st, ST_PROC, NS, NULL, GONE + 2, 10), 0);
	assert_int_equal(state_peek(&back, CHAIN), 0);
	assert_int_equal(back.nr, 2);
	assert_int_equal(back.e[0].pid, me);
	assert_int_equal(back.e[1].pid, GONE + 2);
}

/* A full journal still takes a restart. */
static void test_full(void **state)
{
	char p[64];
	unsigned int i;

	assert_int_equal(state_add(&st, ST_PROC, NS, NULL, GONE + 3, 11), 0);
	for (i = 1; i < STATE_MAX_ENTRIES; i++) {
		snprintf(p, sizeof(p), "/tmp/p%u", i);
		assert_int_equal(state_add(&st, ST_PATH, p, NULL, 0, 0), 0);
	}
	assert_int_equal(state_add(&st, ST_PATH, "/tmp/one-more", NULL, 0, 0), -ENOSPC);
	assert_int_equal(state_add(&st, ST_PROC, NS, NULL, GONE + 4, 12), 0);
	assert_int_equal(st.e[0].pid, GONE + 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_restarts_replace, setup, teardown),
		cmocka_unit_test_setup_teardown(test_live_kept, setup, teardown),
		cmocka_unit_test_setup_teardown(test_full, setup, teardown),
	};

	return cmocka_run_group_tests_name("journal", tests, NULL, NULL);
}
