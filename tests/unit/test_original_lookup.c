/*
 * test_original_lookup - the original of a hooked symbol is found where
 * dlsym(RTLD_NEXT) cannot see it: in a library loaded with local binding
 * (rclpy's case: librcl, the rmw and libtracetools under a Python
 * extension); a symbol defined nowhere is NULL.
 */
#define _GNU_SOURCE
#include "original.h"

#include <dlfcn.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

static const char *probe_path;

static void test_found_in_a_local_scope(void **state)
{
	(void)state;
	void *probe = dlopen(probe_path, RTLD_NOW | RTLD_LOCAL);
	assert_non_null(probe);
	/* what the tracer used to ask: not there */
	assert_null(dlsym(RTLD_NEXT, "ct_probe_local_answer"));
	assert_null(dlsym(RTLD_DEFAULT, "ct_probe_local_answer"));
	int (*answer)(void) = (int (*)(void))ct_original_lookup("ct_probe_local_answer");
	assert_non_null(answer);
	assert_ptr_equal(answer, dlsym(probe, "ct_probe_local_answer"));
	assert_int_equal(answer(), 47);
	dlclose(probe);
}

static void test_global_scope_first(void **state)
{
	(void)state;
	/* libc's, as dlsym(RTLD_NEXT) gives it */
	assert_ptr_equal(ct_original_lookup("getpid"), dlsym(RTLD_NEXT, "getpid"));
}

static void test_defined_nowhere(void **state)
{
	(void)state;
	assert_null(ct_original_lookup("ct_probe_defined_nowhere"));
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	probe_path = argv[1];
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_found_in_a_local_scope),
		cmocka_unit_test(test_global_scope_first),
		cmocka_unit_test(test_defined_nowhere),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
