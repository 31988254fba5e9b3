/*
 * fuzz_options - libFuzzer target: the numeric options' parser
 * (src/cli/option_number.c) on any text, under each bound a verb gives
 * (the input's first byte picks one). A value it accepts is finite, in its
 * range, whole where a count or a size is asked, and representable where
 * it is used: a duration in int64 nanoseconds (and 0 or at least 1 ns), a
 * count in 32 bits. A value it refuses has a reason; the range always
 * fits its words in the buffer, NUL-terminated.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "option_number.h"

/* Every verb's bounds (cmd_*.c, cli_util.c), and the edges of the kinds. */
static const struct cli_number bounds[] = {
	{ "--window", CLI_SECONDS, 0, 86400, true },
	{ "--wait", CLI_SECONDS, 0, 86400, false },
	{ "--period", CLI_SECONDS, 0.1, 3600, false },
	{ "--lookback", CLI_SECONDS, 1, 3600, false },
	{ "--duration", CLI_SECONDS, 0, 31536000, true },
	{ "--since", CLI_SECONDS, 0, 1e9, false },
	{ "--deadline", CLI_DURATION, 0, 86400, true },
	{ "--hosts", CLI_COUNT, 1, 32, false },
	{ "--metrics port", CLI_COUNT, 1, 65535, false },
	{ "--frequency", CLI_COUNT, 0, 1e6, false },
	{ "-m", CLI_COUNT, 0, 2147483647, false },
	{ "--max-paths", CLI_COUNT, 1, 1e6, false },
	{ "--num-subbuf", CLI_COUNT, 1, 1048576, false },
	{ "--subbuf-size", CLI_BYTES, 4096, 1073741824.0, false },
	{ "--any-count", CLI_COUNT, 0, CLI_NUMBER_MAX, false },
	{ "--any-size", CLI_BYTES, 0, CLI_NUMBER_MAX, true },
	{ "--any-seconds", CLI_SECONDS, 0, 9e9, false },
};

#define N_BOUNDS (sizeof bounds / sizeof *bounds)

static void check_accepted(const struct cli_number *n, double v)
{
	if (!isfinite(v) || v < n->min || v > n->max || (n->above_min && v <= n->min))
		abort();
	if (n->kind == CLI_SECONDS || n->kind == CLI_DURATION) {
		double ns = v * 1e9;
		if (ns >= 9.2e18 || (v > 0 && llround(ns) < 1))
			abort(); /* not int64 nanoseconds, or a duration of 0 said as above 0 */
	} else if (v != floor(v)) {
		abort();
	}
	if (n->kind == CLI_COUNT && n->max <= 4294967295.0 && (double)(uint32_t)v != v)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size)
		return 0;
	const struct cli_number *n = &bounds[data[0] % N_BOUNDS];
	char *text = malloc(size); /* the rest, as an argument: up to its first NUL */
	if (!text)
		return 0;
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	double v = -1.5;
	const char *why = NULL;
	if (cli_number_parse(n, text, &v, &why))
		check_accepted(n, v);
	else if (!why || !*why || v != -1.5)
		abort(); /* refused: a reason, the value untouched */
	char range[160];
	memset(range, 'x', sizeof range);
	cli_number_range(n, range, (size_t)(data[0] >> 4) * 10 + 1);
	if (!memchr(range, '\0', sizeof range))
		abort();
	free(text);
	return 0;
}
