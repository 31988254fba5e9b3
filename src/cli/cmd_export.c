/*
 * cmd_export.c - `caret export --format chrome-trace [-o FILE] TRACE...`:
 * the trace as Trace Event JSON for Perfetto's UI and chrome://tracing.
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
		"usage: caret export --format chrome-trace [-o FILE] [--arch FILE --path NAME...]\n"
		"                    [--all] TRACE...\n"
		"\n"
		"Writes the trace in the Trace Event format (JSON) that Perfetto's UI\n"
		"(ui.perfetto.dev, Open trace file) and chrome://tracing open: a track per\n"
		"thread under its process, each callback run a slice with the publishes\n"
		"made in it, each message a flow arrow from its publish to the callback\n"
		"run it started, and each instance of a path an async slice with a slice\n"
		"per hop, under the process \"caret paths\". Times are microseconds since\n"
		"the trace's first event (docs/cli.md#caret-export).\n"
		"\n"
		"      --format F     chrome-trace (the only format)\n"
		"  -o, --output FILE  where to write (default: standard output)\n"
		"      --arch FILE    an architecture file whose named paths to export\n"
		"                     (one --path NAME or more); without it, the longest\n"
		"                     chain of nodes found in the trace\n"
		"      --path NAME    a named path of the architecture file (repeatable)\n"
		"      --all          the tracer's own callbacks and topics too\n");
	fputs(CLI_LOAD_OPTIONS_HELP, out);
	fputs(CLI_MEMORY_HELP, out);
	return out == stdout ? 0 : 2;
}

int caret_cmd_export(int argc, char **argv, const ca_load_options *load)
{
	ca_load_options lo = *load; /* this verb's own */
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "arch", required_argument, NULL, 'a' },
		{ "path", required_argument, NULL, 'p' },
		{ "all", no_argument, NULL, 'A' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *format = NULL, *output = NULL, *arch = NULL, *names[64];
	size_t n_names = 0;
	bool all = false;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		if (c == 'f')
			format = optarg;
		else if (c == 'o')
			output = optarg;
		else if (c == 'a')
			arch = optarg;
		else if (c == 'p' && n_names < 64)
			names[n_names++] = optarg;
		else if (c == 'A')
			all = true;
		else
			return usage(c == 'h' ? stdout : stderr);
	}
	if (!format || strcmp(format, "chrome-trace")) {
		fprintf(stderr, "caret export: --format chrome-trace is needed%s%s%s\n",
			format ? " (not '" : "", format ? format : "", format ? "')" : "");
		return 2;
	}
	if (optind >= argc || (n_names && !arch) || (arch && !n_names)) {
		fprintf(stderr, "caret export: a TRACE is needed (--path goes with --arch)\n");
		return 2;
	}
	ca_records_options every = { 0 };
	lo.keep_runtime = !cli_lean();
	lo.keep_links = true; /* paths through tf and services */
	lo.records = lo.keep_runtime ? NULL : &every;
	ca_trace *t = cli_load("export", argv + optind, argc - optind, &lo);
	if (!t)
		return 1;
	char err[1024];
	int status = 1;
	ca_path_set *sets[64] = { 0 };
	const ca_path *paths[64];
	const char *path_names[64];
	size_t n_paths = 0;
	FILE *out = NULL;
	ca_records *r = ca_records_build(t, err, sizeof err);
	if (!r) {
		fprintf(stderr, "caret export: %s\n", err);
		goto done;
	}
	for (size_t i = 0; i < n_names; i++) {
		if (!(sets[i] = ca_arch_file_path(arch, names[i], err, sizeof err))) {
			fprintf(stderr, "caret export: %s\n", err);
			goto done;
		}
		ca_path_set_paths(sets[i], &paths[n_paths]);
		path_names[n_paths++] = names[i];
	}
	if (!arch && (sets[0] = ca_path_longest(t, r, all)) && ca_path_set_paths(sets[0],
		&paths[0]))
		path_names[n_paths++] = "longest chain";
	out = output && strcmp(output, "-") ? fopen(output, "w") : stdout;
	if (!out) {
		fprintf(stderr, "caret export: cannot write %s: %s\n", output, strerror(errno));
		goto done;
	}
	if (ca_export_chrome_trace(t, r, paths, path_names, n_paths, all, out, err, sizeof err))
		fprintf(stderr, "caret export: %s\n", err);
	else
		status = 0;
	if (out != stdout && fclose(out) != 0 && !status) {
		fprintf(stderr, "caret export: cannot write %s: %s\n", output, strerror(errno));
		status = 1;
	}
	if (status && out != stdout)
		remove(output);
done:
	for (size_t i = 0; i < 64; i++)
		ca_path_set_free(sets[i]);
	ca_records_free(r);
	ca_trace_free(t);
	return status;
}
