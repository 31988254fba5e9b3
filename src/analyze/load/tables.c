/*
 * tables.c - the loader behind caret/analyze.h: events go into one
 * columnar table per schema event, field positions resolved once per
 * event class, strings interned.
 */
#include "caret/analyze.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctf_iter.h"
#include "schema.h"

struct table {
	size_t rows, cap;
	uint64_t *time;
	int32_t *vpid, *vtid;
	uint64_t *field[CS_MAX_FIELDS];
};

/* What one event class of the trace maps to, found once. */
struct class_map {
	const bt_event_class *cls; /* key; NULL: free slot */
	int id;                    /* schema event id, -1: unknown */
	int member[CS_MAX_FIELDS]; /* payload member of each schema field, -1 */
};

#define CLASS_SLOTS 1024

struct ca_trace {
	struct table tables[CS_EVENT_COUNT];
	struct class_map classes[CLASS_SLOTS];
	char **strings; /* id - 1 -> string */
	size_t n_strings, cap_strings;
	uint32_t *string_index; /* open addressing: id, 0 free */
	size_t index_size;
	uint64_t events, unknown, discarded;
	bool failed; /* out of memory */
};

/* ---- strings ------------------------------------------------------------ */

static uint64_t hash_str(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return h;
}

static bool grow_strings(ca_trace *t)
{
	size_t size = t->index_size ? 2 * t->index_size : 1024;
	uint32_t *index = calloc(size, sizeof *index);
	if (!index)
		return false;
	for (size_t i = 0; i < t->n_strings; i++) {
		size_t k = hash_str(t->strings[i]) & (size - 1);
		while (index[k])
			k = (k + 1) & (size - 1);
		index[k] = (uint32_t)i + 1;
	}
	free(t->string_index);
	t->string_index = index;
	t->index_size = size;
	return true;
}

static uint64_t intern(ca_trace *t, const char *s)
{
	if ((t->n_strings + 1) * 2 > t->index_size && !grow_strings(t))
		goto oom;
	size_t k = hash_str(s) & (t->index_size - 1);
	for (; t->string_index[k]; k = (k + 1) & (t->index_size - 1))
		if (!strcmp(t->strings[t->string_index[k] - 1], s))
			return t->string_index[k];
	if (t->n_strings == t->cap_strings) {
		size_t cap = t->cap_strings ? 2 * t->cap_strings : 256;
		char **grown = realloc(t->strings, cap * sizeof *grown);
		if (!grown)
			goto oom;
		t->strings = grown;
		t->cap_strings = cap;
	}
	if (!(t->strings[t->n_strings] = strdup(s)))
		goto oom;
	t->string_index[k] = (uint32_t)++t->n_strings;
	return t->n_strings;
oom:
	t->failed = true;
	return 0;
}

const char *ca_trace_string(const ca_trace *t, uint64_t id)
{
	return t && id >= 1 && id <= t->n_strings ? t->strings[id - 1] : NULL;
}

/* ---- event classes ---------------------------------------------------- */

static const struct class_map *map_class(ca_trace *t, const bt_event_class *cls)
{
	size_t k = ((uintptr_t)cls >> 4) & (CLASS_SLOTS - 1);
	for (size_t n = 0; n < CLASS_SLOTS; n++, k = (k + 1) & (CLASS_SLOTS - 1)) {
		struct class_map *m = &t->classes[k];
		if (m->cls == cls)
			return m;
		if (m->cls)
			continue;
		m->cls = cls;
		const struct cs_event *ev = cs_event_by_full_name(bt_event_class_get_name(cls));
		m->id = ev ? (int)ev->id : -1;
		const bt_field_class *payload = bt_event_class_borrow_payload_field_class_const(cls);
		uint64_t members = payload ? bt_field_class_structure_get_member_count(payload) : 0;
		for (size_t f = 0; ev && f < ev->field_count; f++) {
			m->member[f] = -1;
			for (uint64_t i = 0; i < members; i++)
				if (!strcmp(bt_field_class_structure_member_get_name(
					    bt_field_class_structure_borrow_member_by_index_const(payload, i)),
					    ev->fields[f].name))
					m->member[f] = (int)i;
		}
		return m;
	}
	return NULL; /* more event classes than slots: counted as unknown */
}

/* ---- rows ------------------------------------------------------------- */

static bool grow_table(struct table *tb, size_t fields)
{
	size_t cap = tb->cap ? 2 * tb->cap : 1024;
	void *p;
	if (!(p = realloc(tb->time, cap * sizeof *tb->time)))
		return false;
	tb->time = p;
	if (!(p = realloc(tb->vpid, cap * sizeof *tb->vpid)))
		return false;
	tb->vpid = p;
	if (!(p = realloc(tb->vtid, cap * sizeof *tb->vtid)))
		return false;
	tb->vtid = p;
	for (size_t f = 0; f < fields; f++) {
		if (!(p = realloc(tb->field[f], cap * sizeof *tb->field[f])))
			return false;
		tb->field[f] = p;
	}
	tb->cap = cap;
	return true;
}

static int64_t context_int(const bt_event *ev, const char *name)
{
	const bt_field *ctx = bt_event_borrow_common_context_field_const(ev);
	const bt_field *f = ctx ? bt_field_structure_borrow_member_field_by_name_const(ctx, name) : NULL;
	return f ? bt_field_integer_signed_get_value(f) : -1;
}

static uint64_t value_of(ca_trace *t, const bt_field *f)
{
	switch (bt_field_get_class_type(f)) {
	case BT_FIELD_CLASS_TYPE_UNSIGNED_INTEGER:
		return bt_field_integer_unsigned_get_value(f);
	case BT_FIELD_CLASS_TYPE_SIGNED_INTEGER:
		return (uint64_t)bt_field_integer_signed_get_value(f);
	case BT_FIELD_CLASS_TYPE_STRING:
		return intern(t, bt_field_string_get_value(f));
	default:
		return 0; /* arrays (gid) are not kept */
	}
}

static int on_event(const bt_event *ev, uint64_t clock, void *user)
{
	ca_trace *t = user;
	const struct class_map *m = map_class(t, bt_event_borrow_class_const(ev));

	t->events++;
	if (!m || m->id < 0) {
		t->unknown++;
		return 0;
	}
	const struct cs_event *e = &cs_events[m->id];
	struct table *tb = &t->tables[m->id];
	if (tb->rows == tb->cap && !grow_table(tb, e->field_count)) {
		t->failed = true;
		return -1;
	}
	size_t r = tb->rows++;
	tb->time[r] = clock;
	tb->vpid[r] = (int32_t)context_int(ev, "vpid");
	tb->vtid[r] = (int32_t)context_int(ev, "vtid");
	const bt_field *payload = bt_event_borrow_payload_field_const(ev);
	for (size_t f = 0; f < e->field_count; f++)
		tb->field[f][r] = m->member[f] < 0 ? 0 : value_of(t,
			bt_field_structure_borrow_member_field_by_index_const(payload,
				(uint64_t)m->member[f]));
	return t->failed ? -1 : 0;
}

static void on_discarded(const bt_stream *s, uint64_t count, void *user)
{
	(void)s;
	((ca_trace *)user)->discarded += count;
}

ca_trace *ca_trace_load(const char *const *paths, size_t n_paths, char *err,
	size_t err_size)
{
	ca_trace *t = calloc(1, sizeof *t);
	struct ca_ctf_handlers h = { on_event, on_discarded, t };

	if (!t) {
		snprintf(err, err_size, "out of memory");
		return NULL;
	}
	if (!n_paths) {
		snprintf(err, err_size, "no trace path given");
		free(t);
		return NULL;
	}
	for (size_t i = 0; i < n_paths; i++)
		if (ca_ctf_iterate(paths[i], &h, err, err_size) != 0) {
			if (t->failed)
				snprintf(err, err_size, "out of memory while loading %s", paths[i]);
			ca_trace_free(t);
			return NULL;
		}
	return t;
}

void ca_trace_free(ca_trace *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < CS_EVENT_COUNT; i++) {
		struct table *tb = &t->tables[i];
		free(tb->time);
		free(tb->vpid);
		free(tb->vtid);
		for (size_t f = 0; f < CS_MAX_FIELDS; f++)
			free(tb->field[f]);
	}
	for (size_t i = 0; i < t->n_strings; i++)
		free(t->strings[i]);
	free(t->strings);
	free(t->string_index);
	free(t);
}

uint64_t ca_trace_event_count(const ca_trace *t) { return t ? t->events : 0; }
uint64_t ca_trace_unknown_count(const ca_trace *t) { return t ? t->unknown : 0; }
uint64_t ca_trace_discarded(const ca_trace *t) { return t ? t->discarded : 0; }

static const struct table *table_of(const ca_trace *t, const char *name,
	const struct cs_event **ev)
{
	*ev = cs_event_by_full_name(name);
	return t && *ev ? &t->tables[(*ev)->id] : NULL;
}

size_t ca_trace_rows(const ca_trace *t, const char *name)
{
	const struct cs_event *ev;
	const struct table *tb = table_of(t, name, &ev);
	return tb ? tb->rows : 0;
}

uint64_t ca_trace_time(const ca_trace *t, const char *name, size_t row)
{
	const struct cs_event *ev;
	const struct table *tb = table_of(t, name, &ev);
	return tb && row < tb->rows ? tb->time[row] : 0;
}

int64_t ca_trace_vpid(const ca_trace *t, const char *name, size_t row)
{
	const struct cs_event *ev;
	const struct table *tb = table_of(t, name, &ev);
	return tb && row < tb->rows ? tb->vpid[row] : 0;
}

uint64_t ca_trace_field(const ca_trace *t, const char *name, size_t row,
	const char *field)
{
	const struct cs_event *ev;
	const struct table *tb = table_of(t, name, &ev);
	int f = ev ? cs_field_index(ev, field) : -1;
	return tb && f >= 0 && row < tb->rows ? tb->field[f][row] : 0;
}
