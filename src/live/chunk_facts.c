/* chunk_facts.c - a chunk read on its own as it comes (state.h). */
#include <stdio.h>
#include <string.h>

#include "schema.h"
#include "state.h"

bool live_chunk_examine(const char *chunk, struct live_chunk_facts *f, char *why,
	size_t why_size)
{
	memset(f, 0, sizeof *f);
	ca_load_options lo = ca_load_defaults();
	lo.keep_runtime = true; /* one pass: a chunk is small */
	const char *paths[] = { chunk };
	ca_trace *t;
	caret_error *err;
	caret_status status = ca_trace_open(paths, 1, &lo, &t, &err);
	if (status == CARET_ERR_EMPTY) { /* a chunk closed while no traced process wrote */
		caret_error_free(err);
		return true;
	}
	if (status != CARET_OK) {
		snprintf(why, why_size, "%s", caret_error_message(err));
		caret_error_free(err);
		return false;
	}
	f->has_events = true;
	for (size_t i = 0; i < CS_EVENT_COUNT && !f->has_init; i++)
		f->has_init = !cs_role_is_runtime(cs_events[i].role) &&
			ca_trace_rows(t, cs_events[i].full_name);
	ca_trace_read_span(t, &f->first, &f->last);
	ca_trace_free(t);
	return true;
}
