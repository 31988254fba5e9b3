/*
 * lean_diff TRACE... - loads each trace twice through the native reader:
 * keeping its runtime events, and without them (keep_runtime false: the
 * model's runtime counts from a second pass), and requires the same
 * model: event, unknown and discarded counts, every process (all its
 * numbers and names), the size of each architecture array, every finding,
 * every node and topic count; the records (every callback run, publish and
 * communication, and the losses: the lean load's from the second pass);
 * that records built runs_only, from either load, give every callback the
 * same runs, timer delays and run losses; the same again when the lean
 * load scans the records (full, and runs_only) in its own runtime pass
 * (ca_load_options.records), and each kind scanned alone there
 * (records_only); that latencies_only records, joined as the
 * scan goes (from the kept tables, and in the lean load's pass), give every
 * topic and delivery, every node path and subscription the latencies and
 * losses the full records' joins give; that paths followed as the scan
 * goes (ca_records_options.follow: every path of two and, up to a bound,
 * three nodes linked by a topic, with use_latest_message and
 * callback_chain; from the kept tables, and the longest in the lean
 * load's pass, told by the streamed joins) give the messages and hops the
 * same follower gives told by path/latency.c over the full records, and the losses of the nodes' records; and that the lean
 * load keeps no runtime row.
 * Prints one line per trace; exit 1 on a difference, 2 when a load fails.
 *
 * lean_diff --damaged TRACE: a damaged trace; both loads must end the same
 * way: both with an error that names the damage (not "out of memory": the
 * lean load may find it in its second pass only, where its first tallies
 * events unmerged), or both loaded, then the same as above. Exit 0 or 1.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ca.h"
#include "records.h"
#include "trace.h"

static int failures;

#define SAME(what, a, b) same(path, what, (uint64_t)(a), (uint64_t)(b))

static void same(const char *path, const char *what, uint64_t a, uint64_t b)
{
	if (a != b && failures++ < 20)
		printf("FAIL %s: %s: %" PRIu64 " kept, %" PRIu64 " lean\n", path, what, a, b);
}

static void same_text(const char *path, const char *what, const char *a, const char *b)
{
	if (strcmp(a ? a : "(null)", b ? b : "(null)") && failures++ < 20)
		printf("FAIL %s: %s: \"%s\" kept, \"%s\" lean\n", path, what, a ? a : "(null)",
			b ? b : "(null)");
}

static void compare_processes(const char *path, const ca_architecture *a,
	const ca_architecture *b)
{
	SAME("processes", a->n_processes, b->n_processes);
	for (size_t i = 0; i < a->n_processes && i < b->n_processes; i++) {
		const ca_process *p = &a->processes[i], *q = &b->processes[i];
		SAME("pid", p->pid, q->pid);
		same_text(path, "procname", p->procname, q->procname);
		SAME("events", p->events, q->events);
		SAME("caret_inits", p->caret_inits, q->caret_inits);
		SAME("clock_offset", p->clock_offset, q->clock_offset);
		same_text(path, "distribution", p->distribution, q->distribution);
		same_text(path, "rmw", p->rmw_implementation, q->rmw_implementation);
		SAME("tracetools_tracing", p->tracetools_tracing, q->tracetools_tracing);
		same_text(path, "tracer_warning", p->tracer_warning, q->tracer_warning);
		SAME("init_events", p->init_events, q->init_events);
		SAME("duplicates", p->duplicates, q->duplicates);
		SAME("reused", p->reused, q->reused);
		SAME("merged_events", p->merged_events, q->merged_events);
		SAME("plain_events", p->plain_events, q->plain_events);
		SAME("unknown_handles", p->unknown_handles, q->unknown_handles);
	}
}

/* The records both ways: every member of each is compared. */
static void compare_records(const char *path, const ca_trace *kept, const ca_trace *lean)
{
	char err[256];
	ca_records *a = ca_records_build(kept, err, sizeof err);
	ca_records *b = a ? ca_records_build(lean, err, sizeof err) : NULL;
	if (!a || !b) {
		printf("FAIL %s: records: %s\n", path, err);
		failures++;
		ca_records_free(a);
		return;
	}
	const ca_callback_instance *ra, *rb;
	const ca_publish_instance *pa, *pb;
	const ca_communication *ca, *cb;
	size_t nr = ca_records_callbacks(a, &ra), mr = ca_records_callbacks(b, &rb);
	size_t np = ca_records_publishes(a, &pa), mp = ca_records_publishes(b, &pb);
	size_t nc = ca_records_communications(a, &ca), mc = ca_records_communications(b, &cb);
	SAME("callback runs", nr, mr);
	SAME("publishes", np, mp);
	SAME("communications", nc, mc);
	for (size_t i = 0; i < nr && i < mr; i++)
		if ((ra[i].callback != rb[i].callback || ra[i].start != rb[i].start ||
		     ra[i].end != rb[i].end || ra[i].pid != rb[i].pid || ra[i].tid != rb[i].tid ||
		     ra[i].intra != rb[i].intra) && failures++ < 20)
			printf("FAIL %s: callback run %zu differs\n", path, i);
	for (size_t i = 0; i < np && i < mp; i++)
		if ((pa[i].publisher != pb[i].publisher || pa[i].rclcpp_time != pb[i].rclcpp_time ||
		     pa[i].rcl_time != pb[i].rcl_time || pa[i].dds_write_time != pb[i].dds_write_time ||
		     pa[i].source_stamp != pb[i].source_stamp || pa[i].message != pb[i].message ||
		     pa[i].intra != pb[i].intra ||
		     pa[i].callback_instance != pb[i].callback_instance) && failures++ < 20)
			printf("FAIL %s: publish %zu differs\n", path, i);
	for (size_t i = 0; i < nc && i < mc; i++)
		if ((ca[i].publish != cb[i].publish ||
		     ca[i].callback_instance != cb[i].callback_instance ||
		     ca[i].subscription != cb[i].subscription || ca[i].intra != cb[i].intra ||
		     ca[i].take_time != cb[i].take_time || ca[i].source_stamp != cb[i].source_stamp ||
		     ca[i].header_stamp != cb[i].header_stamp) && failures++ < 20)
			printf("FAIL %s: communication %zu differs\n", path, i);
	const ca_record_losses *la = ca_records_losses(a), *lb = ca_records_losses(b);
	SAME("not_ended", la->not_ended, lb->not_ended);
	SAME("not_started", la->not_started, lb->not_started);
	SAME("not_published", la->not_published, lb->not_published);
	SAME("taken_not_run", la->taken_not_run, lb->taken_not_run);
	SAME("intra_unlinked", la->intra_unlinked, lb->intra_unlinked);
	SAME("matched_by_time", la->matched_by_time, lb->matched_by_time);
	ca_records_free(a);
	ca_records_free(b);
}

/* Records built runs_only (what callback and timer latencies use) give
 * every callback the runs, the timer delays and the run losses the full
 * records give, on the kept load and on the lean one. */
/* The runs of records b (built from kept's trace or another load of it)
 * against the full records a of kept. */
static void runs_equal(const char *path, const ca_trace *kept, const char *which,
	const ca_records *a, const ca_records *b, const char *err)
{
	const ca_architecture *arch = ca_trace_architecture(kept);
	const ca_callback_instance *all;
	size_t n = a ? ca_records_callbacks(a, &all) : 0, seen = 0;
	ca_callback_instance *ra = malloc((n + 1) * sizeof *ra), *rb = malloc((n + 1) * sizeof *rb);
	int64_t *da = malloc((n + 1) * sizeof *da), *db = malloc((n + 1) * sizeof *db);
	if (!a || !b || !ra || !rb || !da || !db) {
		printf("FAIL %s: runs_only records (%s): %s\n", path, which, a && b ? "memory" : err);
		failures++;
		goto out;
	}
	printf("%s: runs_only (%s) ", path, which);
	SAME("runs_only: ca_records_callbacks is empty", ca_records_callbacks(b, &all), 0);
	for (size_t c = 0; c <= arch->n_callbacks; c++) {
		size_t callback = c < arch->n_callbacks ? c : CA_NONE;
		SAME("runs_only: run count", ca_records_callback_run_count(a, callback),
			ca_records_callback_run_count(b, callback));
		if (ca_records_callback_run_count(b, callback) > n)
			continue;
		size_t x = ca_records_callback_runs(a, callback, ra);
		size_t y = ca_records_callback_runs(b, callback, rb);
		seen += x;
		for (size_t i = 0; i < x && i < y; i++)
			if (ra[i].callback != rb[i].callback ||
			    ra[i].start != rb[i].start || ra[i].end != rb[i].end ||
			    ra[i].pid != rb[i].pid || ra[i].tid != rb[i].tid ||
			    ra[i].intra != rb[i].intra) {
				if (failures++ < 20)
					printf("\nFAIL %s: runs_only: run %zu of callback %zu differs\n",
						path, i, c);
				break;
			}
	}
	SAME("runs_only: runs", n, seen);
	for (size_t k = 0; k < arch->n_timers; k++) {
		size_t x = ca_records_timer_delays(a, k, da), y = ca_records_timer_delays(b, k, db);
		SAME("runs_only: timer delays", x, y);
		if (x == y && x && memcmp(da, db, x * sizeof *da) && failures++ < 20)
			printf("\nFAIL %s: runs_only: the delays of timer %zu differ\n", path, k);
	}
	SAME("runs_only: not_ended", ca_records_losses(a)->not_ended,
		ca_records_losses(b)->not_ended);
	SAME("runs_only: not_started", ca_records_losses(a)->not_started,
		ca_records_losses(b)->not_started);
	printf("%zu runs\n", seen);
out:
	free(ra);
	free(rb);
	free(da);
	free(db);
}

static void compare_runs_of(const char *path, const ca_trace *kept, const ca_trace *t,
	const char *which, ca_records_options o)
{
	char err[256] = "";
	ca_records *a = ca_records_build(kept, err, sizeof err);
	ca_records *b = a ? ca_records_build_options(t, &o, err, sizeof err) : NULL;
	runs_equal(path, kept, which, a, b, err);
	ca_records_free(a);
	ca_records_free(b);
}

static int by_value(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* Two lists of latencies, as sorted copies; b's are sorted in place. */
static void same_values(const char *path, const char *what, int64_t *a, size_t n, int64_t *b,
	size_t m)
{
	qsort(a, n, sizeof *a, by_value);
	qsort(b, m, sizeof *b, by_value);
	if ((n != m || (n && memcmp(a, b, n * sizeof *a))) && failures++ < 20)
		printf("\nFAIL %s: %s: %zu latencies joined, %zu streamed%s\n", path, what, n, m,
			n == m ? " (other values)" : "");
}

/* A publish placed in a run, for the node paths of full records. */
struct output {
	size_t callback, run;
	const char *topic;
	uint64_t time;
	int64_t latency;
};

static int by_output(const void *a, const void *b)
{
	const struct output *x = a, *y = b;
	if (x->callback != y->callback)
		return x->callback < y->callback ? -1 : 1;
	if (x->topic != y->topic)
		return (uintptr_t)x->topic < (uintptr_t)y->topic ? -1 : 1;
	if (x->run != y->run)
		return x->run < y->run ? -1 : 1;
	return (x->time > y->time) - (x->time < y->time);
}

/* The node paths of full records (each run's first publish on a topic):
 * each streamed node path must have the same latencies, and no other. */
static void compare_node_paths(const char *path, const ca_trace *t, const ca_records *a,
	const ca_records *b)
{
	const ca_architecture *arch = ca_trace_architecture(t);
	const ca_callback_instance *runs;
	const ca_publish_instance *pubs;
	const ca_node_path *np;
	size_t n = ca_records_publishes(a, &pubs), m = 0, paths = 0;
	size_t n_paths = ca_records_node_paths(b, &np);
	ca_records_callbacks(a, &runs);
	struct output *v = malloc((n + 1) * sizeof *v);
	int64_t *x = malloc((n + 1) * sizeof *x), *y = malloc((n + 1) * sizeof *y);
	bool *matched = calloc(n_paths + 1, sizeof *matched);
	if (!v || !x || !y || !matched) {
		printf("FAIL %s: node paths: memory\n", path);
		failures++;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		size_t run = pubs[i].callback_instance;
		if (run == CA_NONE || pubs[i].publisher == CA_NONE || runs[run].callback == CA_NONE)
			continue;
		uint64_t time = ca_publish_time(&pubs[i]);
		v[m++] = (struct output){ runs[run].callback, run,
			arch->publishers[pubs[i].publisher].topic, time,
			(int64_t)(time - runs[run].start) };
	}
	qsort(v, m, sizeof *v, by_output);
	for (size_t i = 0, j; i < m; i = j) {
		size_t k = 0, p = 0;
		for (j = i; j < m && v[j].callback == v[i].callback && v[j].topic == v[i].topic; j++)
			if (j == i || v[j].run != v[j - 1].run)
				x[k++] = v[j].latency;
		while (p < n_paths && (np[p].callback != v[i].callback ||
			strcmp(np[p].topic, v[i].topic)))
			p++;
		paths++;
		if (p == n_paths) {
			if (failures++ < 20)
				printf("\nFAIL %s: node path %s -> %s not streamed\n", path,
					arch->callbacks[v[i].callback].name, v[i].topic);
			continue;
		}
		matched[p] = true;
		memcpy(y, np[p].values, np[p].count * sizeof *y);
		same_values(path, v[i].topic, x, k, y, np[p].count);
	}
	SAME("node paths", paths, n_paths);
out:
	free(v);
	free(x);
	free(y);
	free(matched);
}

static void compare_runs_only(const char *path, const ca_trace *kept, const ca_trace *t,
	const char *which)
{
	compare_runs_of(path, kept, t, which, (ca_records_options){ .runs_only = true });
}

/* Records built latencies_only (what topic and node latencies use) give
 * every topic and delivery, subscription and node path the latencies and
 * losses the full records' joins give. */
static void compare_latencies_only(const char *path, const ca_trace *kept, const ca_trace *t,
	const char *which)
{
	char err[256];
	ca_records_options o = { .latencies_only = true };
	ca_records *a = ca_records_build(kept, err, sizeof err);
	ca_records *b = a ? ca_records_build_options(t, &o, err, sizeof err) : NULL;
	const ca_architecture *arch = ca_trace_architecture(kept);
	const ca_communication *c;
	const ca_callback_instance *runs;
	const ca_publish_instance *pubs;
	const ca_topic_count *topics;
	size_t n = a ? ca_records_communications(a, &c) : 0, latencies = 0;
	size_t n_topics = ca_trace_topic_counts(kept, &topics);
	size_t *messages = malloc((n + 1) * sizeof *messages);
	int64_t *x = malloc((n + 1) * sizeof *x), *y = malloc((n + 1) * sizeof *y);
	if (!a || !b || !messages || !x || !y) {
		printf("FAIL %s: latencies_only records (%s): %s\n", path, which,
			a && b ? "memory" : err);
		failures++;
		goto out;
	}
	printf("%s: latencies_only (%s) ", path, which);
	const ca_communication *none;
	SAME("latencies_only: ca_records_communications is empty",
		ca_records_communications(b, &none), 0);
	ca_records_callbacks(a, &runs);
	ca_records_publishes(a, &pubs);
	for (size_t k = 0; k < n_topics; k++) {
		for (int intra = 0; intra < 2; intra++) {
			uint64_t lost_a, lost_b;
			size_t m = ca_records_topic_messages(a, topics[k].topic, intra, messages, &lost_a);
			for (size_t i = 0; i < m; i++)
				x[i] = (int64_t)(runs[c[messages[i]].callback_instance].start -
					ca_publish_time(&pubs[c[messages[i]].publish]));
			size_t count = ca_records_topic_latency_count(b, topics[k].topic, intra);
			SAME("latencies_only: topic latencies", m, count);
			if (count > n)
				continue;
			size_t got = ca_records_topic_latencies(b, topics[k].topic, intra, y, &lost_b);
			same_values(path, topics[k].topic, x, m, y, got);
			SAME("latencies_only: not_published", lost_a, lost_b);
			SAME("latencies_only: topic not_received",
				ca_records_topic_not_received(a, topics[k].topic, intra),
				ca_records_topic_not_received(b, topics[k].topic, intra));
			latencies += m;
		}
	}
	for (size_t s = 0; s < arch->n_subscriptions; s++)
		SAME("latencies_only: not_received", ca_records_not_received(a, s),
			ca_records_not_received(b, s));
	const ca_record_losses *la = ca_records_losses(a), *lb = ca_records_losses(b);
	SAME("latencies_only: not_ended", la->not_ended, lb->not_ended);
	SAME("latencies_only: not_started", la->not_started, lb->not_started);
	SAME("latencies_only: not_published", la->not_published, lb->not_published);
	SAME("latencies_only: taken_not_run", la->taken_not_run, lb->taken_not_run);
	SAME("latencies_only: intra_unlinked", la->intra_unlinked, lb->intra_unlinked);
	SAME("latencies_only: matched_by_time", la->matched_by_time, lb->matched_by_time);
	compare_node_paths(path, kept, a, b);
	printf("%zu latencies\n", latencies);
out:
	free(messages);
	free(x);
	free(y);
	ca_records_free(a);
	ca_records_free(b);
}

struct timed_pair {
	uint64_t time;
	int64_t latency;
};

static int by_time_then_latency(const void *x, const void *y)
{
	const struct timed_pair *a = x, *b = y;
	return a->time != b->time ? (a->time < b->time ? -1 : 1) :
		(a->latency > b->latency) - (a->latency < b->latency);
}

/* The (publish time, latency) of each message of a topic and delivery, as
 * the report reads them: from latencies_only records kept with
 * latency_times (from t), equal to the full records' (of kept). */
static void timed_equal(const char *path, const ca_trace *kept, const char *which,
	const ca_records *a, const ca_records *b, const char *err)
{
	const ca_topic_count *topics;
	size_t n_topics = ca_trace_topic_counts(kept, &topics), pairs = 0;
	printf("%s: timed latencies (%s) ", path, which);
	for (size_t k = 0; a && b && k < n_topics; k++)
		for (int intra = 0; intra < 2; intra++) {
			const char *topic = topics[k].topic;
			size_t na = ca_records_topic_timed_count(a, topic, intra);
			size_t nb = ca_records_topic_timed_count(b, topic, intra);
			SAME("timed: count", na, nb);
			uint64_t *ta = malloc((na + 1) * sizeof *ta), *tb = malloc((nb + 1) * sizeof *tb);
			int64_t *la = malloc((na + 1) * sizeof *la), *lb = malloc((nb + 1) * sizeof *lb);
			struct timed_pair *pa = malloc((na + 1) * sizeof *pa);
			struct timed_pair *pb = malloc((nb + 1) * sizeof *pb);
			uint64_t lost_a = 0, lost_b = 0;
			if (ta && tb && la && lb && pa && pb) {
				size_t ga = ca_records_topic_timed(a, topic, intra, ta, la, &lost_a);
				size_t gb = ca_records_topic_timed(b, topic, intra, tb, lb, &lost_b);
				SAME("timed: messages", ga, gb);
				SAME("timed: not_published", lost_a, lost_b);
				for (size_t i = 0; i < ga; i++) {
					if (i && ta[i] < ta[i - 1])
						SAME("timed: in publish order", ta[i - 1], ta[i]);
					pa[i] = (struct timed_pair){ ta[i], la[i] };
				}
				for (size_t i = 0; i < gb; i++)
					pb[i] = (struct timed_pair){ tb[i], lb[i] };
				qsort(pa, ga, sizeof *pa, by_time_then_latency);
				qsort(pb, gb, sizeof *pb, by_time_then_latency);
				for (size_t i = 0; i < ga && i < gb; i++)
					if (pa[i].time != pb[i].time || pa[i].latency != pb[i].latency) {
						printf("\nFAIL %s: %s (%s): message %zu at %" PRIu64 " / %" PRIu64
							", latency %" PRId64 " / %" PRId64 "\n", path, topic,
							intra ? "intra" : "inter", i, pa[i].time, pb[i].time,
							pa[i].latency, pb[i].latency);
						failures++;
						break;
					}
				pairs += ga;
			}
			free(ta);
			free(tb);
			free(la);
			free(lb);
			free(pa);
			free(pb);
		}
	if (!a || !b) {
		printf("FAIL %s: timed latencies (%s): %s\n", path, which, err);
		failures++;
	}
	printf("%zu messages\n", pairs);
}

/* ---- paths followed as the scan goes ------------------------------------------ */

#define MAX_FOLLOWED 40

/* Whether a path links its nodes by topics alone (the streamed follower's;
 * a path through tf or a service is followed over the records). */
static bool by_topics(ca_path_set *set)
{
	const ca_path *p;
	ca_path_set_paths(set, &p);
	for (size_t i = 0; i + 1 < p->node_count; i++)
		if (strchr(p->topics[i], ':'))
			return false;
	return true;
}

/* Keeps set in sets[*n] when it links by topics alone. */
static bool kept_path(ca_path_set *set, ca_path_set **sets, size_t *n)
{
	if (!set)
		return false;
	if (!by_topics(set)) {
		ca_path_set_free(set);
		return false;
	}
	sets[(*n)++] = set;
	return true;
}

/* Paths of two nodes linked by one topic, then of three, at most max. */
static size_t some_paths(const ca_trace *t, ca_path_set **sets, size_t max)
{
	const ca_architecture *a = ca_trace_architecture(t);
	size_t n = 0;
	char err[256];
	for (size_t x = 0; x < a->n_nodes && n < max; x++)
		for (size_t y = 0; y < a->n_nodes && n < max; y++) {
			const char *names[] = { a->nodes[x].fqn, a->nodes[y].fqn };
			if (x != y)
				kept_path(ca_path_of_nodes(t, names, 2, err, sizeof err), sets, &n);
		}
	for (size_t i = 0, pairs = n; i < pairs && n < max; i++) {
		const ca_path *p;
		ca_path_set_paths(sets[i], &p);
		for (size_t z = 0; z < a->n_nodes && n < max; z++) {
			const char *names[] = { p->nodes[0], p->nodes[1], a->nodes[z].fqn };
			if (strcmp(names[2], names[0]) && strcmp(names[2], names[1]))
				kept_path(ca_path_of_nodes(t, names, 3, err, sizeof err), sets, &n);
		}
	}
	return n;
}

static void same_path_latency(const char *path, const char *what, const ca_path_latency *a,
	const ca_path_latency *b)
{
	const ca_path_message *ma, *mb;
	const int64_t *ha, *hb;
	size_t n = ca_path_latency_messages(a, &ma, &ha), m = ca_path_latency_messages(b, &mb, &hb);
	size_t hops = ca_path_latency_hop_count(a);
	SAME("followed: messages", n, m);
	SAME("followed: hops", hops, ca_path_latency_hop_count(b));
	for (size_t i = 0; i < n && i < m; i++)
		if (memcmp(&ma[i], &mb[i], sizeof *ma) ||
		    memcmp(&ha[i * hops], &hb[i * hops], hops * sizeof *ha)) {
			printf("\nFAIL %s: %s: message %zu differs (callback start %" PRIu64
				" / %" PRIu64 ", last start %" PRIu64 " / %" PRIu64 ")\n", path, what,
				i, ma[i].callback_start, mb[i].callback_start, ma[i].last_start,
				mb[i].last_start);
			/* what the next look needs, the trace being gone: both sides
			 * of the message and its neighbours, every hop */
			for (size_t k = i ? i - 1 : 0; k <= i + 1 && k < n && k < m; k++) {
				printf("  message %zu: publish %" PRIu64 " / %" PRIu64 ", last end %"
					PRIu64 " / %" PRIu64 "; hops", k, ma[k].publish, mb[k].publish,
					ma[k].last_end, mb[k].last_end);
				for (size_t h = 0; h < hops; h++)
					printf(" %" PRId64 "/%" PRId64, ha[k * hops + h], hb[k * hops + h]);
				printf("\n");
			}
			failures++;
			return;
		}
}

/* The path followed (from t: its records built, or, prebuilt, scanned in
 * its load's pass) against path/latency.c over the full records of kept. */
static size_t compare_followed(const char *path, const ca_trace *kept, const ca_trace *t,
	const ca_path *p, ca_node_policy policy)
{
	char err[256], what[512];
	ca_records_options o = { .follow = p, .follow_policy = policy, .nodes = p->nodes,
		.n_nodes = p->node_count };
	ca_records_options nodes = { .nodes = p->nodes, .n_nodes = p->node_count };
	ca_records *a = ca_records_build(kept, err, sizeof err);
	ca_records *an = a ? ca_records_build_options(kept, &nodes, err, sizeof err) : NULL;
	ca_records *b = an ? ca_records_build_options(t, &o, err, sizeof err) : NULL;
	ca_path_latency *x = b ? ca_path_latency_build(a, p, policy, err, sizeof err) : NULL;
	ca_path_latency *y = x ? ca_path_latency_build(b, p, policy, err, sizeof err) : NULL;
	size_t n = 0;
	snprintf(what, sizeof what, "path %s -> ... -> %s (%zu nodes), policy %d",
		p->nodes[0], p->nodes[p->node_count - 1], p->node_count, (int)policy);
	if (!y) {
		printf("\nFAIL %s: %s: %s\n", path, what, err);
		failures++;
	} else {
		const ca_callback_instance *none;
		same_path_latency(path, what, x, y);
		n = ca_path_latency_messages(x, &(const ca_path_message *){ NULL }, NULL);
		const ca_record_losses *la = ca_records_losses(an), *lb = ca_records_losses(b);
		if (ca_records_callbacks(b, &none) == 0) { /* followed, not full records */
			SAME("followed: intra_unlinked", la->intra_unlinked, lb->intra_unlinked);
			SAME("followed: matched_by_time", la->matched_by_time, lb->matched_by_time);
			SAME("followed: not_published", la->not_published, lb->not_published);
			SAME("followed: handed over once", 1,
				ca_path_latency_build(b, p, policy, err, sizeof err) == NULL);
		}
	}
	ca_path_latency_free(x);
	ca_path_latency_free(y);
	ca_records_free(a);
	ca_records_free(an);
	ca_records_free(b);
	return n;
}

/* The records a report reads, scanned in one lean load's pass together:
 * the runs and the timed latencies (one records object) as the full
 * records of kept give them, and the longest chain followed as
 * path/latency.c walks it over them. */
static void compare_riders(const char *path, const ca_trace *kept)
{
	char err[1024] = "";
	ca_records_options riders[2] = {
		{ .latencies_only = true, .latency_times = true, .with_runs = true },
		{ .follow_longest = true, .follow_policy = CA_POLICY_USE_LATEST_MESSAGE } };
	ca_load_options o = ca_load_defaults();
	o.keep_runtime = false;
	o.records = riders;
	o.n_records = 2;
	ca_trace *t = ca_trace_load_options(&path, 1, &o, err, sizeof err);
	ca_records *full = t ? ca_records_build(kept, err, sizeof err) : NULL;
	if (!full) {
		printf("FAIL %s: a load with two records riding: %s\n", path, err);
		failures++;
		ca_trace_free(t);
		return;
	}
	SAME("riders: both scanned in the load's pass", 2, t->n_prebuilt);
	ca_records *both = ca_records_build_options(t, &riders[0], err, sizeof err);
	SAME("riders: the runs and latencies taken from the pass", 1, t->n_prebuilt);
	timed_equal(path, kept, "with the runs, riding", full, both, err);
	runs_equal(path, kept, "with the latencies, riding", full, both, err);
	ca_path_set *longest = ca_path_longest(kept, NULL, false);
	const ca_path *p;
	if (ca_path_set_paths(longest, &p)) {
		ca_records *followed = ca_records_build_options(t, &riders[1], err, sizeof err);
		ca_path_latency *x = ca_path_latency_build(full, p, CA_POLICY_USE_LATEST_MESSAGE, err,
			sizeof err);
		ca_path_latency *y = followed ? ca_path_latency_build(followed, p,
			CA_POLICY_USE_LATEST_MESSAGE, err, sizeof err) : NULL;
		if (!x || !y) {
			printf("FAIL %s: the longest chain followed riding: %s\n", path, err);
			failures++;
		} else {
			same_path_latency(path, "the longest chain, followed riding", x, y);
			printf("%s: the longest chain (%zu nodes) followed riding with another\n",
				path, p->node_count);
		}
		ca_path_latency_free(x);
		ca_path_latency_free(y);
		ca_records_free(followed);
	}
	ca_path_set_free(longest);
	ca_records_free(both);
	ca_records_free(full);
	ca_trace_free(t);
}

/* Every path of some_paths, both policies, from the kept tables; the
 * longest (the last) scanned in a lean load's pass. */
static void compare_paths(const char *path, const ca_trace *kept)
{
	ca_path_set *sets[MAX_FOLLOWED];
	size_t n = some_paths(kept, sets, MAX_FOLLOWED), messages = 0;
	const ca_path *p = NULL;
	printf("%s: paths followed ", path);
	for (size_t i = 0; i < n; i++) {
		ca_path_set_paths(sets[i], &p);
		messages += compare_followed(path, kept, kept, p, CA_POLICY_USE_LATEST_MESSAGE);
		messages += compare_followed(path, kept, kept, p, CA_POLICY_CALLBACK_CHAIN);
	}
	if (n) {
		char err[256];
		ca_records_options ro = { .follow = p, .follow_policy = CA_POLICY_USE_LATEST_MESSAGE,
			.nodes = p->nodes, .n_nodes = p->node_count };
		ca_load_options o = ca_load_defaults();
		o.keep_runtime = false;
		o.records = &ro;
		o.records_only = true;
		ca_trace *lean = ca_trace_load_options(&path, 1, &o, err, sizeof err);
		if (!lean) {
			printf("\nFAIL %s: lean, a path followed in its pass: %s\n", path, err);
			failures++;
		} else {
			SAME("followed in the load's pass", 1, lean->prebuilt != NULL);
			messages += compare_followed(path, kept, lean, p, CA_POLICY_USE_LATEST_MESSAGE);
		}
		ca_trace_free(lean);
	}
	for (size_t i = 0; i < n; i++)
		ca_path_set_free(sets[i]);
	printf("%zu paths, %zu messages\n", n, messages);
}

static void compare(const char *path, const ca_trace *kept, const ca_trace *lean)
{
	const ca_architecture *a = ca_trace_architecture(kept), *b = ca_trace_architecture(lean);
	SAME("events", ca_trace_event_count(kept), ca_trace_event_count(lean));
	SAME("unknown", ca_trace_unknown_count(kept), ca_trace_unknown_count(lean));
	SAME("discarded", ca_trace_discarded(kept), ca_trace_discarded(lean));
	compare_processes(path, a, b);
	/* what the first pass tallies instead of decoding (ctf_tally.h) */
	SAME("epoch offset", kept->epoch_offset, lean->epoch_offset);
	SAME("range first", kept->range_first, lean->range_first);
	SAME("range last", kept->range_last, lean->range_last);
	for (size_t i = 0; i < a->n_processes && i < b->n_processes; i++) {
		uint64_t kf = 0, kl = 0, lf = 0, ll = 0;
		SAME("process window", ca_trace_process_window(kept, a->processes[i].pid, &kf, &kl),
			ca_trace_process_window(lean, b->processes[i].pid, &lf, &ll));
		SAME("process first", kf, lf);
		SAME("process last", kl, ll);
	}
	SAME("nodes", a->n_nodes, b->n_nodes);
	SAME("publishers", a->n_publishers, b->n_publishers);
	SAME("subscriptions", a->n_subscriptions, b->n_subscriptions);
	SAME("callbacks", a->n_callbacks, b->n_callbacks);
	SAME("executors", a->n_executors, b->n_executors);

	const ca_finding *f, *g;
	size_t nf = ca_trace_findings(kept, &f), ng = ca_trace_findings(lean, &g);
	SAME("findings", nf, ng);
	for (size_t i = 0; i < nf && i < ng; i++) {
		SAME("finding severity", f[i].severity, g[i].severity);
		SAME("finding pid", f[i].pid, g[i].pid);
		same_text(path, "finding", f[i].text, g[i].text);
	}
	const ca_node_count *nc, *nd;
	size_t nn = ca_trace_node_counts(kept, &nc), nm = ca_trace_node_counts(lean, &nd);
	SAME("node counts", nn, nm);
	for (size_t i = 0; i < nn && i < nm; i++) {
		same_text(path, "node", nc[i].node, nd[i].node);
		SAME("node runs", nc[i].callback_runs, nd[i].callback_runs);
		SAME("node publishes", nc[i].publishes, nd[i].publishes);
		SAME("node takes", nc[i].takes, nd[i].takes);
		SAME("node events", nc[i].events, nd[i].events);
	}
	const ca_topic_count *tc, *td;
	size_t tn = ca_trace_topic_counts(kept, &tc), tm = ca_trace_topic_counts(lean, &td);
	SAME("topic counts", tn, tm);
	for (size_t i = 0; i < tn && i < tm; i++) {
		same_text(path, "topic", tc[i].topic, td[i].topic);
		SAME("topic publishes", tc[i].publishes, td[i].publishes);
		SAME("topic takes", tc[i].takes, td[i].takes);
		SAME("topic events", tc[i].events, td[i].events);
	}
	uint64_t runtime_rows = 0;
	for (size_t id = 0; id < CS_EVENT_COUNT; id++)
		if (cs_role_is_runtime(cs_events[id].role)) {
			runtime_rows += lean->tables[id].rows;
			SAME(cs_events[id].full_name, ca_trace_rows_of(kept, (enum cs_event_id)id),
				ca_trace_rows_of(lean, (enum cs_event_id)id));
		}
	SAME("runtime rows held by the lean load", 0, runtime_rows);
	compare_records(path, kept, lean);
	compare_runs_only(path, kept, kept, "kept");
	compare_runs_only(path, kept, lean, "lean");
	compare_latencies_only(path, kept, kept, "kept");
	compare_latencies_only(path, kept, lean, "lean");
	compare_paths(path, kept);
	if (!failures)
		printf("ok %s: %" PRIu64 " events, %zu findings, %zu nodes, %zu topics, the "
			"records: the same without the runtime events kept\n", path,
			ca_trace_event_count(kept), nf, nn, tn);
}

static int damaged(const char *path)
{
	char err_kept[1024], err_lean[1024];
	ca_load_options o = ca_load_defaults();
	ca_trace *kept = ca_trace_load_options(&path, 1, &o, err_kept, sizeof err_kept);
	o.keep_runtime = false;
	ca_trace *lean = ca_trace_load_options(&path, 1, &o, err_lean, sizeof err_lean);
	if (!kept != !lean) {
		printf("FAIL %s: kept: %s; lean: %s\n", path, kept ? "loaded" : err_kept,
			lean ? "loaded" : err_lean);
		failures++;
	} else if (!kept && strstr(err_lean, "out of memory") && !strstr(err_kept, "out of memory")) {
		printf("FAIL %s: lean: %s (kept: %s)\n", path, err_lean, err_kept);
		failures++;
	} else if (kept) {
		compare(path, kept, lean);
	} else {
		printf("ok %s: both loads fail: kept: %s; lean: %s\n", path, err_kept, err_lean);
	}
	ca_trace_free(kept);
	ca_trace_free(lean);
	return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--damaged"))
		return damaged(argv[2]);
	for (int i = 1; i < argc; i++) {
		const char *path = argv[i];
		char err[1024];
		ca_load_options o = ca_load_defaults();
		ca_trace *kept = ca_trace_load_options(&path, 1, &o, err, sizeof err);
		if (!kept) {
			fprintf(stderr, "%s: %s\n", path, err);
			return 2;
		}
		o.keep_runtime = false;
		ca_trace *lean = ca_trace_load_options(&path, 1, &o, err, sizeof err);
		if (!lean) {
			fprintf(stderr, "%s: lean: %s\n", path, err);
			ca_trace_free(kept);
			return 2;
		}
		compare(path, kept, lean);
		ca_trace_free(lean);
		compare_riders(path, kept);
		/* the records scanned in the load's runtime pass, beside the
		 * model's counts (ca_load_options.records), each kind */
		for (int kind = 0; kind < 6; kind++) {
			/* 3, 4, 5: runs_only, every record, latencies_only, the
			 * records alone in that pass */
			ca_records_options ro = { .runs_only = kind == 1 || kind == 3,
				.latencies_only = kind == 2 || kind == 5 };
			o.records = &ro;
			o.records_only = kind >= 3;
			if (!(lean = ca_trace_load_options(&path, 1, &o, err, sizeof err))) {
				fprintf(stderr, "%s: lean, records in its pass: %s\n", path, err);
				ca_trace_free(kept);
				return 2;
			}
			SAME("records scanned in the load's pass", 1, lean->n_prebuilt);
			const ca_finding *none;
			if (kind == 1)
				compare_runs_only(path, kept, lean, "lean, in the load's pass");
			else if (kind == 2)
				compare_latencies_only(path, kept, lean, "lean, in the load's pass");
			else if (kind == 3)
				compare_runs_only(path, kept, lean, "lean, alone in the load's pass");
			else if (kind == 5)
				compare_latencies_only(path, kept, lean, "lean, alone in the load's pass");
			else
				compare_records(path, kept, lean);
			if (kind >= 3)
				SAME("findings without the runtime counts", 0,
					ca_trace_findings(lean, &none));
			ca_trace_free(lean);
		}
		ca_trace_free(kept);
	}
	return failures ? 1 : 0;
}
