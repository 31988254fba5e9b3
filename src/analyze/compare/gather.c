/*
 * gather.c - a trace's objects into a side: callbacks (their ended runs,
 * end - start), topics per delivery (callback start - publish, at the
 * publish), node paths (a subscription callback's start to its first
 * publish on a topic) and the architecture file's named paths (followed
 * as caret path latency follows them), from the records `caret latency`
 * and `caret path latency` read: one load, their records riding its pass.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "records.h"
#include "side.h"

/* The records wanted: the runs and the messages with their times, then one
 * path followed each (the report's riders). */
enum { WANT_MESSAGES, WANT_PATHS, MAX_RIDERS = 8 };

struct gather {
	ca_cmp_side *side;
	const ca_cmp_gather_options *g;
	char **path_names;
	ca_path_set **sets;
	size_t n_paths;
	ca_records_options wanted[MAX_RIDERS];
	size_t n_wanted;
	char *err;
	size_t err_size;
};

static bool wants(const struct gather *w, ca_cmp_kind kind)
{
	return !w->g->kinds || (w->g->kinds & (1u << kind));
}

static void gather_free(struct gather *w)
{
	for (size_t i = 0; i < w->n_paths; i++) {
		free(w->path_names[i]);
		ca_path_set_free(w->sets[i]);
	}
	free(w->path_names);
	free(w->sets);
}

/* The named paths of the architecture file and the records wanted. */
static int gather_plan(struct gather *w)
{
	w->wanted[WANT_MESSAGES] = (ca_records_options){ .latencies_only = true,
		.latency_times = true, .with_runs = true };
	w->n_wanted = WANT_PATHS;
	if (!w->g->arch_file || !wants(w, CA_CMP_PATH))
		return 0;
	if (ca_arch_file_path_names(w->g->arch_file, &w->path_names, &w->n_paths, w->err,
		    w->err_size) != 0)
		return -1;
	if (!(w->sets = calloc(w->n_paths + 1, sizeof *w->sets))) {
		snprintf(w->err, w->err_size, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < w->n_paths; i++) {
		const ca_path *p;
		if (!(w->sets[i] = ca_arch_file_path(w->g->arch_file, w->path_names[i], w->err,
			    w->err_size)) || !ca_path_set_paths(w->sets[i], &p))
			return -1;
		if (w->n_wanted < MAX_RIDERS)
			w->wanted[w->n_wanted++] = (ca_records_options){ .follow = p,
				.follow_policy = CA_POLICY_USE_LATEST_MESSAGE };
	}
	return 0;
}

/* The topics every node has, and the tracer's control topics. */
static bool everyones_topic(const char *topic)
{
	return !strcmp(topic, "/parameter_events") || !strcmp(topic, "/rosout") ||
		!strcmp(topic, "/clock") || !strncmp(topic, "/caret/", 7);
}

struct buffers {
	uint64_t *starts;
	int64_t *latencies;
	size_t cap;
};

static bool room(struct buffers *b, size_t n)
{
	if (n <= b->cap)
		return true;
	uint64_t *s = realloc(b->starts, n * sizeof *s);
	if (s)
		b->starts = s;
	int64_t *l = realloc(b->latencies, n * sizeof *l);
	if (l)
		b->latencies = l;
	if (!s || !l)
		return false;
	b->cap = n;
	return true;
}

static int callbacks(struct gather *w, const ca_architecture *a, const ca_records *rec,
	struct buffers *b)
{
	ca_callback_instance *runs = NULL;
	size_t cap = 0;
	int status = 0;
	for (size_t c = 0; c < a->n_callbacks && !status; c++) {
		if (a->callbacks[c].hidden && !w->g->all)
			continue;
		size_t n = ca_records_callback_run_count(rec, c), k = 0;
		if (n + 1 > cap) {
			ca_callback_instance *more = realloc(runs, (n + 1) * sizeof *runs);
			if (!more || !room(b, n + 1)) {
				free(more ? more : runs);
				return -1;
			}
			runs = more;
			cap = n + 1;
		}
		if (!n)
			continue;
		n = ca_records_callback_runs(rec, c, runs);
		for (size_t i = 0; i < n; i++)
			if (runs[i].end) { /* a run not ended in the trace has no latency */
				b->starts[k] = runs[i].start;
				b->latencies[k++] = (int64_t)(runs[i].end - runs[i].start);
			}
		status = cmp_side_add(w->side, CA_CMP_CALLBACK, a->callbacks[c].name, b->starts,
			b->latencies, k);
	}
	free(runs);
	return status;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int topics(struct gather *w, const ca_architecture *a, const ca_records *rec,
	struct buffers *b)
{
	const char **v = malloc((a->n_publishers + a->n_subscriptions + 1) * sizeof *v);
	size_t m = 0;
	int status = 0;
	if (!v)
		return -1;
	for (size_t i = 0; i < a->n_publishers; i++)
		v[m++] = a->publishers[i].topic;
	for (size_t i = 0; i < a->n_subscriptions; i++)
		v[m++] = a->subscriptions[i].topic;
	qsort(v, m, sizeof *v, by_name);
	for (size_t i = 0; i < m && !status; i++) {
		if (!v[i] || (i && !strcmp(v[i - 1], v[i])) || (everyones_topic(v[i]) && !w->g->all))
			continue;
		for (int intra = 0; intra < 2 && !status; intra++) {
			size_t n = ca_records_topic_timed_count(rec, v[i], intra);
			if (!n)
				continue; /* no message of that delivery: no such row */
			char name[1024];
			snprintf(name, sizeof name, "%s %s", v[i], intra ? "intra" : "inter");
			if (!room(b, n + 1))
				status = -1;
			else
				status = cmp_side_add(w->side, CA_CMP_TOPIC, name, b->starts, b->latencies,
					ca_records_topic_timed(rec, v[i], intra, b->starts, b->latencies, NULL));
		}
	}
	free(v);
	return status;
}

static int nodes(struct gather *w, const ca_architecture *a, const ca_records *rec)
{
	const ca_node_path *paths;
	size_t n = ca_records_node_paths(rec, &paths);
	for (size_t i = 0; i < n; i++) {
		size_t c = paths[i].callback;
		if (c == CA_NONE || a->callbacks[c].kind != CA_CALLBACK_SUBSCRIPTION ||
		    (a->callbacks[c].hidden && !w->g->all) || !paths[i].starts)
			continue;
		char name[2048];
		snprintf(name, sizeof name, "%s %s -> %s", a->callbacks[c].name,
			a->subscriptions[a->callbacks[c].owner].topic, paths[i].topic);
		if (cmp_side_add(w->side, CA_CMP_NODE, name, paths[i].starts, paths[i].values,
			    paths[i].count) != 0)
			return -1;
	}
	return 0;
}

/* Path i followed (its records taken from the load's pass when they rode
 * it); a path the trace cannot follow (a node or topic not in it) is not
 * on this side. */
static int path(struct gather *w, const ca_trace *t, size_t i, struct buffers *b)
{
	const ca_path *p;
	ca_path_set_paths(w->sets[i], &p);
	char err[512];
	const ca_records_options mine = { .follow = p,
		.follow_policy = CA_POLICY_USE_LATEST_MESSAGE };
	ca_records *rec = ca_records_build_options(t, &mine, err, sizeof err);
	ca_path_latency *l = rec ? ca_path_latency_build(rec, p, CA_POLICY_USE_LATEST_MESSAGE, err,
		sizeof err) : NULL;
	int status = 0;
	if (l) {
		const ca_path_message *m;
		size_t n = ca_path_latency_messages(l, &m, NULL);
		status = room(b, n + 1) ? cmp_side_add(w->side, CA_CMP_PATH, w->path_names[i],
			b->starts, b->latencies, ca_path_latencies(l, (ca_path_span){ false, false },
			b->starts, b->latencies)) : -1;
	}
	ca_path_latency_free(l);
	ca_records_free(rec);
	return status;
}

/* Every object of trace t into the side, under a trace begun for it. */
static int gather_trace(struct gather *w, const ca_trace *t, const char *label)
{
	uint64_t first = 0, last = 0;
	ca_trace_read_span(t, &first, &last);
	if (cmp_side_add_trace(w->side, label, first, last) != 0) {
		snprintf(w->err, w->err_size, "out of memory");
		return -1;
	}
	const ca_architecture *a = ca_trace_architecture(t);
	struct buffers b = { 0 };
	ca_records *rec = ca_records_build_options(t, &w->wanted[WANT_MESSAGES], w->err,
		w->err_size);
	int status = rec ? 0 : -1;
	if (!status && wants(w, CA_CMP_CALLBACK))
		status = callbacks(w, a, rec, &b);
	if (!status && wants(w, CA_CMP_TOPIC))
		status = topics(w, a, rec, &b);
	if (!status && wants(w, CA_CMP_NODE))
		status = nodes(w, a, rec);
	ca_records_free(rec);
	for (size_t i = 0; !status && i < w->n_paths; i++)
		status = path(w, t, i, &b);
	free(b.starts);
	free(b.latencies);
	if (status) {
		if (rec) /* failed after the records: memory */
			snprintf(w->err, w->err_size, "out of memory");
		cmp_side_drop_trace(w->side);
	}
	return status;
}

int ca_cmp_side_gather(ca_cmp_side *side, const ca_trace *trace, const char *label,
	const ca_cmp_gather_options *g, char *err, size_t err_size)
{
	static const ca_cmp_gather_options none = { 0 };
	struct gather w = { .side = side, .g = g ? g : &none, .err = err, .err_size = err_size };
	int status = gather_plan(&w);
	if (!status)
		status = gather_trace(&w, trace, label);
	gather_free(&w);
	return status;
}

/* The paths given, joined by ", ": a trace's label. */
static char *label_of(const char *const *paths, size_t n)
{
	size_t size = 1;
	for (size_t i = 0; i < n; i++)
		size += strlen(paths[i]) + 2;
	char *s = malloc(size), *at = s;
	for (size_t i = 0; s && i < n; i++)
		at += sprintf(at, "%s%s", i ? ", " : "", paths[i]);
	if (s && !n)
		*s = 0;
	return s;
}

int ca_cmp_side_load(ca_cmp_side *side, const char *const *paths, size_t n_paths,
	const ca_load_options *o, const ca_cmp_gather_options *g, char *err, size_t err_size)
{
	static const ca_cmp_gather_options none = { 0 };
	struct gather w = { .side = side, .g = g ? g : &none, .err = err, .err_size = err_size };
	char *label = label_of(paths, n_paths);
	int status = label ? gather_plan(&w) : -1;
	if (!label)
		snprintf(err, err_size, "out of memory");
	ca_trace *t = NULL;
	if (!status) {
		/* no table of runtime events: the records ride the load's pass
		 * (what it keeps anyway with a window or babeltrace2); the tf and
		 * service events kept for the paths' links */
		ca_load_options load = o ? *o : ca_load_defaults();
		load.keep_runtime = false;
		load.keep_links = w.n_paths > 0;
		load.records = w.wanted;
		load.n_records = w.n_wanted;
		load.records_only = true;
		if (!(t = ca_trace_load_options(paths, n_paths, &load, err, err_size)))
			status = -1;
	}
	if (!status)
		status = gather_trace(&w, t, label);
	ca_trace_free(t);
	gather_free(&w);
	free(label);
	return status;
}
