/*
 * cmd_report.c - `caret report TRACE... [--arch FILE [--path NAME]...]
 * -o report.html`: the HTML report of a trace.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli_util.h"
#include "verbs.h"

static int usage(FILE *out)
{
	fprintf(out,
		"usage: caret report [--arch FILE [--path NAME]...] -o report.html TRACE...\n"
		"\n"
		"Writes one self-contained HTML file (it opens offline: inline styles and\n"
		"SVG charts, no script, nothing fetched) with the caret check findings, the\n"
		"system graph (nodes, topics, executors), callback latency and\n"
		"communication latency per topic (tables, timelines, histograms), and for\n"
		"each path its end-to-end latency (timeline, histogram), the per-hop\n"
		"breakdown and the flow of the first messages.\n"
		"\n"
		"  -o, --output FILE  the report to write\n"
		"      --arch FILE    an architecture file whose named paths to show\n"
		"                     (each --path NAME, or all of them); without it, the\n"
		"                     longest chain of nodes found in the trace\n"
		"      --path NAME    a named path of the architecture file (repeatable)\n");
	fputs(CLI_LOAD_OPTIONS_HELP, out);
	fputs(CLI_MEMORY_HELP, out);
	return out == stdout ? 0 : 2;
}

int caret_cmd_report(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "arch", required_argument, NULL, 'a' },
		{ "path", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *output = NULL, *arch = NULL, *paths[64];
	size_t n_paths = 0;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		if (c == 'o')
			output = optarg;
		else if (c == 'a')
			arch = optarg;
		else if (c == 'p' && n_paths < 64)
			paths[n_paths++] = optarg;
		else
			return usage(c == 'h' ? stdout : stderr);
	}
	if (!output || optind >= argc || (n_paths && !arch)) {
		fprintf(stderr, "caret report: -o FILE and a TRACE are needed (--path needs --arch)\n");
		return 2;
	}
	if (arch && !n_paths) {
		fprintf(stderr, "caret report: --arch needs one --path NAME or more\n");
		return 2;
	}
	/* every record, scanned in the load's second pass; of the runtime
	 * events, only the tf events' tables are held (the tf section) */
	ca_records_options every = { 0 };
	cli_load_options.keep_runtime = !cli_lean();
	cli_load_options.keep_tf = true;
	cli_load_options.records = cli_load_options.keep_runtime ? NULL : &every;
	ca_trace *t = cli_load("report", argv + optind, argc - optind);
	cli_load_options.records = NULL; /* `every` lives in this function only */
	if (!t)
		return 1;
	char err[1024];
	int status = 1;
	ca_records *r = ca_records_build(t, err, sizeof err);
	FILE *out = r ? fopen(output, "w") : NULL;
	if (!r)
		fprintf(stderr, "caret report: %s\n", err);
	else if (!out)
		fprintf(stderr, "caret report: cannot write %s: %s\n", output, strerror(errno));
	else if (ca_report_write_html(t, r, arch, paths, n_paths, out, err, sizeof err) != 0)
		fprintf(stderr, "caret report: %s\n", err);
	else
		status = 0;
	if (out && fclose(out) != 0 && !status) {
		fprintf(stderr, "caret report: cannot write %s: %s\n", output, strerror(errno));
		status = 1;
	}
	if (!status)
		printf("%s\n", output);
	else if (out)
		remove(output);
	ca_records_free(r);
	ca_trace_free(t);
	return status;
}
