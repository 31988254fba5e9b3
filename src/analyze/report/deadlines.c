/*
 * deadlines.c - the architecture file's requirements as the report draws
 * them: which one a path or callback has, and the data of its deadline
 * (a line on the timeline, a marker on the histogram, the instances over
 * it counted; web/page/deadline.js draws them).
 */
#include <string.h>

#include "json.h"
#include "report.h"

const ca_requirement *report_requirement(const struct report *r, ca_requirement_object object,
	const char *name)
{
	for (size_t i = 0; i < r->n_requirements; i++)
		if (r->requirements[i].object == object && !strcmp(r->requirements[i].name, name))
			return &r->requirements[i];
	return NULL;
}

void report_deadline_data(FILE *d, const char *metric, int64_t deadline_ns, size_t misses)
{
	if (deadline_ns <= 0)
		return;
	fputs(",\"dl\":{\"m\":", d);
	json_string(d, metric);
	fputs(",\"v\":", d);
	json_us(d, deadline_ns);
	fprintf(d, ",\"n\":%zu}", misses);
}
