/*
 * sec_sched.c - the Callback scheduling section: per executor and thread a
 * lane, each callback run a bar from its start to its end, coloured by
 * callback (drawn by web/page/sched.js on the time axis every timeline shares);
 * the runs that carried a path's messages, for the path chosen in the page,
 * stand out: the view that shows why a message waited.
 */
#define _GNU_SOURCE /* qsort_r */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "model.h"
#include "records.h"
#include "report.h"

/* Beyond this many runs, each lane keeps the longest run of each slice of
 * the trace's time (said on the page). */
#define SCHED_RUNS 200000

struct lane {
	int64_t pid, tid;
	size_t executor; /* the first seen of its callbacks' executors, or CA_NONE */
	size_t first, n; /* its runs in `order` */
};

struct sched {
	ca_callback_instance *runs; /* of the callbacks shown, by callback, then start */
	size_t n_runs;
	struct lane *lanes;
	size_t n_lanes;
	size_t *order;  /* the runs shown, lane by lane, each lane by start */
	size_t n_order;
	size_t *kept;   /* per run: its position in `order` after thinning, or CA_NONE */
};

static int lane_order(const void *x, const void *y, void *arch)
{
	const struct lane *a = x, *b = y;
	const ca_architecture *ar = arch;
	const char *ea = a->executor == CA_NONE ? "~" : ar->executors[a->executor].name;
	const char *eb = b->executor == CA_NONE ? "~" : ar->executors[b->executor].name;
	int c = strcmp(ea, eb);
	if (c)
		return c;
	return a->pid != b->pid ? (a->pid < b->pid ? -1 : 1) : a->tid < b->tid ? -1 : a->tid > b->tid;
}

/* The lane of (pid, tid), added if new (with room for it); CA_NONE out of
 * memory. The last one found is tried first: runs come thread by thread. */
static size_t lane_of(struct sched *s, size_t *cap, int64_t pid, int64_t tid, size_t *last)
{
	if (*last < s->n_lanes && s->lanes[*last].pid == pid && s->lanes[*last].tid == tid)
		return *last;
	for (size_t i = 0; i < s->n_lanes; i++)
		if (s->lanes[i].pid == pid && s->lanes[i].tid == tid)
			return *last = i;
	if (s->n_lanes == *cap) {
		struct lane *grown = realloc(s->lanes, 2 * *cap * sizeof *grown);
		if (!grown)
			return CA_NONE;
		s->lanes = grown;
		*cap *= 2;
	}
	s->lanes[s->n_lanes] = (struct lane){ pid, tid, CA_NONE, 0, 0 };
	return *last = s->n_lanes++;
}

/* Runs v[0..n) of one thread, each callback's in start order one after the
 * other (as counted out of s->runs): merged pairwise into start order,
 * through tmp (room for n); false out of memory. */
static bool merge_callbacks(size_t *v, size_t n, size_t *tmp, const ca_callback_instance *runs)
{
	size_t *bounds = malloc((n + 2) * sizeof *bounds), n_bounds = 0;
	if (!bounds)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!i || runs[v[i]].callback != runs[v[i - 1]].callback)
			bounds[n_bounds++] = i;
	bounds[n_bounds] = n;
	size_t *from = v, *to = tmp;
	while (n_bounds > 1) {
		size_t merged = 0;
		for (size_t b = 0; b < n_bounds; b += 2) {
			size_t lo = bounds[b], mid = bounds[b + 1];
			size_t hi = b + 2 <= n_bounds ? bounds[b + 2] : mid;
			size_t i = lo, j = mid, k = lo;
			while (i < mid && j < hi)
				to[k++] = runs[from[j]].start < runs[from[i]].start ? from[j++] : from[i++];
			while (i < mid)
				to[k++] = from[i++];
			while (j < hi)
				to[k++] = from[j++];
			bounds[merged++] = lo;
		}
		bounds[merged] = n;
		n_bounds = merged;
		size_t *swap = from;
		from = to;
		to = swap;
	}
	if (from != v)
		memcpy(v, from, n * sizeof *v);
	free(bounds);
	return true;
}

/* The runs of the callbacks shown, by callback then start; their lanes,
 * ordered by executor, process and thread; `order`, lane by lane and by
 * start within a lane. */
static bool build(struct report *r, struct sched *s)
{
	const ca_architecture *a = r->arch;
	size_t total = 0, cap = 16, last = CA_NONE;
	for (size_t cb = 0; cb < a->n_callbacks; cb++)
		total += report_shows_callback(r, cb) ? ca_records_callback_run_count(r->runs, cb) : 0;
	s->runs = malloc((total + 1) * sizeof *s->runs);
	s->lanes = malloc(cap * sizeof *s->lanes);
	s->order = malloc((total + 1) * sizeof *s->order);
	s->kept = malloc((total + 1) * sizeof *s->kept);
	size_t *lane = malloc((total + 1) * sizeof *lane);
	size_t *tmp = malloc((total + 1) * sizeof *tmp);
	bool ok = s->runs && s->lanes && s->order && s->kept && lane && tmp;
	for (size_t cb = 0; ok && cb < a->n_callbacks; cb++)
		if (report_shows_callback(r, cb))
			s->n_runs += ca_records_callback_runs(r->runs, cb, s->runs + s->n_runs);
	for (size_t i = 0; ok && i < s->n_runs; i++) {
		const ca_callback_instance *x = &s->runs[i];
		s->kept[i] = CA_NONE; /* until placed in order */
		if ((lane[i] = lane_of(s, &cap, x->pid, x->tid, &last)) == CA_NONE)
			ok = false;
		else if (s->lanes[lane[i]].executor == CA_NONE)
			s->lanes[lane[i]].executor = ca_model_callback_executor(a, x->callback);
	}
	if (ok) { /* the lanes in their order; each run's lane renumbered */
		size_t *rank = malloc((s->n_lanes + 1) * sizeof *rank);
		struct lane *sorted = malloc((s->n_lanes + 1) * sizeof *sorted);
		ok = rank && sorted;
		for (size_t l = 0; ok && l < s->n_lanes; l++) {
			sorted[l] = s->lanes[l];
			sorted[l].first = l; /* where it was */
		}
		if (ok) {
			qsort_r(sorted, s->n_lanes, sizeof *sorted, lane_order, (void *)a);
			for (size_t l = 0; l < s->n_lanes; l++)
				rank[sorted[l].first] = l;
			memcpy(s->lanes, sorted, s->n_lanes * sizeof *sorted);
			for (size_t i = 0; i < s->n_runs; i++)
				lane[i] = rank[lane[i]];
		}
		free(rank);
		free(sorted);
	}
	if (ok) { /* by lane (counted), then start: merging each lane's callbacks */
		for (size_t l = 0; l < s->n_lanes; l++)
			s->lanes[l].first = s->lanes[l].n = 0;
		for (size_t i = 0; i < s->n_runs; i++)
			s->lanes[lane[i]].n++;
		for (size_t l = 1; l < s->n_lanes; l++)
			s->lanes[l].first = s->lanes[l - 1].first + s->lanes[l - 1].n;
		for (size_t l = 0; l < s->n_lanes; l++)
			s->lanes[l].n = 0;
		for (size_t i = 0; i < s->n_runs; i++) {
			struct lane *ln = &s->lanes[lane[i]];
			s->order[ln->first + ln->n++] = i;
		}
		for (size_t l = 0; ok && l < s->n_lanes; l++)
			ok = merge_callbacks(s->order + s->lanes[l].first, s->lanes[l].n, tmp,
				s->runs);
		s->n_order = s->n_runs;
	}
	free(tmp);
	free(lane);
	return ok;
}

static uint64_t run_end(const struct report *r, const ca_callback_instance *x)
{
	return x->end ? x->end : r->t1; /* not ended: to the end of the trace */
}

/* Past SCHED_RUNS, per lane and slice of the trace's time the longest run. */
static void thin(struct report *r, struct sched *s)
{
	size_t slices = s->n_lanes ? SCHED_RUNS / s->n_lanes : 0, n = 0;
	double span = r->t1 > r->t0 ? (double)(r->t1 - r->t0) + 1 : 1;
	for (size_t l = 0; l < s->n_lanes; l++) {
		struct lane *ln = &s->lanes[l];
		size_t first = n, slice = CA_NONE, best = CA_NONE;
		for (size_t k = 0; k <= ln->n; k++) {
			size_t run = k < ln->n ? s->order[ln->first + k] : CA_NONE, at = CA_NONE;
			if (run != CA_NONE) {
				const ca_callback_instance *x = &s->runs[run];
				at = (size_t)((double)(x->start > r->t0 ? x->start - r->t0 : 0) / span *
					(double)slices);
			}
			if (at != slice && best != CA_NONE)
				s->order[n++] = best;
			if (run == CA_NONE)
				break;
			if (at != slice)
				slice = at, best = run;
			const ca_callback_instance *x = &s->runs[run], *b = &s->runs[best];
			if (run_end(r, x) - x->start > run_end(r, b) - b->start)
				best = run;
		}
		ln->first = first;
		ln->n = n - first;
	}
	s->n_order = n;
}

/* Where each callback's runs are in s->runs (sorted by
 * callback, then start): [first[cb], first[cb] + count[cb]). */
struct ranges {
	size_t *first, *count;
};

static bool ranges_of(const struct report *r, const struct sched *s, struct ranges *g)
{
	size_t n = r->arch->n_callbacks;
	g->first = calloc(n + 1, sizeof *g->first);
	g->count = calloc(n + 1, sizeof *g->count);
	if (!g->first || !g->count)
		return false;
	for (size_t i = s->n_runs; i-- > 0;) {
		size_t cb = s->runs[i].callback;
		if (cb != CA_NONE) {
			g->first[cb] = i;
			g->count[cb]++;
		}
	}
	return true;
}

/* Among the runs of the callbacks cbs[0..n): the one that starts at t, or
 * (within) the latest one that started by t and runs at t; CA_NONE.
 * at[c]: where the search for callback cbs[c] ended last; the times asked
 * mostly grow, so it mostly moves forward a step or two. */
static size_t run_at(const struct report *r, const struct sched *s, const struct ranges *g,
	const size_t *cbs, size_t *at, size_t n, uint64_t t, bool within)
{
	size_t found = CA_NONE;
	for (size_t c = 0; c < n; c++) {
		size_t first = g->first[cbs[c]], end = first + g->count[cbs[c]];
		size_t lo = at[c] < first ? first : at[c], hi = end;
		if (lo > first && s->runs[lo - 1].start > t)
			lo = first, hi = at[c]; /* t went back */
		int step = 0; /* a few steps forward first: the usual case */
		while (step++ < 8 && lo < hi && s->runs[lo].start <= t)
			lo++;
		if (lo == hi || s->runs[lo].start > t)
			hi = lo; /* found: no search */
		while (lo < hi) { /* the first run starting after t */
			size_t mid = lo + (hi - lo) / 2;
			if (s->runs[mid].start <= t)
				lo = mid + 1;
			else
				hi = mid;
		}
		at[c] = lo;
		if (lo == first)
			continue;
		const ca_callback_instance *x = &s->runs[lo - 1];
		if ((x->start == t || (within && run_end(r, x) >= t)) &&
		    (found == CA_NONE || x->start > s->runs[found].start))
			found = lo - 1;
	}
	return found;
}

/* Per path, the runs (positions in the page's order) its messages went
 * through: each node's run that started for the message and the run that
 * published it on. */
static void path_runs(const struct report *r, const struct sched *s, FILE *d,
	const ca_path_latency *l, const ca_path *p)
{
	const ca_architecture *a = r->arch;
	const ca_path_message *m;
	const int64_t *hops;
	size_t n = l ? ca_path_latency_messages(l, &m, &hops) : 0;
	size_t h = l ? ca_path_latency_hop_count(l) : 0, written = 0;
	uint8_t *marked = calloc(s->n_order + 1, 1);
	size_t *cbs = calloc(a->n_callbacks + 1, sizeof *cbs);
	size_t *at_in = calloc(a->n_callbacks + 1, sizeof *at_in);
	size_t *at_out = calloc(a->n_callbacks + 1, sizeof *at_out);
	size_t *node_first = calloc(p->node_count + 1, sizeof *node_first);
	struct ranges g = { 0 };
	if (!marked || !cbs || !at_in || !at_out || !node_first || !ranges_of(r, s, &g))
		n = 0;
	/* each path node's callbacks, one after the other in cbs */
	for (size_t k = 0, used = 0; n && k < p->node_count; k++) {
		node_first[k] = used;
		for (size_t cb = 0; cb < a->n_callbacks; cb++)
			if (a->callbacks[cb].node != CA_NONE &&
			    !strcmp(a->nodes[a->callbacks[cb].node].fqn, p->nodes[k]))
				cbs[used++] = cb;
		node_first[k + 1] = used;
	}
	for (size_t i = 0; i < n; i++) {
		uint64_t t = m[i].callback_start; /* the node's run started */
		for (size_t node = 0; node < p->node_count; node++) {
			size_t k = 2 * node, *own = cbs + node_first[node];
			size_t n_own = node_first[node + 1] - node_first[node];
			if (node && hops[i * h + k - 1] == CA_HOP_NONE)
				break;
			if (node)
				t += (uint64_t)hops[i * h + k - 1];
			size_t run = run_at(r, s, &g, own, at_in + node_first[node], n_own, t, false);
			if (run != CA_NONE && s->kept[run] != CA_NONE)
				marked[s->kept[run]] = 1;
			if (k + 1 >= h || hops[i * h + k] == CA_HOP_NONE)
				break;
			t += (uint64_t)hops[i * h + k]; /* the output's publish */
			run = run_at(r, s, &g, own, at_out + node_first[node], n_own, t, true);
			if (run != CA_NONE && s->kept[run] != CA_NONE)
				marked[s->kept[run]] = 1;
		}
	}
	fputc('[', d);
	for (size_t i = 0; marked && i < s->n_order; i++)
		if (marked[i])
			json_item(d, written++, (int64_t)i);
	fputc(']', d);
	free(marked);
	free(cbs);
	free(at_in);
	free(at_out);
	free(node_first);
	free(g.first);
	free(g.count);
}

/* "lanes": each lane's executor, thread, pid and runs in the page's order. */
static void write_lanes(FILE *d, const struct report *r, const struct sched *s)
{
	const ca_architecture *a = r->arch;
	fputs("\"lanes\":[", d);
	for (size_t l = 0; l < s->n_lanes; l++) {
		const struct lane *ln = &s->lanes[l];
		const ca_process *p = ca_architecture_process(a, ln->pid);
		char detail[512];
		if (p && p->procname)
			snprintf(detail, sizeof detail, "%s tid %" PRId64, p->procname, ln->tid);
		else
			snprintf(detail, sizeof detail, "pid %" PRId64 " tid %" PRId64, ln->pid, ln->tid);
		fputs(l ? ",{\"executor\":" : "{\"executor\":", d);
		if (ln->executor == CA_NONE) {
			json_string(d, "(executor unknown)");
		} else {
			const ca_executor *x = &a->executors[ln->executor];
			char *name = malloc(strlen(x->name) + strlen(x->type ? x->type : "") + 8);
			if (name)
				report_executor_label(x, name);
			json_string(d, name ? name : x->name);
			free(name);
		}
		fputs(",\"thread\":", d);
		json_string(d, detail);
		fprintf(d, ",\"pid\":%" PRId64 ",\"at\":%zu,\"n\":%zu}", ln->pid, ln->first, ln->n);
	}
	fputc(']', d);
}

/* "cbs" (the callbacks, each once, numbered as first met), then the runs:
 * "s" starts and "d" durations (µs), "cb" callback numbers, "open" those
 * not ended. */
static void write_runs(FILE *d, const struct report *r, const struct sched *s)
{
	const ca_architecture *a = r->arch;
	size_t *number = malloc((a->n_callbacks + 1) * sizeof *number), n_cbs = 0;
	for (size_t i = 0; number && i < a->n_callbacks; i++)
		number[i] = CA_NONE;
	fputs(",\"cbs\":[", d);
	for (size_t i = 0; number && i < s->n_order; i++) {
		size_t cb = s->runs[s->order[i]].callback;
		if (number[cb] != CA_NONE)
			continue;
		number[cb] = n_cbs;
		if (n_cbs++)
			fputc(',', d);
		json_string(d, a->callbacks[cb].name);
	}
	fputs("],\"s\":[", d);
	for (size_t i = 0; i < s->n_order; i++) {
		const ca_callback_instance *x = &s->runs[s->order[i]];
		if (i)
			fputc(',', d);
		json_us(d, x->start > r->t0 ? (int64_t)(x->start - r->t0) : 0);
	}
	fputs("],\"d\":[", d);
	for (size_t i = 0; i < s->n_order; i++) {
		const ca_callback_instance *x = &s->runs[s->order[i]];
		if (i)
			fputc(',', d);
		json_us(d, (int64_t)(run_end(r, x) - x->start));
	}
	fputs("],\"cb\":[", d);
	for (size_t i = 0; number && i < s->n_order; i++)
		json_item(d, i, (int64_t)number[s->runs[s->order[i]].callback]);
	fputs("],\"open\":[", d);
	for (size_t i = 0, k = 0; i < s->n_order; i++)
		if (!s->runs[s->order[i]].end)
			json_item(d, k++, (int64_t)i);
	fputc(']', d);
	free(number);
}

/* "paths": each path's nodes, and the runs its messages went through. */
static void write_paths(FILE *d, const struct report *r, const struct sched *s,
	const ca_path_latency *const *paths, const ca_path *const *path_defs, size_t n_paths)
{
	fputs(",\"paths\":[", d);
	for (size_t i = 0; i < n_paths; i++) {
		fputs(i ? ",{\"name\":" : "{\"name\":", d);
		char name[1024];
		size_t used = 0;
		for (size_t k = 0; k < path_defs[i]->node_count && used < sizeof name; k++)
			used += (size_t)snprintf(name + used, sizeof name - used, "%s%s", k ? " → " : "",
				path_defs[i]->nodes[k]);
		json_string(d, name);
		fputs(",\"runs\":", d);
		path_runs(r, s, d, paths[i], path_defs[i]);
		fputc('}', d);
	}
	fputc(']', d);
}

void report_sched_section(struct report *r, const ca_path_latency *const *paths,
	const ca_path *const *path_defs, size_t n_paths)
{
	struct sched s = { 0 };
	FILE *out = r->out;
	fputs("<section id='sched'><h2>Callback scheduling</h2>", out);
	if (!build(r, &s)) {
		fputs("<p class='error'>Out of memory.</p></section>", out);
		goto out;
	}
	if (!s.n_order) {
		fputs("<p>No callback of the system ran in the trace.</p></section>", out);
		goto out;
	}
	size_t total = s.n_order;
	if (total > SCHED_RUNS)
		thin(r, &s);
	for (size_t i = 0; i < s.n_order; i++)
		s.kept[s.order[i]] = i;
	char id[32];
	report_chart_id(r, id, sizeof id);
	fprintf(out, "<p>Per executor and thread, each callback run from its start to its end "
		"(a run not ended inside the trace goes to its end), coloured by callback. Choose "
		"a path to see the runs its messages went through; hover a run for its callback "
		"and times.%s</p><div class='sched' id='%s' data-chart='%s'></div></section>",
		total > SCHED_RUNS ? " This trace has more runs than the page draws: each thread "
		"shows the longest run of each slice of time." : "", id, id);
	FILE *d = report_datum(r, id);
	fputc('{', d);
	write_lanes(d, r, &s);
	write_runs(d, r, &s);
	fprintf(d, ",\"total\":%zu", total);
	write_paths(d, r, &s, paths, path_defs, n_paths);
	fputc('}', d);
out:
	free(s.runs);
	free(s.lanes);
	free(s.order);
	free(s.kept);
}
