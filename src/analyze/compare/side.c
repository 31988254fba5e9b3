/*
 * side.c - one side of a comparison: its traces, and its objects by kind
 * and name, each with the instances of every trace pooled (found by a
 * hash of kind and name while traces are gathered; sorted when asked).
 */
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "side.h"
#include "sort_r.h"
#include "vec.h"

struct side_object {
	ca_cmp_kind kind;
	char *name;
	ca_cmp_instance *instances;
	size_t n_instances, cap_instances;
};

struct side_trace {
	char *label;
	uint64_t first, last;
};

struct ca_cmp_side {
	struct side_object *objects;
	size_t n_objects, cap_objects;
	size_t *slots; /* open addressing: object index + 1, 0 empty */
	size_t n_slots;
	struct side_trace *traces;
	size_t n_traces, cap_traces;
	ca_cmp_object *view; /* ca_cmp_side_objects', by kind then name */
	bool view_valid;
};

static const char *const kind_names[CA_CMP_KINDS] = { "callback", "topic", "node", "path" };

const char *ca_cmp_kind_name(ca_cmp_kind kind)
{
	return kind < CA_CMP_KINDS ? kind_names[kind] : "?";
}

bool ca_cmp_kind_of_name(const char *name, ca_cmp_kind *kind)
{
	for (int k = 0; k < CA_CMP_KINDS; k++) {
		size_t n = strlen(kind_names[k]);
		if (!strncmp(name, kind_names[k], n) && (!name[n] || !strcmp(name + n, "s"))) {
			*kind = (ca_cmp_kind)k;
			return true;
		}
	}
	return false;
}

ca_cmp_side *ca_cmp_side_new(void)
{
	return calloc(1, sizeof(ca_cmp_side));
}

void ca_cmp_side_free(ca_cmp_side *side)
{
	if (!side)
		return;
	for (size_t i = 0; i < side->n_objects; i++) {
		free(side->objects[i].name);
		free(side->objects[i].instances);
	}
	for (size_t i = 0; i < side->n_traces; i++)
		free(side->traces[i].label);
	free(side->objects);
	free(side->slots);
	free(side->traces);
	free(side->view);
	free(side);
}

static uint64_t hash_of(ca_cmp_kind kind, const char *name)
{
	uint64_t h = 14695981039346656037ull ^ (uint64_t)kind; /* FNV-1a */
	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		h = (h ^ *p) * 1099511628211ull;
	return h;
}

/* The slot of (kind, name): its object's, or the empty one it would take. */
static size_t *slot_of(const ca_cmp_side *side, ca_cmp_kind kind, const char *name)
{
	size_t mask = side->n_slots - 1, i = (size_t)hash_of(kind, name) & mask;
	for (;; i = (i + 1) & mask) {
		size_t at = side->slots[i];
		if (!at)
			return &side->slots[i];
		const struct side_object *o = &side->objects[at - 1];
		if (o->kind == kind && !strcmp(o->name, name))
			return &side->slots[i];
	}
}

/* Slots for twice the objects (a power of two); false out of memory. */
static bool make_room(ca_cmp_side *side)
{
	if (2 * (side->n_objects + 1) <= side->n_slots)
		return true;
	size_t n = side->n_slots ? 2 * side->n_slots : 64;
	size_t *slots = calloc(n, sizeof *slots), *old = side->slots;
	if (!slots)
		return false;
	side->slots = slots;
	side->n_slots = n;
	for (size_t i = 0; i < side->n_objects; i++)
		*slot_of(side, side->objects[i].kind, side->objects[i].name) = i + 1;
	free(old);
	return true;
}

int cmp_side_add_trace(ca_cmp_side *side, const char *label, uint64_t first, uint64_t last)
{
	struct side_trace *t = VEC_PUSH(side->traces, side->n_traces, side->cap_traces);
	if (!t)
		return -1;
	if (!(t->label = strdup(label ? label : ""))) {
		side->n_traces--;
		return -1;
	}
	t->first = first;
	t->last = last;
	return 0;
}

void cmp_side_drop_trace(ca_cmp_side *side)
{
	if (!side->n_traces)
		return;
	uint32_t trace = (uint32_t)(side->n_traces - 1);
	for (size_t i = 0; i < side->n_objects; i++) {
		struct side_object *o = &side->objects[i];
		while (o->n_instances && o->instances[o->n_instances - 1].trace == trace)
			o->n_instances--;
	}
	free(side->traces[--side->n_traces].label);
	side->view_valid = false;
}

int cmp_side_add(ca_cmp_side *side, ca_cmp_kind kind, const char *name, const uint64_t *starts,
	const int64_t *latencies, size_t n)
{
	if (!side->n_traces || !make_room(side))
		return -1;
	size_t *slot = slot_of(side, kind, name);
	if (!*slot) {
		struct side_object *o = VEC_PUSH(side->objects, side->n_objects, side->cap_objects);
		if (!o)
			return -1;
		o->kind = kind;
		if (!(o->name = strdup(name))) {
			side->n_objects--;
			return -1;
		}
		*slot = side->n_objects;
	}
	struct side_object *o = &side->objects[*slot - 1];
	uint32_t trace = (uint32_t)(side->n_traces - 1);
	for (size_t i = 0; i < n; i++) {
		ca_cmp_instance *x = VEC_PUSH_RAW(o->instances, o->n_instances, o->cap_instances);
		if (!x)
			return -1;
		*x = (ca_cmp_instance){ starts[i], latencies[i], trace };
	}
	side->view_valid = false;
	return 0;
}

size_t ca_cmp_side_traces(const ca_cmp_side *side)
{
	return side ? side->n_traces : 0;
}

const char *ca_cmp_side_trace(const ca_cmp_side *side, size_t i, uint64_t *first,
	uint64_t *last)
{
	if (!side || i >= side->n_traces)
		return NULL;
	if (first)
		*first = side->traces[i].first;
	if (last)
		*last = side->traces[i].last;
	return side->traces[i].label;
}

static int by_trace_start(const void *a, const void *b, void *ctx)
{
	const ca_cmp_instance *x = a, *y = b;
	(void)ctx;
	if (x->trace != y->trace)
		return x->trace < y->trace ? -1 : 1;
	return (x->start > y->start) - (x->start < y->start);
}

static int by_kind_name(const void *a, const void *b, void *ctx)
{
	const ca_cmp_object *x = a, *y = b;
	(void)ctx;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	return strcmp(x->name, y->name);
}

size_t ca_cmp_side_objects(ca_cmp_side *side, const ca_cmp_object **objects)
{
	*objects = NULL;
	if (!side)
		return 0;
	if (!side->view_valid) {
		ca_cmp_object *view = realloc(side->view, (side->n_objects + 1) * sizeof *view);
		if (!view)
			return 0;
		side->view = view;
		for (size_t i = 0; i < side->n_objects; i++) {
			struct side_object *o = &side->objects[i];
			caret_sort_unless_sorted_r(o->instances, o->n_instances, sizeof *o->instances,
				by_trace_start, NULL);
			view[i] = (ca_cmp_object){ o->kind, o->name, o->instances, o->n_instances };
		}
		caret_sort_r(view, side->n_objects, sizeof *view, by_kind_name, NULL);
		side->view_valid = true;
	}
	*objects = side->view;
	return side->n_objects;
}

const ca_cmp_object *ca_cmp_side_find(ca_cmp_side *side, ca_cmp_kind kind, const char *name)
{
	const ca_cmp_object *v;
	size_t n = ca_cmp_side_objects(side, &v), lo = 0, hi = n;
	ca_cmp_object key = { kind, name, NULL, 0 };
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = by_kind_name(&key, &v[mid], NULL);
		if (!c)
			return &v[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}
