/*
 * ab_recording.c - what the A/B page's header says of a recording, taken
 * from its trace while it is open (the page is written after every trace
 * is gathered and closed).
 */
#include <stdlib.h>
#include <string.h>

#include "ab_report.h"
#include "report.h"
#include "model.h"
#include "trace.h"

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
	rec->distributions = report_process_values(a, false);
	rec->rmw = report_process_values(a, true);
	return true;
}

void report_ab_recording_free(struct ab_recording *rec)
{
	free(rec->label);
	free(rec->distributions);
	free(rec->rmw);
	*rec = (struct ab_recording){ 0 };
}
