/* summary_original.c - see summary_original.h. */
#include "summary_original.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ctf_native.h"
#include "ros2caret_out.h"
#include "schema.h"

/* The trace clock's offset from the epoch as the CTF metadata of the first
 * recording's first trace says it (what babeltrace2, so the original, adds
 * to every time); false when it cannot be read. */
static bool epoch_offset(const ca_trace *t, int64_t *offset)
{
	const char *recording = ca_trace_recording(t, 0);
	char **dirs = NULL, err[512];
	size_t n = 0, size = 0;
	bool cut, found = false;
	if (!recording || ctf_list_traces(recording, &dirs, &n, err, sizeof err) != CARET_OK)
		return false;
	char *text = n ? ctf_metadata_read(dirs[0], &size, err, sizeof err) : NULL;
	struct ctf_meta *m = text ? ctf_tsdl_parse(text, size, err, sizeof err, &cut) : NULL;
	if (m) {
		*offset = m->clock_offset_ns;
		found = true;
	}
	ctf_meta_free(m);
	free(text);
	ctf_free_dirs(dirs, n);
	return found;
}

/* The first and last event of the whole trace, every event read or not
 * (the window aside), as the original bounds it: the latest first event of
 * the recordings and the earliest last; false when unknown. */
static bool trace_span(const ca_trace *t, uint64_t *first, uint64_t *last)
{
	char err[512];
	*first = 0;
	*last = UINT64_MAX;
	for (size_t i = 0; i < ca_trace_recording_count(t); i++) {
		uint64_t f, l;
		if (ctf_native_bounds(ca_trace_recording(t, i), &f, &l, err, sizeof err) !=
		    CARET_OK || (!f && !l))
			return false;
		*first = f > *first ? f : *first;
		*last = l < *last ? l : *last;
	}
	return ca_trace_recording_count(t) && *first <= *last;
}

/* The callback runs' first start and last end (the original's filtered
 * range); false when no run. */
static bool runs_span(const ca_trace *t, uint64_t *first, uint64_t *last)
{
	char err[256];
	ca_records *r = ca_records_build(t, err, sizeof err);
	const ca_callback_instance *runs;
	size_t n = r ? ca_records_callbacks(r, &runs) : 0;
	*first = UINT64_MAX;
	*last = 0;
	for (size_t i = 0; i < n; i++) {
		*first = runs[i].start < *first ? runs[i].start : *first;
		*last = runs[i].end > *last ? runs[i].end : *last;
	}
	ca_records_free(r);
	return n && *first <= *last;
}

/* The local time of ns since the epoch, with its date or not. */
static const char *local(char buf[32], int64_t ns, bool date)
{
	time_t s = (time_t)(ns / 1000000000);
	struct tm tm;
	localtime_r(&s, &tm);
	if (date)
		strftime(buf, 32, "%Y-%m-%d %H:%M:%S", &tm);
	else
		strftime(buf, 32, "%H:%M:%S", &tm);
	return buf;
}

/* A duration as Python's str(timedelta) without its microseconds. */
static const char *duration(char buf[48], int64_t from_ns, int64_t to_ns)
{
	int64_t s = (to_ns / 1000 - from_ns / 1000) / 1000000, days = s / 86400;
	int n = days ? snprintf(buf, 48, "%" PRId64 " day%s, ", days, days == 1 ? "" : "s") : 0;
	s %= 86400;
	snprintf(buf + n, (size_t)(48 - n), "%d:%02d:%02d", (int)(s / 3600), (int)(s / 60 % 60),
		(int)(s % 60));
	return buf;
}

/* "<range> | 13:44:38 ~ 13:44:44" and "<duration> | 0:00:06" */
static void print_range(const char *range, const char *length, int64_t offset, uint64_t first,
	uint64_t last)
{
	char a[32], b[32], d[48];
	printf("%-23s | %s ~ %s\n", range, local(a, (int64_t)first + offset, false),
		local(b, (int64_t)last + offset, false));
	printf("%-23s | %s\n", length, duration(d, (int64_t)first + offset,
		(int64_t)last + offset));
}

/* The header: the trace's creation date, range and duration (the whole
 * trace's), and with a window the range of the runs it kept. */
static void print_header(const char *verb, const ca_trace *t, bool filtered)
{
	static const char rule[] = "=============================================\n";
	int64_t offset;
	uint64_t first, last;
	char date[32];
	printf("%s", rule);
	if (!epoch_offset(t, &offset) || !trace_span(t, &first, &last))
		fprintf(stderr, "caret %s: the trace's dates are unknown: its clock's offset from the "
			"epoch cannot be read\n", verb);
	else {
		printf("Trace creation datetime | %s\n",
			local(date, (int64_t)first + offset, true));
		print_range("Trace range", "Trace duration", offset, first, last);
		if (filtered && runs_span(t, &first, &last))
			print_range("Filtered trace range", "Filtered trace duration",
				offset, first, last);
	}
	printf("%s\n", rule);
}

struct row {
	const char *name;
	uint64_t count;
	size_t order; /* caret summary's: ties keep it */
};

static int by_count(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* The rows of a group: caret summary's events of each node or topic (the
 * line of unattributed events left out, as the original drops '-'), or
 * every event type of the schema, those with no event too. */
static size_t collect(const ca_trace *t, enum summary_group group, struct row **rows)
{
	size_t n = 0;
	if (group == SUMMARY_NODE_NAME) {
		const ca_node_count *c;
		size_t count = ca_trace_node_counts(t, &c);
		*rows = calloc(count + 1, sizeof **rows);
		for (size_t i = 0; *rows && i < count; i++)
			if (strcmp(c[i].node, "(unattributed)"))
				(*rows)[n++] = (struct row){ c[i].node, c[i].events, i };
	} else if (group == SUMMARY_TOPIC_NAME) {
		const ca_topic_count *c;
		size_t count = ca_trace_topic_counts(t, &c);
		*rows = calloc(count + 1, sizeof **rows);
		for (size_t i = 0; *rows && i < count; i++)
			(*rows)[n++] = (struct row){ c[i].topic, c[i].events, i };
	} else {
		*rows = calloc(CS_EVENT_COUNT, sizeof **rows);
		for (size_t i = 0; *rows && i < CS_EVENT_COUNT; i++)
			(*rows)[n++] = (struct row){ cs_events[i].full_name,
				ca_trace_rows(t, cs_events[i].full_name), i };
	}
	qsort(*rows, n, sizeof **rows, by_count);
	return n;
}

int summary_print_original(const char *verb, const ca_trace *t, enum summary_group group,
	bool filtered)
{
	static const char *const headers[] = { "node_name", "topic_name", "trace_point" };
	struct row *rows = NULL;
	size_t n = collect(t, group, &rows);
	if (!n) {
		fprintf(stderr, "caret %s: no %s in the trace: its initialization events were not "
			"recorded (a session started after the applications, without caret record's "
			"replay?)\n", verb, group == SUMMARY_NODE_NAME ? "node" : "topic");
		free(rows);
		return 1;
	}
	const char **names = calloc(n, sizeof *names);
	uint64_t *counts = calloc(n, sizeof *counts);
	for (size_t i = 0; names && counts && i < n; i++) {
		names[i] = rows[i].name;
		counts[i] = rows[i].count;
	}
	print_header(verb, t, filtered);
	if (names && counts)
		ros2caret_table(stdout, headers[group], "number_of_trace_points", names, counts, n);
	free(names);
	free(counts);
	free(rows);
	return 0;
}
