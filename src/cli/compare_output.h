/*
 * compare_output.h - caret compare's result written: text (the changes
 * first, then no change, too few, one side only), CSV (one row per object,
 * every column) or JSON (the settings and one object per row).
 */
#ifndef CARET_CLI_COMPARE_OUTPUT_H
#define CARET_CLI_COMPARE_OUTPUT_H

#include <stdio.h>

#include "cli_util.h"
#include "compare.h"

/* What the output says besides the rows. */
struct compare_header {
	const ca_cmp_side *base, *new_;
	const ca_cmp_settings *settings;
	const char *const *rules; /* --fail-on, as given */
	size_t n_rules;
	const bool *fired; /* per row of the result: a rule fired on it */
};

void compare_write(FILE *out, enum cli_format f, const struct compare_header *h,
	const ca_cmp_result *r);

#endif
