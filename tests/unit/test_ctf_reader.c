/*
 * test_ctf_reader.c - the CTF reader (src/ctf) on its own, without the
 * analyzer: TSDL pieces, LTTng's packet and event header layouts decoded
 * from a stream file written here byte by byte, and the clock carried
 * across the wrap of compact 27-bit timestamps; which recording (LTTng
 * session) a trace directory belongs to.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "ctf_native.h"
#include "ctf_recordings.h"
#include "ctf_stream.h"

/* LTTng-UST's layouts: a packet header, a packet context, an event header
 * of a 5-bit id (31: extended) and a 27-bit timestamp, or the extended
 * 32-bit id and 64-bit timestamp. */
static const char tsdl[] =
	"/* CTF 1.8 */\n"
	"typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
	"typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
	"typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
	"typealias integer { size = 5; align = 1; signed = false; } := uint5_t;\n"
	"trace {\n"
	"  major = 1; minor = 8; byte_order = le;\n"
	"  packet.header := struct { uint32_t magic; uint8_t uuid[16]; uint32_t stream_id;\n"
	"    uint64_t stream_instance_id; };\n"
	"};\n"
	"env { domain = \"ust\"; tracer_name = \"lttng-ust\"; };\n"
	"clock { name = \"monotonic\"; freq = 1000000000; offset = 1700000000000000000; };\n"
	"typealias integer { size = 27; align = 1; signed = false;\n"
	"  map = clock.monotonic.value; } := uint27_clock_t;\n"
	"typealias integer { size = 64; align = 8; signed = false;\n"
	"  map = clock.monotonic.value; } := uint64_clock_t;\n"
	"struct packet_context { uint64_clock_t timestamp_begin; uint64_clock_t timestamp_end;\n"
	"  uint64_t content_size; uint64_t packet_size; uint64_t packet_seq_num;\n"
	"  uint64_t events_discarded; uint32_t cpu_id; };\n"
	"struct event_header_compact {\n"
	"  enum : uint5_t { compact = 0 ... 30, extended = 31 } id;\n"
	"  variant <id> {\n"
	"    struct { uint27_clock_t timestamp; } compact;\n"
	"    struct { uint32_t id; uint64_clock_t timestamp; } extended;\n"
	"  } v;\n"
	"} align(8);\n"
	"stream { id = 0; event.header := struct event_header_compact;\n"
	"  packet.context := struct packet_context;\n"
	"  event.context := struct {\n"
	"    integer { size = 32; align = 8; signed = 1; } _vpid;\n"
	"    integer { size = 32; align = 8; signed = 1; } _vtid; }; };\n"
	"event { name = \"test:tick\"; id = 3; stream_id = 0;\n"
	"  fields := struct { uint64_t _handle; string _name; }; };\n"
	"event { name = \"test:neg\"; id = 40; stream_id = 0;\n"
	"  fields := struct { integer { size = 16; align = 8; signed = 1; } _delta;\n"
	"    uint8_t _n; uint32_t _items[_n]; }; };\n";

static bool cut; /* the last parse's text ended inside a declaration */

static struct ctf_meta *parse(const char *text, char *err, size_t err_size)
{
	cut = false;
	return ctf_tsdl_parse(text, strlen(text), err, err_size, &cut);
}

static const struct ctf_field *member(const struct ctf_type *st, const char *name)
{
	for (size_t i = 0; st && i < st->n_fields; i++)
		if (!strcmp(st->fields[i].name, name))
			return &st->fields[i];
	return NULL;
}

static void tsdl_types(void **state)
{
	(void)state;
	char err[256] = "";
	struct ctf_meta *m = parse(tsdl, err, sizeof err);
	assert_non_null(m);
	assert_false(m->big_endian);
	assert_int_equal(m->clock_freq, 1000000000);
	assert_int_equal(m->clock_offset_ns, 1700000000000000000);
	assert_string_equal(m->env_domain, "ust");
	const struct ctf_stream_class *sc = ctf_meta_stream(m, 0);
	assert_non_null(sc);
	assert_null(ctf_meta_stream(m, 1));

	/* the header's id is an enumeration of 5 bits at bit alignment, its
	 * variant picks by it */
	const struct ctf_field *id = member(sc->event_header, "id");
	assert_non_null(id);
	assert_int_equal(id->type->kind, CTF_INT);
	assert_int_equal(id->type->size, 5);
	assert_int_equal(id->type->n_ranges, 2);
	const struct ctf_field *v = member(sc->event_header, "v");
	assert_int_equal(v->type->kind, CTF_VARIANT);
	assert_string_equal(v->type->tag_name, "id");
	assert_int_equal(sc->event_header->align, 8);
	const struct ctf_field *ts = member(member(v->type, "compact")->type, "timestamp");
	assert_true(ts->type->maps_clock);
	assert_int_equal(ts->type->size, 27);

	/* events by id, sparse */
	assert_true(sc->n_events > 40);
	assert_null(sc->events[4]);
	const struct ctf_event_class *tick = sc->events[3];
	assert_string_equal(tick->name, "test:tick");
	assert_int_equal(member(tick->payload, "_name")->type->kind, CTF_STRING);
	const struct ctf_event_class *neg = sc->events[40];
	const struct ctf_field *delta = member(neg->payload, "_delta");
	assert_true(delta->type->is_signed);
	assert_int_equal(delta->type->size, 16);
	const struct ctf_field *items = member(neg->payload, "_items");
	assert_int_equal(items->type->kind, CTF_SEQUENCE);
	assert_string_equal(items->type->length_name, "_n");
	ctf_meta_free(m);
}

/* What the reader cannot read is named with its line. */
static void tsdl_errors(void **state)
{
	(void)state;
	char err[256] = "";
	assert_null(parse("trace { major = 2; minor = 0; byte_order = le; };", err, sizeof err));
	assert_non_null(strstr(err, "metadata:1: unsupported CTF major version 2"));
	assert_null(parse("typealias integer { size = 8; align = 8; signed = false; } := u8;\n"
		"trace { major = 1; minor = 8; byte_order = le; }\n"
		"stream { id = 0 };", err, sizeof err));
	assert_non_null(strstr(err, "metadata:"));
	assert_null(parse("\n\ntypealias integer { size = 8; align = 3; } := odd;", err, sizeof err));
	assert_non_null(strstr(err, "metadata:3: unsupported integer: size 8, align 3"));
	assert_null(parse("typealias integer { size = 99999999999999999999; } := big;", err,
		sizeof err));
	assert_non_null(strstr(err, "unsupported: a number beyond 64-bit"));
	assert_false(cut);
	/* a clock's offset or frequency that is no integer: not read as 0
	 * (issue 45, item 10) */
	const char *const clocks[] = { "offset = nan", "offset_s = inf", "freq = nan",
		"offset = monotonic", "freq = 0", "freq = -5" };
	for (size_t i = 0; i < sizeof clocks / sizeof *clocks; i++) {
		char clock[128];
		snprintf(clock, sizeof clock, "clock { name = \"monotonic\"; %s; };", clocks[i]);
		assert_null(parse(clock, err, sizeof err));
		if (!strstr(err, "metadata:1: the clock's"))
			fail_msg("%s: %s", clocks[i], err);
	}
	assert_null(parse("clock { offset_s = 9223372036854775807; };", err, sizeof err));
	assert_non_null(strstr(err, "unsupported clock offset"));

	/* the whole metadata cut anywhere inside: never read, always said */
	char text[sizeof tsdl];
	for (size_t at = sizeof tsdl / 2; at < sizeof tsdl - 40; at += 97) {
		memcpy(text, tsdl, at);
		text[at] = '\0';
		struct ctf_meta *m = parse(text, err, sizeof err);
		assert_null(m);
		assert_true(cut);
	}
}

/* ---- a stream file, written byte by byte --------------------------------- */

struct bytes {
	uint8_t b[4096];
	size_t n;
};

static void put(struct bytes *o, uint64_t v, size_t size)
{
	for (size_t i = 0; i < size; i++)
		o->b[o->n++] = (uint8_t)(v >> (8 * i));
}

static void put_text(struct bytes *o, const char *s)
{
	size_t n = strlen(s) + 1;
	memcpy(o->b + o->n, s, n);
	o->n += n;
}

/* A compact header: the id in the first 5 bits, the timestamp's low 27 bits
 * after it. */
static void compact(struct bytes *o, unsigned id, uint64_t ts)
{
	put(o, id | (ts & ((1u << 27) - 1)) << 5, 4);
}

static void extended(struct bytes *o, unsigned id, uint64_t ts)
{
	put(o, 31, 1);
	put(o, id, 4);
	put(o, ts, 8);
}

static void tick(struct bytes *o, uint64_t handle, const char *name)
{
	put(o, 1234, 4); /* _vpid */
	put(o, 1235, 4); /* _vtid */
	put(o, handle, 8);
	put_text(o, name);
}

struct packet {
	size_t context_at;
	uint64_t begin, end;
};

/* The packet header and a context whose sizes and end are set by end_packet. */
static struct packet begin_packet(struct bytes *o, uint64_t begin, uint64_t seq)
{
	put(o, 0xc1fc1fc1, 4);
	for (int i = 0; i < 16; i++)
		put(o, 0, 1);
	put(o, 0, 4); /* stream_id */
	put(o, 7, 8); /* stream_instance_id */
	struct packet p = { o->n, begin, 0 };
	put(o, begin, 8);
	put(o, 0, 8);
	put(o, 0, 8);
	put(o, 0, 8);
	put(o, seq, 8);
	put(o, 0, 8); /* events_discarded */
	put(o, 0, 4); /* cpu_id */
	return p;
}

static void end_packet(struct bytes *o, struct packet *p, size_t start, uint64_t end)
{
	uint64_t content = (o->n - start) * 8;
	while ((o->n - start) % 64)
		put(o, 0, 1); /* padding to the packet's size */
	struct bytes at = { .n = 0 };
	put(&at, end, 8);
	put(&at, content, 8);
	put(&at, (o->n - start) * 8, 8);
	memcpy(o->b + p->context_at + 8, at.b, at.n);
}

struct decoded {
	uint64_t timestamp[16];
	uint64_t handle[16];
	char name[16][16];
	size_t n;
};

static void decode(const struct bytes *o, struct decoded *d)
{
	char err[256] = "", dir[] = "/tmp/test_ctf_reader.XXXXXX", path[64];
	struct ctf_meta *m = parse(tsdl, err, sizeof err);
	assert_non_null(m);
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/ch0_0", dir);
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(o->b, 1, o->n, f), o->n);
	fclose(f);

	struct ctf_stream *s = calloc(1, sizeof *s);
	assert_non_null(s);
	assert_int_equal(ctf_stream_open(s, m, path), 0);
	int rc;
	d->n = 0;
	while ((rc = ctf_stream_next(s)) == 1 && d->n < 16) {
		const struct ctf_event *e = &s->event;
		assert_string_equal(e->cls->name, "test:tick");
		assert_int_equal(e->n_context, 2);
		assert_int_equal(e->context[0].u, 1234);
		assert_int_equal(e->n_payload, 2);
		d->timestamp[d->n] = e->timestamp;
		d->handle[d->n] = e->payload[0].u;
		snprintf(d->name[d->n], sizeof d->name[0], "%s", e->payload[1].s);
		d->n++;
	}
	assert_int_equal(rc, 0);
	ctf_stream_close(s);
	free(s);
	ctf_meta_free(m);
	unlink(path);
	rmdir(dir);
}

static void header_layouts(void **state)
{
	(void)state;
	struct bytes o = { .n = 0 };
	struct packet p = begin_packet(&o, 5000, 0);
	compact(&o, 3, 5010);
	tick(&o, 0xabcdef0123456789ull, "one");
	extended(&o, 3, 900000000000ull); /* beyond 27 bits: the extended form */
	tick(&o, 2, "two");
	compact(&o, 3, 900000000000ull + 5);
	tick(&o, 3, "");
	end_packet(&o, &p, 0, 900000000005ull);

	struct decoded d;
	decode(&o, &d);
	assert_int_equal(d.n, 3);
	assert_int_equal(d.timestamp[0], 5010);
	assert_int_equal(d.handle[0], 0xabcdef0123456789ull);
	assert_string_equal(d.name[0], "one");
	assert_int_equal(d.timestamp[1], 900000000000ull);
	assert_string_equal(d.name[1], "two");
	assert_int_equal(d.timestamp[2], 900000000005ull);
	assert_string_equal(d.name[2], "");
}

/* A compact timestamp below the clock's low 27 bits means they wrapped:
 * the clock moves on by 2^27, inside a packet and from its first time. */
static void timestamp_wrap(void **state)
{
	(void)state;
	const uint64_t wrap = 1ull << 27, high = 42 * wrap;
	struct bytes o = { .n = 0 };
	struct packet p = begin_packet(&o, high + wrap - 10, 0);
	compact(&o, 3, 5); /* below the packet's first time's low bits */
	tick(&o, 1, "a");
	compact(&o, 3, wrap - 1);
	tick(&o, 2, "b");
	compact(&o, 3, 0); /* wraps again */
	tick(&o, 3, "c");
	compact(&o, 3, 0); /* the same time: no wrap */
	tick(&o, 4, "d");
	end_packet(&o, &p, 0, high + 3 * wrap);

	struct decoded d;
	decode(&o, &d);
	assert_int_equal(d.n, 4);
	assert_int_equal(d.timestamp[0], high + wrap + 5);
	assert_int_equal(d.timestamp[1], high + 2 * wrap - 1);
	assert_int_equal(d.timestamp[2], high + 2 * wrap);
	assert_int_equal(d.timestamp[3], high + 2 * wrap);
}

/* Two packets: the second's first time resets the clock. */
static void packets_in_turn(void **state)
{
	(void)state;
	struct bytes o = { .n = 0 };
	struct packet p = begin_packet(&o, 100, 0);
	compact(&o, 3, 110);
	tick(&o, 1, "first");
	end_packet(&o, &p, 0, 110);
	size_t second = o.n;
	uint64_t begin = 3 * (1ull << 27) + 7;
	p = begin_packet(&o, begin, 1);
	compact(&o, 3, begin + 1);
	tick(&o, 2, "second");
	end_packet(&o, &p, second, begin + 1);

	struct decoded d;
	decode(&o, &d);
	assert_int_equal(d.n, 2);
	assert_int_equal(d.timestamp[0], 110);
	assert_int_equal(d.timestamp[1], begin + 1);
	assert_string_equal(d.name[1], "second");
}

/* The recording of trace directory dir found under path. */
static const char *recording(const char *path, const char *dir)
{
	static char out[512];
	ctf_recording_of(path, dir, out, sizeof out);
	return out;
}

/* docs/trace-format.md#recordings: a session's per-uid, per-pid, kernel
 * and rotated traces are one recording; a bare CTF trace is its own; a
 * recording is never above the path given. */
static void recordings(void **state)
{
	(void)state;
	assert_string_equal(recording("t", "t/run1/ust/uid/1000/64-bit"), "t/run1");
	assert_string_equal(recording("t", "t/run1/ust/uid/1000/32-bit"), "t/run1");
	assert_string_equal(recording("t/", "t/run2/ust/pid/talker-42-20261127-101010"),
		"t/run2");
	assert_string_equal(recording("t", "t/run1/kernel"), "t/run1");
	assert_string_equal(recording("/t", "/t/s/archives/20261127T1-20261127T2-0/ust/uid/0/64-bit"),
		"/t/s");
	assert_string_equal(recording("run1", "run1/ust/uid/0/64-bit"), "run1");
	assert_string_equal(recording("run1/ust", "run1/ust/uid/0/64-bit"), "run1/ust");
	assert_string_equal(recording("run1/ust/uid/0/64-bit", "run1/ust/uid/0/64-bit"),
		"run1/ust/uid/0/64-bit");
	assert_string_equal(recording("t", "t/a"), "t/a"); /* no session's layout */
	assert_string_equal(recording("t", "t"), "t");
	assert_string_equal(recording("/", "/s/ust/uid/0/64-bit"), "/s");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(tsdl_types),
		cmocka_unit_test(tsdl_errors),
		cmocka_unit_test(header_layouts),
		cmocka_unit_test(timestamp_wrap),
		cmocka_unit_test(packets_in_turn),
		cmocka_unit_test(recordings),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
