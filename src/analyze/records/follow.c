/*
 * follow.c - the path follower: messages followed along a path from facts
 * told in time order, for both ways records are made. The streamed joins
 * (stream.c) tell them as the trace is read, in memory that grows with the
 * path's messages and the publishes of its nodes, not with the events;
 * path/latency.c tells them from the records' arrays, with the hops only
 * those can give (tf, services) as links it works out.
 *
 * The facts: a publish of a path node on a path topic, a delivery of a
 * message to a path node, a link (a message of a run made a hop through
 * tf or a service: where it arrived), the end of a run of the first or
 * last node. They wait in time order until settled (an inter-process
 * message's publish can be found up to STAMP_GRACE after its run began),
 * then move the messages on: a message waits at the run that holds it for
 * a delivery of one of that run's publishes to the next node (the first
 * delivered goes on), or a link from that run; at a use_latest_message
 * node, for every output of the node while no newer input has come (the
 * original's left join: a copy of the message goes on from each, the
 * message itself stays behind for the next); at a consume_latest_message
 * node, for its next output only; at an inherit_unique_stamp node, for a
 * delivery to the next node of a message that carries its input's header
 * stamp.
 */
#include <stdlib.h>
#include <string.h>

#include "followed.h"
#include "records.h"
#include "vec.h"
#include "sort_r.h"

enum fact_kind { PUBLISH, LINK, DELIVER, END };

struct fact { /* 48 bytes */
	uint64_t time;   /* the publish's, the delivered run's start, the link's send, the end */
	uint64_t run;    /* published in, delivered to, linked from, ending */
	uint64_t ref;    /* DELIVER: the publish (0: none); PUBLISH: its run's start; LINK: links[ref - 1] */
	uint64_t header; /* DELIVER: the message's header stamp (0: unknown) */
	uint32_t callback; /* the run's: a PUBLISH's or LINK's (the rows' order), a DELIVER's */
	uint32_t seq;      /* told in this order (unordered facts: the last tie-break) */
	uint16_t hop;      /* PUBLISH, LINK: of hop (topic hop - 1); DELIVER: to node hop;
	                    * END: the ends it is (END_FIRST, END_LAST) */
	uint8_t kind;
};

struct publish {
	uint64_t time, run; /* run 0: in none (yet) */
};

struct link {
	struct ca_follow_link to;
	uint64_t from_start; /* the linked run's start (a first node's: its message's) */
};

struct row {
	size_t callback;     /* the first run's: the rows' order */
	uint64_t entry;      /* when the message entered the node it is in */
	uint64_t from;       /* waiting at a run: its publishes (links) from this time count */
	uint64_t header;     /* the header stamp of the message that brought it in (0: unknown) */
	size_t next;         /* the next row waiting at the same place, or CA_NONE */
};

/* An input a latest message node holds, for its next outputs: the row
 * that brought it, and what that row was on entering (the row moves on
 * with the first output; later outputs go on in copies of it as it was). */
struct held {
	size_t row;
	uint64_t entry, header;
	uint64_t superseded; /* when a newer input came (0: not yet) */
	bool went_on;        /* the row itself went on with an output */
};

struct pending {
	struct held *inputs;
	size_t n, cap;
};

/* What left a run on a hop (a delivery of its publish, a link), kept when
 * facts come in any order: a message that entered a run through a link
 * may get there after its output left (the run began before the request
 * or the transform reached it), and goes on with that output, as the
 * records' walk takes it. */
struct past {
	uint64_t pt, run, entry, header;
	size_t link;  /* into links, or CA_NONE: a delivery */
	size_t older; /* what left the same run on the same hop before, or CA_NONE */
};

struct ca_follow {
	const struct ca_model *m;
	size_t k; /* the last node's index */
	const char **topics; /* k */
	ca_node_policy *policies;
	uint8_t *hop_kinds;  /* k: enum ca_follow_hop of each topic */
	size_t *first_at;    /* per model callback: its node's first index in the path, or CA_NONE */
	size_t *next_at;     /* per node index: the node's next index in the path, or CA_NONE */
	bool unordered;      /* facts told in any order: sorted before they settle */
	bool sorted;
	CA_ARRAY(struct publish, publishes);
	CA_ARRAY(struct link, links);
	CA_ARRAY(struct fact, facts); /* from first_fact on, by time */
	size_t first_fact;
	CA_ARRAY(struct row, rows);
	CA_ARRAY(ca_path_message, messages); /* parallel to rows */
	int64_t *hops;                       /* rows x hop_count */
	size_t hop_count, cap_hops;          /* cap_hops: rows */
	struct ca_pair_map waiting; /* (run, hop) -> first row waiting there; hop 0: seeded */
	struct ca_pair_map stamped; /* (header stamp, hop) -> first row waiting for it */
	CA_ARRAY(struct past, past); /* unordered facts only */
	struct ca_pair_map past_at;  /* (run, hop) -> the newest past that left it */
	struct pending *pending;    /* per node: rows waiting for its next output */
	CA_ARRAY(struct ca_publish_stages, stages); /* inter-process publishes on its topics */
	struct ca_pair_map stages_of;                /* (publish reference, 0) -> stages[] */
	ca_path_topic_seen *seen;   /* per topic */
	bool oom;
};

/* Whether a node of this policy waits for its next output (a timer's, a
 * later run's) rather than the run that took the input. */
static bool waits_for_output(ca_node_policy policy)
{
	return policy == CA_POLICY_USE_LATEST_MESSAGE || policy == CA_POLICY_CONSUME_LATEST_MESSAGE;
}

/* Every index of a node in the path, from its first on. */
#define EACH_INDEX(f, i, first) for (size_t i = (first); i != CA_NONE; i = (f)->next_at[i])

static bool set_indexes(struct ca_follow *f, const ca_path *path)
{
	const struct ca_model *m = f->m;
	size_t n = path->node_count;
	size_t *node_of = malloc((m->n_nodes + 1) * sizeof *node_of);
	if (!node_of)
		return false;
	for (size_t x = 0; x <= m->n_nodes; x++)
		node_of[x] = CA_NONE;
	for (size_t i = n; i-- > 0;) { /* each node's first index last */
		f->next_at[i] = CA_NONE;
		for (size_t j = i + 1; j < n && f->next_at[i] == CA_NONE; j++)
			if (path->nodes[j] == path->nodes[i])
				f->next_at[i] = j;
		for (size_t x = 0; x < m->n_nodes; x++)
			if (m->nodes[x].fqn == path->nodes[i])
				node_of[x] = i;
	}
	for (size_t c = 0; c < m->n_callbacks; c++)
		f->first_at[c] = m->callbacks[c].node == CA_NONE ? CA_NONE :
			node_of[m->callbacks[c].node];
	free(node_of);
	return true;
}

struct ca_follow *ca_follow_new(const struct ca_model *m, const ca_path *path,
	const uint8_t *hop_kinds)
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
	f->hop_kinds = calloc(n, sizeof *f->hop_kinds);
	f->first_at = malloc((m->n_callbacks + 1) * sizeof *f->first_at);
	f->next_at = malloc(n * sizeof *f->next_at);
	f->pending = calloc(n, sizeof *f->pending);
	f->seen = calloc(n, sizeof *f->seen);
	if (n > UINT16_MAX || !f->topics || !f->policies || !f->hop_kinds || !f->first_at ||
	    !f->next_at || !f->pending || !f->seen || !set_indexes(f, path)) {
		ca_follow_free(f);
		return NULL;
	}
	for (size_t i = 0; i < n; i++) {
		f->topics[i] = i < f->k ? path->topics[i] : NULL;
		f->policies[i] = path->policies[i];
		f->hop_kinds[i] = hop_kinds && i < f->k ? hop_kinds[i] : CA_FOLLOW_TOPIC;
	}
	return f;
}

void ca_follow_unordered(struct ca_follow *f)
{
	f->unordered = true;
}

void ca_follow_free(struct ca_follow *f)
{
	if (!f)
		return;
	for (size_t i = 0; f->pending && i <= f->k; i++)
		free(f->pending[i].inputs);
	free(f->pending);
	free(f->topics);
	free(f->policies);
	free(f->hop_kinds);
	free(f->first_at);
	free(f->next_at);
	free(f->publishes);
	free(f->links);
	free(f->facts);
	free(f->rows);
	free(f->messages);
	free(f->hops);
	ca_pair_map_free(&f->waiting);
	ca_pair_map_free(&f->stamped);
	free(f->past);
	ca_pair_map_free(&f->past_at);
	free(f->stages);
	ca_pair_map_free(&f->stages_of);
	free(f->seen);
	free(f);
}

/* ---- facts ------------------------------------------------------------------ */

/* The run's node's first index in the path, or CA_NONE. */
static size_t first_index(const struct ca_follow *f, size_t callback)
{
	return callback == CA_NONE ? CA_NONE : f->first_at[callback];
}

/* Facts at one time in the order the messages go through them: a node's
 * output (or link) before the deliveries it makes, a delivery before the
 * output of the node it reaches, a run's end last; deliveries of one
 * run's publishes by publish, as path/latency.c's lookups took them. */
static uint32_t rank(const struct fact *x)
{
	return x->kind == END ? UINT32_MAX : 2u * x->hop + (x->kind == DELIVER);
}

static int by_time_and_rank(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	const struct fact *x = a, *y = b;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	uint32_t rx = rank(x), ry = rank(y);
	if (rx != ry)
		return rx < ry ? -1 : 1;
	if (x->kind == DELIVER && x->ref != y->ref)
		return x->ref < y->ref ? -1 : 1;
	/* one message delivered to two runs that began at one nanosecond (two
	 * subscriptions in two threads): the first callback's, however told */
	if (x->kind == DELIVER && x->callback != y->callback)
		return x->callback < y->callback ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* Inserted after every fact not later (at one time: in by_time_and_rank's
 * order, as the unordered are sorted): they come nearly in time order
 * (unordered ones: at the end, sorted before they settle). Inline: the
 * fact is then written in place, not built and copied. */
static inline __attribute__((always_inline)) bool add_fact(struct ca_follow *f, struct fact x)
{
	struct fact *last = VEC_PUSH_RAW(f->facts, f->n_facts, f->cap_facts);
	if (!last) {
		f->oom = true;
		return false;
	}
	size_t i = (size_t)(last - f->facts);
	x.seq = (uint32_t)i;
	f->sorted = false;
	while (!f->unordered && i > f->first_fact && (f->facts[i - 1].time > x.time ||
		(f->facts[i - 1].time == x.time && by_time_and_rank(&f->facts[i - 1], &x, NULL) > 0))) {
		f->facts[i] = f->facts[i - 1];
		i--;
	}
	f->facts[i] = x;
	return true;
}

bool ca_follow_output(struct ca_follow *f, uint64_t time, const struct ca_stream_run *run,
	const char *topic)
{
	EACH_INDEX(f, i, first_index(f, run->callback)) {
		if (i == f->k || f->topics[i] != topic || f->hop_kinds[i] != CA_FOLLOW_TOPIC ||
		    (i > 0 && f->policies[i] == CA_POLICY_INHERIT_UNIQUE_STAMP))
			continue; /* an inherited stamp's output is known at its delivery */
		if (!add_fact(f, (struct fact){ time, run->id, run->start, 0, (uint32_t)run->callback,
			0, (uint16_t)(i + 1), PUBLISH }))
			return false;
	}
	return true;
}

uint64_t ca_follow_note_publish(struct ca_follow *f, uint64_t time, uint64_t run)
{
	struct publish *p = VEC_PUSH_RAW(f->publishes, f->n_publishes, f->cap_publishes);
	if (!p) {
		f->oom = true;
		return 0;
	}
	*p = (struct publish){ time, run };
	return f->n_publishes;
}

uint64_t ca_follow_publish(struct ca_follow *f, uint64_t time, const struct ca_stream_run *run,
	const char *topic)
{
	uint64_t ref = ca_follow_note_publish(f, time, run ? run->id : 0);
	if (ref && run && !ca_follow_output(f, time, run, topic))
		return 0;
	return ref;
}

bool ca_follow_place(struct ca_follow *f, uint64_t ref, const struct ca_stream_run *run,
	const char *topic)
{
	if (!ref || ref > f->n_publishes)
		return true;
	struct publish *p = &f->publishes[ref - 1];
	p->run = run->id;
	return ca_follow_output(f, p->time, run, topic);
}

bool ca_follow_deliver(struct ca_follow *f, const struct ca_stream_run *run, const char *topic,
	uint64_t ref, uint64_t header, bool intra)
{
	EACH_INDEX(f, i, first_index(f, run->callback)) {
		if (i == 0 || f->topics[i - 1] != topic || f->hop_kinds[i - 1] != CA_FOLLOW_TOPIC)
			continue;
		f->seen[i - 1].intra |= intra && ref;
		if (!add_fact(f, (struct fact){ run->start, run->id, ref, header,
			(uint32_t)run->callback, 0, (uint16_t)i, DELIVER }))
			return false;
	}
	return true;
}

bool ca_follow_link(struct ca_follow *f, size_t hop, uint64_t sent,
	const struct ca_stream_run *from, const struct ca_follow_link *to)
{
	struct link *l = VEC_PUSH_RAW(f->links, f->n_links, f->cap_links);
	if (!l) {
		f->oom = true;
		return false;
	}
	*l = (struct link){ *to, from->start };
	return add_fact(f, (struct fact){ sent, from->id, f->n_links, 0, (uint32_t)from->callback,
		0, (uint16_t)hop, LINK });
}

/* The path's first topic named `topic` (CA_NONE: none). */
static size_t topic_index(const struct ca_follow *f, const char *topic)
{
	for (size_t i = 0; topic && i < f->k; i++)
		if (f->topics[i] == topic && f->hop_kinds[i] == CA_FOLLOW_TOPIC)
			return i;
	return CA_NONE;
}

bool ca_follow_stages(struct ca_follow *f, uint64_t ref, const char *topic, uint64_t rcl,
	uint64_t dds_write, uint64_t source_stamp)
{
	size_t i = topic_index(f, topic);
	if (i == CA_NONE || !ref || ref > f->n_publishes)
		return true;
	bool added;
	uint64_t *at = ca_pair_map_at(&f->stages_of, ref, 0, &added);
	struct ca_publish_stages *x = !at ? NULL : added ?
		VEC_PUSH_RAW(f->stages, f->n_stages, f->cap_stages) : &f->stages[*at];
	if (!x) {
		f->oom = true;
		return false;
	}
	if (added) {
		*at = f->n_stages - 1;
		*x = (struct ca_publish_stages){ .time = f->publishes[ref - 1].time, .topic = i };
	}
	f->seen[i].inter |= rcl || dds_write || source_stamp;
	x->rcl = rcl ? rcl : x->rcl;
	x->dds_write = dds_write ? dds_write : x->dds_write;
	x->source_stamp = source_stamp ? source_stamp : x->source_stamp;
	return true;
}

/* An END fact's run: of the first node (its seeded message goes), of the
 * last (the messages that reached it end), or both. */
enum { END_FIRST = 1, END_LAST = 2 };

bool ca_follow_end(struct ca_follow *f, const struct ca_stream_run *run, uint64_t end)
{
	uint16_t ends = 0;
	EACH_INDEX(f, i, first_index(f, run->callback))
		ends |= (i == 0 ? END_FIRST : 0) | (i == f->k ? END_LAST : 0);
	return !ends || add_fact(f, (struct fact){ end, run->id, 0, 0, 0, 0, ends, END });
}

/* ---- messages along the path ------------------------------------------------------ */

static int64_t *hops_of(struct ca_follow *f, size_t row)
{
	return &f->hops[row * f->hop_count];
}

static void wait_in(struct ca_follow *f, struct ca_pair_map *map, uint64_t key, size_t hop,
	size_t row)
{
	bool added;
	uint64_t *first = ca_pair_map_at(map, key, hop, &added);
	if (!first) {
		f->oom = true;
		return;
	}
	f->rows[row].next = added ? CA_NONE : (size_t)*first;
	*first = row;
}

static void wait_at(struct ca_follow *f, uint64_t run, size_t hop, size_t row)
{
	wait_in(f, &f->waiting, run, hop, row);
}

/* A new row, its message and hops unset; CA_NONE out of memory. */
static size_t new_row(struct ca_follow *f)
{
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
		return CA_NONE;
	}
	return f->n_rows - 1;
}

/* A run of the first node made the path's first hop: its message, once
 * (CA_NONE: it has one, or out of memory), waiting at the run. */
static size_t seed(struct ca_follow *f, uint64_t run, uint64_t start, size_t callback,
	uint64_t time)
{
	bool added;
	uint64_t *seeded = ca_pair_map_at(&f->waiting, run, 0, &added);
	if (!seeded || !added) {
		f->oom = f->oom || !seeded;
		return CA_NONE;
	}
	size_t row = new_row(f);
	if (row == CA_NONE)
		return CA_NONE;
	*seeded = row; /* the map has not changed since */
	f->rows[row] = (struct row){ callback, start, 0, 0, CA_NONE };
	f->messages[row] = (ca_path_message){ start, time, 0, 0 };
	for (size_t h = 0; h < f->hop_count; h++)
		hops_of(f, row)[h] = CA_HOP_NONE;
	wait_at(f, run, 1, row);
	return row;
}

/* A copy of the row of held input h as it entered node `node`: its
 * message and its hops up to the node; CA_NONE out of memory. */
static size_t copy_held(struct ca_follow *f, const struct held *h, size_t node)
{
	size_t copy = new_row(f);
	if (copy == CA_NONE)
		return CA_NONE;
	f->rows[copy] = (struct row){ f->rows[h->row].callback, h->entry, 0, h->header, CA_NONE };
	f->messages[copy] = f->messages[h->row];
	f->messages[copy].last_start = f->messages[copy].last_end = 0;
	int64_t *hops = hops_of(f, copy);
	memcpy(hops, hops_of(f, h->row), 2 * node * sizeof *hops);
	for (size_t i = 2 * node; i < f->hop_count; i++)
		hops[i] = CA_HOP_NONE;
	return copy;
}

/* The node's output: its held inputs go on from it (the node's time to
 * it known now, whether or not the output reaches the next node), unless
 * a newer input came at or before it (which then takes it, as the
 * original binds an output to the latest input). At a use_latest_message
 * node an input stays held for the node's next outputs, each going on in
 * a copy of the message; at a consume_latest_message node it goes on with
 * this output alone. */
static void output(struct ca_follow *f, size_t node, const struct fact *x)
{
	struct pending *p = &f->pending[node];
	bool every_output = f->policies[node] == CA_POLICY_USE_LATEST_MESSAGE;
	size_t kept = 0;
	for (size_t j = 0; j < p->n; j++) {
		struct held h = p->inputs[j];
		if (h.superseded && h.superseded <= x->time)
			continue; /* lost, or done */
		size_t row = h.row;
		if (every_output) {
			if (h.went_on && (row = copy_held(f, &h, node)) == CA_NONE)
				return;
			h.went_on = true;
			p->inputs[kept++] = h;
		}
		struct row *r = &f->rows[row];
		r->from = x->time;
		hops_of(f, row)[2 * node] = (int64_t)(x->time - h.entry);
		wait_at(f, x->run, node + 1, row);
	}
	p->n = kept;
}

/* A callback chain node's output: the messages its run holds have the
 * node's time to its first output on the topic, whether or not it reaches
 * the next node (a delivery later sets the time to what it delivered). */
static void chain_output(struct ca_follow *f, size_t node, const struct fact *x)
{
	const uint64_t *first = ca_pair_map_get(&f->waiting, x->run, node + 1);
	for (size_t row = first ? (size_t)*first : CA_NONE; row != CA_NONE;
	     row = f->rows[row].next) {
		int64_t *h = &hops_of(f, row)[2 * node];
		if (*h == CA_HOP_NONE && f->rows[row].from <= x->time)
			*h = (int64_t)(x->time - f->rows[row].entry);
	}
}

/* Where a message arrives: run `run` of node `hop`, entered at `entry`,
 * from a publish (send) at pt; through a link (NULL: a delivery). */
struct arrival {
	uint64_t pt, run, entry, header;
	const struct ca_follow_link *link;
};

static void arrive(struct ca_follow *f, size_t row, size_t hop, const struct arrival *a);

static void remember_past(struct ca_follow *f, uint64_t run, size_t hop,
	const struct arrival *a, size_t link)
{
	bool added;
	uint64_t *newest = ca_pair_map_at(&f->past_at, run, hop, &added);
	struct past *p = newest ? VEC_PUSH_RAW(f->past, f->n_past, f->cap_past) : NULL;
	if (!p) {
		f->oom = true;
		return;
	}
	*p = (struct past){ a->pt, a->run, a->entry, a->header, link,
		added ? CA_NONE : (size_t)*newest };
	*newest = f->n_past - 1;
}

/* Facts in time order need no past: checked inline, as most are. */
static inline void remember(struct ca_follow *f, uint64_t run, size_t hop,
	const struct arrival *a, size_t link)
{
	if (f->unordered)
		remember_past(f, run, hop, a, link);
}

/* The first thing that left run `run` on hop `hop` from `from` on, or NULL. */
static const struct past *left_since(const struct ca_follow *f, uint64_t run, size_t hop,
	uint64_t from)
{
	const uint64_t *newest = ca_pair_map_get(&f->past_at, run, hop);
	const struct past *first = NULL;
	for (size_t i = newest ? (size_t)*newest : CA_NONE; i != CA_NONE; i = f->past[i].older)
		if (f->past[i].pt >= from)
			first = &f->past[i];
	return first;
}

/* Row `row` waits at run a->run for hop `hop`, unless it came through a
 * link and what takes it on has left already. */
static void wait_or_go(struct ca_follow *f, size_t row, size_t hop, const struct arrival *a)
{
	const struct past *p = a->link ? left_since(f, a->run, hop, f->rows[row].from) : NULL;
	if (!p) {
		wait_at(f, a->run, hop, row);
		return;
	}
	const struct ca_follow_link *link = p->link == CA_NONE ? NULL : &f->links[p->link].to;
	if (link && !link->run)
		return; /* lost there */
	arrive(f, row, hop, &(struct arrival){ p->pt, p->run, p->entry, p->header, link });
}

/* The message of row `row` made hop `hop`: it waits for what takes it on. */
static void arrive(struct ca_follow *f, size_t row, size_t hop, const struct arrival *a)
{
	struct row *r = &f->rows[row];
	int64_t *h = hops_of(f, row);
	h[2 * (hop - 1)] = (int64_t)(a->pt - r->entry);
	h[2 * hop - 1] = (int64_t)(a->entry - a->pt);
	if (hop == 1)
		f->messages[row].publish = a->pt;
	r->entry = a->entry;
	r->header = a->header;
	if (hop == f->k) {
		ca_path_message *m = &f->messages[row];
		m->last_start = a->entry;
		if (!a->link) {
			wait_at(f, a->run, hop + 1, row);
		} else if (a->link->end) { /* a link's end is known */
			m->last_end = a->link->end;
			h[2 * f->k] = (int64_t)(m->last_end - m->last_start);
		}
	} else if (f->hop_kinds[hop] != CA_FOLLOW_TOPIC) {
		r->from = f->hop_kinds[hop] == CA_FOLLOW_LINK_SINCE_ENTRY ? a->entry : 0;
		wait_or_go(f, row, hop + 1, a);
	} else if (waits_for_output(f->policies[hop])) {
		struct pending *p = &f->pending[hop];
		struct held *h = VEC_PUSH_RAW(p->inputs, p->n, p->cap);
		if (!h)
			f->oom = true;
		else
			*h = (struct held){ row, a->entry, a->header, 0, false };
	} else if (f->policies[hop] == CA_POLICY_INHERIT_UNIQUE_STAMP) {
		r->from = a->entry; /* its output is published after it began */
		if (a->header) /* none: lost here */
			wait_in(f, &f->stamped, a->header, hop + 1, row);
	} else {
		r->from = 0;
		wait_or_go(f, row, hop + 1, a);
	}
}

/* The rows waiting in map at (key, hop) for something at `time` or later:
 * on to a (a->link with no run: lost). */
static void move_on(struct ca_follow *f, struct ca_pair_map *map, uint64_t key, size_t hop,
	uint64_t time, const struct arrival *a)
{
	uint64_t *first = ca_pair_map_get(map, key, hop);
	if (!first)
		return;
	const struct ca_pair_slot *slots = map->slots; /* moved only if the map grows */
	size_t keep = CA_NONE, *tail = &keep, row = (size_t)*first;
	while (row != CA_NONE) {
		size_t next = f->rows[row].next;
		if (f->rows[row].from > time) {
			*tail = row;
			tail = &f->rows[row].next;
			*tail = CA_NONE;
		} else if (!a->link || a->link->run) {
			arrive(f, row, hop, a);
		} else if (hop == 1) {
			f->messages[row].publish = a->pt; /* lost, its send known */
		}
		row = next;
	}
	if (map->slots != slots) /* arrive() added rows elsewhere and the map grew */
		first = ca_pair_map_get(map, key, hop);
	if (keep == CA_NONE)
		ca_pair_map_remove_at(map, first);
	else
		*first = keep;
}

static void deliver(struct ca_follow *f, size_t hop, const struct fact *x)
{
	if (hop < f->k && f->hop_kinds[hop] == CA_FOLLOW_TOPIC && waits_for_output(f->policies[hop])) {
		struct pending *p = &f->pending[hop]; /* a newer input for these */
		for (size_t j = 0; j < p->n; j++)
			if (!p->inputs[j].superseded && p->inputs[j].entry < x->time)
				p->inputs[j].superseded = x->time;
	}
	if (!x->ref)
		return;
	const struct publish *pub = &f->publishes[x->ref - 1];
	struct arrival a = { pub->time, x->run, x->time, x->header, NULL };
	if (hop > 1 && f->hop_kinds[hop - 1] == CA_FOLLOW_TOPIC &&
	    f->policies[hop - 1] == CA_POLICY_INHERIT_UNIQUE_STAMP) {
		if (x->header)
			move_on(f, &f->stamped, x->header, hop, pub->time, &a);
	} else if (pub->run) {
		remember(f, pub->run, hop, &a, CA_NONE);
		move_on(f, &f->waiting, pub->run, hop, pub->time, &a);
	}
}

static void link(struct ca_follow *f, size_t hop, const struct fact *x)
{
	const struct link *l = &f->links[x->ref - 1];
	if (hop == 1) /* the first node's run made the first hop */
		seed(f, x->run, l->from_start, x->callback, x->time);
	struct arrival a = { x->time, l->to.run, l->to.entry, 0, &l->to };
	remember(f, x->run, hop, &a, x->ref - 1);
	move_on(f, &f->waiting, x->run, hop, x->time, &a);
}

static void end(struct ca_follow *f, const struct fact *x)
{
	if (x->hop & END_FIRST)
		ca_pair_map_remove(&f->waiting, x->run, 0); /* its seeded message */
	uint64_t *first = x->hop & END_LAST ? ca_pair_map_get(&f->waiting, x->run, f->k + 1) :
		NULL;
	if (!first)
		return;
	for (size_t row = (size_t)*first; row != CA_NONE; row = f->rows[row].next) {
		ca_path_message *m = &f->messages[row];
		m->last_end = x->time;
		hops_of(f, row)[2 * f->k] = (int64_t)(x->time - m->last_start);
	}
	ca_pair_map_remove_at(&f->waiting, first);
}

static void apply(struct ca_follow *f, const struct fact *x)
{
	size_t hop = x->hop;
	if (x->kind == END)
		end(f, x);
	else if (x->kind == LINK)
		link(f, hop, x);
	else if (x->kind == DELIVER)
		deliver(f, hop, x);
	else if (hop == 1)
		seed(f, x->run, x->ref, x->callback, x->time);
	else if (waits_for_output(f->policies[hop - 1]))
		output(f, hop - 1, x);
	else
		chain_output(f, hop - 1, x);
}

bool ca_follow_settle(struct ca_follow *f, uint64_t settled)
{
	if (f->unordered && !f->sorted) {
		caret_sort_unless_sorted_r(f->facts + f->first_fact, f->n_facts - f->first_fact,
			sizeof *f->facts, by_time_and_rank, NULL);
		f->sorted = true;
	}
	while (f->first_fact < f->n_facts && f->facts[f->first_fact].time < settled && !f->oom)
		apply(f, &f->facts[f->first_fact++]);
	if (f->first_fact == f->n_facts) {
		f->first_fact = f->n_facts = 0;
	} else if (f->first_fact > 4096 && f->first_fact >= f->n_facts - f->first_fact) {
		/* the facts left moved down once the settled ones are as many: the
		 * array stays within twice the facts in flight (a merged trace's
		 * second of lag is tens of thousands; an unmerged one's 10 ms at
		 * a high rate some 60,000, an eighth of the array: the old rule
		 * never moved them), and a move costs no more than the facts
		 * settled since the last */
		f->n_facts -= f->first_fact;
		memmove(f->facts, f->facts + f->first_fact, f->n_facts * sizeof *f->facts);
		f->first_fact = 0;
	}
	return !f->oom;
}

/* ---- the result ------------------------------------------------------------------- */

static int by_topic_and_time(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	const struct ca_publish_stages *x = a, *y = b;
	if (x->topic != y->topic)
		return x->topic < y->topic ? -1 : 1;
	return (x->time > y->time) - (x->time < y->time);
}

/* The oldest message whose input a use_latest_message node still holds
 * (not superseded): it may go on with outputs the facts do not hold yet
 * (caret live's next look); 0: none. */
static uint64_t held_since(const struct ca_follow *f)
{
	uint64_t oldest = 0;
	for (size_t node = 0; node <= f->k; node++)
		for (size_t j = 0; j < f->pending[node].n; j++) {
			const struct held *h = &f->pending[node].inputs[j];
			uint64_t start = f->messages[h->row].callback_start;
			if (!h->superseded && start && (!oldest || start < oldest))
				oldest = start;
		}
	return oldest;
}

/* The stages of the topics' publishes and what was seen on each topic,
 * for the messages' stamps: the path latency's. */
static void hand_over_stages(struct ca_follow *f, ca_path_latency *l)
{
	caret_sort_unless_sorted_r(f->stages, f->n_stages, sizeof *f->stages, by_topic_and_time,
		NULL);
	l->stages = f->stages;
	l->n_stages = f->n_stages;
	l->topics_seen = f->seen;
	f->stages = NULL;
	f->n_stages = f->cap_stages = 0;
	f->seen = NULL;
}

/* The messages' order: the first run's start, its callback, then as seeded. */
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
	uint64_t held = held_since(f);
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
	if (l) {
		hand_over_stages(f, l);
		l->held_since = held;
	}
	return l;
}
