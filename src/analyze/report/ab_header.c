/*
 * ab_header.c - the A/B page's header: each side's recordings (the paths
 * given, when each was recorded, its duration, ROS 2 distribution, rmw,
 * events and processes), how many objects were compared and their
 * verdicts, and how the verdicts were reached (the compare core's
 * settings).
 */
#include <inttypes.h>
#include <time.h>

#include "ab_report.h"
#include "plural.h"
#include "report.h"

static void when(FILE *out, const struct ab_recording *r)
{
	if (!r->epoch_offset) {
		fputs("<span class='muted'>unknown (no clock offset)</span>", out);
		return;
	}
	time_t at = (time_t)(((int64_t)r->first + r->epoch_offset) / 1000000000);
	struct tm tm;
	char text[64];
	gmtime_r(&at, &tm);
	strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S UTC", &tm);
	fputs(text, out);
}

/* A row of the facts: a cell per side, a line per recording. */
enum fact { FACT_LABEL, FACT_WHEN, FACT_DURATION, FACT_ROS, FACT_RMW, FACT_EVENTS };

static void fact_row(FILE *out, const struct report_ab *ab, const char *title, enum fact f)
{
	fprintf(out, "<tr><th>%s</th>", title);
	for (int s = 0; s < 2; s++) {
		fputs("<td>", out);
		for (size_t i = 0; i < ab->n_recordings[s]; i++) {
			const struct ab_recording *r = &ab->recordings[s][i];
			fputs(i ? "<br>" : "", out);
			if (f == FACT_LABEL)
				report_text(out, r->label);
			else if (f == FACT_WHEN)
				when(out, r);
			else if (f == FACT_DURATION)
				fprintf(out, "%.3f s", (double)(r->last - r->first) / 1e9);
			else if (f == FACT_ROS || f == FACT_RMW) {
				const char *v = f == FACT_ROS ? r->distributions : r->rmw;
				if (v)
					report_text(out, v);
				else
					fputs("<span class='muted'>not recorded</span>", out);
			} else
				fprintf(out, "%" PRIu64 " in %zu %s%s", r->events, r->processes,
					caret_plural(r->processes, "process", "processes"),
					r->discarded ? " <b class='error'>(events discarded)</b>" : "");
		}
		fputs("</td>", out);
	}
	fputs("</tr>", out);
}

void report_ab_header(FILE *out, const struct report_ab *ab, const ca_cmp_row *rows,
	size_t n_rows)
{
	size_t count[CA_CMP_NEW_ONLY + 1] = { 0 };
	for (size_t i = 0; i < n_rows; i++)
		count[rows[i].verdict]++;
	fputs("<header><h1>caret report <span class='muted'>A/B: base → new</span></h1>"
		"<table class='facts ab'><thead><tr><th></th><th><i class='side s0'></i>base</th>"
		"<th><i class='side s1'></i>new</th></tr></thead><tbody>", out);
	fact_row(out, ab, "recordings", FACT_LABEL);
	fact_row(out, ab, "recorded", FACT_WHEN);
	fact_row(out, ab, "duration", FACT_DURATION);
	fact_row(out, ab, "ROS 2", FACT_ROS);
	fact_row(out, ab, "rmw", FACT_RMW);
	fact_row(out, ab, "events", FACT_EVENTS);
	size_t common = ca_cmp_result_common(ab->result);
	fprintf(out, "<tr><th>compared</th><td colspan='2'>%zu %s on both sides: <b class='bad'>%zu "
		"slower</b>, <b class='good'>%zu faster</b>, %zu no change, %zu too few to tell; %zu "
		"only in base, %zu only in new</td></tr>", common,
		caret_plural(common, "object", "objects"), count[CA_CMP_SLOWER], count[CA_CMP_FASTER],
		count[CA_CMP_NO_CHANGE], count[CA_CMP_TOO_FEW], count[CA_CMP_BASE_ONLY],
		count[CA_CMP_NEW_ONLY]);
	const ca_cmp_settings *s = ab->settings;
	size_t tests = ca_cmp_result_tests(ab->result);
	bool runs = ab->n_recordings[0] > 1 && ab->n_recordings[1] > 1;
	fprintf(out, "<tr><th>how</th><td colspan='2'>a Mann–Whitney U test per object, "
		"two-sided, significant at α = %g %s over %zu %s", s->alpha,
		s->correction == CA_CMP_HOLM ? "after Holm's correction" :
		s->correction == CA_CMP_BONFERRONI ? "after Bonferroni's correction" :
		"(no correction)", tests, caret_plural(tests, "test", "tests"));
	if (runs)
		fprintf(out, ", and with runs on both sides Welch's t on the runs' p50s, corrected "
			"the same; a change under max(%g %% of the base p50, %.3f ms) is no change",
			s->runs_min_change_ratio * 100, (double)s->runs_min_change_ns / 1e6);
	else
		fprintf(out, "; a change under max(%g %% of the base p50, %.3f ms) is no change",
			s->min_change_ratio * 100, (double)s->min_change_ns / 1e6);
	fprintf(out, "; fewer than %zu instances on a side is too few; differences new − base "
		"with %g %% bootstrap intervals (%zu resamples, seed %" PRIu64 ")%s (docs/compare.md)"
		"</td></tr></tbody></table></header>", s->min_count, s->confidence * 100,
		s->replicates, s->seed, ab->arch_file ? "" :
		"; no path (no architecture file: --arch FILE)");
}
