/*
 * ab_report.h - the report's A/B page (caret report --baseline BASE NEW):
 * two recordings (or two sets of runs) of one system compared by the
 * compare core (compare/compare.h), on one self-contained page: both sides
 * named, the significant changes first, then per path, callback,
 * communication and node path both timelines in one chart and both
 * distributions overlaid; the objects of one side only listed
 * (docs/report.md#the-ab-view).
 */
#ifndef CA_REPORT_AB_REPORT_H
#define CA_REPORT_AB_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ca.h"
#include "compare.h"

/* What the page's header says of one recording, taken while its trace
 * was open (report_ab_recording); strings owned. */
struct ab_recording {
	char *label;          /* the trace paths given, ", "-joined */
	uint64_t first, last; /* its events' span (trace clock, ns) */
	int64_t epoch_offset; /* the trace clock's offset to the epoch; 0: unknown */
	uint64_t events, discarded;
	size_t processes;
	char *distributions, *rmw; /* distinct, ", "-joined; NULL: not recorded */
};

/* The facts of an open trace; false when out of memory. */
bool report_ab_recording(const ca_trace *t, const char *const *paths, size_t n_paths,
	struct ab_recording *rec);
void report_ab_recording_free(struct ab_recording *rec);

/* The page's input: a comparison, its settings and both sides, each with
 * its recordings in the side's trace order (ca_cmp_side_trace). */
struct report_ab {
	const ca_cmp_result *result;
	const ca_cmp_settings *settings;
	const ca_cmp_side *side[2];
	const struct ab_recording *recordings[2];
	size_t n_recordings[2];
	const char *arch_file; /* whose paths were followed; NULL: none */
};

/* Writes the page to out: 0, or -1 with err (out of memory, a write
 * failed). */
int report_ab_write(const struct report_ab *ab, FILE *out, char *err, size_t err_size);

/* The page's header, of the comparison's rows (ab_header.c). */
void report_ab_header(FILE *out, const struct report_ab *ab, const ca_cmp_row *rows,
	size_t n_rows);

#endif
