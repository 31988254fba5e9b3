/* duration.h - a duration as people write one: "50ms", "1.5s", "200us",
 * "250000ns" (a unit is required: a bare number is ambiguous). */
#ifndef CARET_DURATION_H
#define CARET_DURATION_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The duration in ns, or -1 when text is not one (no unit, negative, too big). */
static inline int64_t caret_parse_duration_ns(const char *text)
{
	static const struct {
		const char *unit;
		double ns;
	} units[] = { { "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 } };
	char *end;
	if (!text || !*text)
		return -1;
	double v = strtod(text, &end);
	if (end == text || !(v >= 0))
		return -1;
	for (size_t i = 0; i < sizeof units / sizeof *units; i++)
		if (!strcmp(end, units[i].unit)) {
			double ns = v * units[i].ns;
			return ns < 9.2e18 ? (int64_t)llround(ns) : -1;
		}
	return -1;
}

/* The units a duration takes, for messages. */
#define CARET_DURATION_UNITS "ns, us, ms, s"

/* Why text is not a duration (caret_parse_duration_ns refused it), for a
 * message: "the unit is missing", "unknown unit", "not a number",
 * "negative", "too long"; NULL when it is one. */
static inline const char *caret_duration_problem(const char *text)
{
	char *end;
	if (caret_parse_duration_ns(text) >= 0)
		return NULL;
	double v = text ? strtod(text, &end) : 0;
	if (!text || end == text)
		return "not a number";
	if (!(v >= 0))
		return "negative";
	if (!*end)
		return "the unit is missing";
	if (!strcmp(end, "ns") || !strcmp(end, "us") || !strcmp(end, "ms") || !strcmp(end, "s"))
		return "too long";
	return "unknown unit";
}

#endif
