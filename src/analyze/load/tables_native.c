/*
 * tables_native.c - the tables filled by caret-c's own CTF reader
 * (ctf_native.c), the default. An event class's schema event and field
 * positions are found once; an event then costs one store per field.
 */
#include <stdalign.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "ctf_native.h"
#include "tables.h"

/* A field's name as babeltrace2 gives it: CTF's leading '_' dropped. */
static const char *plain(const char *name)
{
	return name[0] == '_' ? name + 1 : name;
}

static int value_index(const struct ctf_value *v, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].field && !strcmp(plain(v[i].field->name), name))
			return (int)i;
	return -1;
}

/* Fields that hold a time of the trace's clock (the tracer's merged
 * events, its initialization times): moved with the events' own times when
 * a host's clock is put on another's (ctf_meta.time_shift). */
static bool clock_field(const char *name)
{
	static const char *const names[] = { "callback_start_timestamp",
		"rclcpp_publish_timestamp", "rcl_publish_timestamp", "dds_write_timestamp",
		"init_timestamp", "clock_offset" }; /* caret_init's: init_timestamp's clock */
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (!strcmp(name, names[i]))
			return true;
	return false;
}

/* values[f] of schema event ev, each clock field moved by shift (0: not there). */
static void shift_clock_fields(const struct cs_event *ev, uint64_t *values, int64_t shift)
{
	for (size_t f = 0; f < ev->field_count; f++)
		if (values[f] && clock_field(ev->fields[f].name))
			values[f] += (uint64_t)shift;
}

static const struct ca_class_map *map_class(ca_trace *t, const struct ctf_event *e)
{
	const struct ctf_event_class *cls = e->cls;
	bool fresh;
	struct ca_class_map *m = ca_load_class(t, cls, &fresh);
	if (!m || !fresh)
		return m;
	/* the contexts (the stream's, then the event's) are the same for
	 * every event of a class */
	m->vpid = value_index(e->context, e->n_context, "vpid");
	m->vtid = value_index(e->context, e->n_context, "vtid");
	m->procname = value_index(e->context, e->n_context, "procname");
	const struct cs_event *ev = cs_event_by_full_name(cls->name);
	m->id = ev ? (int)ev->id : -1;
	/* a flat payload flattens to one value per member, in member order */
	m->flat = !cls->payload || cls->payload->flat;
	for (size_t f = 0; ev && f < ev->field_count; f++) {
		int i = m->flat ? value_index(e->payload, e->n_payload, ev->fields[f].name) : -1;
		m->member[f] = i;
		m->int_member[f] = i >= 0 && e->payload[i].field->type->kind == CTF_INT ? i : -1;
	}
	return m;
}

/* Where schema field f of the event is among its payload's values (-1). */
static int payload_index(const struct ca_class_map *m, const struct ctf_event *e,
	const struct cs_event *ev, size_t f)
{
	return m->flat ? m->member[f] : value_index(e->payload, e->n_payload, ev->fields[f].name);
}

static uint64_t value_of(ca_trace *t, const struct ctf_value *v)
{
	const struct ctf_type *type = v->field->type;
	if (v->s)
		return ca_trace_intern(t, v->s);
	if (type->kind == CTF_INT)
		return v->u;
	if (type->kind == CTF_ARRAY || type->kind == CTF_SEQUENCE)
		return v->u; /* of bytes: a GID's key (ca_gid_key); else 0 */
	return 0; /* floats are not kept, as through babeltrace2 */
}

/* The earliest event of the first path with events gives the epoch
 * offset (ca_trace.earliest). */
static void note_earliest(ca_trace *t, uint64_t time, const struct ctf_meta *meta)
{
	if (!t->earliest.open)
		return;
	__int128 key = (__int128)((unsigned __int128)time * 1000000000 / meta->clock_freq) +
		meta->epoch_offset_ns;
	if (!t->earliest.seen || key < t->earliest.key) {
		t->earliest.seen = true;
		t->earliest.key = key;
		t->earliest.ns_clock = meta->clock_freq == 1000000000;
		t->earliest.offset = meta->epoch_offset_ns;
	}
}

/* The process's host, as its trace names it, and what the host's clock was
 * moved by to be read on the first host's (ca_pid.host_shift_ns). */
static void note_host(ca_trace *t, struct ca_pid *p, const struct ctf_meta *meta)
{
	if (p->host || !meta->env_hostname)
		return;
	p->host = ca_trace_intern(t, meta->env_hostname);
	p->host_shift_ns = (int64_t)((__int128)meta->time_shift * 1000000000 /
		(meta->clock_freq ? meta->clock_freq : 1000000000));
}

/* Row r of event id checked for damaged stage times (stages.c). */
static bool stages_damaged(ca_trace *t, int id, uint64_t time, int32_t vpid, int32_t vtid,
	size_t r, const char *stream)
{
	if (!ca_load_has_stages(id))
		return false;
	uint64_t v[CS_MAX_FIELDS];
	for (size_t f = 0; f < cs_events[id].field_count; f++)
		v[f] = t->tables[id].field[f][r];
	return ca_load_stages_damaged(t, id, time, vpid, vtid, v, stream);
}

static int on_event(const struct ctf_event *e, const struct ctf_meta *meta, void *user)
{
	ca_trace *t = user;
	const struct ca_class_map *m = map_class(t, e);
	int32_t vpid = m && m->vpid >= 0 ? (int32_t)e->context[m->vpid].u + meta->pid_base : -1;
	int32_t vtid = m && m->vtid >= 0 ? (int32_t)e->context[m->vtid].u : -1;
	struct ca_pid *p = ca_load_pid(t, vpid, NULL);
	size_t r;

	t->events++;
	note_earliest(t, e->timestamp, meta);
	if (!p) {
		t->failed = true;
		return -1;
	}
	note_host(t, p, meta);
	if (m && m->procname >= 0 && p->name_rank < 2)
		ca_load_name_process(t, p, e->context[m->procname].s, vpid, vtid, e->timestamp);
	if (!ca_load_row(t, m ? m->id : -1, e->timestamp, vpid, vtid, p, &r))
		return t->failed ? -1 : 0;
	const struct cs_event *ev = &cs_events[m->id];
	struct ca_table *tb = &t->tables[m->id];
	for (size_t f = 0; f < ev->field_count; f++) {
		int i = payload_index(m, e, ev, f);
		tb->field[f][r] = i < 0 ? 0 : value_of(t, &e->payload[i]);
		if (meta->time_shift && tb->field[f][r] && clock_field(ev->fields[f].name))
			tb->field[f][r] += (uint64_t)meta->time_shift;
	}
	return t->failed || stages_damaged(t, m->id, e->timestamp, vpid, vtid, r,
		e->stream_path) ? -1 : 0;
}

static void on_discarded(const char *stream, uint64_t events, uint64_t packets, void *user)
{
	ca_load_discarded(user, stream, events, packets);
}

/* Initialization events are kept whatever the window: a packet of their
 * stream class is decoded wherever it is. */
static bool needed(const struct ctf_event_class *cls, void *user)
{
	const struct cs_event *ev = cs_event_by_full_name(cls->name);
	(void)user;
	return ev && !cs_role_is_runtime(ev->role);
}

/* The first pass of a load that keeps no runtime event counts them by
 * their contexts alone (ca_load_row). */
static bool counted_only(const struct ctf_event_class *cls, void *user)
{
	const struct cs_event *ev = cs_event_by_full_name(cls->name);
	return ev && ca_load_counts_only(user, (int)ev->id);
}

/* Counted-only events of one class and thread (ctf_tally.h). */
static void on_tally(const struct ctf_tally *y, const struct ctf_meta *meta, void *user)
{
	ca_trace *t = user;
	if (t->failed)
		return;
	const struct ctf_event e = { .cls = y->cls, .timestamp = y->first,
		.stream_path = y->stream_path, .context = y->context, .n_context = y->n_context };
	const struct ca_class_map *m = map_class(t, &e);
	int32_t vpid = m && m->vpid >= 0 ? (int32_t)y->context[m->vpid].u + meta->pid_base : -1;
	int32_t vtid = m && m->vtid >= 0 ? (int32_t)y->context[m->vtid].u : -1;
	struct ca_pid *p = ca_load_pid(t, vpid, NULL);
	if (!p) {
		t->failed = true;
		return;
	}
	t->events += y->events;
	note_earliest(t, y->first, meta);
	note_host(t, p, meta);
	if (m && m->procname >= 0)
		ca_load_name_process(t, p, y->context[m->procname].s, vpid, vtid, y->first);
	ca_load_count(t, m ? m->id : -1, p, y->events, y->first, y->last);
}

static void on_skipped(const char *stream, uint64_t bytes, void *user)
{
	ca_trace *t = user;
	(void)stream;
	t->skipped_packets++;
	t->skipped_bytes += bytes;
}

caret_status ca_load_native(ca_trace *t, const char *path, const struct ca_skip *skip,
	caret_error **error)
{
	struct ctf_native_handlers h = { .on_event = on_event, .on_discarded = on_discarded,
		.user = t, .needed = needed, .on_skipped = on_skipped,
		.skim = counted_only, .on_tally = on_tally,
		.clock_hosts = (const char *const *)t->clock_hosts,
		.clock_corrections = t->clock_corrections,
		.n_clock_corrections = t->n_clock_corrections,
		.hosts = t->hosts, .n_hosts = t->n_hosts, .framing_checked = t->framing_checked };
	if (skip) {
		h.skip_before = skip->before;
		h.skip_after = skip->after;
	}
	t->earliest.open = !t->events;
	t->earliest.seen = false;
	caret_status status = ctf_native_walk(path, &h, error);
	if (status != CARET_OK && t->damage[0]) /* the walk stopped for it */
		ca_load_say_damage(t, path, error);
	if (t->earliest.open && t->earliest.seen)
		t->epoch_offset = t->earliest.ns_clock ? t->earliest.offset : 0;
	t->earliest.open = false;
	return status;
}

/* The second pass's record of a runtime event: its numbers (strings not
 * interned), made in the decoding thread. */
struct runtime_record {
	int32_t id, vpid, vtid;
	uint64_t values[CS_MAX_FIELDS + 1]; /* the fields, and the tee's object */
};

/* Where runtime_record_of reads a number of an undecoded event
 * (ctf_event.bytes): its bytes (0: not a number, read as 0) at offset;
 * and the same as the word at `at`, inside the event, shifted left then
 * right to leave the number, masked (0 for no number), sign-extended by
 * sign (its top bit, or 0): one load and no branch. */
struct raw_member {
	uint32_t offset, at;
	uint8_t bytes, left, right;
	bool is_signed;
	uint64_t mask, sign;
};

/* What the converting thread knows of an event class, found once. */
struct class_plan {
	const struct ctf_event_class *cls; /* NULL: a free slot */
	const struct ca_class_map *map;
	bool runtime;                      /* a runtime event of the schema */
	bool words;                        /* its numbers read as words (raw_bytes >= 8) */
	bool has_vpid, has_vtid;
	bool ids_word;                     /* vpid and vtid: the word at vpid's offset */
	uint8_t n_fields;                  /* its schema event's */
	struct raw_member vpid, vtid, field[CS_MAX_FIELDS];
};

#define PLAN_SLOTS 64 /* a power of two, more than the classes of a trace */

struct replay {
	ca_trace *t;
	void (*visit)(void *ctx, enum cs_event_id id, uint64_t time, int32_t vpid,
		int32_t vtid, const uint64_t *values);
	void *ctx;
	void (*tee)(void *ctx, enum cs_event_id id, uint64_t time, int32_t vpid, int32_t vtid,
		const uint64_t *values);
	void *tee_ctx;
	size_t (*tee_object)(const struct ca_model *m, void *scratch, enum cs_event_id id,
		int32_t pid, uint64_t time, const uint64_t *values);
	const struct ca_model *model;
	/* the converting thread's, on lines of their own (the other thread
	 * reads the above for every event) */
	alignas(64) struct class_plan plans[PLAN_SLOTS];
	alignas(64) unsigned char tee_scratch[CA_TEE_SCRATCH];
};

/* A number of n bytes at offset of an event of raw bytes (raw_member). */
static struct raw_member raw_number(uint32_t offset, uint8_t n, bool is_signed, uint32_t raw)
{
	if (n != 1 && n != 2 && n != 4 && n != 8)
		return (struct raw_member){ 0 };
	/* the word from the number on, or the event's last word */
	uint32_t at = raw < 8 || offset + 8 <= raw ? offset : raw - 8;
	return (struct raw_member){ offset, at, n, (uint8_t)(64 - 8 * (offset - at) - 8 * n),
		(uint8_t)(64 - 8 * n), is_signed, ~(uint64_t)0,
		is_signed ? (uint64_t)1 << (8 * n - 1) : 0 };
}

/* Value k of a flat fixed structure's values, laid out from base, in an
 * event of raw bytes. */
static struct raw_member raw_of(const struct ctf_type *t, size_t k, uint32_t base, uint32_t raw)
{
	const struct ctf_fixed *x = &t->fixed[k];
	if (x->op != CTF_FIX_UNSIGNED && x->op != CTF_FIX_SIGNED)
		return (struct raw_member){ 0 };
	return raw_number(base + x->offset, x->bytes, x->op == CTF_FIX_SIGNED, raw);
}

/* Context value k (-1: none) of a class with raw_bytes: the stream's event
 * context's values, then the class's. */
static struct raw_member raw_context(const struct ctf_type *sctx, const struct ctf_type *cctx,
	int k, uint32_t raw)
{
	size_t n = sctx ? sctx->n_fields : 0;
	if (k < 0)
		return (struct raw_member){ 0 };
	if ((size_t)k < n)
		return raw_of(sctx, (size_t)k, 0, raw);
	return cctx && (size_t)k - n < cctx->n_fields ?
		raw_of(cctx, (size_t)k - n, sctx ? sctx->fixed_bytes : 0, raw) :
		(struct raw_member){ 0 };
}

/* Values with the fields of a flat fixed structure (no numbers): what
 * decoding a class's events gives, for map_class. */
static size_t shape_of(const struct ctf_type *t, struct ctf_value *v, size_t n)
{
	for (size_t i = 0; t && i < t->n_fields && n < CTF_MAX_VALUES; i++)
		v[n++] = (struct ctf_value){ &t->fields[i], 0, NULL, 0 };
	return n;
}

/* The class's plan, made in its slot: its map (found from the event's
 * values, or from its types when the event came undecoded) and where its
 * numbers lie. */
static __attribute__((noinline)) const struct class_plan *new_plan(struct replay *r,
	struct class_plan *p, const struct ctf_event *e, const struct ctf_meta *meta)
{
	*p = (struct class_plan){ .cls = e->cls };
	const struct ctf_stream_class *sc = ctf_meta_stream(meta, e->cls->stream_id);
	const struct ctf_type *sctx = sc ? sc->event_context : NULL, *pay = e->cls->payload;
	struct ctf_value context[CTF_MAX_VALUES], payload[CTF_MAX_VALUES];
	struct ctf_event shape = *e;
	if (e->bytes) {
		shape.context = context;
		shape.n_context = shape_of(e->cls->context, context, shape_of(sctx, context, 0));
		shape.payload = payload;
		shape.n_payload = shape_of(pay, payload, 0);
	}
	const struct ca_class_map *m = p->map = map_class(r->t, &shape);
	p->runtime = m && m->id >= 0 && cs_role_is_runtime(cs_events[m->id].role);
	if (!p->runtime || !e->cls->raw_bytes) /* its events always come decoded */
		return p;
	uint32_t raw = e->cls->raw_bytes;
	p->words = raw >= 8;
	p->has_vpid = m->vpid >= 0;
	p->has_vtid = m->vtid >= 0;
	p->n_fields = (uint8_t)cs_events[m->id].field_count;
	p->vpid = raw_context(sctx, e->cls->context, m->vpid, raw);
	p->vtid = raw_context(sctx, e->cls->context, m->vtid, raw);
	p->ids_word = p->has_vpid && p->has_vtid && p->vpid.bytes == 4 && p->vtid.bytes == 4 &&
		p->vtid.offset == p->vpid.offset + 4 && p->vpid.offset + 8 <= raw;
	uint32_t at = (sctx ? sctx->fixed_bytes : 0) +
		(e->cls->context ? e->cls->context->fixed_bytes : 0);
	for (size_t f = 0; f < cs_events[m->id].field_count; f++)
		p->field[f] = m->int_member[f] < 0 ? (struct raw_member){ 0 } :
			raw_of(pay, (size_t)m->int_member[f], at, raw);
	return p;
}

/* The class's plan: found in its slot, most events. */
static inline __attribute__((always_inline)) const struct class_plan *plan_of(
	struct replay *r, const struct ctf_event *e, const struct ctf_meta *meta)
{
	struct class_plan *p = &r->plans[((uintptr_t)e->cls >> 4) & (PLAN_SLOTS - 1)];
	return p->cls == e->cls ? p : new_plan(r, p, e, meta);
}

static inline __attribute__((always_inline)) uint64_t raw_word(const uint8_t *bytes,
	const struct raw_member *x)
{
	uint64_t w;
	memcpy(&w, bytes + x->at, 8);
	return ((((w << x->left) >> x->right) & x->mask) ^ x->sign) - x->sign;
}

/* The plan's fields of an event read as words: a jump into the
 * assignments (an event has a few fields; a loop's count cost as much). */
static inline __attribute__((always_inline)) void raw_words(const uint8_t *bytes,
	const struct class_plan *p, uint64_t *values)
{
#define FIELD(k) values[k] = raw_word(bytes, &p->field[k])
	_Static_assert(CS_MAX_FIELDS == 10, "a case per field");
	switch (p->n_fields) {
	default: /* none has more than CS_MAX_FIELDS */
	case 10: FIELD(9); /* fallthrough */
	case 9: FIELD(8); /* fallthrough */
	case 8: FIELD(7); /* fallthrough */
	case 7: FIELD(6); /* fallthrough */
	case 6: FIELD(5); /* fallthrough */
	case 5: FIELD(4); /* fallthrough */
	case 4: FIELD(3); /* fallthrough */
	case 3: FIELD(2); /* fallthrough */
	case 2: FIELD(1); /* fallthrough */
	case 1: FIELD(0); /* fallthrough */
	case 0: break;
	}
#undef FIELD
}

/* The same, byte by byte: events of fewer than 8 bytes. */
static uint64_t raw_exact(const uint8_t *bytes, const struct raw_member *x)
{
	uint64_t w = 0;
	memcpy(&w, bytes + x->offset, x->bytes); /* little-endian, as the reader */
	return x->bytes ? ((w & x->mask) ^ x->sign) - x->sign : 0;
}

/* An event's record (runtime_record_of), inline in the replay's
 * handlers. */
static inline __attribute__((always_inline)) size_t record_of(const struct ctf_event *e,
	const struct ctf_meta *meta, void *record, void *user)
{
	const struct class_plan *p = plan_of(user, e, meta);
	if (!p->runtime)
		return 0;
	const struct ca_class_map *m = p->map;
	const struct cs_event *ev = &cs_events[m->id];
	struct runtime_record *x = record;
	x->id = m->id;
	if (e->bytes && p->ids_word) { /* LTTng's vpid and vtid, side by side */
		uint64_t w;
		memcpy(&w, e->bytes + p->vpid.offset, 8);
		x->vpid = (int32_t)(uint32_t)w;
		x->vtid = (int32_t)(uint32_t)(w >> 32);
	}
	if (e->bytes && p->words) { /* undecoded: the numbers where the plan says */
		if (!p->ids_word) {
			x->vpid = p->has_vpid ? (int32_t)raw_word(e->bytes, &p->vpid) : -1;
			x->vtid = p->has_vtid ? (int32_t)raw_word(e->bytes, &p->vtid) : -1;
		}
		raw_words(e->bytes, p, x->values);
	} else if (e->bytes) { /* fewer than 8 bytes: no ids_word */
		x->vpid = p->has_vpid ? (int32_t)raw_exact(e->bytes, &p->vpid) : -1;
		x->vtid = p->has_vtid ? (int32_t)raw_exact(e->bytes, &p->vtid) : -1;
		for (size_t f = 0; f < p->n_fields; f++)
			x->values[f] = raw_exact(e->bytes, &p->field[f]);
	} else {
		x->vpid = m->vpid >= 0 ? (int32_t)e->context[m->vpid].u : -1;
		x->vtid = m->vtid >= 0 ? (int32_t)e->context[m->vtid].u : -1;
		for (size_t f = 0; f < ev->field_count; f++) {
			int i = m->flat ? m->int_member[f] : payload_index(m, e, ev, f);
			x->values[f] = i >= 0 && !e->payload[i].s &&
				(m->flat || e->payload[i].field->type->kind == CTF_INT) ?
				e->payload[i].u : 0;
		}
	}
	size_t n = ev->field_count;
	struct replay *r = user;
	if (meta->time_shift)
		shift_clock_fields(ev, x->values, meta->time_shift);
	if (x->vpid >= 0)
		x->vpid += meta->pid_base;
	if (r->tee_object) /* the tee's lookup, done here */
		x->values[n++] = r->tee_object(r->model, r->tee_scratch, (enum cs_event_id)m->id,
			x->vpid, e->timestamp, x->values);
	return offsetof(struct runtime_record, values) + n * sizeof *x->values;
}

static size_t runtime_record_of(const struct ctf_event *e, const struct ctf_meta *meta,
	void *record, void *user)
{
	return record_of(e, meta, record, user);
}

static inline int replay_record(const void *record, size_t size, uint64_t timestamp,
	const struct ctf_meta *meta, void *user)
{
	const struct replay *r = user;
	const struct runtime_record *x = record; /* every field the visitors read is in it */
	(void)size;
	(void)meta;
	if (ca_load_has_stages(x->id) &&
	    ca_load_stages_damaged(r->t, x->id, timestamp, x->vpid, x->vtid, x->values, NULL))
		return -1;
	r->visit(r->ctx, (enum cs_event_id)x->id, timestamp, x->vpid, x->vtid, x->values);
	if (r->tee) /* the records' scan, riding along (trace.h) */
		r->tee(r->tee_ctx, (enum cs_event_id)x->id, timestamp, x->vpid, x->vtid, x->values);
	return 0;
}

/* The event converted and visited in the caller's thread. */
static int replay_event(const struct ctf_event *e, const struct ctf_meta *meta, void *user)
{
	struct runtime_record x;
	size_t n = record_of(e, meta, &x, user);
	return n ? replay_record(&x, n, e->timestamp, meta, user) : 0;
}

int ca_load_native_replay(ca_trace *t, void (*visit)(void *ctx, enum cs_event_id id,
	uint64_t time, int32_t vpid, int32_t vtid, const uint64_t *values), void *ctx)
{
	struct replay r = { .t = t, .visit = visit, .ctx = ctx, .tee = t->tee,
		.tee_ctx = t->tee_ctx, .tee_object = t->tee_object, .model = t->model };
	struct ctf_native_handlers h = { .convert = runtime_record_of, .on_record = replay_record,
		.on_event = replay_event, .raw = true, .user = &r };
	if (!t->tee_joins) /* the decoding thread is the bound */
		h = (struct ctf_native_handlers){ .on_event = replay_event, .raw = true, .user = &r };
	h.clock_hosts = (const char *const *)t->clock_hosts;
	h.clock_corrections = t->clock_corrections;
	h.n_clock_corrections = t->n_clock_corrections;
	h.hosts = t->hosts;
	h.n_hosts = t->n_hosts;
	h.framing_checked = t->framing_checked;
	for (size_t i = 0; i < t->n_paths; i++) {
		char err[1024];
		memset(t->classes, 0, sizeof t->classes); /* the reader's classes are new */
		memset(r.plans, 0, sizeof r.plans);
		memset(r.tee_scratch, 0, sizeof r.tee_scratch);
		if (ctf_native_iterate(t->paths[i], &h, err, sizeof err) != 0) {
			/* damage the first pass stepped over (time going back
			 * between streams, which skimmed events do not check; the
			 * values of events it only counted) */
			if (t->damage[0])
				snprintf(t->replay_error, sizeof t->replay_error,
					"cannot read trace: path=%s: %.900s", t->paths[i], t->damage);
			else
				snprintf(t->replay_error, sizeof t->replay_error, "%s", err);
			return -1;
		}
	}
	return t->failed ? -1 : 0;
}

int ca_load_native_bounds(const char *path, uint64_t *first, uint64_t *last)
{
	char err[1024];
	return ctf_native_bounds(path, first, last, err, sizeof err);
}
