/* test_option_number.c - every verb's numeric options (src/cli/
 * option_number.c): a value is finite, in its option's range and
 * representable, or refused with why; the message names the option, the
 * value and the range (issue 45, item 10). */
#define _GNU_SOURCE
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "option_number.h"

static const struct cli_number window = { "--window", CLI_SECONDS, 0, 86400, true },
	wait_s = { "--wait", CLI_SECONDS, 0, 86400, false },
	period = { "--period", CLI_SECONDS, 0.1, 3600, false },
	deadline = { "--deadline", CLI_DURATION, 0, 86400, true },
	hosts = { "--hosts", CLI_COUNT, 1, 32, false },
	frequency = { "--frequency", CLI_COUNT, 0, 1e6, false },
	size = { "--subbuf-size", CLI_BYTES, 4096, 1073741824.0, false },
	alpha = { "--alpha", CLI_REAL, 0, 1, true };

/* why text is refused by n ("" when accepted) */
static const char *refusal(const struct cli_number *n, const char *text)
{
	double v = -12345;
	const char *why = "";
	if (cli_number_parse(n, text, &v, &why))
		return "";
	assert_true(v == -12345); /* untouched */
	return why;
}

static double accepted(const struct cli_number *n, const char *text)
{
	double v = NAN;
	const char *why = NULL;
	if (!cli_number_parse(n, text, &v, &why))
		fail_msg("'%s' for %s refused: %s", text, n->option, why);
	return v;
}

static void seconds_bare_or_with_a_unit(void **state)
{
	(void)state;
	assert_true(accepted(&window, "10") == 10);
	assert_true(accepted(&window, "2.5") == 2.5);
	assert_true(accepted(&window, "500ms") == 0.5);
	assert_true(accepted(&window, "250us") == 250e-6);
	assert_true(accepted(&window, "3s") == 3);
	assert_true(accepted(&window, "86400") == 86400);
	assert_true(accepted(&window, "1e2") == 100);
	assert_true(accepted(&wait_s, "0") == 0);
	assert_true(accepted(&period, "0.1") == 0.1);
	assert_string_equal(refusal(&window, "10m"), "unknown unit");
	assert_string_equal(refusal(&window, "10 s"), "unknown unit");
	assert_string_equal(refusal(&window, "10sec"), "unknown unit");
}

static void a_deadline_needs_its_unit(void **state)
{
	(void)state;
	assert_true(accepted(&deadline, "50ms") == 0.05);
	assert_true(llround(accepted(&deadline, "200us") * 1e9) == 200000);
	assert_true(llround(accepted(&deadline, "1ns") * 1e9) == 1);
	assert_string_equal(refusal(&deadline, "30"), "the unit is missing");
	assert_string_equal(refusal(&deadline, "30m"), "unknown unit");
	/* whole nanoseconds: under 1 ns is no deadline at all (0 means none) */
	assert_string_equal(refusal(&deadline, "0.1ns"), "shorter than 1 ns");
	assert_string_equal(refusal(&deadline, "0ms"), "not above 0");
}

static void not_finite_not_a_number(void **state)
{
	(void)state;
	const struct cli_number *all[] = { &window, &deadline, &hosts, &size };
	for (size_t i = 0; i < sizeof all / sizeof *all; i++) {
		assert_string_equal(refusal(all[i], "inf"), "not finite");
		assert_string_equal(refusal(all[i], "-inf"), "not finite");
		assert_string_equal(refusal(all[i], "infinity"), "not finite");
		assert_string_equal(refusal(all[i], "nan"), "not a number");
		assert_string_equal(refusal(all[i], "NaN"), "not a number");
		assert_string_equal(refusal(all[i], ""), "empty");
		assert_string_equal(refusal(all[i], NULL), "empty");
		assert_string_equal(refusal(all[i], "soon"), "not a number");
		assert_string_equal(refusal(all[i], " 5"), "not a number");
		assert_string_equal(refusal(all[i], "0x10"), "not a decimal number");
		/* past a double: strtod's overflow */
		assert_string_equal(refusal(all[i], "1e400"), "too large");
	}
	assert_string_equal(refusal(&window, "inf s"), "not finite");
	assert_string_equal(refusal(&window, "nan ms"), "not a number");
}

static void bounds_both_ends(void **state)
{
	(void)state;
	assert_string_equal(refusal(&window, "1e300"), "too large");
	assert_string_equal(refusal(&window, "86400.001"), "too large");
	assert_string_equal(refusal(&window, "86401s"), "too large");
	assert_string_equal(refusal(&window, "0"), "not above 0");
	assert_string_equal(refusal(&window, "-0.5"), "negative");
	assert_string_equal(refusal(&period, "0.05"), "too small");
	assert_string_equal(refusal(&period, "99ms"), "too small");
	assert_string_equal(refusal(&period, "1e300"), "too large");
	assert_string_equal(refusal(&period, "1e300ms"), "too large");
	/* a unit that overflows the scale: 1e300 s in ns is finite, 1e305 is not */
	assert_string_equal(refusal(&window, "1e305s"), "too large");
	assert_true(accepted(&wait_s, "-0") == 0);
}

static void counts_are_whole_and_in_range(void **state)
{
	(void)state;
	assert_true(accepted(&hosts, "1") == 1);
	assert_true(accepted(&hosts, "32") == 32);
	assert_true(accepted(&frequency, "1e3") == 1000);
	assert_true(accepted(&frequency, "0") == 0);
	assert_string_equal(refusal(&hosts, "0"), "too small");
	assert_string_equal(refusal(&hosts, "33"), "too large");
	/* what wrapped through (unsigned) before */
	assert_string_equal(refusal(&hosts, "4294967296"), "too large");
	assert_string_equal(refusal(&hosts, "18446744073709551617"), "too large");
	assert_string_equal(refusal(&hosts, "1e300"), "too large");
	assert_string_equal(refusal(&hosts, "2.5"), "not a whole number");
	assert_string_equal(refusal(&hosts, "3x"), "not a whole number");
	assert_string_equal(refusal(&hosts, "-1"), "negative");
	assert_string_equal(refusal(&hosts, "1s"), "not a whole number");
}

static void reals_without_a_unit(void **state)
{
	(void)state;
	assert_true(accepted(&alpha, "0.01") == 0.01);
	assert_true(accepted(&alpha, "1e-3") == 0.001);
	assert_true(accepted(&alpha, "1") == 1);
	assert_string_equal(refusal(&alpha, "0"), "not above 0");
	assert_string_equal(refusal(&alpha, "1.5"), "too large");
	assert_string_equal(refusal(&alpha, "0.01s"), "not a number");
	assert_string_equal(refusal(&alpha, "5%"), "not a number");
	assert_string_equal(refusal(&alpha, "nan"), "not a number");
	char buf[160];
	cli_number_range(&alpha, buf, sizeof buf);
	assert_string_equal(buf, "a number more than 0 and at most 1");
}

static void sizes_with_their_units(void **state)
{
	(void)state;
	assert_true(accepted(&size, "4M") == 4194304);
	assert_true(accepted(&size, "512k") == 524288);
	assert_true(accepted(&size, "1G") == 1073741824.0);
	assert_true(accepted(&size, "4096") == 4096);
	assert_true(accepted(&size, "1.5M") == 1572864);
	assert_string_equal(refusal(&size, "4T"), "unknown unit");
	assert_string_equal(refusal(&size, "2G"), "too large");
	/* shifted past 64 bits before, silently */
	assert_string_equal(refusal(&size, "99999999999999G"), "too large");
	assert_string_equal(refusal(&size, "1K"), "too small");
	assert_string_equal(refusal(&size, "4097.5"), "not a whole number");
}

static void the_range_in_words(void **state)
{
	(void)state;
	char buf[200];
	cli_number_range(&window, buf, sizeof buf);
	assert_string_equal(buf, "seconds, more than 0 and at most 86400, or with a unit: ns, "
		"us, ms, s");
	cli_number_range(&period, buf, sizeof buf);
	assert_string_equal(buf, "seconds, from 0.1 to 3600, or with a unit: ns, us, ms, s");
	cli_number_range(&deadline, buf, sizeof buf);
	assert_string_equal(buf, "a duration such as 50ms, 1.5s, 200us, more than 0 s and at "
		"most 86400 s; units: ns, us, ms, s");
	cli_number_range(&hosts, buf, sizeof buf);
	assert_string_equal(buf, "a whole number from 1 to 32");
	cli_number_range(&size, buf, sizeof buf);
	assert_string_equal(buf, "bytes from 4K to 1G, or with a unit: K, M, G (powers of 1024)");
	/* never past the buffer */
	cli_number_range(&deadline, buf, 10);
	assert_int_equal(strlen(buf), 9);
}

/* the message: one line on stderr naming the verb, the option, the value
 * (control characters shown as '?', cut at 40 bytes) and the range; 2 */
static void the_message(void **state)
{
	(void)state;
	char path[] = "/tmp/test_option_number.XXXXXX", line[512];
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	fflush(stderr);
	int saved = dup(2);
	dup2(fd, 2);
	double v = 7;
	int inf = cli_number("live", &window, "inf", &v);
	int ok = cli_number("live", &window, "5", &v);
	int odd = cli_number("live", &hosts, "1\n2", &v);
	int long_one = cli_number("live", &hosts,
		"123456789012345678901234567890123456789012345678901234567890", &v);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	assert_int_equal(inf, 2);
	assert_int_equal(ok, 0);
	assert_true(v == 5);
	assert_int_equal(odd, 2);
	assert_int_equal(long_one, 2);
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(line, sizeof line, f));
	assert_string_equal(line, "caret live: bad value 'inf' for --window: not finite (seconds, "
		"more than 0 and at most 86400, or with a unit: ns, us, ms, s)\n");
	assert_non_null(fgets(line, sizeof line, f));
	assert_string_equal(line, "caret live: bad value '1?2' for --hosts: not a whole number (a "
		"whole number from 1 to 32)\n");
	assert_non_null(fgets(line, sizeof line, f));
	assert_string_equal(line, "caret live: bad value '1234567890123456789012345678901234567890"
		"...' for --hosts: too large (a whole number from 1 to 32)\n");
	assert_null(fgets(line, sizeof line, f));
	fclose(f);
	unlink(path);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(seconds_bare_or_with_a_unit),
		cmocka_unit_test(a_deadline_needs_its_unit),
		cmocka_unit_test(not_finite_not_a_number),
		cmocka_unit_test(bounds_both_ends),
		cmocka_unit_test(counts_are_whole_and_in_range),
		cmocka_unit_test(sizes_with_their_units),
		cmocka_unit_test(reals_without_a_unit),
		cmocka_unit_test(the_range_in_words),
		cmocka_unit_test(the_message),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
