/*
 * cmd_report.c - `caret report TRACE... [--arch FILE [--path NAME]...]
 * -o report.html`: the HTML report of a trace; with --baseline BASE (or
 * --base/--new), the A/B page of two recordings (report_ab.c).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_util.h"
#include "report_ab.h"
#include "verbs.h"

static int usage(FILE *out)
{
	fprintf(out,
		"usage: caret report [--arch FILE [--path NAME]...] [--all] -o report.html TRACE...\n"
		"       caret report --baseline BASE [--arch FILE] [--all] -o ab.html NEW...\n"
		"       caret report --base T [--base T]... --new T [--new T]... [--arch FILE]\n"
		"                    [--all] -o ab.html\n"
		"\n"
		"Writes one self-contained HTML file that opens offline (its script, chart\n"
		"library and data inline; nothing fetched): a header (trace, date, ROS 2\n"
		"distribution, rmw, duration), caret check's findings per process, the\n"
		"system graph, each path's end-to-end latency and response times with its\n"
		"worst instances first (each hop, the flow through the nodes), the\n"
		"callbacks' scheduling per executor and thread, and per callback and topic\n"
		"the latency, frequency and period (tables, timelines, histograms). Every\n"
		"timeline zooms and pans on one shared time axis; hovering shows values; a\n"
		"search box filters callbacks, topics and paths (docs/report.md).\n"
		"\n"
		"  -o, --output FILE  the report to write\n"
		"      --arch FILE    an architecture file whose named paths to show: those\n"
		"                     given with --path, or all of them; without it, the\n"
		"                     longest chain of nodes found in the trace\n"
		"      --path NAME    a named path of the architecture file (repeatable)\n"
		"      --all          show the tracer's own nodes and callbacks, services,\n"
		"                     and the topics every node has (/parameter_events,\n"
		"                     /rosout, /clock), which are left out by default\n"
		"\n"
		"The A/B view: caret report --baseline BASE [--arch FILE] -o ab.html NEW...\n"
		"compares two recordings of one system as caret compare does (its default\n"
		"statistics) on one page: both recordings named, the significant changes\n"
		"first (slower, then faster, each by how much its median moved), then per\n"
		"path (every named path of --arch), callback, communication and node path\n"
		"both timelines in one chart and both distributions overlaid (histogram\n"
		"or cumulative), and the objects of one side only (docs/report.md).\n"
		"\n"
		"      --baseline BASE\n"
		"                     the recording to compare against; the TRACE... given\n"
		"                     are the new one\n"
		"      --base T, --new T\n"
		"                     a set of runs of one system on each side (repeatable:\n"
		"                     each T one recording, their instances pooled);\n"
		"                     without --new, the TRACE... given are the new side\n");
	fputs(CLI_LOAD_OPTIONS_HELP, out);
	fputs(CLI_MEMORY_HELP, out);
	return out == stdout ? 0 : 2;
}

/* What one `caret report` was asked. */
struct report_options {
	ca_load_options load;
	const char *output, *arch;
	const char *paths[64]; /* --path, of --arch */
	size_t n_paths;
	char **file_paths; /* --arch without --path: all of the file's */
	size_t n_file_paths;
	bool all;
	char **traces;
	int n_traces;
	/* the A/B view: --baseline/--base (each one recording), --new */
	char *base[64], *new_[64];
	size_t n_base, n_new;
};

/* The arguments into o: -1 to go on, else the exit status. */
static int parse(int argc, char **argv, struct report_options *o)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "arch", required_argument, NULL, 'a' },
		{ "path", required_argument, NULL, 'p' },
		{ "all", no_argument, NULL, 'A' },
		{ "baseline", required_argument, NULL, 'b' },
		{ "base", required_argument, NULL, 'B' },
		{ "new", required_argument, NULL, 'N' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		if (c == 'o')
			o->output = optarg;
		else if (c == 'a')
			o->arch = optarg;
		else if (c == 'p' && o->n_paths < 64)
			o->paths[o->n_paths++] = optarg;
		else if (c == 'A')
			o->all = true;
		else if ((c == 'b' || c == 'B') && o->n_base < 64)
			o->base[o->n_base++] = optarg;
		else if (c == 'N' && o->n_new < 64)
			o->new_[o->n_new++] = optarg;
		else if (c == 'b' || c == 'B' || c == 'N') {
			fprintf(stderr, "caret report: at most 64 recordings a side\n");
			return 2;
		} else
			return usage(c == 'h' ? stdout : stderr);
	}
	if (o->n_base || o->n_new) {
		o->traces = argv + optind;
		o->n_traces = argc - optind;
		if (!o->output || !o->n_base || (!o->n_new && !o->n_traces)) {
			fprintf(stderr, "caret report: the A/B view needs -o FILE, --baseline BASE (or "
				"--base T) and the new recording (TRACE... or --new T)\n");
			return 2;
		}
		if (o->n_new && o->n_traces) {
			fprintf(stderr, "caret report: the new side is either --new T or TRACE..., not "
				"both\n");
			return 2;
		}
		if (o->n_paths) {
			fprintf(stderr, "caret report: --path is not taken with --baseline: every "
				"named path of --arch is compared\n");
			return 2;
		}
		return -1;
	}
	if (!o->output || optind >= argc || (o->n_paths && !o->arch)) {
		fprintf(stderr, "caret report: -o FILE and a TRACE are needed (--path needs --arch)\n");
		return 2;
	}
	o->traces = argv + optind;
	o->n_traces = argc - optind;
	return -1;
}

/* The page written: 0; 1 when a named path failed (the page shows the
 * rest and stays) or the page could not be written (it goes). */
static int write_page(const struct report_options *o, ca_report *report, const ca_trace *t)
{
	char err[1024];
	int status = 1, written = -1;
	FILE *out = fopen(o->output, "w");
	if (!out)
		fprintf(stderr, "caret report: cannot write %s: %s\n", o->output, strerror(errno));
	else if ((written = ca_report_write(report, t, out, err, sizeof err)) < 0)
		fprintf(stderr, "caret report: %s\n", err);
	else
		status = written; /* 1: a named path failed, the page shows the rest */
	if (out && fclose(out) != 0 && written >= 0) {
		fprintf(stderr, "caret report: cannot write %s: %s\n", o->output, strerror(errno));
		status = 1;
		written = -1;
	}
	if (written == 1)
		fprintf(stderr, "caret report: %s (the rest of the report is in %s)\n", err, o->output);
	if (!status) {
		cli_begin_output("report", CLI_TEXT, t);
		printf("%s\n", o->output);
	}
	else if (out && written < 0)
		remove(o->output);
	return status;
}

/* --arch without --path: every named path of the file. 0, or 1 after a
 * message. */
static int take_every_path(struct report_options *o)
{
	char err[1024];
	if (!o->arch || o->n_paths)
		return 0;
	if (ca_arch_file_path_names(o->arch, &o->file_paths, &o->n_file_paths, err,
		    sizeof err) != 0) {
		fprintf(stderr, "caret report: %s\n", err);
		return 1;
	}
	if (!o->n_file_paths) {
		fprintf(stderr, "caret report: %s has no named path to show\n", o->arch);
		return 1;
	}
	for (size_t i = 0; i < o->n_file_paths && i < 64; i++)
		o->paths[o->n_paths++] = o->file_paths[i];
	return 0;
}

static int run(struct report_options *o)
{
	char err[1024];
	if (take_every_path(o) != 0)
		return 1;
	ca_report_options ro = { .arch_file = o->arch, .path_names = o->paths,
		.n_paths = o->n_paths, .trace_paths = (const char *const *)o->traces,
		.n_trace_paths = (size_t)o->n_traces, .all = o->all };
	ca_report *report = ca_report_new(&ro, err, sizeof err);
	if (!report) {
		fprintf(stderr, "caret report: %s\n", err);
		return 1;
	}
	/* the records the report reads, scanned in the load's second pass; of
	 * the runtime events, only the tf events' tables are held */
	o->load.keep_runtime = !cli_lean();
	o->load.keep_links = true;
	if (!o->load.keep_runtime)
		o->load.n_records = ca_report_records(report, &o->load.records);
	ca_trace *t = cli_load("report", o->traces, o->n_traces, &o->load);
	int status = t ? write_page(o, report, t) : 1;
	ca_trace_free(t);
	ca_report_free(report);
	return status;
}

/* The A/B view: each --base/--baseline one recording; each --new one, or
 * the TRACE... given as one. */
static int run_ab(struct report_options *o)
{
	struct report_ab_request q = { .load = o->load, .output = o->output, .arch = o->arch,
		.all = o->all };
	for (size_t i = 0; i < o->n_base; i++) {
		q.side[0].paths[i] = &o->base[i];
		q.side[0].n_paths[i] = 1;
	}
	q.side[0].n = o->n_base;
	for (size_t i = 0; i < o->n_new; i++) {
		q.side[1].paths[i] = &o->new_[i];
		q.side[1].n_paths[i] = 1;
	}
	q.side[1].n = o->n_new;
	if (!o->n_new) {
		q.side[1].paths[0] = o->traces;
		q.side[1].n_paths[0] = (size_t)o->n_traces;
		q.side[1].n = 1;
	}
	return cli_report_ab(&q);
}

int caret_cmd_report(int argc, char **argv, const ca_load_options *load)
{
	struct report_options o = { .load = *load };
	int status = parse(argc, argv, &o);
	if (status < 0)
		status = o.n_base ? run_ab(&o) : run(&o);
	for (size_t i = 0; i < o.n_file_paths; i++)
		free(o.file_paths[i]);
	free(o.file_paths);
	return status;
}
