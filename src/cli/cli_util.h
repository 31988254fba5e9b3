/* cli_util.h - what several verbs share: output formats, loading traces. */
#ifndef CARET_CLI_UTIL_H
#define CARET_CLI_UTIL_H

#include <stdio.h>

#include "caret/analyze.h"

enum cli_format { CLI_TEXT, CLI_CSV, CLI_JSON };

/* Parses "text", "csv" or "json"; -1 (with a message naming the verb) else. */
int cli_parse_format(const char *verb, const char *arg, enum cli_format *format);

/* Every analyzer verb takes --reader (main.c takes it off the arguments). */
#define CLI_READER_HELP \
	"      --reader R     the CTF reader: native (default, caret-c's own) or\n" \
	"                     babeltrace2 (libbabeltrace2)\n"
extern ca_reader cli_reader;

/* Takes "--reader R" / "--reader=R" off argv (before a "--"); -1 after a
 * message on an unknown R. */
int cli_take_reader(int *argc, char **argv);

/* Loads the traces with cli_reader; NULL after printing "caret VERB:
 * <reason>"; a trace the native reader handed to babeltrace2 is said in a
 * "caret VERB: note: ..." line. */
ca_trace *cli_load(const char *verb, char **paths, int n_paths);

/* Parses "linear" or "nearest" (--percentiles); -1 with a message else. */
int cli_parse_percentiles(const char *verb, const char *arg, ca_percentile_method *method);

/* The statistics columns of a row: text "count min mean p50 p90 p99 max"
 * in microseconds (one decimal); CSV and JSON in nanoseconds, the mean and
 * the percentiles at full precision. No separator before or after. */
void cli_print_stats(FILE *out, enum cli_format f, const ca_stats *s);

/* The records' caveats (ca_records_caveat) on stderr, one "caret VERB:
 * note: ..." line each: what the numbers printed rest on. */
void cli_print_caveats(const char *verb, const ca_records *records);

/* Writes s as a JSON string (quoted, escaped). */
void cli_json_string(FILE *out, const char *s);

#endif
