/*
 * latency_tables.h - what the tables of `caret latency` share: how they
 * are written (latency_output), a row of statistics and its printing
 * (latency_rows.c), and one function per table, each in a file of its own.
 */
#ifndef CARET_CLI_LATENCY_TABLES_H
#define CARET_CLI_LATENCY_TABLES_H

#include <stdbool.h>
#include <stdio.h>

#include "cli_util.h"

/* How every table of one run is written. */
struct latency_output {
	enum cli_format format;
	FILE *records; /* every instance as CSV (--records), or NULL */
	ca_percentile_method percentiles;
	const char *verb;      /* "latency callbacks", ..., for messages */
	const ca_trace *trace; /* the trace folders said where the output begins */
	bool split;            /* topics: each message's latency in its parts (--split) */
};

struct latency_row {
	const char *name, *delivery; /* delivery: NULL for callbacks */
	const char *in, *out;        /* nodes: the subscribed and published topics */
	ca_stats stats;
	int64_t period; /* callbacks: mean period, 0 if fewer than 2 runs */
	double hz, min_hz; /* callbacks: runs per 1 s window, mean and least */
	uint64_t lost_a, lost_b; /* not ended | not received, not published */
};

enum latency_kind { LATENCY_CALLBACKS, LATENCY_TOPICS, LATENCY_TIMERS, LATENCY_NODES };

void latency_print_rows(const struct latency_row *rows, size_t n,
	const struct latency_output *out, enum latency_kind kind);
/* Where a table's output begins (cli_begin_output). */
void latency_begin(const struct latency_output *out);
/* Frees both and says so when either allocation failed. */
bool latency_out_of_memory(struct latency_row *rows, int64_t *values);

/* One table each: 0, or 1 after a message on stderr. rec: the records the
 * verb built for it (NULL for tf without --records, services, actions). */
typedef int latency_table(const ca_trace *t, const ca_records *rec,
	const struct latency_output *out);
latency_table latency_callbacks, latency_timers; /* latency_runs.c */
latency_table latency_topics, latency_nodes;     /* latency_topics.c */
latency_table latency_topics_split;              /* latency_split.c */
latency_table latency_tf;                        /* latency_tf.c */
latency_table latency_services;                  /* latency_services.c */
latency_table latency_actions;                   /* latency_actions.c */

#endif
