/*
 * schema_check - reads a trace back with libbabeltrace2 and checks every
 * event written by one process (tb_emit_all) against the schema table:
 * event name, field layout (ca_schema_match: every field name in order,
 * integer size, signedness and display base, strings, the gid array), the
 * stream context fields, and each value against tb_expected.h. Every schema event must appear
 * exactly once.
 *
 * usage: schema_check TRACE_DIR VPID
 * Exit 0 when everything matches, 1 with one line per mismatch otherwise.
 */
#include "ctf_iter.h"
#include "schema.h"
#include "schema_match.h"
#include "tb_expected.h"
#include "tracetools/tracetools.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct check {
	int64_t vpid;
	unsigned seen[CS_EVENT_COUNT];
	unsigned failures;
	uint64_t discarded;
};

static void fail(struct check *c, const char *event, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void fail(struct check *c, const char *event, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "schema_check: %s: ", event);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	c->failures++;
}

static void check_value(struct check *c, const struct cs_event *e,
	const struct cs_field *f, const bt_field *field)
{
	const char *ev = e->full_name, *n = f->name;

	switch (f->type) {
	case CS_TYPE_HEX64:
	case CS_TYPE_U64: {
		uint64_t got = bt_field_integer_unsigned_get_value(field);
		uint64_t want = tb_expected_u64(ev, n);
		if (got != want)
			fail(c, ev, "field %s: value 0x%" PRIx64 ", expected 0x%" PRIx64,
				n, got, want);
		break;
	}
	case CS_TYPE_I64:
	case CS_TYPE_I32: {
		int64_t got = bt_field_integer_signed_get_value(field);
		int64_t want = f->type == CS_TYPE_I64 ? tb_expected_i64(ev, n) :
			tb_field_is_bool_arg(ev, n) ? 1 : tb_expected_i32(ev, n);
		if (got != want)
			fail(c, ev, "field %s: value %" PRId64 ", expected %" PRId64,
				n, got, want);
		break;
	}
	case CS_TYPE_STR: {
		char want[256];
		const char *got = bt_field_string_get_value(field);
		if (e->id == CS_EV_ros2_rcl_init && strcmp(n, "version") == 0)
			snprintf(want, sizeof want, "%s", TRACETOOLS_VERSION);
		else
			snprintf(want, sizeof want, "%s.%s", ev, n);
		if (strcmp(got, want) != 0)
			fail(c, ev, "field %s: value \"%s\", expected \"%s\"", n,
				got, want);
		break;
	}
	case CS_TYPE_GID:
	case CS_TYPE_GID16: {
		uint8_t want[TB_GID_LENGTH]; /* a GID16 is its first 16 */
		tb_expected_gid(ev, n, want);
		for (uint64_t i = 0; i < cs_gid_length(f->type); i++) {
			uint64_t got = bt_field_integer_unsigned_get_value(
				bt_field_array_borrow_element_field_by_index_const(field, i));
			if (got != want[i]) {
				fail(c, ev, "field %s[%" PRIu64 "]: value %" PRIu64
					", expected %u", n, i, got, want[i]);
				break;
			}
		}
		break;
	}
	}
}

static int64_t context_vpid(struct check *c, const char *ev,
	const bt_event *event)
{
	const bt_field *ctx = bt_event_borrow_common_context_field_const(event);
	static const char *const needed[] = { "vpid", "vtid", "procname" };

	if (!ctx) {
		fail(c, ev, "no stream context (vpid, vtid, procname)");
		return -1;
	}
	for (size_t i = 0; i < 3; i++)
		if (!bt_field_structure_borrow_member_field_by_name_const(ctx,
			    needed[i])) {
			fail(c, ev, "context field %s missing", needed[i]);
			return -1;
		}
	return bt_field_integer_signed_get_value(
		bt_field_structure_borrow_member_field_by_name_const(ctx, "vpid"));
}

static int on_event(const bt_event *event, uint64_t clock_value, void *user)
{
	struct check *c = user;
	const char *name = bt_event_class_get_name(bt_event_borrow_class_const(event));
	(void)clock_value;

	if (context_vpid(c, name, event) != c->vpid)
		return 0; /* another process on this machine */

	const struct cs_event *e = cs_event_by_full_name(name);
	if (!e) {
		fail(c, name, "event not in the schema");
		return 0;
	}
	c->seen[e->id]++;

	const bt_field *payload = bt_event_borrow_payload_field_const(event);
	char why[256];
	if (ca_schema_match(payload ? bt_field_borrow_class_const(payload) : NULL,
			e, why, sizeof why) != 0) {
		fail(c, name, "%s", why);
		return 0;
	}
	for (size_t i = 0; i < e->field_count; i++)
		check_value(c, e, &e->fields[i],
			bt_field_structure_borrow_member_field_by_index_const(payload, i));
	return 0;
}

static void on_discarded(const bt_stream *stream, uint64_t count, void *user)
{
	struct check *c = user;
	(void)stream;
	c->discarded += count;
}

int main(int argc, char **argv)
{
	struct check c = { 0 };
	char err[1024];

	if (argc != 3) {
		fprintf(stderr, "usage: schema_check TRACE_DIR VPID\n");
		return 2;
	}
	c.vpid = strtoll(argv[2], NULL, 10);

	struct ca_ctf_handlers h = { on_event, on_discarded, &c, NULL };
	if (ca_ctf_iterate(argv[1], &h, err, sizeof err) != 0) {
		fprintf(stderr, "schema_check: %s\n", err);
		return 1;
	}
	for (size_t i = 0; i < CS_EVENT_COUNT; i++)
		if (c.seen[i] != 1)
			fail(&c, cs_events[i].full_name,
				"recorded %u times, expected once", c.seen[i]);
	if (c.discarded)
		fail(&c, "trace", "%" PRIu64 " events discarded", c.discarded);

	printf("schema_check: %zu events, %s\n", (size_t)CS_EVENT_COUNT,
		c.failures ? "MISMATCH" : "all match the schema");
	return c.failures ? 1 : 0;
}
