/*
 * ab_recording.c - what the A/B page's header says of a recording, taken
 * from its trace while it is open (the page is written after every trace
 * is gathered and closed).
 */
#define _GNU_SOURCE /* open_memstream */
#include <stdlib.h>
#include <string.h>

#include "ab_report.h"
#include "model.h"
#include "trace.h"

/* The distinct values of a process field, ", "-joined, or NULL. */
static char *distinct(const ca_architecture *a, bool rmw)
{
	char *text = NULL;
	size_t size = 0, shown = 0;
	FILE *out = open_memstream(&text, &size);
	if (!out)
		return NULL;
	for (size_t i = 0; i < a->n_processes; i++) {
		const char *v = rmw ? a->processes[i].rmw_implementation :
			a->processes[i].distribution;
		bool seen = !v;
		for (size_t j = 0; j < i && !seen; j++) {
			const char *w = rmw ? a->processes[j].rmw_implementation :
				a->processes[j].distribution;
			seen = w && !strcmp(v, w);
		}
		if (!seen)
			fprintf(out, "%s%s", shown++ ? ", " : "", v);
	}
	if (fclose(out) != 0 || !shown) {
		free(text);
		return NULL;
	}
	return text;
}

bool report_ab_recording(const ca_trace *t, const char *const *paths, size_t n_paths,
	struct ab_recording *rec)
{
	const ca_architecture *a = ca_trace_architecture(t);
	*rec = (struct ab_recording){ .epoch_offset = t->epoch_offset,
		.events = ca_trace_event_count(t), .discarded = ca_trace_discarded(t),
		.processes = a->n_processes };
	ca_model_time_span(t, &rec->first, &rec->last);
	size_t size = 1;
	for (size_t i = 0; i < n_paths; i++)
		size += strlen(paths[i]) + 2;
	if (!(rec->label = malloc(size)))
		return false;
	rec->label[0] = 0;
	for (size_t i = 0; i < n_paths; i++) {
		if (i)
			strcat(rec->label, ", ");
		strcat(rec->label, paths[i]);
	}
	rec->distributions = distinct(a, false);
	rec->rmw = distinct(a, true);
	return true;
}

void report_ab_recording_free(struct ab_recording *rec)
{
	free(rec->label);
	free(rec->distributions);
	free(rec->rmw);
	*rec = (struct ab_recording){ 0 };
}
