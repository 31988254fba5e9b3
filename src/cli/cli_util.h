/* cli_util.h - what several verbs share: output formats, loading traces. */
#ifndef CARET_CLI_UTIL_H
#define CARET_CLI_UTIL_H

#include <stdio.h>

#include "caret/analyze.h"

enum cli_format { CLI_TEXT, CLI_CSV, CLI_JSON };

/* Parses "text", "csv" or "json"; -1 (with a message naming the verb) else. */
int cli_parse_format(const char *verb, const char *arg, enum cli_format *format);

/* Loads the traces; NULL after printing "caret VERB: <reason>". */
ca_trace *cli_load(const char *verb, char **paths, int n_paths);

/* Writes s as a JSON string (quoted, escaped). */
void cli_json_string(FILE *out, const char *s);

#endif
