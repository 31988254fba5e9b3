/*
 * report_ab.c - see report_ab.h. Each recording is loaded, its objects
 * gathered into its side and the facts the page's header says taken, then
 * closed, so that only one trace is open at a time.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ab_report.h"
#include "cli_util.h"
#include "compare.h"
#include "report_ab.h"

/* Reads side s's recordings into side, their facts into recs; 0, or 1
 * after a message. */
static int gather(struct report_ab_request *q, int s, ca_cmp_side *side,
	struct ab_recording *recs)
{
	ca_cmp_gather_options g = { .arch_file = q->arch, .all = q->all };
	for (size_t i = 0; i < q->side[s].n; i++) {
		char err[1024];
		ca_load_options load = q->load;
		load.keep_runtime = !cli_lean();
		ca_trace *t = cli_load("report", q->side[s].paths[i], (int)q->side[s].n_paths[i], &load);
		if (!t)
			return 1;
		bool ok = report_ab_recording(t, (const char *const *)q->side[s].paths[i],
			q->side[s].n_paths[i], &recs[i]);
		int status = ok ? ca_cmp_side_gather(side, t, recs[i].label, &g, err, sizeof err) : -1;
		ca_trace_free(t);
		if (!ok || status != 0) {
			fprintf(stderr, "caret report: %s\n", ok ? err : "out of memory");
			return 1;
		}
	}
	return 0;
}

/* A named path of --arch that neither side followed, said on stderr as
 * on the page (the rest compared). */
static void note_paths_not_followed(const struct report_ab_request *q, ca_cmp_side *sides[2])
{
	char **names, err[512];
	size_t n;
	if (!q->arch || ca_arch_file_path_names(q->arch, &names, &n, err, sizeof err) != 0)
		return;
	for (size_t i = 0; i < n; i++) {
		if (!ca_cmp_side_find(sides[0], CA_CMP_PATH, names[i]) &&
		    !ca_cmp_side_find(sides[1], CA_CMP_PATH, names[i]))
			fprintf(stderr, "caret report: note: the path %s of %s was followed in neither "
				"recording (a node or topic of it not in them: caret path latency --arch "
				"%s --path %s says which)\n", CLI_NAME(names[i]), CLI_NAME(q->arch),
				CLI_NAME(q->arch), CLI_NAME(names[i]));
		free(names[i]);
	}
	free(names);
}

static int write_page(const struct report_ab_request *q, const struct report_ab *ab)
{
	char err[1024];
	FILE *out = fopen(q->output, "w");
	if (!out) {
		fprintf(stderr, "caret report: cannot write %s: %s\n", q->output, strerror(errno));
		return 1;
	}
	int written = report_ab_write(ab, out, err, sizeof err);
	if (written < 0)
		fprintf(stderr, "caret report: %s\n", err);
	if (fclose(out) != 0 && written == 0) {
		fprintf(stderr, "caret report: cannot write %s: %s\n", q->output, strerror(errno));
		written = -1;
	}
	if (written < 0) {
		remove(q->output);
		return 1;
	}
	return 0;
}

int cli_report_ab(struct report_ab_request *q)
{
	char err[1024];
	ca_cmp_side *sides[2] = { ca_cmp_side_new(), ca_cmp_side_new() };
	struct ab_recording *recs[2] = { calloc(q->side[0].n + 1, sizeof *recs[0]),
		calloc(q->side[1].n + 1, sizeof *recs[1]) };
	ca_cmp_result *result = NULL;
	ca_cmp_settings settings = ca_cmp_defaults();
	int status = 1;
	if (!sides[0] || !sides[1] || !recs[0] || !recs[1]) {
		fprintf(stderr, "caret report: out of memory\n");
		goto out;
	}
	if (gather(q, 0, sides[0], recs[0]) != 0 || gather(q, 1, sides[1], recs[1]) != 0)
		goto out;
	if (!(result = ca_cmp_compare(sides[0], sides[1], &settings, err, sizeof err))) {
		fprintf(stderr, "caret report: %s\n", err);
		goto out;
	}
	if (!ca_cmp_result_common(result)) {
		fprintf(stderr, "caret report: the base and the new recordings have no callback, "
			"topic, node path or path in common (recordings of different systems?)\n");
		goto out;
	}
	struct report_ab ab = { .result = result, .settings = &settings,
		.side = { sides[0], sides[1] }, .recordings = { recs[0], recs[1] },
		.n_recordings = { q->side[0].n, q->side[1].n }, .arch_file = q->arch };
	note_paths_not_followed(q, sides);
	status = write_page(q, &ab);
	if (!status) {
		printf("trace: ");
		for (int s = 0; s < 2; s++)
			for (size_t i = 0; i < q->side[s].n; i++)
				printf("%s%s", s || i ? ", " : "", recs[s][i].label);
		printf("\n%s\n", q->output);
	}
out:
	ca_cmp_result_free(result);
	for (int s = 0; s < 2; s++) {
		for (size_t i = 0; recs[s] && i < q->side[s].n; i++)
			report_ab_recording_free(&recs[s][i]);
		free(recs[s]);
		ca_cmp_side_free(sides[s]);
	}
	return status;
}
