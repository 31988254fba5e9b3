/* cli_util.c - see cli_util.h. */
#include "cli_util.h"

#include <inttypes.h>
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

/* One option's value into the load options; -1 after a message. */
static int take_value(const char *option, const char *value, ca_load_options *o)
{
	if (!strcmp(option, "--reader")) {
		if (!strcmp(value, "native"))
			o->reader = CA_READER_NATIVE;
		else if (!strcmp(value, "babeltrace2"))
			o->reader = CA_READER_BABELTRACE2;
		else {
			fprintf(stderr, "caret: unknown reader '%s' (native, babeltrace2)\n", value);
			return -1;
		}
		return 0;
	}
	char *end;
	double s = strtod(value, &end);
	if (end == value || *end || !(s >= 0) || isinf(s)) {
		fprintf(stderr, "caret: %s takes seconds (0 or more), not '%s'\n", option, value);
		return -1;
	}
	*(!strcmp(option, "--since") ? &o->since :
		!strcmp(option, "--until") ? &o->until :
		!strcmp(option, "--strip-start") ? &o->strip_start :
		&o->strip_end) = s;
	return 0;
}

int cli_take_load_options(int *argc, char **argv, ca_load_options *o)
{
	static const char *const names[] = { "--reader", "--since", "--until", "--strip-start",
		"--strip-end" };
	for (int i = 1; i < *argc && strcmp(argv[i], "--"); i++) {
		for (size_t k = 0; k < sizeof names / sizeof *names; k++) {
			size_t len = strlen(names[k]);
			const char *value = NULL;
			int taken = 0;
			if (!strcmp(argv[i], names[k])) {
				if (i + 1 >= *argc) {
					fprintf(stderr, "caret: %s needs a value\n", names[k]);
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
			if (take_value(names[k], value, o) != 0)
				return -1;
			memmove(&argv[i], &argv[i + taken], (size_t)(*argc - i - taken + 1) * sizeof *argv);
			*argc -= taken;
			i--;
			break;
		}
	}
	if (o->since >= o->until) {
		fprintf(stderr, "caret: --since must come before --until\n");
		return -1;
	}
	return 0;
}

bool cli_lean(void)
{
	const char *keep = getenv("CARET_KEEP_EVENTS");
	return !keep || strcmp(keep, "1") != 0;
}

ca_trace *cli_load(const char *verb, char **paths, int n_paths, const ca_load_options *o)
{
	char err[1024];
	ca_trace *t = ca_trace_load_options((const char *const *)paths, (size_t)n_paths,
		o, err, sizeof err);
	if (!t)
		fprintf(stderr, "caret %s: %s\n", verb, err);
	else if (ca_trace_reader_note(t))
		fprintf(stderr, "caret %s: note: %s\n", verb, ca_trace_reader_note(t));
	if (t && ca_trace_windowed_out(t))
		fprintf(stderr, "caret %s: note: the time window left out %" PRIu64 " runtime "
			"events\n", verb, ca_trace_windowed_out(t));
	uint64_t bytes, packets = ca_trace_skipped_packets(t, &bytes);
	if (packets)
		fprintf(stderr, "caret %s: note: %" PRIu64 " packets (%.1f MB) wholly outside the "
			"time window were not read\n", verb, packets, (double)bytes / 1e6);
	return t;
}

void cli_json_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
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

void cli_print_stats(FILE *out, enum cli_format f, const ca_stats *s)
{
	char mean[32], p50[32], p90[32], p99[32];
	if (f == CLI_TEXT)
		fprintf(out, "%8" PRIu64 " %10.1f %10.1f %10.1f %10.1f %10.1f %10.1f", s->count,
			(double)s->min / 1e3, s->mean / 1e3, s->p50 / 1e3, s->p90 / 1e3,
			s->p99 / 1e3, (double)s->max / 1e3);
	else if (f == CLI_CSV)
		fprintf(out, "%" PRIu64 ",%" PRId64 ",%s,%s,%s,%s,%" PRId64, s->count, s->min,
			shortest(mean, s->mean), shortest(p50, s->p50), shortest(p90, s->p90),
			shortest(p99, s->p99), s->max);
	else
		fprintf(out, "\"count\": %" PRIu64 ", \"min_ns\": %" PRId64 ", \"mean_ns\": %s, "
			"\"p50_ns\": %s, \"p90_ns\": %s, \"p99_ns\": %s, \"max_ns\": %" PRId64,
			s->count, s->min, shortest(mean, s->mean), shortest(p50, s->p50),
			shortest(p90, s->p90), shortest(p99, s->p99), s->max);
}

void cli_print_caveats(const char *verb, const ca_records *records)
{
	char note[512];
	for (size_t i = 0; records && ca_records_caveat(records, i, note, sizeof note); i++)
		fprintf(stderr, "caret %s: note: %s\n", verb, note);
}
