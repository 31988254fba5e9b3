/*
 * tb_event_counts - counts the events of a trace per schema event (the
 * demo's report until the analyzer exists).
 *
 * usage: tb_event_counts [--vpid PID] [--require-all] TRACE_DIR
 *   --vpid PID      count only the events of that process
 *   --require-all   exit 1 unless every schema event was recorded
 */
#include "ctf_iter.h"
#include "schema.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct counts {
	int64_t vpid; /* -1: every process */
	uint64_t per_event[CS_EVENT_COUNT];
	uint64_t unknown, total, discarded;
};

static int64_t event_vpid(const bt_event *event)
{
	const bt_field *ctx = bt_event_borrow_common_context_field_const(event);
	const bt_field *vpid = ctx ?
		bt_field_structure_borrow_member_field_by_name_const(ctx, "vpid") : NULL;

	return vpid ? bt_field_integer_signed_get_value(vpid) : -1;
}

static int on_event(const bt_event *event, uint64_t clock_value, void *user)
{
	struct counts *c = user;
	(void)clock_value;

	if (c->vpid >= 0 && event_vpid(event) != c->vpid)
		return 0;
	const struct cs_event *e = cs_event_by_full_name(
		bt_event_class_get_name(bt_event_borrow_class_const(event)));
	if (e)
		c->per_event[e->id]++;
	else
		c->unknown++;
	c->total++;
	return 0;
}

static void on_discarded(const bt_stream *stream, uint64_t count, void *user)
{
	(void)stream;
	((struct counts *)user)->discarded += count;
}

static int usage(void)
{
	fprintf(stderr, "usage: tb_event_counts [--vpid PID] [--require-all] TRACE_DIR\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct counts c = { .vpid = -1 };
	bool require_all = false;
	const char *trace = NULL;
	char err[1024];

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--vpid") == 0 && i + 1 < argc)
			c.vpid = strtoll(argv[++i], NULL, 10);
		else if (strcmp(argv[i], "--require-all") == 0)
			require_all = true;
		else if (strcmp(argv[i], "--help") == 0)
			return usage(), 0;
		else if (argv[i][0] != '-' && !trace)
			trace = argv[i];
		else
			return usage();
	}
	if (!trace)
		return usage();

	struct ca_ctf_handlers h = { on_event, on_discarded, &c, NULL };
	if (ca_ctf_iterate(trace, &h, err, sizeof err) != 0) {
		fprintf(stderr, "tb_event_counts: %s\n", err);
		return 1;
	}

	size_t missing = 0;
	printf("%-60s %8s\n", "event", "count");
	for (size_t i = 0; i < CS_EVENT_COUNT; i++) {
		printf("%-60s %8" PRIu64 "\n", cs_events[i].full_name, c.per_event[i]);
		missing += c.per_event[i] == 0;
	}
	if (c.unknown)
		printf("%-60s %8" PRIu64 "\n", "(events not in the schema)", c.unknown);
	printf("total %" PRIu64 " events, %zu of %zu schema events recorded, "
	       "%" PRIu64 " discarded\n", c.total, (size_t)CS_EVENT_COUNT - missing,
	       (size_t)CS_EVENT_COUNT, c.discarded);
	if (c.discarded)
		fprintf(stderr, "tb_event_counts: %" PRIu64 " events were discarded\n",
			c.discarded);
	return (require_all && missing) || c.discarded ? 1 : 0;
}
