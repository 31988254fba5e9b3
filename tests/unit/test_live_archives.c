/*
 * test_live_archives - caret live --watch taking a host's archives/ (issue
 * 45): chunks made of a real trace's copies, filed under archives/ as
 * lttng-relayd names them. A missing chunk is waited for while a later one
 * is there, then said lost with the later ones taken; one filed after that
 * is not taken; an empty folder after chunks with events, a FIFO for a
 * stream, a second folder of one index, a chunk emptied before any event
 * (its buffers' folder left) are losses; a stray folder is named
 * and no loss, one that holds files (a chunk misnamed) one; at the end each
 * loss is counted.
 */
#define _GNU_SOURCE
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

static char dir[256], archives[512];

static void run(const char *fmt, ...)
{
	char cmd[4096];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(cmd, sizeof cmd, fmt, ap);
	va_end(ap);
	assert_int_equal(system(cmd), 0);
}

/* Chunk k: a copy of a real trace, named as the relay daemon names it. */
static void file_chunk(int k, const char *begin)
{
	run("cp -r '%s/data/real-humble/caret-fork-inter' '%s/%s-20261129T000001+0000-%d'",
		getenv("CARET_SHARED_DIR"), archives, begin, k);
}

static int setup(void **state)
{
	(void)state;
	if (!getenv("CARET_SHARED_DIR"))
		return -1;
	snprintf(dir, sizeof dir, "%s/caret-archives-XXXXXX", P_tmpdir);
	if (!mkdtemp(dir))
		return -1;
	snprintf(archives, sizeof archives, "%s/archives", dir);
	return mkdir(archives, 0755);
}

static int teardown(void **state)
{
	(void)state;
	run("rm -rf '%s'", dir);
	return 0;
}

static void chunks_taken_and_lost(void **state)
{
	(void)state;
	struct live_host h = { .name = "robot1" };
	h.session = strdup(dir);
	h.chunks.keep = true;

	file_chunk(0, "20261129T000000+0000");
	file_chunk(2, "20261129T000002+0000");
	/* 1 may come still: 0 taken, no loss yet */
	assert_true(live_archives_take(&h, archives, false));
	assert_int_equal(h.chunks.n, 1);
	assert_int_equal(h.next_chunk, 1);
	assert_false(live_archives_take(&h, archives, false));
	assert_int_equal(h.n_lost, 0);
	/* at the end (or a second later): 1 lost, 2 taken after it */
	assert_true(live_archives_take(&h, archives, true));
	assert_int_equal(h.n_lost, 1);
	assert_int_equal(h.lost[0].from, 1);
	assert_int_equal(h.lost[0].to, 1);
	assert_true(h.lost[0].missing);
	assert_non_null(strstr(h.lost[0].why, "missing (chunk 2 came after)"));
	assert_true(h.lost[0].after > 0 && h.lost[0].before > 0);
	assert_int_equal(h.chunks.n, 2);
	assert_int_equal(h.next_chunk, 3);

	/* 1 filed now: named, not taken */
	file_chunk(1, "20261129T000001+0000");
	assert_false(live_archives_take(&h, archives, true));
	assert_int_equal(h.chunks.n, 2);
	assert_int_equal(h.n_lost, 1);

	/* 3 with no file (after chunks with events), 4 with a FIFO for a
	 * stream, a stray folder, a chunk misnamed, 5 in two folders */
	run("mkdir -p '%s/20261129T000003+0000-20261129T000004+0000-3/ust'", archives);
	file_chunk(4, "20261129T000004+0000");
	run("cd '%s'/*-4/ust/uid/0/64-bit && rm ch0_1 && mkfifo ch0_1", archives);
	run("mkdir '%s/notes' && cp -r '%s'/*-0 '%s/misnamed'", archives, archives, archives);
	file_chunk(5, "20261129T000005+0000");
	file_chunk(5, "20261129T000006+0000");
	size_t said = h.said.n;
	assert_true(live_archives_take(&h, archives, false));
	assert_int_equal(h.n_lost, 4);
	assert_int_equal(h.lost[1].from, 5); /* the twin, seen as the folder is listed */
	assert_non_null(strstr(h.lost[1].why, "has the index of"));
	assert_int_equal(h.lost[2].from, 3);
	assert_non_null(strstr(h.lost[2].why, "no file in its folder"));
	assert_int_equal(h.lost[3].from, 4);
	assert_non_null(strstr(h.lost[3].why, "a FIFO where a stream file is expected"));
	assert_false(h.lost[3].missing);
	assert_int_equal(h.chunks.n, 3); /* 5's first folder */
	assert_int_equal(h.next_chunk, 6);
	assert_int_equal(h.said.n, said + 3); /* notes, misnamed, 5's twin (1: said before) */
	assert_int_equal(h.unread_folders, 1); /* misnamed: a folder of files */
	/* said once each */
	assert_false(live_archives_take(&h, archives, true));
	assert_int_equal(h.n_lost, 4);
	assert_int_equal(h.said.n, said + 3);
	assert_int_equal(h.unread_folders, 1);

	/* at the end: every loss said again, counted */
	static struct live L;
	struct live_options o = { 0 };
	L.o = &o;
	L.hosts[0] = h;
	L.n_hosts = 1;
	assert_int_equal(live_archives_lost(&L), 5); /* and the folder misnamed */
	live_host_free(&h);
}

/* Before any event: a chunk with no file is one closed before a traced
 * process registered, unless its buffers' folder is there (emptied). */
static void empty_before_events(void **state)
{
	(void)state;
	struct live_host h = { .name = "robot2" };
	h.session = strdup(dir);
	h.chunks.keep = true;
	run("mkdir -p '%s/20261129T000000+0000-20261129T000001+0000-0/ust'", archives);
	run("mkdir -p '%s/20261129T000001+0000-20261129T000001+0000-1/ust/uid/0/64-bit/index'",
		archives);
	file_chunk(2, "20261129T000002+0000");
	assert_true(live_archives_take(&h, archives, false));
	assert_int_equal(h.n_lost, 1);
	assert_int_equal(h.lost[0].from, 1);
	assert_non_null(strstr(h.lost[0].why, "buffers' folder"));
	assert_int_equal(h.chunks.n, 1);
	assert_int_equal(h.next_chunk, 3);
	live_host_free(&h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(chunks_taken_and_lost, setup, teardown),
		cmocka_unit_test_setup_teardown(empty_before_events, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
