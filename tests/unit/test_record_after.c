/* test_record_after.c - the recorder's deadlines (cr_after, src/record):
 * --duration, --wait and --rotate seconds after a monotonic time, never a
 * signed overflow: 1e300 s or inf is "never" (INT64_MAX), none (0, NaN,
 * negative) is the time itself (issue 45, item 9: --rotate inf rotated
 * without end, and UBSan's abort left the session and the apps in RECORD). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "recorder.h"

static void seconds_after(void **state)
{
	(void)state;
	assert_true(cr_after(1000, 1) == 1000 + 1000000000LL);
	assert_true(cr_after(0, 0.5) == 500000000LL);
	assert_true(cr_after(5, 1e-9) == 6);
	assert_true(cr_after(0, 86400) == 86400000000000LL);
}

static void past_int64_is_never(void **state)
{
	(void)state;
	const double huge[] = { INFINITY, 1e300, 1e19, 9.3e9, 9e9 };
	for (size_t i = 0; i < sizeof huge / sizeof *huge; i++) {
		assert_true(cr_after(0, huge[i]) == INT64_MAX);
		assert_true(cr_after(123456789, huge[i]) == INT64_MAX);
	}
	/* the sum, not the product, past INT64_MAX */
	assert_true(cr_after(INT64_MAX - 10, 1) == INT64_MAX);
	assert_true(cr_after(INT64_MAX, 1e-9) == INT64_MAX);
}

static void none_is_now(void **state)
{
	(void)state;
	assert_true(cr_after(42, 0) == 42);
	assert_true(cr_after(42, -1) == 42);
	assert_true(cr_after(42, -INFINITY) == 42);
	assert_true(cr_after(42, NAN) == 42);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(seconds_after),
		cmocka_unit_test(past_int64_is_never),
		cmocka_unit_test(none_is_now),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
