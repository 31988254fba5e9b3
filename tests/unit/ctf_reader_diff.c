/*
 * ctf_reader_diff TRACE... - reads each trace with libbabeltrace2
 * (ctf_iter) and with caret-c's native reader (ctf_native), writes one
 * canonical line per event from each (clock value, event name, every
 * context and payload field: integers as unsigned decimal, floats %.17g,
 * strings escaped, arrays by length), and requires the two to be the same
 * event for event (events of one timestamp in any order), and the same
 * discarded events. Prints the counts, or the first difference; exit 1 on
 * a difference, 2 when a reader fails.
 * ctf_reader_diff --native-only TRACE: the native reader alone.
 * ctf_reader_diff --damaged TRACE: a damaged trace; both readers may fail,
 * but both the same way (both succeed, or both end with an error), having
 * given the same events; or the native reader finds metadata it does not
 * support (the analyzer then reads with babeltrace2). Exit 0 when they
 * agree, 1 when not.
 */
#include <babeltrace2/babeltrace.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctf_iter.h"
#include "ctf_native.h"

struct lines {
	char **v;
	size_t n, cap;
	uint64_t discarded, lost_packets;
	char buf[1 << 16];
	size_t len;
};

static void put(struct lines *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct lines *l, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(l->buf + l->len, sizeof l->buf - l->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		l->len += (size_t)n < sizeof l->buf - l->len ? (size_t)n : sizeof l->buf - l->len - 1;
}

static void put_string(struct lines *l, const char *s)
{
	put(l, "\"");
	for (; *s; s++)
		put(l, (unsigned char)*s < 32 || *s == '"' || *s == '\\' ? "\\x%02x" : "%c",
			(unsigned char)*s);
	put(l, "\"");
}

static void end_line(struct lines *l)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 4096;
		l->v = realloc(l->v, l->cap * sizeof *l->v);
		if (!l->v) {
			perror("ctf_reader_diff");
			exit(2);
		}
	}
	l->v[l->n++] = strdup(l->buf);
	l->len = 0;
	l->buf[0] = '\0';
}

/* ---- babeltrace2 ------------------------------------------------------------ */

static void bt_field_line(struct lines *l, const bt_field *f)
{
	bt_field_class_type type = bt_field_get_class_type(f);
	if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_UNSIGNED_INTEGER))
		put(l, "%" PRIu64, bt_field_integer_unsigned_get_value(f));
	else if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_SIGNED_INTEGER))
		put(l, "%" PRIu64, (uint64_t)bt_field_integer_signed_get_value(f));
	else if (type == BT_FIELD_CLASS_TYPE_STRING)
		put_string(l, bt_field_string_get_value(f));
	else if (type == BT_FIELD_CLASS_TYPE_SINGLE_PRECISION_REAL)
		put(l, "%.17g", (double)bt_field_real_single_precision_get_value(f));
	else if (type == BT_FIELD_CLASS_TYPE_DOUBLE_PRECISION_REAL)
		put(l, "%.17g", bt_field_real_double_precision_get_value(f));
	else if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_ARRAY))
		put(l, "[%" PRIu64 "]", bt_field_array_get_length(f));
	else if (type == BT_FIELD_CLASS_TYPE_STRUCTURE) {
		const bt_field_class *c = bt_field_borrow_class_const(f);
		for (uint64_t i = 0; i < bt_field_class_structure_get_member_count(c); i++) {
			put(l, " %s=", bt_field_class_structure_member_get_name(
				bt_field_class_structure_borrow_member_by_index_const(c, i)));
			bt_field_line(l, bt_field_structure_borrow_member_field_by_index_const(f, i));
		}
	} else
		put(l, "?type%d", (int)type);
}

static int bt_on_event(const bt_event *ev, uint64_t clock, void *user)
{
	struct lines *l = user;
	put(l, "%" PRIu64 " %s |", clock, bt_event_class_get_name(bt_event_borrow_class_const(ev)));
	const bt_field *ctx = bt_event_borrow_common_context_field_const(ev);
	if (ctx)
		bt_field_line(l, ctx);
	if ((ctx = bt_event_borrow_specific_context_field_const(ev)))
		bt_field_line(l, ctx);
	put(l, " |");
	const bt_field *payload = bt_event_borrow_payload_field_const(ev);
	if (payload)
		bt_field_line(l, payload);
	end_line(l);
	return 0;
}

static void bt_on_discarded(const bt_stream *s, uint64_t count, void *user)
{
	(void)s;
	((struct lines *)user)->discarded += count;
}

static void bt_on_lost_packets(const bt_stream *s, uint64_t count, void *user)
{
	(void)s;
	((struct lines *)user)->lost_packets += count;
}

/* ---- native ------------------------------------------------------------------- */

static void native_values(struct lines *l, const struct ctf_value *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct ctf_type *t = v[i].field->type;
		const char *name = v[i].field->name;
		put(l, " %s=", name[0] == '_' ? name + 1 : name);
		if (v[i].s)
			put_string(l, v[i].s);
		else if (t->kind == CTF_ARRAY || t->kind == CTF_SEQUENCE)
			put(l, "[%" PRIu64 "]", v[i].n_elements);
		else if (t->kind == CTF_FLOAT && t->size == 32) {
			float x;
			uint32_t bits = (uint32_t)v[i].u;
			memcpy(&x, &bits, 4);
			put(l, "%.17g", (double)x);
		} else if (t->kind == CTF_FLOAT) {
			double x;
			memcpy(&x, &v[i].u, 8);
			put(l, "%.17g", x);
		} else
			put(l, "%" PRIu64, v[i].u);
	}
}

static int native_on_event(const struct ctf_event *e, const struct ctf_meta *m, void *user)
{
	struct lines *l = user;
	(void)m;
	put(l, "%" PRIu64 " %s |", e->timestamp, e->cls->name);
	native_values(l, e->context, e->n_context);
	put(l, " |");
	native_values(l, e->payload, e->n_payload);
	if (getenv("CTF_DIFF_TRACE"))
		fprintf(stderr, "native: %s\n", l->buf);
	end_line(l);
	return 0;
}

static void native_on_discarded(const char *path, uint64_t events, uint64_t packets, void *user)
{
	(void)path;
	((struct lines *)user)->discarded += events;
	((struct lines *)user)->lost_packets += packets;
}

/* ---- comparison ---------------------------------------------------------------- */

static int by_text(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Lines of one timestamp in text order: both readers merge streams, and
 * may order ties differently. */
static void sort_ties(struct lines *l)
{
	for (size_t i = 0, j; i < l->n; i = j) {
		uint64_t t = strtoull(l->v[i], NULL, 10);
		for (j = i + 1; j < l->n && strtoull(l->v[j], NULL, 10) == t; j++)
			;
		if (j - i > 1)
			qsort(l->v + i, j - i, sizeof *l->v, by_text);
	}
}

/* --native-only: the native reader alone (damaged traces) */
static int native_only(const char *path)
{
	struct lines *nat = calloc(1, sizeof *nat);
	struct ctf_native_handlers nh = { .on_event = native_on_event,
		.on_discarded = native_on_discarded, .user = nat };
	char err[1024];
	if (!nat)
		return 2;
	int status = ctf_native_iterate(path, &nh, err, sizeof err);
	if (status)
		fprintf(stderr, "%s: native: %s (after %zu events)\n", path, err, nat->n);
	else
		printf("%s: %zu events, %" PRIu64 " discarded\n", path, nat->n, nat->discarded);
	for (size_t k = 0; k < nat->n; k++)
		free(nat->v[k]);
	free(nat->v);
	free(nat);
	return status ? 2 : 0;
}

static void free_lines(struct lines *l)
{
	for (size_t k = 0; k < l->n; k++)
		free(l->v[k]);
	free(l->v);
	free(l);
}

/* The first line where a and b differ (ties sorted first). */
static size_t first_difference(struct lines *a, struct lines *b)
{
	size_t i = 0;
	sort_ties(a);
	sort_ties(b);
	while (i < a->n && i < b->n && !strcmp(a->v[i], b->v[i]))
		i++;
	return i;
}

/* --damaged: both readers, errors allowed, the same outcome required */
static int damaged(const char *path)
{
	struct lines *bt = calloc(1, sizeof *bt), *nat = calloc(1, sizeof *nat);
	struct ca_ctf_handlers bh = { bt_on_event, bt_on_discarded, bt, bt_on_lost_packets };
	struct ctf_native_handlers nh = { .on_event = native_on_event,
		.on_discarded = native_on_discarded, .user = nat };
	char bt_err[1024] = "", nat_err[1024] = "";
	if (!bt || !nat)
		return 2;
	int bt_status = ca_ctf_iterate(path, &bh, bt_err, sizeof bt_err);
	int nat_status = ctf_native_iterate(path, &nh, nat_err, sizeof nat_err);
	size_t i = first_difference(bt, nat);
	bool same = !bt_status == !nat_status && i == bt->n && i == nat->n;
	if (nat_status == CARET_ERR_UNSUPPORTED) { /* the analyzer hands such a trace to babeltrace2 */
		printf("ok %s: native hands it to babeltrace2 (%s)\n", path, nat_err);
		free_lines(bt);
		free_lines(nat);
		return 0;
	}
	printf("%s %s: babeltrace2 %zu events%s%s, native %zu events%s%s\n", same ? "ok" : "FAIL",
		path, bt->n, bt_status ? ", then: " : "", bt_err, nat->n, nat_status ? ", then: " : "",
		nat_err);
	if (i < bt->n || i < nat->n)
		printf("  event %zu differs:\n  babeltrace2: %s\n  native:      %s\n", i,
			i < bt->n ? bt->v[i] : "(none)", i < nat->n ? nat->v[i] : "(none)");
	free_lines(bt);
	free_lines(nat);
	return same ? 0 : 1;
}

int main(int argc, char **argv)
{
	int status = 0;
	if (argc == 3 && !strcmp(argv[1], "--native-only"))
		return native_only(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "--damaged"))
		return damaged(argv[2]);
	for (int a = 1; a < argc; a++) {
		struct lines *bt = calloc(1, sizeof *bt), *nat = calloc(1, sizeof *nat);
		char err[1024];
		struct ca_ctf_handlers bh = { bt_on_event, bt_on_discarded, bt, bt_on_lost_packets };
		struct ctf_native_handlers nh = { .on_event = native_on_event,
		.on_discarded = native_on_discarded, .user = nat };
		if (!bt || !nat)
			return 2;
		if (ca_ctf_iterate(argv[a], &bh, err, sizeof err) != 0) {
			fprintf(stderr, "%s: babeltrace2: %s\n", argv[a], err);
			return 2;
		}
		if (ctf_native_iterate(argv[a], &nh, err, sizeof err) != 0) {
			fprintf(stderr, "%s: native: %s\n", argv[a], err);
			return 2;
		}
		sort_ties(bt);
		sort_ties(nat);
		size_t i = 0;
		while (i < bt->n && i < nat->n && !strcmp(bt->v[i], nat->v[i]))
			i++;
		if (i < bt->n || i < nat->n || bt->discarded != nat->discarded ||
		    bt->lost_packets != nat->lost_packets) {
			printf("FAIL %s: %zu events (babeltrace2) and %zu (native), %" PRIu64 " and %"
				PRIu64 " discarded, %" PRIu64 " and %" PRIu64 " packets lost; event %zu "
				"differs:\n  babeltrace2: %s\n  native:      %s\n",
				argv[a], bt->n, nat->n, bt->discarded, nat->discarded, bt->lost_packets,
				nat->lost_packets, i,
				i < bt->n ? bt->v[i] : "(none)", i < nat->n ? nat->v[i] : "(none)");
			status = 1;
		} else {
			printf("ok %s: %zu events, %" PRIu64 " discarded, %" PRIu64 " packets lost, the "
				"same from both readers\n", argv[a], bt->n, bt->discarded, bt->lost_packets);
		}
		for (size_t k = 0; k < bt->n; k++)
			free(bt->v[k]);
		for (size_t k = 0; k < nat->n; k++)
			free(nat->v[k]);
		free(bt->v);
		free(nat->v);
		free(bt);
		free(nat);
	}
	return status;
}
