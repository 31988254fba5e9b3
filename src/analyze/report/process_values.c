/*
 * process_values.c - the distinct ROS 2 distributions or rmw
 * implementations of a trace's processes, which both report headers (the
 * single page's, the A/B page's) say.
 */
#define _GNU_SOURCE /* open_memstream */
#include <stdlib.h>
#include <string.h>

#include "report.h"

char *report_process_values(const ca_architecture *a, bool rmw)
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
