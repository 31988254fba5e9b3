/* option_number.h - the value of an option that takes a number (a
 * duration, an offset, a count, a size), parsed whole and within the
 * option's bounds, or refused with the option's name, the value and the
 * range. Every verb's numeric options go through here: a value the
 * parser accepts is finite, in range and representable where it is used
 * (a duration in int64 nanoseconds, a count in 32 bits). */
#ifndef CARET_OPTION_NUMBER_H
#define CARET_OPTION_NUMBER_H

#include <stdbool.h>
#include <stddef.h>

enum cli_number_kind {
	CLI_SECONDS,  /* seconds, "2.5", or with a unit: "500ms" (ns, us, ms, s) */
	CLI_DURATION, /* the same, the unit required: "50ms" (a bare 50 is ambiguous) */
	CLI_COUNT,    /* a whole number: "8", "1e3" */
	CLI_BYTES,    /* a whole number of bytes, or with K, M, G (powers of 1024): "4M" */
	CLI_REAL,     /* a number with no unit, not only whole: "0.01", "5", "1e-3" */
};

/* The largest max a bound may have: what a double holds exactly as a
 * whole number (2^53); a duration's max must stay under 9.2e9 s, what
 * int64 nanoseconds hold. */
#define CLI_NUMBER_MAX 9007199254740992.0

/* One option's number: its name and what it accepts. */
struct cli_number {
	const char *option; /* for the message, with its dashes: "--window" */
	enum cli_number_kind kind;
	double min, max;    /* both included (seconds for durations, bytes for sizes) */
	bool above_min;     /* min itself refused: "more than 0" */
};

/* text as n says: true with the value (seconds for durations) in *value;
 * false, *value untouched, with why it is not one in *why (a constant
 * string: "not a number", "not finite", "negative", "too large", "the
 * unit is missing", ...). A duration is whole nanoseconds: one above 0
 * and under 1 ns is refused. */
bool cli_number_parse(const struct cli_number *n, const char *text, double *value,
	const char **why);

/* What n accepts, in words, into buf: "seconds, more than 0 and at most
 * 86400, e.g. 2.5 or 500ms; units: ns, us, ms, s". */
void cli_number_range(const struct cli_number *n, char *buf, size_t size);

/* Parses text as n says: 0 with the value in *value, or 2 (a usage
 * error) after "caret VERB: bad value 'TEXT' for --NAME: WHY (RANGE)" on
 * stderr. */
int cli_number(const char *verb, const struct cli_number *n, const char *text, double *value);

#endif
