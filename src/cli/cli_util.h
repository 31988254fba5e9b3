/* cli_util.h - what several verbs share: output formats, loading traces. */
#ifndef CARET_CLI_UTIL_H
#define CARET_CLI_UTIL_H

#include <stdio.h>

#include "ca.h"
#include "option_number.h"

enum cli_format { CLI_TEXT, CLI_CSV, CLI_JSON };

/* Parses "text", "csv" or "json"; -1 (with a message naming the verb) else. */
int cli_parse_format(const char *verb, const char *arg, enum cli_format *format);

/* Every analyzer verb takes --reader and the time window (main.c takes
 * them off the arguments). */
#define CLI_LOAD_OPTIONS_HELP \
	"      --reader R     the CTF reader: native (default, caret-c's own) or\n" \
	"                     babeltrace2 (libbabeltrace2)\n" \
	"      --since S, --until U\n" \
	"                     only runtime events from S seconds after the trace's\n" \
	"                     first event, and before U (the original's\n" \
	"                     duration_filter); initialization events all count\n" \
	"      --strip-start S, --strip-end S\n" \
	"                     leave out the first and the last S seconds of runtime\n" \
	"                     events (the original's strip_filter)\n" \
	"      --merge        read several recordings (LTTng session folders) under\n" \
	"                     TRACE... as one system; without it they are refused\n" \
	"                     with their list (docs/trace-format.md#recordings)\n"
/* For the verbs that need not keep the runtime events (cli_lean). */
#define CLI_MEMORY_HELP \
	"\n" \
	"The runtime events are not kept: they are counted, and joined as they are\n" \
	"read, in a second pass of the reader (docs/analyzer.md#loading gives the\n" \
	"memory of each verb). CARET_KEEP_EVENTS=1 in the environment keeps them\n" \
	"(one pass, about 30 more bytes an event). A trace of 32 MiB or more is\n" \
	"decoded in a second thread while a second core is free\n" \
	"(CARET_READER_THREADS=1: never, 2: always).\n"
/* Takes --merge, and --reader, --since, --until, --strip-start and
 * --strip-end (with their value, "--opt V" or "--opt=V") off argv, before any "--", into o;
 * -1 after a message naming the verb on a bad value (option_number.h). */
int cli_take_load_options(const char *verb, int *argc, char **argv, ca_load_options *o);

/* Loads the traces with options o; NULL after printing "caret VERB:
 * <reason>"; a trace the native reader handed to babeltrace2, and the
 * events a window left out, are said in "caret VERB: note: ..." lines. */
ca_trace *cli_load(const char *verb, char **paths, int n_paths, const ca_load_options *o);

/* What cli_load found of the hosts' clocks when the traces came from
 * several hosts (n 0 otherwise): each host's bounds against the first's
 * before they were put right, and whether the trace was read again with
 * the estimates taken off (docs/multi-host.md). */
struct cli_host_clocks {
	ca_host_clock *hosts;
	size_t n;
	bool applied;
};
const struct cli_host_clocks *cli_host_clocks(void);

/* Whether a verb that can do without the runtime events kept (a time
 * window, babeltrace2 or a verb's need keep them anyway) loads without:
 * yes, unless CARET_KEEP_EVENTS=1 (one pass instead of two, ten times the
 * memory; CARET_KEEP_EVENTS=0 is the default). */
bool cli_lean(void);

/* "caret VERB: bad value 'ARG' for --NAME" for option c of opts (a value
 * that is no number: option_number.h says those); 2. */
struct option;
int cli_bad_value(const char *verb, const struct option *opts, int c, const char *arg);

/* The recording options caret record and caret live share, with their
 * bounds (option_number.h): --duration, a year at most; --subbuf-size,
 * a page (4K) to 1G; --num-subbuf, 1 to 2^20 (LTTng wants powers of two
 * of both: the session says so). */
#define CLI_SUBBUF_MIN 4096.0
#define CLI_SUBBUF_MAX 1073741824.0
extern const struct cli_number cli_duration_option, cli_subbuf_size_option,
	cli_num_subbuf_option;

/* The tracer libcaret.so, for LD_PRELOAD (caret env, caret record --
 * CMD): CARET_TRACER_LIB when set, else the one beside this caret, as
 * installed (PREFIX/<libdir>/caret/libcaret.so: make install, colcon's
 * install space, the Debian package's lib/<multiarch>/caret) or in the
 * build tree (build/bin -> build/lib), its real path; -1 after "caret
 * VERB: no libcaret.so beside this caret (looked in ...)". */
int cli_find_tracer(const char *verb, char *out, size_t size);
/* The same without a message: where none is found, the path an install
 * would have (what ld.so then names). */
void cli_tracer_lib(char *out, size_t size);

/* Parses "linear" or "nearest" (--percentiles); -1 with a message else. */
int cli_parse_percentiles(const char *verb, const char *arg, ca_percentile_method *method);

/* One value of a table as format f writes it: v with that many decimals
 * (-1: the shortest decimal that reads back as v) in buf, or, when v is NAN (no
 * value: the statistics of no sample, a frequency without a run to count),
 * "-" in text, an empty CSV cell, JSON's null. */
const char *cli_cell(enum cli_format f, char buf[32], int decimals, double v);

/* A --records time cell: ",NS", or "," alone when the trace does not show
 * that moment (0), as every --records file leaves a missing time empty. */
void cli_csv_time(FILE *out, uint64_t ns);

/* The statistics columns of a row: text "count min mean p50 p90 p99 max"
 * in microseconds (one decimal); CSV and JSON in nanoseconds, the mean and
 * the percentiles at full precision; of no sample (count 0), no value
 * (cli_cell). No separator before or after. */
void cli_print_stats(FILE *out, enum cli_format f, const ca_stats *s);

/* The records' caveats (ca_records_caveat) on stderr, one "caret VERB:
 * note: ..." line each: what the numbers printed rest on. */
void cli_print_caveats(const char *verb, const ca_records *records);

/* Says which trace folders (the recordings, ca_trace_recording) t was
 * read from, where the output begins: text, a first line "trace: A, B";
 * JSON, the field "trace": ["A", "B"] after the "{" it prints (the caller
 * goes on with its own fields); CSV, "caret VERB: trace: A, B" on stderr,
 * so that the CSV stays one table with one header (docs/cli.md). */
void cli_begin_output(const char *verb, enum cli_format f, const ca_trace *t);
/* The line "trace: A, B" on out (a negative on a failed write). */
int cli_print_trace_folders(FILE *out, const ca_trace *t);

/* Writes s as a JSON string (quoted, escaped). */
void cli_json_string(FILE *out, const char *s);

/* A name from a trace or an architecture file as text output shows it
 * (a node, topic, callback or path name): its control characters escaped
 * (\n, \r, \t, \xHH), so that a newline in a name cannot start a row of
 * its own nor an escape sequence reach the terminal. Into buf (cut short
 * to fit), which it returns; CLI_NAME(s) one of its own for a printf. */
const char *cli_name(const char *name, char *buf, size_t size);
#define CLI_NAME(s) cli_name((s), (char[CLI_NAME_SIZE]){ 0 }, CLI_NAME_SIZE)
#define CLI_NAME_SIZE 1024

#endif
