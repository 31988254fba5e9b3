/*
 * follow.c - a path's messages followed as the streamed joins (stream.c)
 * go, instead of over arrays of every record (path/latency.c): what
 * `caret path latency` needs, in memory that grows with the path's
 * messages and the publishes of its nodes, not with the events.
 *
 * stream.c reports facts: a publish of a path node on a path topic, a
 * delivery of a message to a path node, the end of a run of the first or
 * last node. They wait in time order until settled (an inter-process
 * message's publish can be found up to STAMP_GRACE after its run began),
 * then move the messages on: a message waits at the run that holds it for
 * a delivery of one of that run's publishes to the next node (the first
 * delivered goes on), or, at a use_latest_message node, for the node's
 * next output while no newer input has come.
 */
#include <stdlib.h>
#include <string.h>

#include "followed.h"
#include "records.h"
#include "vec.h"
#include "sort_r.h"

enum fact_kind { PUBLISH, DELIVER, END };

struct fact { /* 32 bytes */
	uint64_t time; /* the publish's, the delivered run's start, the end */
	uint64_t run;  /* published in, delivered to, ending */
	uint64_t ref;  /* DELIVER: the publish (0: none); PUBLISH: its run's start */
	uint32_t callback; /* a PUBLISH's run's (the rows' order) */
	uint8_t hop;       /* PUBLISH, DELIVER: of hop (topic hop - 1) */
	uint8_t kind;
};

struct publish {
	uint64_t time, run; /* run 0: in none (yet) */
};

struct row {
	size_t callback;     /* the first run's: the rows' order */
	uint64_t entry;      /* when the message entered the node it is in */
	uint64_t from;       /* waiting at a run: its publishes from this time count */
	uint64_t superseded; /* pending at a use_latest_message node: when a newer input came */
	size_t next;         /* the next row waiting at the same run, or CA_NONE */
};

struct pending {
	size_t *rows;
	size_t n, cap;
};

struct ca_follow {
	const struct ca_model *m;
	size_t k; /* the last node's index */
	const char **topics; /* k */
	ca_node_policy *policies;
	size_t *index_of;    /* per model callback: its node's index in the path, or CA_NONE */
	CA_ARRAY(struct publish, publishes);
	CA_ARRAY(struct fact, facts); /* from first_fact on, by time */
	size_t first_fact;
	CA_ARRAY(struct row, rows);
	CA_ARRAY(ca_path_message, messages); /* parallel to rows */
	int64_t *hops;                       /* rows x hop_count */
	size_t hop_count, cap_hops;          /* cap_hops: rows */
	struct ca_pair_map waiting; /* (run, hop) -> first row waiting there; hop 0: seeded */
	struct pending *pending;    /* per node: rows waiting for its next output */
	bool oom;
};

struct ca_follow *ca_follow_new(const struct ca_model *m, const ca_path *path)
{
	struct ca_follow *f = calloc(1, sizeof *f);
	size_t n = path->node_count;
	if (!f)
		return NULL;
	f->m = m;
	f->k = n - 1;
	f->hop_count = 2 * f->k + 1;
	f->topics = calloc(n, sizeof *f->topics);
	f->policies = calloc(n, sizeof *f->policies);
	f->index_of = malloc((m->n_callbacks + 1) * sizeof *f->index_of);
	size_t *node_of = malloc((m->n_nodes + 1) * sizeof *node_of);
	f->pending = calloc(n, sizeof *f->pending);
	if (!f->topics || !f->policies || !f->index_of || !node_of || !f->pending) {
		free(node_of);
		ca_follow_free(f);
		return NULL;
	}
	for (size_t x = 0; x <= m->n_nodes; x++)
		node_of[x] = CA_NONE;
	for (size_t i = 0; i < n; i++) {
		for (size_t x = 0; x < m->n_nodes; x++)
			if (m->nodes[x].fqn == path->nodes[i])
				node_of[x] = i;
		f->topics[i] = i < f->k ? path->topics[i] : NULL;
		f->policies[i] = path->policies[i];
	}
	for (size_t c = 0; c < m->n_callbacks; c++)
		f->index_of[c] = m->callbacks[c].node == CA_NONE ? CA_NONE :
			node_of[m->callbacks[c].node];
	free(node_of);
	return f;
}

void ca_follow_free(struct ca_follow *f)
{
	if (!f)
		return;
	for (size_t i = 0; f->pending && i <= f->k; i++)
		free(f->pending[i].rows);
	free(f->pending);
	free(f->topics);
	free(f->policies);
	free(f->index_of);
	free(f->publishes);
	free(f->facts);
	free(f->rows);
	free(f->messages);
	free(f->hops);
	ca_pair_map_free(&f->waiting);
	free(f);
}

/* ---- facts, as stream.c reports them ------------------------------------------ */

/* The path index of the run's node, or CA_NONE. */
static size_t node_index(const struct ca_follow *f, size_t callback)
{
	return callback == CA_NONE ? CA_NONE : f->index_of[callback];
}

/* Inserted after every fact not later: they come nearly in time order. */
static bool add_fact(struct ca_follow *f, struct fact x)
{
	struct fact *last = VEC_PUSH_RAW(f->facts, f->n_facts, f->cap_facts);
	if (!last) {
		f->oom = true;
		return false;
	}
	size_t i = (size_t)(last - f->facts);
	while (i > f->first_fact && f->facts[i - 1].time > x.time) {
		f->facts[i] = f->facts[i - 1];
		i--;
	}
	f->facts[i] = x;
	return true;
}

static bool publish_fact(struct ca_follow *f, uint64_t time, const struct ca_stream_run *run,
	const char *topic)
{
	size_t i = node_index(f, run->callback);
	if (i == CA_NONE || i == f->k || f->topics[i] != topic ||
	    (i > 0 && f->policies[i] != CA_POLICY_USE_LATEST_MESSAGE))
		return true; /* a callback chain's publishes count at their deliveries */
	return add_fact(f, (struct fact){ time, run->id, run->start, (uint32_t)run->callback,
		(uint8_t)(i + 1), PUBLISH });
}

uint64_t ca_follow_publish(struct ca_follow *f, uint64_t time, const struct ca_stream_run *run,
	const char *topic)
{
	struct publish *p = VEC_PUSH_RAW(f->publishes, f->n_publishes, f->cap_publishes);
	if (!p) {
		f->oom = true;
		return 0;
	}
	*p = (struct publish){ time, run ? run->id : 0 };
	if (run && !publish_fact(f, time, run, topic))
		return 0;
	return f->n_publishes;
}

bool ca_follow_place(struct ca_follow *f, uint64_t ref, const struct ca_stream_run *run,
	const char *topic)
{
	if (!ref || ref > f->n_publishes)
		return true;
	struct publish *p = &f->publishes[ref - 1];
	p->run = run->id;
	return publish_fact(f, p->time, run, topic);
}

bool ca_follow_deliver(struct ca_follow *f, const struct ca_stream_run *run, const char *topic,
	uint64_t ref)
{
	size_t i = node_index(f, run->callback);
	if (i == CA_NONE || i == 0 || f->topics[i - 1] != topic)
		return true;
	return add_fact(f, (struct fact){ run->start, run->id, ref, 0, (uint8_t)i, DELIVER });
}

bool ca_follow_end(struct ca_follow *f, const struct ca_stream_run *run, uint64_t end)
{
	size_t i = node_index(f, run->callback);
	if (i != 0 && i != f->k)
		return true;
	return add_fact(f, (struct fact){ end, run->id, 0, 0, 0, END });
}

/* ---- messages along the path ------------------------------------------------------ */

static int64_t *hops_of(struct ca_follow *f, size_t row)
{
	return &f->hops[row * f->hop_count];
}

static void wait_at(struct ca_follow *f, uint64_t run, size_t hop, size_t row)
{
	bool added;
	uint64_t *first = ca_pair_map_at(&f->waiting, run, hop, &added);
	if (!first) {
		f->oom = true;
		return;
	}
	f->rows[row].next = added ? CA_NONE : (size_t)*first;
	*first = row;
}

/* A run of the first node published on the first topic: its message, once. */
static void seed(struct ca_follow *f, const struct fact *x)
{
	bool added;
	uint64_t *seeded = ca_pair_map_at(&f->waiting, x->run, 0, &added);
	if (!seeded || !added) {
		f->oom = f->oom || !seeded;
		return;
	}
	struct row *r = VEC_PUSH_RAW(f->rows, f->n_rows, f->cap_rows);
	ca_path_message *m = r ? VEC_PUSH_RAW(f->messages, f->n_messages, f->cap_messages) : NULL;
	if (m && f->cap_hops < f->cap_rows) {
		int64_t *hops = realloc(f->hops, f->cap_rows * f->hop_count * sizeof *hops);
		if (hops) {
			f->hops = hops;
			f->cap_hops = f->cap_rows;
		}
	}
	if (!m || f->cap_hops < f->cap_rows) {
		f->oom = true;
		return;
	}
	size_t row = f->n_rows - 1;
	*seeded = row; /* the map has not changed since */
	*r = (struct row){ x->callback, x->ref, 0, 0, CA_NONE };
	*m = (ca_path_message){ x->ref, x->time, 0, 0 };
	for (size_t h = 0; h < f->hop_count; h++)
		hops_of(f, row)[h] = CA_HOP_NONE;
	wait_at(f, x->run, 1, row);
}

/* The node's output: its pending rows go on from it, or (a newer input
 * came before it) are lost. */
static void output(struct ca_follow *f, size_t node, const struct fact *x)
{
	struct pending *p = &f->pending[node];
	for (size_t j = 0; j < p->n; j++) {
		struct row *r = &f->rows[p->rows[j]];
		if (r->superseded && r->superseded < x->time)
			continue; /* lost */
		r->from = x->time;
		wait_at(f, x->run, node + 1, p->rows[j]);
	}
	p->n = 0;
}

/* The message of row `row`, at hop `hop`, published at pt, reached run
 * (id, start) of the next node. */
static void reach(struct ca_follow *f, size_t row, size_t hop, uint64_t pt, const struct fact *x)
{
	struct row *r = &f->rows[row];
	int64_t *h = hops_of(f, row);
	h[2 * (hop - 1)] = (int64_t)(pt - r->entry);
	h[2 * hop - 1] = (int64_t)(x->time - pt);
	if (hop == 1)
		f->messages[row].publish = pt;
	r->entry = x->time;
	if (hop == f->k) {
		f->messages[row].last_start = x->time;
		wait_at(f, x->run, hop + 1, row);
	} else if (f->policies[hop] == CA_POLICY_USE_LATEST_MESSAGE) {
		struct pending *p = &f->pending[hop];
		size_t *slot = VEC_PUSH_RAW(p->rows, p->n, p->cap);
		if (!slot)
			f->oom = true;
		else
			*slot = row;
		r->superseded = 0;
	} else {
		r->from = 0;
		wait_at(f, x->run, hop + 1, row);
	}
}

static void deliver(struct ca_follow *f, size_t hop, const struct fact *x)
{
	if (hop < f->k && f->policies[hop] == CA_POLICY_USE_LATEST_MESSAGE) {
		struct pending *p = &f->pending[hop]; /* a newer input for these */
		for (size_t j = 0; j < p->n; j++)
			if (!f->rows[p->rows[j]].superseded && f->rows[p->rows[j]].entry < x->time)
				f->rows[p->rows[j]].superseded = x->time;
	}
	if (!x->ref)
		return;
	const struct publish *pub = &f->publishes[x->ref - 1];
	uint64_t *first = pub->run ? ca_pair_map_get(&f->waiting, pub->run, hop) : NULL;
	if (!first)
		return;
	size_t keep = CA_NONE, *tail = &keep, row = (size_t)*first;
	while (row != CA_NONE) {
		size_t next = f->rows[row].next;
		if (f->rows[row].from <= pub->time) {
			reach(f, row, hop, pub->time, x);
		} else {
			*tail = row;
			tail = &f->rows[row].next;
			*tail = CA_NONE;
		}
		row = next;
	}
	if (keep == CA_NONE)
		ca_pair_map_remove(&f->waiting, pub->run, hop);
	else if ((first = ca_pair_map_get(&f->waiting, pub->run, hop)))
		*first = keep;
}

static void end(struct ca_follow *f, const struct fact *x)
{
	ca_pair_map_remove(&f->waiting, x->run, 0); /* a first node's run */
	uint64_t *first = ca_pair_map_get(&f->waiting, x->run, f->k + 1);
	if (!first)
		return;
	for (size_t row = (size_t)*first; row != CA_NONE; row = f->rows[row].next) {
		ca_path_message *m = &f->messages[row];
		m->last_end = x->time;
		hops_of(f, row)[2 * f->k] = (int64_t)(x->time - m->last_start);
	}
	ca_pair_map_remove(&f->waiting, x->run, f->k + 1);
}

static void apply(struct ca_follow *f, const struct fact *x)
{
	if (x->kind == END) {
		end(f, x);
		return;
	}
	size_t hop = x->hop;
	if (x->kind == DELIVER)
		deliver(f, hop, x);
	else if (hop == 1)
		seed(f, x);
	else if (f->policies[hop - 1] == CA_POLICY_USE_LATEST_MESSAGE)
		output(f, hop - 1, x);
}

bool ca_follow_settle(struct ca_follow *f, uint64_t settled)
{
	while (f->first_fact < f->n_facts && f->facts[f->first_fact].time < settled && !f->oom)
		apply(f, &f->facts[f->first_fact++]);
	if (f->first_fact == f->n_facts) {
		f->first_fact = f->n_facts = 0;
	} else if (f->first_fact > 4096 && f->first_fact * 2 > f->n_facts) {
		f->n_facts -= f->first_fact;
		memmove(f->facts, f->facts + f->first_fact, f->n_facts * sizeof *f->facts);
		f->first_fact = 0;
	}
	return !f->oom;
}

/* ---- the result ------------------------------------------------------------------- */

/* path/latency.c's order: the first run's start, its callback, its thread */
static int by_first_run(const void *a, const void *b, void *ctx)
{
	const struct ca_follow *ordered = ctx;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	const ca_path_message *p = &ordered->messages[x], *q = &ordered->messages[y];
	if (p->callback_start != q->callback_start)
		return p->callback_start < q->callback_start ? -1 : 1;
	size_t cx = ordered->rows[x].callback, cy = ordered->rows[y].callback;
	return cx != cy ? (cx < cy ? -1 : 1) : (x > y) - (x < y);
}

ca_path_latency *ca_follow_finish(struct ca_follow *f)
{
	if (!ca_follow_settle(f, UINT64_MAX))
		return NULL;
	size_t n = f->n_rows, *order = malloc((n + 1) * sizeof *order);
	bool in_order = true; /* as rows mostly are: handed over as they are */
	for (size_t i = 0; order && i < n; i++) {
		order[i] = i;
		in_order = in_order && (!i || by_first_run(&order[i - 1], &order[i], f) <= 0);
	}
	in_order = in_order && n; /* none: arrays of their own all the same */
	ca_path_message *messages = in_order ? f->messages : malloc((n + 1) * sizeof *messages);
	int64_t *hops = in_order ? f->hops : malloc((n * f->hop_count + 1) * sizeof *hops);
	ca_path_latency *l = NULL;
	if (order && messages && hops && !in_order) {
		caret_sort_unless_sorted_r(order, n, sizeof *order, by_first_run, f);
		for (size_t i = 0; i < n; i++) {
			messages[i] = f->messages[order[i]];
			memcpy(&hops[i * f->hop_count], hops_of(f, order[i]),
				f->hop_count * sizeof *hops);
		}
	}
	if (order && messages && hops && (l = ca_path_latency_of(messages, hops, n, f->hop_count)) &&
	    in_order) {
		f->messages = NULL;
		f->hops = NULL;
	}
	free(order);
	if (!l && !in_order) {
		free(messages);
		free(hops);
	}
	return l;
}
