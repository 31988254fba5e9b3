/* option_number.c - see option_number.h. */
#include "option_number.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct unit {
	const char *name;
	double scale; /* nanoseconds, or bytes, per unit */
};

static const struct unit time_units[] = {
	{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
};
static const struct unit size_units[] = {
	{ "K", 1024.0 }, { "k", 1024.0 }, { "M", 1048576.0 }, { "m", 1048576.0 },
	{ "G", 1073741824.0 }, { "g", 1073741824.0 },
};

#define COUNT(a) (sizeof(a) / sizeof *(a))

static const struct unit *unit_of(const char *text, const struct unit *units, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(text, units[i].name))
			return &units[i];
	return NULL;
}

static bool is_duration(enum cli_number_kind kind)
{
	return kind == CLI_SECONDS || kind == CLI_DURATION;
}

/* The number text begins with, in *v, and where it ends; NULL with why
 * when it is none: strtod alone would take " 5", "0x10", "inf", "nan". */
static const char *leading_number(const char *text, double *v, const char **why)
{
	const char *digits = text + (*text == '+' || *text == '-');
	char *end;
	errno = 0;
	*v = strtod(text, &end);
	if (end == text || isspace((unsigned char)*text) || isnan(*v)) {
		*why = "not a number";
		return NULL;
	}
	if (isinf(*v)) {
		*why = errno == ERANGE ? "too large" : "not finite";
		return NULL;
	}
	if (!isdigit((unsigned char)*digits) && *digits != '.') {
		*why = "not a number";
		return NULL;
	}
	if (digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
		*why = "not a decimal number";
		return NULL;
	}
	return end;
}

/* The value of text in the option's units (seconds, bytes, the count),
 * before the bounds; false with why. */
static bool scaled(const struct cli_number *n, const char *text, double *value, const char **why)
{
	double v;
	const char *rest = leading_number(text, &v, why);
	if (!rest)
		return false;
	if (v < 0) {
		*why = "negative";
		return false;
	}
	const struct unit *u = NULL;
	switch (n->kind) {
	case CLI_SECONDS:
	case CLI_DURATION:
		if (!*rest && n->kind == CLI_SECONDS) {
			u = &time_units[COUNT(time_units) - 1];
		} else if (!*rest) {
			*why = "the unit is missing";
			return false;
		} else if (!(u = unit_of(rest, time_units, COUNT(time_units)))) {
			*why = "unknown unit";
			return false;
		}
		break;
	case CLI_COUNT:
		if (*rest) {
			*why = "not a whole number";
			return false;
		}
		break;
	case CLI_REAL:
		if (*rest) {
			*why = "not a number";
			return false;
		}
		break;
	case CLI_BYTES:
		if (*rest && !(u = unit_of(rest, size_units, COUNT(size_units)))) {
			*why = "unknown unit";
			return false;
		}
		break;
	}
	double x = u ? v * u->scale : v; /* nanoseconds for a duration */
	if (isinf(x)) {
		*why = "too large";
		return false;
	}
	if (is_duration(n->kind)) {
		if (x > 0 && x < 1) {
			*why = "shorter than 1 ns";
			return false;
		}
		x /= 1e9;
	} else if (n->kind != CLI_REAL && x != floor(x)) {
		*why = "not a whole number";
		return false;
	}
	*value = x;
	return true;
}

bool cli_number_parse(const struct cli_number *n, const char *text, double *value,
	const char **why)
{
	double x;
	if (!text || !*text) {
		*why = "empty";
		return false;
	}
	if (!scaled(n, text, &x, why))
		return false;
	if (x == 0 && n->min == 0 && n->above_min) {
		*why = "not above 0";
		return false;
	}
	if (x < n->min || (n->above_min && x <= n->min)) {
		*why = "too small";
		return false;
	}
	if (x > n->max) {
		*why = "too large";
		return false;
	}
	*value = x;
	return true;
}

/* A bound as the option's kind writes it: "4M" for a size, else the number. */
static void bound(char *buf, size_t size, enum cli_number_kind kind, double v)
{
	for (size_t i = COUNT(size_units); kind == CLI_BYTES && v > 0 && i >= 2; i -= 2) {
		const struct unit *u = &size_units[i - 2];
		if (fmod(v, u->scale) == 0) {
			snprintf(buf, size, "%.15g%s", v / u->scale, u->name);
			return;
		}
	}
	snprintf(buf, size, "%.15g%s", v, kind == CLI_DURATION ? " s" : "");
}

void cli_number_range(const struct cli_number *n, char *buf, size_t size)
{
	static const char *const lead[] = {
		[CLI_SECONDS] = "seconds,", [CLI_DURATION] = "a duration such as 50ms, 1.5s, 200us,",
		[CLI_COUNT] = "a whole number", [CLI_BYTES] = "bytes", [CLI_REAL] = "a number",
	};
	static const char *const tail[] = {
		[CLI_SECONDS] = ", or with a unit: ns, us, ms, s",
		[CLI_DURATION] = "; units: ns, us, ms, s", [CLI_COUNT] = "",
		[CLI_BYTES] = ", or with a unit: K, M, G (powers of 1024)", [CLI_REAL] = "",
	};
	char lo[40], hi[40];
	bound(lo, sizeof lo, n->kind, n->min);
	bound(hi, sizeof hi, n->kind, n->max);
	snprintf(buf, size, "%s %s %s %s %s%s", lead[n->kind], n->above_min ? "more than" : "from",
		lo, n->above_min ? "and at most" : "to", hi, tail[n->kind]);
}

/* text for a message on one line: at most 40 bytes, control characters
 * as '?'. */
static void printable(char *buf, size_t size, const char *text)
{
	size_t i = 0;
	for (; text && text[i] && i + 1 < size && i < 40; i++)
		buf[i] = iscntrl((unsigned char)text[i]) ? '?' : text[i];
	buf[i] = '\0';
	if (text && text[i] && size > 4)
		snprintf(buf + (i + 4 < size ? i : size - 4), 4, "...");
}

int cli_number(const char *verb, const struct cli_number *n, const char *text, double *value)
{
	const char *why;
	if (cli_number_parse(n, text, value, &why))
		return 0;
	char range[160], shown[48];
	cli_number_range(n, range, sizeof range);
	printable(shown, sizeof shown, text);
	fprintf(stderr, "caret %s: bad value '%s' for %s: %s (%s)\n", verb, shown, n->option, why,
		range);
	return 2;
}
