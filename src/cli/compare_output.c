/*
 * compare_output.c - caret compare's result in text, CSV or JSON
 * (compare_output.h). Text in microseconds, CSV and JSON in nanoseconds.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "compare_output.h"

static const char *correction_name(ca_cmp_correction c)
{
	return c == CA_CMP_HOLM ? "holm" : c == CA_CMP_BONFERRONI ? "bonferroni" : "none";
}

static const char *const diff_names[CA_CMP_DIFFS] = { "mean", "p50", "p90", "p99" };

/* ---- text ------------------------------------------------------------------ */

static void text_sides(FILE *out, const char *what, const ca_cmp_side *side)
{
	size_t n = ca_cmp_side_traces(side);
	fprintf(out, "%s:", what);
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%s %s", i ? "," : "", CLI_NAME(ca_cmp_side_trace(side, i, NULL, NULL)));
	fprintf(out, n > 1 ? " (%zu runs, pooled)\n" : "\n", n);
}

/* "+1002.3 [+998.1, +1005.9]" in µs; "-" without a value. */
static const char *text_diff(char *buf, size_t size, const ca_cmp_diff *d)
{
	if (isnan(d->value))
		snprintf(buf, size, "-");
	else if (d->has_ci)
		snprintf(buf, size, "%+.1f [%+.1f, %+.1f]", d->value / 1e3, d->low / 1e3,
			d->high / 1e3);
	else
		snprintf(buf, size, "%+.1f", d->value / 1e3);
	return buf;
}

/* A side's p50 in µs; "-" when the side has no instance. */
static const char *text_p50(char *buf, size_t size, const ca_stats *s)
{
	if (s->count)
		snprintf(buf, size, "%.1f", s->p50 / 1e3);
	else
		snprintf(buf, size, "-");
	return buf;
}

static void text_row(FILE *out, const ca_cmp_row *r, bool fired, bool runs)
{
	char p50[96], p99[96], mean[96], p[32] = "-", a[32], b[32];
	if (!isnan(r->p_adjusted))
		snprintf(p, sizeof p, "%.2g", r->p_adjusted);
	char name[1100];
	snprintf(name, sizeof name, "%s %s", ca_cmp_kind_name(r->kind), CLI_NAME(r->name));
	fprintf(out, "%-11s%s %-56s %7" PRIu64 " %7" PRIu64 " %9s %9s  %-30s %-30s %-30s %s\n",
		ca_cmp_verdict_name(r->verdict), fired ? "!" : " ", name, r->stats[0].count,
		r->stats[1].count, text_p50(a, sizeof a, &r->stats[0]),
		text_p50(b, sizeof b, &r->stats[1]),
		text_diff(p50, sizeof p50, &r->diff[CA_CMP_P50]),
		text_diff(p99, sizeof p99, &r->diff[CA_CMP_P99]),
		text_diff(mean, sizeof mean, &r->diff[CA_CMP_MEAN]), p);
	if (runs) { /* the runs' own test, after the rank test's p */
		char d[96], q[32] = "-";
		if (!isnan(r->run_p_adjusted))
			snprintf(q, sizeof q, "%.2g", r->run_p_adjusted);
		fprintf(out, "%*s runs %zu/%zu: %s p_adj %s\n", 11, "", r->runs[0], r->runs[1],
			text_diff(d, sizeof d, &r->run_diff), q);
	}
}

static void write_text(FILE *out, const struct compare_header *h, const ca_cmp_result *res)
{
	const ca_cmp_settings *s = h->settings;
	const ca_cmp_row *rows;
	size_t n = ca_cmp_result_rows(res, &rows), counts[CA_CMP_NEW_ONLY + 1] = { 0 };
	for (size_t i = 0; i < n; i++)
		counts[rows[i].verdict]++;
	text_sides(out, "base", h->base);
	text_sides(out, "new", h->new_);
	fprintf(out, "%zu slower, %zu faster, %zu no change, %zu too few (under %zu instances on "
		"a side), %zu base only, %zu new only\n", counts[CA_CMP_SLOWER], counts[CA_CMP_FASTER],
		counts[CA_CMP_NO_CHANGE], counts[CA_CMP_TOO_FEW], s->min_count,
		counts[CA_CMP_BASE_ONLY], counts[CA_CMP_NEW_ONLY]);
	fprintf(out, "a change: Mann-Whitney p < %g after the %s correction over %zu tests, and "
		"the p50 moved by %g%% of the base's p50 and %.1f us at least, its %.0f%% interval "
		"away from 0 (%zu bootstrap replicates, seed %" PRIu64 ")", s->alpha,
		correction_name(s->correction), ca_cmp_result_tests(res), s->min_change_ratio * 100,
		(double)s->min_change_ns / 1e3, s->confidence * 100, s->replicates, s->seed);
	if (ca_cmp_side_traces(h->base) > 1 && ca_cmp_side_traces(h->new_) > 1)
		fprintf(out, "; with 2 runs or more a side, %g%% and %.1f us, and the runs' p50s "
			"tested too (Welch's t, p < %g after the correction; each object's second line: "
			"the runs of %zu/%zu counted, the change of their p50s' mean us [95%% CI])",
			s->runs_min_change_ratio * 100, (double)s->runs_min_change_ns / 1e3, s->alpha,
			ca_cmp_side_traces(h->base), ca_cmp_side_traces(h->new_));
	fputs("\n\n", out);
	fprintf(out, "%-12s %-56s %7s %7s %9s %9s  %-30s %-30s %-30s %s\n", "verdict", "object",
		"n_base", "n_new", "p50_base", "p50_new", "p50 change us [95% CI]",
		"p99 change us [95% CI]", "mean change us [95% CI]", "p_adj");
	bool runs = ca_cmp_side_traces(h->base) > 1 && ca_cmp_side_traces(h->new_) > 1;
	for (size_t i = 0; i < n; i++)
		text_row(out, &rows[i], h->fired && h->fired[i], runs && rows[i].base &&
			rows[i].new_);
}

/* ---- CSV --------------------------------------------------------------------- */

static void csv_number(FILE *out, double v)
{
	char buf[32];
	fprintf(out, ",%s", cli_cell(CLI_CSV, buf, -1, v));
}

static void csv_stats(FILE *out, const ca_cmp_object *o, const ca_stats *s)
{
	fprintf(out, ",%" PRIu64, s->count);
	if (!o || !s->count) {
		fputs(",,,,,,", out);
		return;
	}
	fprintf(out, ",%" PRId64, s->min);
	csv_number(out, s->mean);
	csv_number(out, s->p50);
	csv_number(out, s->p90);
	csv_number(out, s->p99);
	fprintf(out, ",%" PRId64, s->max);
}

static void csv_quoted(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++)
		fputs(*s == '"' ? "\"\"" : (char[2]){ *s, 0 }, out);
	fputc('"', out);
}

static void write_csv(FILE *out, const struct compare_header *h, const ca_cmp_result *res)
{
	const ca_cmp_row *rows;
	size_t n = ca_cmp_result_rows(res, &rows);
	fputs("verdict,kind,name", out);
	for (int side = 0; side < 2; side++)
		fprintf(out, ",%1$s_count,%1$s_min_ns,%1$s_mean_ns,%1$s_p50_ns,%1$s_p90_ns,"
			"%1$s_p99_ns,%1$s_max_ns", side ? "new" : "base");
	for (int k = 0; k < CA_CMP_DIFFS; k++)
		fprintf(out, ",d_%1$s_ns,d_%1$s_low_ns,d_%1$s_high_ns", diff_names[k]);
	fputs(",u,prob_slower,z,p,p_adjusted,threshold_ns,base_runs,new_runs,d_run_p50_ns,"
		"d_run_p50_low_ns,d_run_p50_high_ns,run_p,run_p_adjusted,fired\n", out);
	for (size_t i = 0; i < n; i++) {
		const ca_cmp_row *r = &rows[i];
		fprintf(out, "%s,%s,", ca_cmp_verdict_name(r->verdict), ca_cmp_kind_name(r->kind));
		csv_quoted(out, r->name);
		csv_stats(out, r->base, &r->stats[0]);
		csv_stats(out, r->new_, &r->stats[1]);
		for (int k = 0; k < CA_CMP_DIFFS; k++) {
			csv_number(out, r->diff[k].value);
			csv_number(out, r->diff[k].low);
			csv_number(out, r->diff[k].high);
		}
		csv_number(out, r->u);
		csv_number(out, r->prob_slower);
		csv_number(out, r->z);
		csv_number(out, r->p);
		csv_number(out, r->p_adjusted);
		csv_number(out, r->threshold);
		fprintf(out, ",%zu,%zu", r->runs[0], r->runs[1]);
		csv_number(out, r->run_diff.value);
		csv_number(out, r->run_diff.low);
		csv_number(out, r->run_diff.high);
		csv_number(out, r->run_p);
		csv_number(out, r->run_p_adjusted);
		fprintf(out, ",%d\n", h->fired && h->fired[i]);
	}
}

/* ---- JSON -------------------------------------------------------------------- */

static void json_number(FILE *out, const char *key, double v)
{
	char buf[32];
	fprintf(out, ", \"%s\": %s", key, cli_cell(CLI_JSON, buf, -1, v));
}

static void json_side(FILE *out, const char *key, const ca_cmp_side *side)
{
	fprintf(out, "\"%s\": [", key);
	for (size_t i = 0; i < ca_cmp_side_traces(side); i++) {
		fputs(i ? ", " : "", out);
		cli_json_string(out, ca_cmp_side_trace(side, i, NULL, NULL));
	}
	fputs("]", out);
}

static void json_stats(FILE *out, const char *key, const ca_cmp_object *o, const ca_stats *s)
{
	fprintf(out, ", \"%s\": ", key);
	if (!o) {
		fputs("null", out);
		return;
	}
	fprintf(out, "{\"count\": %" PRIu64, s->count);
	if (s->count) {
		fprintf(out, ", \"min_ns\": %" PRId64, s->min);
		json_number(out, "mean_ns", s->mean);
		json_number(out, "p50_ns", s->p50);
		json_number(out, "p90_ns", s->p90);
		json_number(out, "p99_ns", s->p99);
		fprintf(out, ", \"max_ns\": %" PRId64, s->max);
	}
	fputs("}", out);
}

static void json_row(FILE *out, const ca_cmp_row *r, bool fired)
{
	fprintf(out, "{\"verdict\": \"%s\", \"kind\": \"%s\", \"name\": ",
		ca_cmp_verdict_name(r->verdict), ca_cmp_kind_name(r->kind));
	cli_json_string(out, r->name);
	json_stats(out, "base", r->base, &r->stats[0]);
	json_stats(out, "new", r->new_, &r->stats[1]);
	fputs(", \"change\": {", out);
	for (int k = 0; k < CA_CMP_DIFFS; k++) {
		char b[3][32];
		fprintf(out, "%s\"%s\": {\"ns\": %s, \"low_ns\": %s, \"high_ns\": %s}", k ? ", " : "",
			diff_names[k], cli_cell(CLI_JSON, b[0], -1, r->diff[k].value),
			cli_cell(CLI_JSON, b[1], -1, r->diff[k].low),
			cli_cell(CLI_JSON, b[2], -1, r->diff[k].high));
	}
	fputs("}", out);
	json_number(out, "u", r->u);
	json_number(out, "prob_slower", r->prob_slower);
	json_number(out, "z", r->z);
	json_number(out, "p", r->p);
	json_number(out, "p_adjusted", r->p_adjusted);
	json_number(out, "threshold_ns", r->threshold);
	char b[3][32];
	fprintf(out, ", \"runs\": [%zu, %zu], \"run_p50_change\": {\"ns\": %s, \"low_ns\": %s, "
		"\"high_ns\": %s}", r->runs[0], r->runs[1], cli_cell(CLI_JSON, b[0], -1,
		r->run_diff.value), cli_cell(CLI_JSON, b[1], -1, r->run_diff.low),
		cli_cell(CLI_JSON, b[2], -1, r->run_diff.high));
	json_number(out, "run_p", r->run_p);
	json_number(out, "run_p_adjusted", r->run_p_adjusted);
	fprintf(out, ", \"fired\": %s}", fired ? "true" : "false");
}

static void write_json(FILE *out, const struct compare_header *h, const ca_cmp_result *res)
{
	const ca_cmp_settings *s = h->settings;
	const ca_cmp_row *rows;
	size_t n = ca_cmp_result_rows(res, &rows);
	fputs("{", out);
	json_side(out, "base", h->base);
	fputs(", ", out);
	json_side(out, "new", h->new_);
	fprintf(out, ", \"settings\": {\"alpha\": %g, \"correction\": \"%s\", \"tests\": %zu, "
		"\"min_change_ratio\": %g, \"min_change_ns\": %" PRId64 ", "
		"\"runs_min_change_ratio\": %g, \"runs_min_change_ns\": %" PRId64 ", \"min_count\": %zu, "
		"\"replicates\": %zu, \"confidence\": %g, \"seed\": %" PRIu64 ", \"percentiles\": "
		"\"%s\", \"fail_on\": [", s->alpha, correction_name(s->correction),
		ca_cmp_result_tests(res), s->min_change_ratio, s->min_change_ns,
		s->runs_min_change_ratio, s->runs_min_change_ns, s->min_count,
		s->replicates, s->confidence, s->seed,
		s->percentiles == CA_PERCENTILE_LINEAR ? "linear" : "nearest");
	for (size_t i = 0; i < h->n_rules; i++) {
		fputs(i ? ", " : "", out);
		cli_json_string(out, h->rules[i]);
	}
	fputs("]}, \"rows\": [", out);
	for (size_t i = 0; i < n; i++) {
		fputs(i ? ",\n  " : "\n  ", out);
		json_row(out, &rows[i], h->fired && h->fired[i]);
	}
	fputs("]}\n", out);
}

void compare_write(FILE *out, enum cli_format f, const struct compare_header *h,
	const ca_cmp_result *r)
{
	if (f == CLI_TEXT) {
		write_text(out, h, r);
	} else if (f == CLI_CSV) { /* the folders on stderr: the CSV stays one table */
		fputs("caret compare: ", stderr);
		text_sides(stderr, "base", h->base);
		fputs("caret compare: ", stderr);
		text_sides(stderr, "new", h->new_);
		write_csv(out, h, r);
	} else {
		write_json(out, h, r);
	}
}
