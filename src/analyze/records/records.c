/*
 * records.c - ca_records_*: builds the records of a trace (scan, then
 * join) and hands out views of them; ca_stats_of.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "followed.h"
#include "records.h"

ca_records *ca_records_build(const ca_trace *t, char *err, size_t err_size)
{
	return ca_records_build_with(t, NULL, NULL, err, err_size);
}

/* The records the load scanned in its second pass, if some are these. */
static ca_records *take_prebuilt(const ca_trace *t, bool runs_only, bool latencies_only,
	size_t n_nodes, const ca_path *follow, bool follow_longest, bool latency_times,
	bool with_runs)
{
	for (size_t i = 0; t && i < t->n_prebuilt; i++) {
		ca_records *r = t->prebuilt[i];
		if (r->runs_only != runs_only || r->follow_longest != follow_longest ||
		    (!follow_longest && (r->n_node_names != n_nodes || r->follow_request != follow)) ||
		    (!follow && !follow_longest && r->latencies_only != latencies_only) ||
		    r->latency_times != (latency_times && r->latencies_only && !follow) ||
		    r->with_runs != (with_runs && r->latencies_only && !follow))
			continue;
		ca_trace *owner = (ca_trace *)t; /* handed out once */
		memmove(&owner->prebuilt[i], &owner->prebuilt[i + 1],
			(owner->n_prebuilt - i - 1) * sizeof *owner->prebuilt);
		owner->n_prebuilt--;
		return r;
	}
	return NULL;
}

/* A path to follow (its nodes the nodes whose records count). */
static void follow_options(struct ca_records *r, const ca_records_options *o,
	const struct ca_follow_planner *planner)
{
	if (r->runs_only || r->latencies_only || !planner)
		return;
	r->planner = planner;
	r->follow_longest = o->follow_longest && !o->follow; /* chosen with the model */
	if (!o->follow || o->follow->node_count < 2)
		return;
	r->follow_request = o->follow;
	r->follow_policy = o->follow_policy;
	r->node_names = o->follow->nodes;
	r->n_node_names = o->follow->node_count;
}

struct ca_records *ca_records_ride(ca_trace *t, const ca_records_options *o,
	const struct ca_follow_planner *planner)
{
	ca_records *r = calloc(1, sizeof *r);
	if (!r)
		return NULL;
	r->t = t;
	r->runs_only = o->runs_only;
	r->latencies_only = o->latencies_only && !o->runs_only;
	r->latency_times = r->latencies_only && o->latency_times;
	r->with_runs = r->latencies_only && o->with_runs;
	r->node_names = o->nodes;
	r->n_node_names = r->runs_only || r->latencies_only ? 0 : o->n_nodes;
	follow_options(r, o, planner);
	if (ca_records_scan_begin(r) != 0) {
		ca_records_free(r);
		return NULL;
	}
	return r;
}

/* What records options ask for, planner at hand. */
struct wanted {
	bool runs_only, latencies_only;
	const ca_path *follow; /* a path followed, or NULL */
	bool longest;          /* the longest chain followed */
	size_t n_nodes;        /* the nodes whose records are kept (0: all) */
};

static struct wanted wanted_of(const ca_records_options *o,
	const struct ca_follow_planner *planner)
{
	struct wanted w = { o && o->runs_only, o && o->latencies_only && !o->runs_only, NULL,
		false, 0 };
	bool joined = !w.runs_only && !w.latencies_only; /* the others are complete once scanned */
	if (joined && planner && o && o->follow && o->follow->node_count >= 2)
		w.follow = o->follow;
	w.longest = joined && planner && o && o->follow_longest && !o->follow;
	w.n_nodes = w.follow ? w.follow->node_count : joined && o ? o->n_nodes : 0;
	return w;
}

static ca_records *out_of_memory(ca_records *r, char *err, size_t err_size)
{
	ca_records_free(r);
	snprintf(err, err_size, "out of memory while joining the runtime events");
	return NULL;
}

/* Records the load scanned: joined now (unless they followed a path). */
static ca_records *finish_prebuilt(ca_records *r, bool joined, char *err, size_t err_size)
{
	joined = joined && !r->latencies_only; /* a path followed: complete too */
	if (r->oom || (joined && ca_records_join(r) != 0))
		return out_of_memory(r, err, err_size);
	return r;
}

/* Records scanned in a pass of their own. */
static ca_records *scan_anew(const ca_trace *t, const ca_records_options *o,
	const struct ca_follow_planner *planner, const struct wanted *w, char *err,
	size_t err_size)
{
	ca_records *r = calloc(1, sizeof *r);
	if (!r || !t || !t->model) {
		free(r);
		snprintf(err, err_size, "cannot build records: %s", t ? "out of memory" : "no trace");
		return NULL;
	}
	*r = (ca_records){ .t = t, .m = t->model, .runs_only = w->runs_only,
		.latencies_only = w->latencies_only,
		.latency_times = w->latencies_only && o->latency_times,
		.with_runs = w->latencies_only && o->with_runs,
		.node_names = w->n_nodes ? o->nodes : NULL, .n_node_names = w->n_nodes };
	if (w->follow || w->longest)
		follow_options(r, o, planner);
	ca_records_choose_longest(r);
	if (!ca_records_setup_follow(r))
		return out_of_memory(r, err, err_size);
	bool joined = !r->runs_only && !r->latencies_only;
	if (!ca_records_filter_nodes(r) ||
	    ((r->runs_only || r->with_runs) &&
	     !(r->run_store = ca_run_store_new(r->m->n_callbacks))) ||
	    (r->latencies_only && !(r->stream = ca_stream_new(r))) ||
	    ca_records_scan(r) != 0 || (joined && ca_records_join(r) != 0))
		return out_of_memory(r, err, err_size);
	return r;
}

ca_records *ca_records_build_with(const ca_trace *t, const ca_records_options *o,
	const struct ca_follow_planner *planner, char *err, size_t err_size)
{
	struct wanted w = wanted_of(o, planner);
	ca_records *r = take_prebuilt(t, w.runs_only, w.latencies_only, w.n_nodes, w.follow,
		w.longest, o && o->latency_times, o && o->with_runs);
	if (r)
		return finish_prebuilt(r, !w.runs_only && !w.latencies_only, err, err_size);
	return scan_anew(t, o, planner, &w, err, err_size);
}

/* The path's names as the model interned them, or NULL. */
static const char *node_named(const struct ca_model *m, const char *name)
{
	for (size_t i = 0; i < m->n_nodes; i++)
		if (!strcmp(m->nodes[i].fqn, name))
			return m->nodes[i].fqn;
	return NULL;
}

static const char *topic_named(const struct ca_model *m, const char *name)
{
	for (size_t i = 0; i < m->n_publishers; i++)
		if (!strcmp(m->publishers[i].topic, name))
			return m->publishers[i].topic;
	return NULL;
}

/* Whether the stream can follow the path: its nodes and topics found, no
 * node twice, no node inheriting stamps, at most 64 nodes. */
static bool followable(struct ca_records *r, const char **nodes, const char **topics,
	ca_node_policy *policies)
{
	const ca_path *p = r->follow_request;
	const struct ca_model *m = r->m;
	if (p->node_count > 64)
		return false;
	for (size_t i = 0; i < p->node_count; i++) {
		if (!(nodes[i] = node_named(m, p->nodes[i])))
			return false;
		for (size_t j = 0; j < i; j++)
			if (nodes[j] == nodes[i])
				return false;
		ca_node_policy policy = p->policies && p->policies[i] != CA_POLICY_DEFAULT ?
			p->policies[i] : r->follow_policy;
		policies[i] = i ? policy : CA_POLICY_CALLBACK_CHAIN;
		if (policies[i] == CA_POLICY_INHERIT_UNIQUE_STAMP && i + 1 < p->node_count)
			return false;
		if (i && !(topics[i - 1] = p->topics ? topic_named(m, p->topics[i - 1]) :
			r->planner->shared_topic(&m->arch, nodes[i - 1], nodes[i])))
			return false; /* through tf, or not found: the records will tell */
	}
	return true;
}

void ca_records_choose_longest(struct ca_records *r)
{
	if (!r->follow_longest || r->follow_request || r->longest_owner || !r->planner)
		return;
	const ca_path *p;
	if (!r->planner->longest(ca_trace_architecture(r->t), &p, &r->longest_owner)) {
		r->keep_none = true; /* no chain (or no memory): nothing followed, nothing kept */
		return;
	}
	r->follow_request = p;
	r->follow_policy = CA_POLICY_USE_LATEST_MESSAGE;
	r->node_names = p->nodes;
	r->n_node_names = p->node_count;
}

bool ca_records_setup_follow(struct ca_records *r)
{
	if (!r->follow_request || r->follow_path.nodes)
		return true;
	size_t n = r->follow_request->node_count;
	const char **nodes = calloc(n, sizeof *nodes), **topics = calloc(n, sizeof *topics);
	ca_node_policy *policies = calloc(n, sizeof *policies);
	if (!nodes || !topics || !policies) {
		free(nodes);
		free(topics);
		free(policies);
		return false;
	}
	r->follow_path = (ca_path){ n, nodes, topics, policies };
	r->latencies_only = followable(r, nodes, topics, policies);
	return true;
}

static bool same_path(const ca_path *a, const ca_path *b, ca_node_policy policy)
{
	if (a->node_count != b->node_count)
		return false;
	for (size_t i = 0; i < a->node_count; i++) {
		ca_node_policy p = b->policies && b->policies[i] != CA_POLICY_DEFAULT ?
			b->policies[i] : policy;
		if (strcmp(a->nodes[i], b->nodes[i]) || (i && a->policies[i] != p) ||
		    (i + 1 < a->node_count && strcmp(a->topics[i], b->topics[i])))
			return false;
	}
	return true;
}

ca_path_latency *ca_records_followed(const ca_records *r, const ca_path *path,
	ca_node_policy policy, bool *done, char *err, size_t err_size)
{
	*done = r && r->follow_request && r->latencies_only;
	if (!*done)
		return NULL;
	ca_path_latency *l = r->followed;
	if (!l || !same_path(&r->follow_path, path, policy)) {
		snprintf(err, err_size, l ? "these records followed another path" :
			"these records' path was handed over already");
		return NULL;
	}
	((ca_records *)r)->followed = NULL;
	return l;
}

void ca_records_free(ca_records *r)
{
	if (!r)
		return;
	free(r->runs);
	free(r->publishes);
	free(r->communications);
	free(r->takes);
	free(r->copies);
	free(r->receptions);
	free(r->dds_hops);
	free(r->enqueues);
	free(r->not_received);
	free(r->by_thread);
	for (size_t i = 0; r->latencies && i < 2 * r->m->n_subscriptions; i++) {
		free(r->latencies[i].values);
		free(r->latencies[i].published);
	}
	free(r->latencies);
	free(r->not_published);
	for (size_t i = 0; i < r->n_node_paths; i++) {
		free((int64_t *)r->node_paths[i].values);
		free((uint64_t *)r->node_paths[i].starts);
	}
	free(r->node_paths);
	free(r->free_publishes);
	free(r->keep_node);
	free(r->keep_callback);
	free((void *)r->follow_path.nodes);
	free((void *)r->follow_path.topics);
	free((void *)r->follow_path.policies);
	if (r->longest_owner)
		r->planner->free_owner(r->longest_owner);
	ca_path_latency_free(r->followed);
	ca_stream_free(r->stream);
	ca_run_store_free(r->run_store);
	ca_records_scan_drop(r);
	free(r);
}

size_t ca_records_callbacks(const ca_records *r, const ca_callback_instance **out)
{
	*out = r ? r->runs : NULL;
	return r ? r->n_runs : 0;
}

size_t ca_records_publishes(const ca_records *r, const ca_publish_instance **out)
{
	*out = r ? r->publishes : NULL;
	return r ? r->n_publishes : 0;
}

size_t ca_records_communications(const ca_records *r, const ca_communication **out)
{
	*out = r ? r->communications : NULL;
	return r ? r->n_communications : 0;
}

const ca_record_losses *ca_records_losses(const ca_records *r)
{
	return r ? &r->losses : NULL;
}

bool ca_records_caveat(const ca_records *r, size_t i, char *buf, size_t size)
{
	const ca_record_losses *l = &r->losses;
	if (l->matched_by_time && i-- == 0) {
		snprintf(buf, size, "%" PRIu64 " inter-process messages were matched to their "
			"publishes by time, not by DDS source timestamp: the trace has none on the "
			"publish side (ros2_tracing alone, or the original CARET tracer whose DDS "
			"stage recorded nothing: caret check says which; docs/latency.md)",
			l->matched_by_time);
		return true;
	}
	if (l->intra_unlinked && i-- == 0) {
		snprintf(buf, size, "%" PRIu64 " intra-process messages were handled with "
			"nothing to link them to their publishes (no ros2:rclcpp_intra_publish or "
			"dispatch event: upstream Humble's rclcpp traces none): they have no latency, "
			"count as not_published, and no path goes through them", l->intra_unlinked);
		return true;
	}
	return false;
}

uint64_t ca_records_not_received(const ca_records *r, size_t subscription)
{
	return r && subscription < r->m->n_subscriptions ? r->not_received[2 * subscription] +
		r->not_received[2 * subscription + 1] : 0;
}

/* Where the runs of callback begin among the full records' runs (sorted
 * by callback, CA_NONE last), and how many there are. */
static size_t stretch_of(const ca_records *r, size_t callback, size_t *count)
{
	size_t lo = 0, hi = r->n_runs;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (r->runs[mid].callback < callback)
			lo = mid + 1;
		else
			hi = mid;
	}
	size_t end = lo;
	while (end < r->n_runs && r->runs[end].callback == callback)
		end++;
	*count = end - lo;
	return lo;
}

static size_t known(const ca_records *r, size_t callback)
{
	return callback < r->m->n_callbacks ? callback : CA_NONE;
}

size_t ca_records_callback_run_count(const ca_records *r, size_t callback)
{
	size_t n = 0;
	if (!r)
		return 0;
	if (r->run_store)
		return ca_run_store_count(r->run_store, known(r, callback));
	stretch_of(r, known(r, callback), &n);
	return n;
}

size_t ca_records_callback_runs(const ca_records *r, size_t callback, ca_callback_instance *out)
{
	size_t n = 0;
	if (!r)
		return 0;
	if (r->run_store)
		return ca_run_store_runs(r->run_store, known(r, callback), out);
	size_t first = stretch_of(r, known(r, callback), &n);
	if (n)
		memcpy(out, r->runs + first, n * sizeof *out);
	return n;
}

size_t ca_records_callback_stretch(const ca_records *r, size_t callback, size_t *count)
{
	*count = 0;
	return r ? stretch_of(r, known(r, callback), count) : 0;
}

size_t ca_records_timer_delays(const ca_records *r, size_t timer, int64_t *delays)
{
	if (!r || timer >= r->m->n_timers)
		return 0;
	const ca_timer *tm = &r->m->timers[timer];
	if (tm->callback == CA_NONE || tm->period_ns <= 0)
		return 0;
	/* the starts first, in delays: each turns into its delay in place */
	size_t m = 0, n = 0;
	if (r->run_store) {
		m = ca_run_store_starts(r->run_store, tm->callback, (uint64_t *)delays);
	} else {
		size_t first = stretch_of(r, tm->callback, &m);
		for (size_t i = 0; i < m; i++)
			delays[i] = (int64_t)r->runs[first + i].start;
	}
	for (size_t i = 0; i < m; i++) {
		uint64_t start = (uint64_t)delays[i], period = (uint64_t)tm->period_ns;
		if (start >= tm->time)
			delays[n++] = (int64_t)((start - tm->time) % period);
	}
	return n;
}

uint64_t ca_publish_time(const ca_publish_instance *p)
{
	return p->rclcpp_time ? p->rclcpp_time : p->rcl_time ? p->rcl_time : p->dds_write_time;
}

size_t ca_records_topic_messages(const ca_records *r, const char *topic, bool intra,
	size_t *messages, uint64_t *not_published)
{
	size_t n = 0;
	uint64_t lost = 0;
	for (size_t i = 0; r && i < r->n_communications; i++) {
		const ca_communication *c = &r->communications[i];
		if (c->subscription == CA_NONE || c->intra != intra ||
		    strcmp(r->m->subscriptions[c->subscription].topic, topic))
			continue;
		if (c->publish == CA_NONE)
			lost++;
		else
			messages[n++] = i;
	}
	if (not_published)
		*not_published = lost;
	return n;
}

/* The subscriptions of latencies_only records on topic, one at a time:
 * the index after `from` (CA_NONE: none left). */
static size_t next_subscription(const ca_records *r, const char *topic, size_t from)
{
	if (!r || !r->latencies)
		return CA_NONE;
	for (size_t s = from == CA_NONE ? 0 : from + 1; s < r->m->n_subscriptions; s++)
		if (!strcmp(r->m->subscriptions[s].topic, topic))
			return s;
	return CA_NONE;
}

size_t ca_records_topic_latency_count(const ca_records *r, const char *topic, bool intra)
{
	size_t n = 0;
	for (size_t s = next_subscription(r, topic, CA_NONE); s != CA_NONE;
	     s = next_subscription(r, topic, s))
		n += r->latencies[2 * s + intra].n;
	return n;
}

size_t ca_records_topic_latencies(const ca_records *r, const char *topic, bool intra,
	int64_t *values, uint64_t *not_published)
{
	size_t n = 0;
	uint64_t lost = 0;
	for (size_t s = next_subscription(r, topic, CA_NONE); s != CA_NONE;
	     s = next_subscription(r, topic, s)) {
		const struct ca_latency_list *l = &r->latencies[2 * s + intra];
		if (l->n)
			memcpy(values + n, l->values, l->n * sizeof *values);
		n += l->n;
		lost += r->not_published[2 * s + intra];
	}
	if (not_published)
		*not_published = lost;
	return n;
}

size_t ca_records_topic_timed_count(const ca_records *r, const char *topic, bool intra)
{
	if (r && r->latencies_only)
		return r->latency_times ? ca_records_topic_latency_count(r, topic, intra) : 0;
	size_t n = 0;
	for (size_t i = 0; r && i < r->n_communications; i++) {
		const ca_communication *c = &r->communications[i];
		n += c->subscription != CA_NONE && c->intra == intra && c->publish != CA_NONE &&
			!strcmp(r->m->subscriptions[c->subscription].topic, topic);
	}
	return n;
}

size_t ca_records_topic_timed(const ca_records *r, const char *topic, bool intra,
	uint64_t *published, int64_t *latencies, uint64_t *not_published)
{
	size_t n = 0;
	uint64_t lost = 0;
	if (r && r->latencies_only && r->latency_times) {
		for (size_t s = next_subscription(r, topic, CA_NONE); s != CA_NONE;
		     s = next_subscription(r, topic, s)) {
			const struct ca_latency_list *l = &r->latencies[2 * s + intra];
			if (l->n) {
				memcpy(latencies + n, l->values, l->n * sizeof *latencies);
				memcpy(published + n, l->published, l->n * sizeof *published);
			}
			n += l->n;
			lost += r->not_published[2 * s + intra];
		}
	} else if (r && !r->latencies_only) {
		for (size_t i = 0; i < r->n_communications; i++) {
			const ca_communication *c = &r->communications[i];
			if (c->subscription == CA_NONE || c->intra != intra ||
			    strcmp(r->m->subscriptions[c->subscription].topic, topic))
				continue;
			if (c->publish == CA_NONE) {
				lost++;
				continue;
			}
			published[n] = ca_publish_time(&r->publishes[c->publish]);
			latencies[n] = (int64_t)(r->runs[c->callback_instance].start - published[n]);
			n++;
		}
	}
	if (not_published)
		*not_published = lost;
	/* in publish order (stable: the runs' order for one publish); most
	 * often they are already */
	size_t sorted = 1;
	while (sorted < n && published[sorted - 1] <= published[sorted])
		sorted++;
	if (sorted >= n)
		return n;
	struct ca_radix *sorter = NULL;
	if (n > 1 && ca_radix_prepare(&sorter, n)) {
		memcpy(sorter->keys, published, n * sizeof *published);
		ca_radix_by(sorter);
		if (!ca_radix_permute(sorter, published, sizeof *published) ||
		    !ca_radix_permute(sorter, latencies, sizeof *latencies))
			n = 0; /* out of memory */
	} else if (n > 1) {
		n = 0;
	}
	ca_radix_free(sorter);
	return n;
}

size_t ca_records_node_paths(const ca_records *r, const ca_node_path **out)
{
	*out = r ? r->node_paths : NULL;
	return r ? r->n_node_paths : 0;
}

uint64_t ca_records_topic_not_received(const ca_records *r, const char *topic, bool intra)
{
	uint64_t n = 0;
	for (size_t s = 0; r && s < r->m->n_subscriptions; s++)
		if (!strcmp(r->m->subscriptions[s].topic, topic))
			n += r->not_received[2 * s + intra];
	return n;
}

static int by_value(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* Where percentile p of n sorted values v lies, by method m: v[whole] +
 * (v[whole + 1] - v[whole]) * part / 100, v[whole] alone when part is 0
 * (the linear method's exact rational rank (n - 1) * p / 100: no rounding
 * before the end). */
static void rank_of(size_t n, unsigned p, ca_percentile_method m, size_t *whole, size_t *part)
{
	if (m == CA_PERCENTILE_NEAREST_RANK) {
		size_t rank = (n * p + 99) / 100;
		*whole = rank ? rank - 1 : 0;
		*part = 0;
		return;
	}
	*whole = (n - 1) * p / 100;
	*part = *whole + 1 < n ? (n - 1) * p % 100 : 0;
}

static double interpolate(int64_t at, int64_t next, size_t part)
{
	return part ? (double)at + (double)(next - at) * (double)part / 100.0 : (double)at;
}

static double percentile(const int64_t *sorted, size_t n, unsigned p, ca_percentile_method m)
{
	size_t whole, part;
	rank_of(n, p, m, &whole, &part);
	return interpolate(sorted[whole], part ? sorted[whole + 1] : 0, part);
}

/* Reorders v[lo..n) so that v[k] is what it would be sorted, the smaller
 * before it and the greater after (quickselect, the median of three as
 * pivot; a range that shrinks too slowly is sorted instead). */
static void select_kth(int64_t *v, size_t lo, size_t n, size_t k)
{
	size_t hi = n - 1, rounds = 0;
	while (hi > lo) {
		if (++rounds > 64) { /* far from halving each round: sort what is left */
			qsort(v + lo, hi - lo + 1, sizeof *v, by_value);
			return;
		}
		size_t mid = lo + (hi - lo) / 2;
		int64_t a = v[lo], b = v[mid], c = v[hi];
		int64_t pivot = a < b ? (b < c ? b : a < c ? c : a) : (a < c ? a : b < c ? c : b);
		size_t i = lo, j = hi;
		while (i <= j) {
			while (v[i] < pivot)
				i++;
			while (v[j] > pivot)
				j--;
			if (i <= j) {
				int64_t t = v[i];
				v[i] = v[j];
				v[j] = t;
				i++;
				if (j == 0)
					break;
				j--;
			}
		}
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			return; /* between j and i: equal to the pivot, in place */
	}
}

/* percentile() of v selected, not sorted: the ranks it reads put in place
 * (v[from..n) holds what is not placed yet; from moves past them). */
static double percentile_selected(int64_t *v, size_t n, unsigned p, ca_percentile_method m,
	size_t *from)
{
	size_t whole, part;
	rank_of(n, p, m, &whole, &part);
	if (whole >= *from) {
		select_kth(v, *from, n, whole);
		*from = whole + 1;
	}
	if (part && whole + 1 >= *from) { /* the next in order: the least of the rest */
		size_t least = whole + 1;
		for (size_t i = whole + 2; i < n; i++)
			least = v[i] < v[least] ? i : least;
		int64_t t = v[whole + 1];
		v[whole + 1] = v[least];
		v[least] = t;
		*from = whole + 2;
	}
	return interpolate(v[whole], part ? v[whole + 1] : 0, part);
}

void ca_stats_select(int64_t *v, size_t n, ca_percentile_method m, ca_stats *s)
{
	*s = (ca_stats){ 0 };
	if (!n)
		return;
	long double sum = 0;
	int64_t least = v[0], most = v[0];
	for (size_t i = 0; i < n; i++) {
		sum += (long double)v[i];
		least = v[i] < least ? v[i] : least;
		most = v[i] > most ? v[i] : most;
	}
	size_t from = 0;
	double p50 = percentile_selected(v, n, 50, m, &from);
	double p90 = percentile_selected(v, n, 90, m, &from);
	double p99 = percentile_selected(v, n, 99, m, &from);
	*s = (ca_stats){ n, least, most, p50, p90, p99, (double)(sum / (long double)n) };
}

void ca_stats_of(int64_t *v, size_t n, ca_percentile_method m, ca_stats *s)
{
	*s = (ca_stats){ 0 };
	if (!n)
		return;
	if (!ca_radix_sort_values(v, n))
		qsort(v, n, sizeof *v, by_value); /* no memory for the radix sort's copy */
	/* the mean in long double: sums of many large ns values stay exact */
	long double sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += (long double)v[i];
	*s = (ca_stats){ n, v[0], v[n - 1], percentile(v, n, 50, m), percentile(v, n, 90, m),
		percentile(v, n, 99, m), (double)(sum / (long double)n) };
}
