/*
 * cmd_summary.c - `caret summary events TRACE...`: events per event type,
 * as text, CSV or JSON (the original's trace_point_summary). The nodes and
 * topics summaries come with the architecture model.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "caret/analyze.h"
#include "schema.h"
#include "verbs.h"

enum format { TEXT, CSV, JSON };

static int usage(FILE *out)
{
	fprintf(out,
		"usage: caret summary events [--format text|csv|json] TRACE...\n"
		"\n"
		"Counts the events of the traces (session directories, or parents of\n"
		"several) per event type, known types in schema order, with the number\n"
		"of events of other types and of discarded events.\n");
	return out == stdout ? 0 : 2;
}

static void print_events(const ca_trace *t, enum format f)
{
	bool first = true;

	if (f == CSV)
		printf("event,count\n");
	if (f == JSON)
		printf("{\"events\": [");
	for (size_t i = 0; i < CS_EVENT_COUNT; i++) {
		size_t n = ca_trace_rows(t, cs_events[i].full_name);
		if (!n)
			continue;
		if (f == TEXT)
			printf("%-52s %10zu\n", cs_events[i].full_name, n);
		else if (f == CSV)
			printf("%s,%zu\n", cs_events[i].full_name, n);
		else
			printf("%s{\"event\": \"%s\", \"count\": %zu}", first ? "" : ", ",
				cs_events[i].full_name, n);
		first = false;
	}
	uint64_t total = ca_trace_event_count(t), other = ca_trace_unknown_count(t),
		 discarded = ca_trace_discarded(t);
	if (f == TEXT)
		printf("%-52s %10" PRIu64 "\n%-52s %10" PRIu64 "\n%-52s %10" PRIu64 "\n",
			"(other events)", other, "total", total, "discarded", discarded);
	else if (f == CSV)
		printf("(other events),%" PRIu64 "\ntotal,%" PRIu64 "\ndiscarded,%" PRIu64 "\n",
			other, total, discarded);
	else
		printf("], \"other\": %" PRIu64 ", \"total\": %" PRIu64
			", \"discarded\": %" PRIu64 "}\n", other, total, discarded);
}

int caret_cmd_summary(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	enum format f = TEXT;
	char err[1024];
	int c;

	if (argc < 2)
		return usage(stderr);
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
		return usage(stdout);
	if (strcmp(argv[1], "events")) {
		fprintf(stderr, "caret summary: '%s': only 'events' exists so far\n", argv[1]);
		return 2;
	}
	argc--;
	argv++;
	optind = 1;
	while ((c = getopt_long(argc, argv, "f:h", opts, NULL)) != -1) {
		if (c == 'h')
			return usage(stdout);
		if (c != 'f')
			return usage(stderr);
		if (!strcmp(optarg, "text"))
			f = TEXT;
		else if (!strcmp(optarg, "csv"))
			f = CSV;
		else if (!strcmp(optarg, "json"))
			f = JSON;
		else {
			fprintf(stderr, "caret summary: unknown format '%s' (text, csv, json)\n", optarg);
			return 2;
		}
	}
	if (optind >= argc)
		return usage(stderr);
	ca_trace *t = ca_trace_load((const char *const *)argv + optind,
		(size_t)(argc - optind), err, sizeof err);
	if (!t) {
		fprintf(stderr, "caret summary: %s\n", err);
		return 1;
	}
	print_events(t, f);
	ca_trace_free(t);
	return 0;
}
