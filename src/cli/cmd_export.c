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

/* What one `caret export` was asked. */
struct export_options {
	ca_load_options load;
	const char *format, *output, *arch;
	const char *names[64]; /* --path, of --arch */
	size_t n_names;
	bool all;
	char **paths; /* the traces */
	int n_paths;
};

/* The arguments into o: -1 to go on, else the exit status. */
static int parse(int argc, char **argv, struct export_options *o)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "arch", required_argument, NULL, 'a' },
		{ "path", required_argument, NULL, 'p' },
		{ "all", no_argument, NULL, 'A' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		if (c == 'f')
			o->format = optarg;
		else if (c == 'o')
			o->output = optarg;
		else if (c == 'a')
			o->arch = optarg;
		else if (c == 'p' && o->n_names < 64)
			o->names[o->n_names++] = optarg;
		else if (c == 'A')
			o->all = true;
		else
			return usage(c == 'h' ? stdout : stderr);
	}
	if (!o->format || strcmp(o->format, "chrome-trace")) {
		fprintf(stderr, "caret export: --format chrome-trace is needed%s%s%s\n",
			o->format ? " (not '" : "", o->format ? o->format : "", o->format ? "')" : "");
		return 2;
	}
	if (optind >= argc || (o->n_names && !o->arch) || (o->arch && !o->n_names)) {
		fprintf(stderr, "caret export: a TRACE is needed (--path goes with --arch)\n");
		return 2;
	}
	o->paths = argv + optind;
	o->n_paths = argc - optind;
	return -1;
}

/* The paths to show: the named ones, or the longest chain. 0, or 1 after
 * a message. */
static int choose_paths(const struct export_options *o, const ca_trace *t, const ca_records *r,
	ca_path_set **sets, const ca_path **paths, const char **path_names, size_t *n_paths)
{
	char err[1024];
	for (size_t i = 0; i < o->n_names; i++) {
		if (!(sets[i] = ca_arch_file_path(o->arch, o->names[i], err, sizeof err))) {
			fprintf(stderr, "caret export: %s\n", err);
			return 1;
		}
		ca_path_set_paths(sets[i], &paths[*n_paths]);
		path_names[(*n_paths)++] = o->names[i];
	}
	if (!o->arch && (sets[0] = ca_path_longest(t, r, o->all)) &&
	    ca_path_set_paths(sets[0], &paths[0]))
		path_names[(*n_paths)++] = "longest chain";
	return 0;
}

/* The Chrome trace written to --output (stdout: "-" or none); a file
 * left half written is removed. 0, or 1 after a message. */
static int write_export(const struct export_options *o, const ca_trace *t, const ca_records *r,
	const ca_path **paths, const char **path_names, size_t n_paths)
{
	char err[1024];
	int status = 1;
	bool to_file = o->output && strcmp(o->output, "-");
	FILE *out = to_file ? fopen(o->output, "w") : stdout;
	if (!out) {
		fprintf(stderr, "caret export: cannot write %s: %s\n", o->output, strerror(errno));
		return 1;
	}
	if (ca_export_chrome_trace(t, r, paths, path_names, n_paths, o->all, out, err, sizeof err))
		fprintf(stderr, "caret export: %s\n", err);
	else
		status = 0;
	if (!status) /* the Trace Event format is not ours: said as CSV's is */
		cli_begin_output("export", CLI_CSV, t);
	if (to_file && fclose(out) != 0 && !status) {
		fprintf(stderr, "caret export: cannot write %s: %s\n", o->output, strerror(errno));
		status = 1;
	}
	if (status && to_file)
		remove(o->output);
	return status;
}

static int run(struct export_options *o)
{
	ca_records_options every = { 0 };
	o->load.keep_runtime = !cli_lean();
	o->load.keep_links = true; /* paths through tf and services */
	o->load.records = o->load.keep_runtime ? NULL : &every;
	ca_trace *t = cli_load("export", o->paths, o->n_paths, &o->load);
	if (!t)
		return 1;
	char err[1024];
	int status = 1;
	ca_path_set *sets[64] = { 0 };
	const ca_path *paths[64];
	const char *path_names[64];
	size_t n_paths = 0;
	ca_records *r = ca_records_build(t, err, sizeof err);
	if (!r)
		fprintf(stderr, "caret export: %s\n", err);
	else if (!choose_paths(o, t, r, sets, paths, path_names, &n_paths))
		status = write_export(o, t, r, paths, path_names, n_paths);
	for (size_t i = 0; i < 64; i++)
		ca_path_set_free(sets[i]);
	ca_records_free(r);
	ca_trace_free(t);
	return status;
}

int caret_cmd_export(int argc, char **argv, const ca_load_options *load)
{
	struct export_options o = { .load = *load };
	int status = parse(argc, argv, &o);
	return status >= 0 ? status : run(&o);
}
