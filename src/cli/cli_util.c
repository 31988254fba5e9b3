/* cli_util.c - see cli_util.h. */
#define _GNU_SOURCE
#include "cli_util.h"
#include "json_string.h"
#include "plural.h"
#include "caret_version.h"
#include "option_number.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <unistd.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int cli_parse_format(const char *verb, const char *arg, enum cli_format *format)
{
	static const char *const names[] = { "text", "csv", "json" };
	for (int i = 0; i < 3; i++)
		if (!strcmp(arg, names[i])) {
			*format = (enum cli_format)i;
			return 0;
		}
	fprintf(stderr, "caret %s: unknown format '%s' (text, csv, json)\n", verb, arg);
	return -1;
}

/* The time window's options: seconds from the trace's first event (or
 * to its last), up to about 31 years (a double's seconds against int64
 * nanoseconds, with room). */
static const struct cli_number window_option = { "", CLI_SECONDS, 0, 1e9, false };

/* One option's value into the load options; 2 after a message. */
static int take_value(const char *verb, const char *option, const char *value,
	ca_load_options *o)
{
	if (!strcmp(option, "--reader")) {
		if (!strcmp(value, "native"))
			o->reader = CA_READER_NATIVE;
		else if (!strcmp(value, "babeltrace2"))
			o->reader = CA_READER_BABELTRACE2;
		else {
			fprintf(stderr, "caret %s: unknown reader '%s' (native, babeltrace2)\n", verb,
				value);
			return 2;
		}
		return 0;
	}
	struct cli_number n = window_option;
	n.option = option;
	return cli_number(verb, &n, value, !strcmp(option, "--since") ? &o->since :
		!strcmp(option, "--until") ? &o->until :
		!strcmp(option, "--strip-start") ? &o->strip_start : &o->strip_end);
}

int cli_take_load_options(const char *verb, int *argc, char **argv, ca_load_options *o)
{
	static const char *const names[] = { "--reader", "--since", "--until", "--strip-start",
		"--strip-end" };
	for (int i = 1; i < *argc && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "--merge")) { /* a flag: no value */
			o->merge = true;
			memmove(&argv[i], &argv[i + 1], (size_t)(*argc - i) * sizeof *argv);
			(*argc)--;
			i--;
			continue;
		}
		for (size_t k = 0; k < sizeof names / sizeof *names; k++) {
			size_t len = strlen(names[k]);
			const char *value = NULL;
			int taken = 0;
			if (!strcmp(argv[i], names[k])) {
				if (i + 1 >= *argc) {
					fprintf(stderr, "caret %s: %s needs a value\n", verb, names[k]);
					return -1;
				}
				value = argv[i + 1];
				taken = 2;
			} else if (!strncmp(argv[i], names[k], len) && argv[i][len] == '=') {
				value = argv[i] + len + 1;
				taken = 1;
			}
			if (!taken)
				continue;
			if (take_value(verb, names[k], value, o) != 0)
				return -1;
			memmove(&argv[i], &argv[i + taken], (size_t)(*argc - i - taken + 1) * sizeof *argv);
			*argc -= taken;
			i--;
			break;
		}
	}
	if (o->since >= o->until) { /* the values, not the options' order */
		fprintf(stderr, "caret %s: --until %g must be later than --since %g (both are "
			"seconds from the trace's first event)\n", verb, o->until, o->since);
		return -1;
	}
	return 0;
}

bool cli_lean(void)
{
	const char *keep = getenv("CARET_KEEP_EVENTS");
	return !keep || strcmp(keep, "1") != 0;
}

/* The hosts' clocks of the last load of several hosts (cli_host_clocks). */
static struct cli_host_clocks said;

const struct cli_host_clocks *cli_host_clocks(void)
{
	return &said;
}

static void forget_hosts(void)
{
	for (size_t i = 0; i < said.n; i++)
		free((char *)said.hosts[i].host);
	free(said.hosts);
	memset(&said, 0, sizeof said);
}

/* A trace of several hosts: each host's clock estimated against the first
 * host's from the messages crossing between them (ca_host_clocks), and the
 * trace read again with the estimates taken off; t as it is when there is
 * one host, or no host's clock can be estimated. */
static ca_trace *align_clocks(const char *verb, ca_trace *t, char **paths, int n_paths,
	const ca_load_options *o)
{
	char err[1024];
	ca_records *rec = ca_records_build_options(t, NULL, err, sizeof err);
	ca_host_clock *h = NULL;
	size_t n = rec ? ca_host_clocks(t, rec, &h) : 0;
	ca_records_free(rec);
	forget_hosts();
	if (n < 2) {
		free(h);
		return t;
	}
	const char **names = calloc(n, sizeof *names);
	int64_t *corrections = calloc(n, sizeof *corrections);
	size_t k = 0;
	said.hosts = h;
	said.n = n;
	for (size_t i = 0; i < n; i++) {
		h[i].host = strdup(h[i].host); /* outlives this trace */
		int64_t estimate, uncertainty;
		if (i && names && corrections && h[i].host &&
		    ca_host_clock_estimate(&h[i], &estimate, &uncertainty)) {
			names[k] = h[i].host;
			corrections[k++] = estimate;
		}
	}
	if (!k) {
		free(names);
		free(corrections);
		return t;
	}
	ca_load_options again = *o;
	again.clock_hosts = names;
	again.clock_corrections = corrections;
	again.n_clock_corrections = k;
	ca_trace *aligned = ca_trace_load_options((const char *const *)paths, (size_t)n_paths,
		&again, err, sizeof err);
	free(names);
	free(corrections);
	if (!aligned) {
		fprintf(stderr, "caret %s: the hosts' clocks not put right: %s\n", verb, err);
		return t;
	}
	said.applied = true;
	ca_trace_free(t);
	return aligned;
}

static size_t hosts_of(const ca_trace *t)
{
	const ca_architecture *a = ca_trace_architecture(t);
	const char *first = NULL;
	for (size_t i = 0; i < a->n_processes; i++) {
		const char *h = a->processes[i].host;
		if (h && !first)
			first = h;
		else if (h && strcmp(h, first))
			return 2;
	}
	return first ? 1 : 0;
}

ca_trace *cli_load(const char *verb, char **paths, int n_paths, const ca_load_options *o)
{
	char err[1024];
	ca_trace *t = ca_trace_load_options((const char *const *)paths, (size_t)n_paths,
		o, err, sizeof err);
	if (t && hosts_of(t) > 1 && !o->n_clock_corrections)
		t = align_clocks(verb, t, paths, n_paths, o);
	if (!t)
		fprintf(stderr, "caret %s: %s\n", verb, err);
	else if (ca_trace_reader_note(t))
		fprintf(stderr, "caret %s: note: %s\n", verb, ca_trace_reader_note(t));
	if (t && ca_trace_windowed_out(t))
		fprintf(stderr, "caret %s: note: the time window left out %" PRIu64 " runtime "
			"%s\n", verb, ca_trace_windowed_out(t),
			caret_plural(ca_trace_windowed_out(t), "event", "events"));
	uint64_t bytes, packets = ca_trace_skipped_packets(t, &bytes);
	if (packets)
		fprintf(stderr, "caret %s: note: %" PRIu64 " %s (%.1f MB) wholly outside the "
			"time window %s not read\n", verb, packets,
			caret_plural(packets, "packet", "packets"), (double)bytes / 1e6,
			packets == 1 ? "was" : "were");
	return t;
}

void cli_begin_output(const char *verb, enum cli_format f, const ca_trace *t)
{
	size_t n = ca_trace_recording_count(t);
	if (f == CLI_JSON) {
		printf("{\"trace\": [");
		for (size_t i = 0; i < n; i++) {
			printf(i ? ", " : "");
			cli_json_string(stdout, ca_trace_recording(t, i));
		}
		printf("], ");
		return;
	}
	if (f == CLI_CSV)
		fprintf(stderr, "caret %s: ", verb);
	cli_print_trace_folders(f == CLI_TEXT ? stdout : stderr, t);
}

int cli_print_trace_folders(FILE *out, const ca_trace *t)
{
	int status = fprintf(out, "trace: ");
	for (size_t i = 0; i < ca_trace_recording_count(t); i++)
		fprintf(out, "%s%s", i ? ", " : "", ca_trace_recording(t, i));
	return status < 0 ? status : fprintf(out, "\n");
}

void cli_json_string(FILE *out, const char *s)
{
	caret_json_string(out, s);
}

const char *cli_name(const char *name, char *buf, size_t size)
{
	size_t n = 0;
	if (!size)
		return "";
	for (const unsigned char *c = (const unsigned char *)(name ? name : "(null)");
	     *c && n + 5 <= size; c++) {
		const char *named = *c == '\n' ? "\\n" : *c == '\r' ? "\\r" : *c == '\t' ? "\\t" : NULL;
		if (*c >= 0x20 && *c != 0x7f)
			buf[n++] = (char)*c;
		else if (named)
			n += (size_t)snprintf(buf + n, size - n, "%s", named);
		else
			n += (size_t)snprintf(buf + n, size - n, "\\x%02x", *c);
	}
	buf[n] = '\0';
	return buf;
}

int cli_parse_percentiles(const char *verb, const char *arg, ca_percentile_method *method)
{
	if (!strcmp(arg, "linear"))
		*method = CA_PERCENTILE_LINEAR;
	else if (!strcmp(arg, "nearest"))
		*method = CA_PERCENTILE_NEAREST_RANK;
	else {
		fprintf(stderr, "caret %s: unknown percentile method '%s' (linear, nearest)\n",
			verb, arg);
		return -1;
	}
	return 0;
}

/* The shortest decimal form that reads back as v (15 to 17 digits). */
static const char *shortest(char buf[32], double v)
{
	for (int digits = 15; digits <= 17; digits++) {
		snprintf(buf, 32, "%.*g", digits, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	return buf;
}

const char *cli_cell(enum cli_format f, char buf[32], int decimals, double v)
{
	if (isnan(v))
		return f == CLI_TEXT ? "-" : f == CLI_CSV ? "" : "null";
	if (decimals < 0)
		return shortest(buf, v);
	snprintf(buf, 32, "%.*f", decimals, v);
	return buf;
}

void cli_csv_time(FILE *out, uint64_t ns)
{
	if (ns)
		fprintf(out, ",%" PRIu64, ns);
	else
		fputc(',', out);
}

void cli_print_stats(FILE *out, enum cli_format f, const ca_stats *s)
{
	/* statistics of no sample are none: not 0 */
	double none = s->count ? 0 : NAN;
	char b[6][32];
	if (f == CLI_TEXT) {
		fprintf(out, "%8" PRIu64 " %10s %10s %10s %10s %10s %10s", s->count,
			cli_cell(f, b[0], 1, none + (double)s->min / 1e3),
			cli_cell(f, b[1], 1, none + s->mean / 1e3),
			cli_cell(f, b[2], 1, none + s->p50 / 1e3),
			cli_cell(f, b[3], 1, none + s->p90 / 1e3),
			cli_cell(f, b[4], 1, none + s->p99 / 1e3),
			cli_cell(f, b[5], 1, none + (double)s->max / 1e3));
		return;
	}
	/* nanoseconds: min and max whole, the rest at full precision */
	const char *min = cli_cell(f, b[0], 0, none + (double)s->min),
		   *mean = cli_cell(f, b[1], -1, none + s->mean),
		   *p50 = cli_cell(f, b[2], -1, none + s->p50),
		   *p90 = cli_cell(f, b[3], -1, none + s->p90),
		   *p99 = cli_cell(f, b[4], -1, none + s->p99),
		   *max = cli_cell(f, b[5], 0, none + (double)s->max);
	if (f == CLI_CSV)
		fprintf(out, "%" PRIu64 ",%s,%s,%s,%s,%s,%s", s->count, min, mean, p50, p90, p99,
			max);
	else
		fprintf(out, "\"count\": %" PRIu64 ", \"min_ns\": %s, \"mean_ns\": %s, "
			"\"p50_ns\": %s, \"p90_ns\": %s, \"p99_ns\": %s, \"max_ns\": %s", s->count,
			min, mean, p50, p90, p99, max);
}

void cli_print_caveats(const char *verb, const ca_records *records)
{
	char note[512];
	for (size_t i = 0; records && ca_records_caveat(records, i, note, sizeof note); i++)
		fprintf(stderr, "caret %s: note: %s\n", verb, note);
}

/* The folder this caret runs from (bin/ of an install, or of the build
 * tree) into dir; false when /proc/self/exe cannot say. */
static bool own_bin_dir(char *dir, size_t size)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n <= 0)
		return false;
	self[n] = '\0';
	return snprintf(dir, size, "%s", dirname(self)) < (int)size;
}

/* The tracer as cli_find_tracer finds it: 0, or -1 with why in why. */
static int find_tracer(char *out, size_t size, char *why, size_t why_size)
{
	const char *env = getenv("CARET_TRACER_LIB");
	char bin[PATH_MAX / 2], path[PATH_MAX], resolved[PATH_MAX];
	if (env && *env) {
		snprintf(out, size, "%s", env);
		if (access(env, R_OK) == 0)
			return 0;
		snprintf(why, why_size, "CARET_TRACER_LIB=%s: %s", env, strerror(errno));
		return -1;
	}
	if (!own_bin_dir(bin, sizeof bin)) {
		snprintf(why, why_size, "cannot tell where this caret is (/proc/self/exe)");
		return -1;
	}
	/* installed: PREFIX/<libdir>/caret (make install, colcon's install
	 * space, the Debian package's lib/<multiarch>/caret); else the build
	 * tree's lib/ */
	const char *places[] = { CARET_TRACER_INSTALLED, "lib/libcaret.so" };
	for (size_t i = 0; i < sizeof places / sizeof *places; i++) {
		snprintf(path, sizeof path, "%s/../%s", bin, places[i]);
		if (i == 0)
			snprintf(out, size, "%s", path); /* what ld.so is given if none is there */
		if (access(path, R_OK) == 0 && realpath(path, resolved) && strlen(resolved) < size) {
			snprintf(out, size, "%s", resolved);
			return 0;
		}
	}
	snprintf(why, why_size, "no libcaret.so beside this caret (looked in %s/../%s and "
		"%s/../lib/libcaret.so; CARET_TRACER_LIB=FILE names another)", bin,
		CARET_TRACER_INSTALLED, bin);
	return -1;
}

int cli_find_tracer(const char *verb, char *out, size_t size)
{
	char why[PATH_MAX + 256];
	if (find_tracer(out, size, why, sizeof why) == 0)
		return 0;
	fprintf(stderr, "caret %s: %s\n", verb, why);
	return -1;
}

void cli_tracer_lib(char *out, size_t size)
{
	char why[PATH_MAX + 256];
	(void)find_tracer(out, size, why, sizeof why);
}

const struct cli_number cli_duration_option = { "--duration", CLI_SECONDS, 0, 31536000, true },
	cli_subbuf_size_option = { "--subbuf-size", CLI_BYTES, CLI_SUBBUF_MIN, CLI_SUBBUF_MAX,
		false },
	cli_num_subbuf_option = { "--num-subbuf", CLI_COUNT, 1, 1048576, false };

int cli_bad_value(const char *verb, const struct option *opts, int c, const char *arg)
{
	const struct option *bad = opts;
	while (bad->name && bad->val != c)
		bad++;
	fprintf(stderr, "caret %s: bad value '%s' for --%s\n", verb, arg,
		bad->name ? bad->name : "?");
	return 2;
}
