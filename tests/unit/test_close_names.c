/* test_close_names.c - the names offered for one not found
 * (src/common/close_names.c): how alike, which are close, and the one line
 * that says them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "close_names.h"

static void similarity_is_edit_distance_over_length(void **state)
{
	(void)state;
	assert_true(caret_name_similarity("/filter", "/filter") == 1.0);
	/* one letter left out of seven */
	assert_int_equal((int)(caret_name_similarity("/filtr", "/filter") * 1000), 857);
	assert_true(caret_name_similarity("/abc", "/xyz") < 0.6);
	/* the namespace left out: the last part alike is close */
	assert_true(caret_name_similarity("filter", "/perception/lidar/filter") >= 0.9);
	assert_true(caret_name_similarity("", "") == 1.0);
}

static void the_closest_come_first(void **state)
{
	(void)state;
	const char *names[] = { "/sink", "/sensor", "/sensors", "/filter", "/sensor" };
	const char *best[3];
	size_t k = caret_close_names("/sensr", names, 5, best, 3);
	assert_int_equal(k, 2); /* /sensor once, though listed twice */
	assert_string_equal(best[0], "/sensor");
	assert_string_equal(best[1], "/sensors");
	assert_int_equal(caret_close_names("/planner", names, 5, best, 3), 0);
}

static void a_few_names_are_listed(void **state)
{
	(void)state;
	const char *names[] = { "/sink", "/sensor", "/filter", NULL };
	char out[256];
	caret_name_hint(out, sizeof out, "/filtr", "nodes", names, 4, "caret summary nodes");
	assert_string_equal(out, "did you mean /filter? its nodes: /filter, /sensor, /sink");
	caret_name_hint(out, sizeof out, "/planner", "nodes", names, 3, NULL);
	assert_string_equal(out, "its nodes: /filter, /sensor, /sink");
	caret_name_hint(out, sizeof out, "/x", "nodes", names, 0, NULL);
	assert_string_equal(out, "there are no nodes");
}

static void many_names_are_counted(void **state)
{
	(void)state;
	char storage[40][16];
	const char *names[40];
	for (int i = 0; i < 40; i++) {
		snprintf(storage[i], sizeof storage[i], "/node_%02d", i);
		names[i] = storage[i];
	}
	char out[256];
	caret_name_hint(out, sizeof out, "/node_7", "nodes", names, 40, "caret summary nodes");
	assert_string_equal(out, "did you mean /node_07, /node_17 or /node_27? 40 nodes: "
		"caret summary nodes lists them");
	caret_name_hint(out, sizeof out, "/planner", "nodes", names, 40, "caret summary nodes");
	assert_string_equal(out, "none close among its 40 nodes: caret summary nodes lists them");
	/* never past the buffer */
	caret_name_hint(out, 20, "/node_7", "nodes", names, 40, NULL);
	assert_int_equal(strlen(out), 19);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(similarity_is_edit_distance_over_length),
		cmocka_unit_test(the_closest_come_first),
		cmocka_unit_test(a_few_names_are_listed),
		cmocka_unit_test(many_names_are_counted),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
