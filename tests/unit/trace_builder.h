/*
 * trace_builder.h - for cmocka tests of the analyzer: a trace built row by
 * row (ca_trace_new / ca_trace_add_row, private API of trace.h).
 *
 *   ROW(ros2_callback_start, time, pid, "callback", U(0x10), ...)  thread = pid
 *   ROWT(ros2_callback_start, time, pid, tid, "callback", ...)      thread tid
 *   S("text")  the id of a string field's value
 *   build()    ca_trace_finish, then the architecture
 */
#ifndef TRACE_BUILDER_H
#define TRACE_BUILDER_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "ca.h"
#include "schema.h"
#include "trace.h"

static ca_trace *t;

static int setup(void **state)
{
	(void)state;
	t = ca_trace_new();
	return t ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	ca_trace_free(t);
	return 0;
}

static uint64_t S(const char *s)
{
	return ca_trace_intern(t, s);
}

/* row(EVENT, time, pid, tid, "field", value, ..., NULL) */
static void row(enum cs_event_id id, uint64_t time, int32_t pid, int32_t tid, ...)
{
	uint64_t values[CS_MAX_FIELDS] = { 0 };
	va_list ap;
	va_start(ap, tid);
	for (const char *f; (f = va_arg(ap, const char *));) {
		int i = cs_field_index(&cs_events[id], f);
		assert_true(i >= 0);
		values[i] = va_arg(ap, uint64_t);
	}
	va_end(ap);
	assert_int_equal(ca_trace_add_row(t, id, time, pid, tid, "app", values), 0);
}

#define ROW(id, time, pid, ...) row(CS_EV_##id, time, pid, pid, __VA_ARGS__, NULL)
#define ROWT(id, time, pid, tid, ...) row(CS_EV_##id, time, pid, tid, __VA_ARGS__, NULL)
#define U(x) ((uint64_t)(x))

static const ca_architecture *build(void)
{
	char err[256];
	assert_int_equal(ca_trace_finish(t, err, sizeof err), 0);
	return ca_trace_architecture(t);
}

#endif
