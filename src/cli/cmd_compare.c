/*
 * cmd_compare.c - `caret compare [OPTIONS] BASE NEW` (or --base T...
 * --new T...): two recordings, or two sets of runs, of one system; every
 * callback, communication, node path and named path matched by name, each
 * side's statistics, the change with its confidence interval, a rank
 * test's verdict; --fail-on rules set the exit status (docs/compare.md).
 * Exit: 0, 3 a rule fired, 1 a side unreadable or nothing in common, 2
 * usage.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_util.h"
#include "compare.h"
#include "compare_output.h"
#include "compare_rules.h"
#include "verbs.h"

#define MAX_RUNS 256
#define MAX_RULES 64

static int usage(FILE *out)
{
	fprintf(out,
		"usage: caret compare [OPTIONS] BASE NEW\n"
		"       caret compare [OPTIONS] --base TRACE [--base TRACE...] --new TRACE\n"
		"                     [--new TRACE...]\n"
		"\n"
		"Compares two recordings of one system (BASE: before a change, NEW: after):\n"
		"every callback (its runs' latency), topic (communication latency, inter-\n"
		"and intra-process apart), node path and, with --arch, every named path,\n"
		"matched by name; per side count, mean, p50, p90, p99, max; the change\n"
		"NEW - BASE of the mean, p50, p90 and p99 with a 95%% confidence interval\n"
		"(bootstrap; the mean's a normal approximation); a Mann-Whitney rank test.\n"
		"An object is slower (or faster) when the test's p-value, corrected for the\n"
		"objects tested (Holm), is under --alpha AND its p50 moved by --min-change\n"
		"at least, the interval away from 0; else no change. Under --min-count\n"
		"instances on a side: too few, no verdict. Objects of one side only are\n"
		"listed as such. Text output: the changes first (slower, then faster), then\n"
		"no change, too few, one side only (docs/compare.md).\n"
		"\n"
		"Several runs of each side: --base and --new, each a recording, as often as\n"
		"there are runs; a side's runs are pooled (their instances taken together),\n"
		"and with 2 runs or more on each side the runs' own p50s must differ too\n"
		"(Welch's t): two runs of one system differ by more than their instances say.\n"
		"\n"
		"  -a, --arch FILE     the named paths of an architecture file too\n"
		"  -k, --kinds LIST    compare only these: callbacks,topics,nodes,paths\n"
		"      --all           the tracer's own callbacks and the topics every node\n"
		"                      has (/parameter_events, /rosout, /clock) too\n"
		"  -f, --format F      text (default, microseconds), csv or json\n"
		"                      (nanoseconds, one row per object, with the settings)\n"
		"      --alpha A       significance after the correction (default 0.01)\n"
		"      --correction C  holm (default), bonferroni or none\n"
		"      --min-change C  the least change of the p50 that counts: P%% of the\n"
		"                      base's p50 and a duration, the larger: e.g. 10%%,500us\n"
		"                      (the default with one run a side; with 2 runs or more\n"
		"                      on each side, whose p50s are tested too, 5%%,50us);\n"
		"                      a part not given counts 0\n"
		"      --min-count N   fewer instances on a side: too few (default 10)\n"
		"      --replicates N  bootstrap replicates (default 2000)\n"
		"      --seed N        the bootstrap's seed (default 46): the same inputs\n"
		"                      and seed give the same intervals\n"
		"      --percentiles M linear (default) or nearest (nearest rank)\n"
		"      --fail-on RULE  exit 3 when RULE fires (repeatable): 'KIND:GLOB STAT\n"
		"                      CHANGE'; KIND callback|topic|node|path, GLOB a shell\n"
		"                      pattern of the names (* matches / and spaces), STAT\n"
		"                      count|mean|p50|p90|p99|max, CHANGE +N%% or -N%% of\n"
		"                      the base's STAT or +N<unit> (ns, us, ms, s; a count's\n"
		"                      +N): fires when NEW - BASE rises (+) or falls (-)\n"
		"                      past it on an object on both sides and, for mean and\n"
		"                      the percentiles, the 95%% interval excludes 0; e.g.\n"
		"                      'path:* p99 +10%%', 'callback:/planner/* mean +0.5ms'\n"
		"\n"
		"Exit status: 0, 3 when a --fail-on rule fired (each on stderr), 1 when a\n"
		"side cannot be read or the sides have no object in common, 2 usage.\n");
	fputs(CLI_LOAD_OPTIONS_HELP, out);
	return out == stdout ? 0 : 2;
}

struct compare_options {
	ca_load_options load;
	ca_cmp_gather_options gather;
	ca_cmp_settings settings;
	enum cli_format format;
	const char *base[MAX_RUNS], *new_[MAX_RUNS];
	size_t n_base, n_new;
	struct compare_rule rules[MAX_RULES];
	const char *rule_texts[MAX_RULES];
	size_t n_rules;
};

static int parse_kinds(const char *arg, unsigned *kinds)
{
	char list[256];
	snprintf(list, sizeof list, "%s", arg);
	*kinds = 0;
	for (char *save, *w = strtok_r(list, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		ca_cmp_kind k;
		if (!ca_cmp_kind_of_name(w, &k)) {
			fprintf(stderr, "caret compare: --kinds: '%s' is none of callbacks, topics, "
				"nodes, paths\n", CLI_NAME(w));
			return 2;
		}
		*kinds |= 1u << k;
	}
	if (!*kinds) {
		fprintf(stderr, "caret compare: --kinds: no kind given\n");
		return 2;
	}
	return 0;
}

/* "5%,20us", "10%", "50us" into the settings. */
static int parse_min_change(const char *arg, ca_cmp_settings *s)
{
	static const struct cli_number percent = { "--min-change's percentage", CLI_REAL, 0, 1000,
		false }, duration = { "--min-change's duration", CLI_DURATION, 0, 86400, false };
	char list[128];
	snprintf(list, sizeof list, "%s", arg);
	s->min_change_ratio = 0;
	s->min_change_ns = 0;
	int parts = 0;
	for (char *save, *w = strtok_r(list, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		size_t len = strlen(w);
		double v;
		parts++;
		if (len && w[len - 1] == '%') {
			w[len - 1] = 0;
			if (cli_number("compare", &percent, w, &v))
				return 2;
			s->min_change_ratio = v / 100;
		} else {
			if (cli_number("compare", &duration, w, &v))
				return 2;
			s->min_change_ns = (int64_t)(v * 1e9 + 0.5);
		}
	}
	s->runs_min_change_ratio = s->min_change_ratio;
	s->runs_min_change_ns = s->min_change_ns;
	if (!parts || parts > 2) {
		fprintf(stderr, "caret compare: --min-change '%s': a percentage and/or a duration, "
			"e.g. 5%%,20us\n", CLI_NAME(arg));
		return 2;
	}
	return 0;
}

static int parse_correction(const char *arg, ca_cmp_correction *c)
{
	if (!strcmp(arg, "holm"))
		*c = CA_CMP_HOLM;
	else if (!strcmp(arg, "bonferroni"))
		*c = CA_CMP_BONFERRONI;
	else if (!strcmp(arg, "none"))
		*c = CA_CMP_NONE;
	else {
		fprintf(stderr, "caret compare: --correction '%s': holm, bonferroni or none\n",
			CLI_NAME(arg));
		return 2;
	}
	return 0;
}

static int take_run(const char *which, const char **runs, size_t *n, const char *arg)
{
	if (*n == MAX_RUNS) {
		fprintf(stderr, "caret compare: more than %d %s recordings\n", MAX_RUNS, which);
		return 2;
	}
	runs[(*n)++] = arg;
	return 0;
}

/* A numeric option (option_number.c): 0, or 2. */
static int take_number(int c, const char *arg, ca_cmp_settings *s)
{
	static const struct cli_number alpha = { "--alpha", CLI_REAL, 0, 1, true },
		min_count = { "--min-count", CLI_COUNT, 2, 1e9, false },
		replicates = { "--replicates", CLI_COUNT, 100, 1e6, false },
		seed = { "--seed", CLI_COUNT, 0, CLI_NUMBER_MAX, false };
	const struct cli_number *n = c == 'A' ? &alpha : c == 'm' ? &min_count : c == 'R' ?
		&replicates : &seed;
	double v;
	if (cli_number("compare", n, arg, &v))
		return 2;
	if (c == 'A')
		s->alpha = v;
	else if (c == 'm')
		s->min_count = (size_t)v;
	else if (c == 'R')
		s->replicates = (size_t)v;
	else
		s->seed = (uint64_t)v;
	return 0;
}

static int take_option(int c, const char *arg, struct compare_options *o)
{
	switch (c) {
	case 'a': o->gather.arch_file = arg; return 0;
	case 'k': return parse_kinds(arg, &o->gather.kinds);
	case 'l': o->gather.all = true; return 0;
	case 'f': return cli_parse_format("compare", arg, &o->format) ? 2 : 0;
	case 'A': case 'm': case 'R': case 'S': return take_number(c, arg, &o->settings);
	case 'C': return parse_correction(arg, &o->settings.correction);
	case 'M': return parse_min_change(arg, &o->settings);
	case 'q': return cli_parse_percentiles("compare", arg, &o->settings.percentiles) ? 2 : 0;
	case 'b': return take_run("--base", o->base, &o->n_base, arg);
	case 'n': return take_run("--new", o->new_, &o->n_new, arg);
	case 'F':
		if (o->n_rules == MAX_RULES) {
			fprintf(stderr, "caret compare: more than %d --fail-on rules\n", MAX_RULES);
			return 2;
		}
		o->rule_texts[o->n_rules] = arg;
		return compare_rule_parse(arg, &o->rules[o->n_rules++]);
	default: return 2; /* getopt named it */
	}
}

/* The arguments into o: -1 to go on, else the exit status. */
static int parse(int argc, char **argv, struct compare_options *o)
{
	static const struct option opts[] = {
		{ "arch", required_argument, NULL, 'a' },
		{ "kinds", required_argument, NULL, 'k' },
		{ "all", no_argument, NULL, 'l' },
		{ "format", required_argument, NULL, 'f' },
		{ "alpha", required_argument, NULL, 'A' },
		{ "correction", required_argument, NULL, 'C' },
		{ "min-change", required_argument, NULL, 'M' },
		{ "min-count", required_argument, NULL, 'm' },
		{ "replicates", required_argument, NULL, 'R' },
		{ "seed", required_argument, NULL, 'S' },
		{ "percentiles", required_argument, NULL, 'q' },
		{ "base", required_argument, NULL, 'b' },
		{ "new", required_argument, NULL, 'n' },
		{ "fail-on", required_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	static char who[] = "caret compare"; /* getopt's messages name argv[0] */
	int c, status;
	argv[0] = who;
	optind = 1;
	while ((c = getopt_long(argc, argv, "a:k:f:h", opts, NULL)) != -1) {
		if (c == 'h')
			return usage(stdout);
		if ((status = take_option(c, optarg, o)) != 0)
			return status;
	}
	if (o->gather.kinds == 1u << CA_CMP_PATH && !o->gather.arch_file) {
		fprintf(stderr, "caret compare: --kinds paths: the paths compared are an architecture "
			"file's named paths: --arch FILE\n");
		return 2;
	}
	int rest = argc - optind;
	if (!o->n_base && !o->n_new && rest == 2) {
		o->base[o->n_base++] = argv[optind];
		o->new_[o->n_new++] = argv[optind + 1];
	} else if (rest || !o->n_base || !o->n_new) {
		fprintf(stderr, "caret compare: two recordings are needed, BASE NEW, or --base "
			"TRACE... and --new TRACE... (not both ways)\n");
		return 2;
	}
	return -1;
}

/* Every recording of one side read: 0, or 1 after a message. */
static int read_side(const struct compare_options *o, const char *which,
	const char *const *runs, size_t n, ca_cmp_side *side)
{
	char err[1024];
	for (size_t i = 0; i < n; i++)
		if (ca_cmp_side_load(side, &runs[i], 1, &o->load, &o->gather, err, sizeof err)) {
			fprintf(stderr, "caret compare: %s %s: %s\n", which, CLI_NAME(runs[i]), err);
			return 1;
		}
	const ca_cmp_object *objects;
	if (!ca_cmp_side_objects(side, &objects)) {
		fprintf(stderr, "caret compare: %s has no callback run, message or path instance to "
			"compare: was it recorded while the system ran (caret check %s)?\n", which,
			CLI_NAME(runs[0]));
		return 1;
	}
	return 0;
}

/* A named path of --arch that neither side could follow, said on stderr
 * (a node or topic of it in neither recording). */
static void note_paths_not_followed(const struct compare_options *o, ca_cmp_side *base,
	ca_cmp_side *new_)
{
	char **names, err[512];
	size_t n;
	if (!o->gather.arch_file || (o->gather.kinds && !(o->gather.kinds & 1u << CA_CMP_PATH)) ||
	    ca_arch_file_path_names(o->gather.arch_file, &names, &n, err, sizeof err) != 0)
		return;
	for (size_t i = 0; i < n; i++) {
		if (!ca_cmp_side_find(base, CA_CMP_PATH, names[i]) &&
		    !ca_cmp_side_find(new_, CA_CMP_PATH, names[i]))
			fprintf(stderr, "caret compare: note: the path %s of %s was followed in neither "
				"side (a node or topic of it not in the recordings: caret path latency "
				"--arch %s --path %s says which)\n", CLI_NAME(names[i]),
				CLI_NAME(o->gather.arch_file), CLI_NAME(o->gather.arch_file),
				CLI_NAME(names[i]));
		free(names[i]);
	}
	free(names);
}

/* Each row against every rule (each firing said on stderr): how many fired. */
static size_t fire_rules(const struct compare_options *o, const ca_cmp_result *r, bool *fired)
{
	const ca_cmp_row *rows;
	size_t n = ca_cmp_result_rows(r, &rows), count = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < o->n_rules; k++)
			if (compare_rule_fires(&o->rules[k], &rows[i], stderr)) {
				fired[i] = true;
				count++;
			}
	return count;
}

static int run(struct compare_options *o)
{
	ca_cmp_side *base = ca_cmp_side_new(), *new_ = ca_cmp_side_new();
	ca_cmp_result *r = NULL;
	bool *fired = NULL;
	int status = 1;
	char err[256];
	if (!base || !new_)
		fprintf(stderr, "caret compare: out of memory\n");
	else if (read_side(o, "BASE", o->base, o->n_base, base) ||
		 read_side(o, "NEW", o->new_, o->n_new, new_))
		; /* said */
	else if (!(r = ca_cmp_compare(base, new_, &o->settings, err, sizeof err)))
		fprintf(stderr, "caret compare: %s\n", err);
	else if (!ca_cmp_result_common(r)) {
		const ca_cmp_object *x;
		size_t a = ca_cmp_side_objects(base, &x), b = ca_cmp_side_objects(new_, &x);
		fprintf(stderr, "caret compare: BASE and NEW have no object in common (%zu and %zu "
			"objects): recordings of different systems, or of systems renamed\n", a, b);
	} else if (!(fired = calloc(ca_cmp_result_rows(r, &(const ca_cmp_row *){ 0 }) + 1,
			 sizeof *fired)))
		fprintf(stderr, "caret compare: out of memory\n");
	else {
		note_paths_not_followed(o, base, new_);
		size_t n_fired = fire_rules(o, r, fired);
		struct compare_header h = { base, new_, &o->settings, o->rule_texts, o->n_rules,
			fired };
		compare_write(stdout, o->format, &h, r);
		status = fflush(stdout) ? 1 : n_fired ? 3 : 0;
		if (n_fired)
			fprintf(stderr, "caret compare: %zu --fail-on firing%s\n", n_fired,
				n_fired == 1 ? "" : "s");
	}
	free(fired);
	ca_cmp_result_free(r);
	ca_cmp_side_free(base);
	ca_cmp_side_free(new_);
	return status;
}

int caret_cmd_compare(int argc, char **argv, const ca_load_options *load)
{
	static struct compare_options o; /* large: the rules */
	memset(&o, 0, sizeof o);
	o.load = *load;
	o.settings = ca_cmp_defaults();
	o.format = CLI_TEXT;
	int status = parse(argc, argv, &o);
	return status >= 0 ? status : run(&o);
}
