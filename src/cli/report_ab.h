/*
 * report_ab.h - caret report's A/B view (--baseline BASE NEW, or --base
 * T... --new T...): the recordings of each side read, compared by the
 * compare core, and written as one page (report/report_ab.h).
 */
#ifndef CARET_CLI_REPORT_AB_H
#define CARET_CLI_REPORT_AB_H

#include <stdbool.h>
#include <stddef.h>

#include "ca.h"

/* One side: its recordings, each the trace paths read as one. */
struct report_ab_side {
	char **paths[64];
	size_t n_paths[64];
	size_t n;
};

struct report_ab_request {
	ca_load_options load;
	const char *output, *arch;
	bool all;
	struct report_ab_side side[2]; /* base, new */
};

/* The page written: 0; 1 when a side could not be read, no object is on
 * both sides, or the page could not be written (said on stderr). */
int cli_report_ab(struct report_ab_request *q);

#endif
