/*
 * tables_diff TRACE... - loads each trace through the native reader and
 * through libbabeltrace2 (ca_trace_load_with) and requires the same
 * tables: event, unknown and discarded counts, the discarded streams, the
 * clock's epoch offset, the processes and their names, and every table's
 * rows (time, vpid, vtid, every field; strings by their text; rows of one
 * timestamp in any order). Prints one line per trace; exit 1 on a
 * difference, 2 when a reader fails or hands the trace to the other.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ca.h"
#include "trace.h"

static char *row_text(const ca_trace *t, enum cs_event_id id, size_t r)
{
	const struct ca_table *tb = &t->tables[id];
	const struct cs_event *ev = &cs_events[id];
	char buf[16384];
	size_t n = (size_t)snprintf(buf, sizeof buf, "%020" PRIu64 " %d %d", tb->time[r],
		tb->vpid[r], tb->vtid[r]);
	for (size_t f = 0; f < ev->field_count && n < sizeof buf; f++) {
		uint64_t v = tb->field[f][r];
		if (ev->fields[f].type == CS_TYPE_STR) {
			const char *s = ca_trace_string(t, v);
			n += (size_t)snprintf(buf + n, sizeof buf - n, " \"%s\"", s ? s : "(none)");
		} else {
			n += (size_t)snprintf(buf + n, sizeof buf - n, " %" PRIu64, v);
		}
	}
	return strdup(buf);
}

static int by_text(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The rows as text, sorted (the time leads, so equal times group). */
static char **rows_of(const ca_trace *t, enum cs_event_id id)
{
	size_t n = t->tables[id].rows;
	char **v = malloc((n + 1) * sizeof *v);
	for (size_t r = 0; v && r < n; r++)
		v[r] = row_text(t, id, r);
	if (v && n > 1)
		qsort(v, n, sizeof *v, by_text);
	return v;
}

static int compare(const char *path, const ca_trace *a, const ca_trace *b)
{
	char why[20000] = "";
	if (a->events != b->events || a->unknown != b->unknown || a->discarded != b->discarded)
		snprintf(why, sizeof why, "events %" PRIu64 "/%" PRIu64 ", unknown %" PRIu64 "/%"
			PRIu64 ", discarded %" PRIu64 "/%" PRIu64, a->events, b->events, a->unknown,
			b->unknown, a->discarded, b->discarded);
	else if (a->epoch_offset != b->epoch_offset)
		snprintf(why, sizeof why, "epoch offset %" PRId64 " / %" PRId64, a->epoch_offset,
			b->epoch_offset);
	else if (a->n_discarded_streams != b->n_discarded_streams)
		snprintf(why, sizeof why, "%zu / %zu streams with discarded events",
			a->n_discarded_streams, b->n_discarded_streams);
	for (size_t i = 0; !why[0] && i < a->n_discarded_streams; i++) {
		uint64_t ca, cb;
		const char *na = ca_trace_discarded_stream(a, i, &ca);
		const char *nb = ca_trace_discarded_stream(b, i, &cb);
		if (strcmp(na, nb) || ca != cb)
			snprintf(why, sizeof why, "discarded stream %s %" PRIu64 " / %s %" PRIu64, na,
				ca, nb, cb);
	}
	if (!why[0] && a->n_pids != b->n_pids)
		snprintf(why, sizeof why, "%zu / %zu processes", a->n_pids, b->n_pids);
	for (size_t i = 0; !why[0] && i < a->n_pids; i++) {
		const struct ca_pid *p = &a->pids[i], *q = &b->pids[i];
		if (p->vpid != q->vpid || p->events != q->events ||
		    strcmp(ca_trace_string(a, p->procname), ca_trace_string(b, q->procname)) ||
		    p->first_time != q->first_time || p->last_time != q->last_time)
			snprintf(why, sizeof why, "process %d %s (%" PRIu64 " events) / %d %s (%" PRIu64
				")", p->vpid, ca_trace_string(a, p->procname), p->events, q->vpid,
				ca_trace_string(b, q->procname), q->events);
	}
	size_t rows = 0;
	for (int id = 0; !why[0] && id < CS_EVENT_COUNT; id++) {
		size_t n = a->tables[id].rows;
		rows += n;
		if (n != b->tables[id].rows) {
			snprintf(why, sizeof why, "%s:%s: %zu / %zu rows", cs_events[id].provider,
				cs_events[id].name, n, b->tables[id].rows);
			break;
		}
		char **ra = rows_of(a, (enum cs_event_id)id), **rb = rows_of(b, (enum cs_event_id)id);
		for (size_t r = 0; ra && rb && r < n && !why[0]; r++)
			if (strcmp(ra[r], rb[r]))
				snprintf(why, sizeof why, "%s:%s row %zu:\n  native:      %.4000s\n  "
					"babeltrace2: %.4000s", cs_events[id].provider, cs_events[id].name, r,
					ra[r], rb[r]);
		for (size_t r = 0; r < n; r++) {
			free(ra ? ra[r] : NULL);
			free(rb ? rb[r] : NULL);
		}
		free(ra);
		free(rb);
	}
	if (why[0]) {
		printf("FAIL %s: %s\n", path, why);
		return 1;
	}
	printf("ok %s: %" PRIu64 " events, %zu rows, %" PRIu64 " discarded, %zu processes: the "
		"same tables from both readers\n", path, a->events, rows, a->discarded, a->n_pids);
	return 0;
}

int main(int argc, char **argv)
{
	int status = 0;
	for (int i = 1; i < argc; i++) {
		char err[2048];
		const char *path = argv[i];
		ca_trace *a = ca_trace_load_with(&path, 1, CA_READER_NATIVE, err, sizeof err);
		if (!a || ca_trace_reader_note(a)) {
			fprintf(stderr, "%s: native: %s\n", path, a ? ca_trace_reader_note(a) : err);
			return 2;
		}
		ca_trace *b = ca_trace_load_with(&path, 1, CA_READER_BABELTRACE2, err, sizeof err);
		if (!b) {
			fprintf(stderr, "%s: babeltrace2: %s\n", path, err);
			return 2;
		}
		status |= compare(path, a, b);
		ca_trace_free(a);
		ca_trace_free(b);
	}
	return status;
}
