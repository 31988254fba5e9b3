/*
 * tables_bt.c - the tables filled through libbabeltrace2 (ctf_iter.c):
 * `--reader babeltrace2`, and what the native reader hands over when it
 * does not support a trace's metadata.
 */
#include <babeltrace2/babeltrace.h>
#include <stdio.h>
#include <string.h>

#include "gid_key.h"
#include "ctf_iter.h"
#include "tables.h"
#include "error_build.h"

static int member_index(const bt_field_class *structure, const char *name)
{
	uint64_t n = structure ? bt_field_class_structure_get_member_count(structure) : 0;
	for (uint64_t i = 0; i < n; i++)
		if (!strcmp(bt_field_class_structure_member_get_name(
			    bt_field_class_structure_borrow_member_by_index_const(structure, i)), name))
			return (int)i;
	return -1;
}

static const struct ca_class_map *map_class(ca_trace *t, const bt_event_class *cls)
{
	bool fresh;
	struct ca_class_map *m = ca_load_class(t, cls, &fresh);
	if (!m || !fresh)
		return m;
	const bt_field_class *ctx = bt_stream_class_borrow_event_common_context_field_class_const(
		bt_event_class_borrow_stream_class_const(cls));
	m->vpid = member_index(ctx, "vpid");
	m->vtid = member_index(ctx, "vtid");
	const struct cs_event *ev = cs_event_by_full_name(bt_event_class_get_name(cls));
	m->id = ev ? (int)ev->id : -1;
	const bt_field_class *payload = bt_event_class_borrow_payload_field_class_const(cls);
	for (size_t f = 0; ev && f < ev->field_count; f++)
		m->member[f] = member_index(payload, ev->fields[f].name);
	return m;
}

static const bt_field *context_member(const bt_event *ev, const char *name)
{
	const bt_field *ctx = bt_event_borrow_common_context_field_const(ev);
	return ctx ? bt_field_structure_borrow_member_field_by_name_const(ctx, name) : NULL;
}

/* An integer of the event's context by its member index (found once per
 * event class): looking members up by name costs more than the rest of
 * the event. */
static int64_t context_int(const bt_event *ev, int member)
{
	const bt_field *ctx = member < 0 ? NULL : bt_event_borrow_common_context_field_const(ev);
	return ctx ? bt_field_integer_signed_get_value(
		bt_field_structure_borrow_member_field_by_index_const(ctx, (uint64_t)member)) : -1;
}

/* An array of bytes (a GID): its key, as the native reader gives it
 * (ca_gid_key); other arrays 0. */
static uint64_t gid_key(const bt_field *f)
{
	uint8_t bytes[16];
	uint64_t n = bt_field_array_get_length(f);
	for (uint64_t i = 0; i < n && i < sizeof bytes; i++) {
		const bt_field *e = bt_field_array_borrow_element_field_by_index_const(f, i);
		const bt_field_class *c = bt_field_borrow_class_const(e);
		if (bt_field_get_class_type(e) != BT_FIELD_CLASS_TYPE_UNSIGNED_INTEGER ||
		    bt_field_class_integer_get_field_value_range(c) != 8)
			return 0;
		bytes[i] = (uint8_t)bt_field_integer_unsigned_get_value(e);
	}
	return ca_gid_key(bytes, n < sizeof bytes ? (size_t)n : sizeof bytes);
}

static uint64_t value_of(ca_trace *t, const bt_field *f)
{
	bt_field_class_type type = bt_field_get_class_type(f);
	/* enumerations are integers too */
	if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_UNSIGNED_INTEGER))
		return bt_field_integer_unsigned_get_value(f);
	if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_SIGNED_INTEGER))
		return (uint64_t)bt_field_integer_signed_get_value(f);
	if (type == BT_FIELD_CLASS_TYPE_STRING)
		return ca_trace_intern(t, bt_field_string_get_value(f));
	if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_ARRAY))
		return gid_key(f);
	return 0; /* floats are not kept */
}

static int64_t clock_epoch_offset(const bt_event *ev)
{
	const bt_clock_class *cc = bt_stream_class_borrow_default_clock_class_const(
		bt_stream_borrow_class_const(bt_event_borrow_stream_const(ev)));
	int64_t seconds;
	uint64_t cycles;
	if (!cc || bt_clock_class_get_frequency(cc) != 1000000000 ||
	    !bt_clock_class_origin_is_unix_epoch(cc))
		return 0;
	bt_clock_class_get_offset(cc, &seconds, &cycles);
	return seconds * 1000000000 + (int64_t)cycles;
}


/* The stream's name (its file, for LTTng's), NULL when not known. */
static const char *stream_name(const bt_event *ev)
{
	return bt_stream_get_name(bt_event_borrow_stream_const(ev));
}

static int on_event(const bt_event *ev, uint64_t clock, void *user)
{
	ca_trace *t = user;
	const struct ca_class_map *m = map_class(t, bt_event_borrow_class_const(ev));
	int32_t vpid = m ? (int32_t)context_int(ev, m->vpid) : -1;
	int32_t vtid = m ? (int32_t)context_int(ev, m->vtid) : -1;
	struct ca_pid *p = ca_load_pid(t, vpid, NULL);
	size_t r;

	t->events++;
	if (t->events == 1)
		t->epoch_offset = clock_epoch_offset(ev);
	if (!p) {
		t->failed = true;
		return -1;
	}
	if (p->name_rank < 2) {
		const bt_field *f = context_member(ev, "procname");
		if (f && bt_field_get_class_type(f) == BT_FIELD_CLASS_TYPE_STRING)
			ca_load_name_process(t, p, bt_field_string_get_value(f), vpid, vtid,
				clock);
	}
	if (!ca_load_row(t, m ? m->id : -1, clock, vpid, vtid, p, &r))
		return t->failed ? -1 : 0;
	const struct cs_event *e = &cs_events[m->id];
	struct ca_table *tb = &t->tables[m->id];
	const bt_field *payload = bt_event_borrow_payload_field_const(ev);
	uint64_t v[CS_MAX_FIELDS];
	for (size_t f = 0; f < e->field_count; f++)
		v[f] = tb->field[f][r] = m->member[f] < 0 ? 0 : value_of(t,
			bt_field_structure_borrow_member_field_by_index_const(payload,
				(uint64_t)m->member[f]));
	if (ca_load_has_stages(m->id) &&
	    ca_load_stages_damaged(t, m->id, clock, vpid, vtid, v, stream_name(ev)))
		return -1;
	return t->failed ? -1 : 0;
}

static void on_discarded(const bt_stream *s, uint64_t count, void *user)
{
	const char *name = s ? bt_stream_get_name(s) : NULL;
	ca_load_discarded(user, name, count, 0);
}

static void on_lost_packets(const bt_stream *s, uint64_t count, void *user)
{
	const char *name = s ? bt_stream_get_name(s) : NULL;
	ca_load_discarded(user, name, 0, count);
}

caret_status ca_load_babeltrace2(ca_trace *t, const char *path, caret_error **error)
{
	struct ca_ctf_handlers h = { on_event, on_discarded, t, on_lost_packets };
	char err[4096];
	*error = NULL;
	if (ca_ctf_iterate(path, &h, err, sizeof err) == 0)
		return CARET_OK;
	if (t->damage[0]) { /* the walk stopped for it */
		ca_load_say_damage(t, path, error);
		return caret_error_status(*error);
	}
	/* babeltrace2 speaks in words: one cause */
	*error = caret_error_of_text(t->failed ? CARET_ERR_NO_MEMORY : CARET_ERR_FORMAT, err);
	return caret_error_status(*error);
}
