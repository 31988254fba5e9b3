/*
 * stages.c - the times CARET's merged events carry (ca_load_stages_damaged
 * in tables.h): each stage comes before the next and before the event
 * that ends them (the tracer takes each stage's time, then emits). A
 * stage after that is damage, not a time: one bit flipped in a merged
 * callback's start made a callback run for -146 years, which every
 * latency verb printed as its minimum.
 */
#include <inttypes.h>
#include <stdio.h>

#include "error_build.h"
#include "tables.h"

/* The stage fields of the merged events, in the order the stages happen
 * (events.def's fields; records/scan.c reads them so too). */
static const struct {
	enum cs_event_id id;
	size_t n;
	size_t field[3];
} staged[] = {
	{ CS_EV_ros2_caret_merged_callback_timing, 1, { 1 } },
	{ CS_EV_ros2_caret_merged_publish_timing, 3, { 2, 3, 4 } },
};

/* A span of clock cycles in words: years, else seconds. */
static void span(uint64_t cycles, char *out, size_t size)
{
	double s = (double)cycles / 1e9, year = 365.25 * 86400;
	if (s >= year)
		snprintf(out, size, "%.0f years", s / year);
	else
		snprintf(out, size, "%.9f s", s);
}

bool ca_load_stages_damaged(ca_trace *t, int id, uint64_t time, int32_t vpid, int32_t vtid,
	const uint64_t *values, const char *stream)
{
	for (size_t k = 0; k < sizeof staged / sizeof *staged; k++) {
		if ((int)staged[k].id != id)
			continue;
		const struct cs_event *ev = &cs_events[id];
		uint64_t before = 0; /* the last stage reached */
		size_t before_field = 0;
		for (size_t i = 0; i < staged[k].n; i++) {
			size_t f = staged[k].field[i];
			uint64_t at = values[f];
			const char *late = NULL, *than = NULL;
			char by[64];
			if (!at)
				continue; /* a stage not reached */
			if (at > time) {
				span(at - time, by, sizeof by);
				late = ev->fields[f].name;
				than = "the event's own time";
			} else if (at < before) {
				span(before - at, by, sizeof by);
				late = ev->fields[before_field].name;
				than = ev->fields[f].name;
			}
			if (late) {
				snprintf(t->damage, sizeof t->damage, "%s%sdamaged: a %s event of process "
					"%" PRId32 ", thread %" PRId32 ", at %" PRIu64 " (trace clock) has its "
					"%s %s after %s, which cannot be (a merged event's stages come in "
					"order, before the event): latencies from it would be absurd",
					stream ? stream : "", stream ? ": " : "", ev->full_name, vpid, vtid,
					time, late, by, than);
				return true;
			}
			before = at;
			before_field = f;
		}
	}
	return false;
}

void ca_load_say_damage(const ca_trace *t, const char *path, caret_error **error)
{
	caret_error_free(*error);
	*error = NULL;
	caret_error_add(error, CARET_ERR_FORMAT, NULL, -1, NULL, "cannot read trace: path=%s: %s",
		path, t->damage);
}
