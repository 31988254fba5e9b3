/* look.c - one look of `caret live` at the chunks archived so far (state.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "requirements.h"
#include "state.h"

/* A sample a look may meet again (a merged run is told at its end, in the
 * chunk after the one its start is in; a host's chunk can come after a
 * look passed its events): state.h. */
int live_count_once(struct live *L, struct live_series *s, uint64_t end, uint64_t start)
{
	if (end <= L->counted_until && !live_counted_new(&s->counted, end, start))
		return 0;
	if (!live_counted_add(&s->counted, end, start) ||
	    !live_series_add(s, end, (int64_t)(end - start)))
		return -1;
	if (!L->first_end || end < L->first_end)
		L->first_end = end;
	return 1;
}

/* Forgets the samples counted up to `floor`: none of them counted again. */
static void forget_counted(struct live *L, uint64_t floor)
{
	live_series_list_forget(&L->callbacks, floor);
	live_series_list_forget(&L->services, floor);
	live_series_list_forget(&L->actions, floor);
	for (size_t i = 0; i < L->o->n_paths; i++)
		live_counted_forget(&L->watches[i].series.counted, floor);
}

/* Every callback of the user's (a service's too; not the tracer's or ROS
 * 2's own) whose runs ended in (counted_until, until] (or
 * before, seen only now). */
static bool count_callbacks(struct live *L, const ca_trace *t, const ca_records *rec,
	uint64_t until)
{
	const ca_architecture *a = ca_trace_architecture(t);
	size_t most = 0;
	for (size_t c = 0; c < a->n_callbacks; c++) {
		size_t k = ca_records_callback_run_count(rec, c);
		most = k > most ? k : most;
	}
	ca_callback_instance *runs = malloc((most + 1) * sizeof *runs);
	if (!runs)
		return false;
	bool ok = true;
	for (size_t c = 0; c < a->n_callbacks && ok; c++) {
		const ca_callback *cb = &a->callbacks[c];
		if (!ca_callback_is_users(a, c) || !cb->name)
			continue;
		/* a timer's run longer than its period delays the next: a miss */
		int64_t period = cb->kind == CA_CALLBACK_TIMER ? a->timers[cb->owner].period_ns : 0;
		struct live_series *s = live_series_named(&L->callbacks, c, cb->name, period);
		size_t n = ca_records_callback_runs(rec, c, runs);
		ok = s && live_series_label_callback(s, a, c, L->n_hosts > 0);
		for (size_t i = 0; i < n && ok; i++) {
			if ((!runs[i].end || runs[i].end > until) && runs[i].start < L->open_since)
				L->open_since = runs[i].start; /* the next look reads back to it */
			if (runs[i].end && runs[i].end <= until && runs[i].end >= runs[i].start)
				ok = live_count_once(L, s, runs[i].end, runs[i].start) >= 0;
		}
	}
	free(runs);
	return ok;
}

static void describe_miss(struct live_miss *m, const ca_path *p, const int64_t *hops,
	size_t hop_count, ca_path_span span)
{
	m->n_hops = 0;
	m->worst = 0;
	for (size_t k = 0; k < hop_count && m->n_hops < LIVE_MAX_HOPS; k++) {
		if (!ca_path_hop_in_span(k, hop_count, span) || hops[k] == CA_HOP_NONE)
			continue;
		ca_path_hop_name(p, k, m->hop_names[m->n_hops], sizeof m->hop_names[0]);
		m->hops[m->n_hops] = hops[k];
		if (hops[k] > m->hops[m->worst])
			m->worst = m->n_hops;
		m->n_hops++;
	}
}

/* A watched path: resolved if it was not, followed, its instances ended
 * in (counted_until, until] counted, those over the deadline into misses
 * (room for max; *n_misses counts them all). */
static bool count_path(struct live *L, struct live_watch *w, const ca_trace *t,
	const ca_records *rec, uint64_t until, struct live_miss *misses, size_t max,
	size_t *n_misses)
{
	const struct live_options *o = L->o;
	/* --nodes: the topics between them found in this look's trace (its
	 * strings live as long as the trace) */
	ca_path_set *mine = NULL;
	if (w->spec->n_nodes &&
	    !(mine = ca_path_of_nodes(t, w->spec->nodes, w->spec->n_nodes, w->why, sizeof w->why)))
		return true; /* not in the trace yet: said in the table */
	const ca_path *p;
	if (!ca_path_set_paths(mine ? mine : w->set, &p)) {
		ca_path_set_free(mine);
		return true;
	}
	char err[512];
	ca_path_latency *l = ca_path_latency_build(rec, p, o->policy, err, sizeof err);
	if (!l) {
		snprintf(w->why, sizeof w->why, "%s", err);
		ca_path_set_free(mine);
		return true;
	}
	w->why[0] = '\0';
	const ca_path_message *m;
	const int64_t *hops;
	size_t n = ca_path_latency_messages(l, &m, &hops), h = ca_path_latency_hop_count(l);
	/* a message that has not reached the end half a lookback after it
	 * started is lost; counted once, in the look its start passes that */
	uint64_t half = (uint64_t)(o->lookback_s * 5e8), lost_from = L->counted_until > half ?
		L->counted_until - half : 0, lost_to = until > half ? until - half : 0;
	bool ok = true;
	for (size_t i = 0; i < n && ok; i++) {
		uint64_t start, end;
		bool ended = ca_path_message_span(&m[i], o->span, &start, &end);
		uint64_t begun = o->span.first_callback ? m[i].callback_start : m[i].publish;
		/* on its way still: the next look reads back to its first run */
		if ((!ended || end > until) && begun > lost_to && m[i].callback_start &&
		    m[i].callback_start < L->open_since)
			L->open_since = m[i].callback_start;
		if (!ended) {
			w->not_reaching_end += begun > lost_from && begun <= lost_to;
			continue;
		}
		if (end > until || end < start)
			continue;
		int counted = live_count_once(L, &w->series, end, start);
		int64_t latency = (int64_t)(end - start);
		ok = counted >= 0;
		if (counted <= 0 || w->spec->deadline_ns <= 0 || latency <= w->spec->deadline_ns)
			continue;
		if (*n_misses < max) {
			struct live_miss *x = &misses[*n_misses];
			memset(x, 0, sizeof *x);
			x->watch = w;
			x->start = start;
			x->end = end;
			x->latency = latency;
			describe_miss(x, p, hops + i * h, h, o->span);
		}
		(*n_misses)++;
	}
	/* an input a node still holds (use_latest_message) goes on with its
	 * later outputs: the next look reads back to its first run too */
	uint64_t held = ca_path_latency_held_since(l);
	if (held && held > lost_to && held < L->open_since)
		L->open_since = held;
	ca_path_latency_free(l);
	ca_path_set_free(mine);
	return ok;
}

/* Beside the snapshot's trace, the misses it was written for (the lines
 * --json prints): caret report marks their instances. */
static void write_miss_file(const char *dir, const struct live_miss *misses, size_t n)
{
	char name[4200];
	snprintf(name, sizeof name, "%s/%s", dir, CA_SNAPSHOT_MISS_FILE);
	FILE *f = fopen(name, "w");
	for (size_t i = 0; f && i < n; i++)
		live_json_miss(f, &misses[i]);
	if (!f || fclose(f) != 0)
		fprintf(stderr, "caret live: cannot write %s: the snapshot's report will not mark "
			"its miss\n", name);
}

/* The misses of this look, each said with how long after its end (now),
 * then one snapshot of the flight recorder for them all (while snapshots
 * are left): its folder named in their lines, written after them. */
static void report_misses(struct live *L, struct live_miss *misses, size_t n, size_t found)
{
	const struct live_options *o = L->o;
	char path[4096] = "", err[512];
	bool snapshot = n && o->snapshot_dir && L->snapshots < o->max_snapshots && L->recorder;
	if (snapshot)
		snprintf(path, sizeof path, "%s/miss-%u", o->snapshot_dir, L->snapshots + 1);
	for (size_t i = 0; i < n; i++) {
		snprintf(misses[i].snapshot, sizeof misses[i].snapshot, "%s", path);
		misses[i].detected_after = caret_monotonic_ns() - (int64_t)misses[i].end;
		live_print_miss(L, &misses[i]);
		L->recent[L->n_recent % 4] = misses[i];
		L->n_recent++;
	}
	if (found > n)
		fprintf(stderr, "caret live: %zu more deadline misses in this look, not "
			"described\n", found - n);
	L->misses += found;
	if (!snapshot)
		return;
	if (cr_record_snapshot(L->recorder, path, err, sizeof err) != 0) {
		fprintf(stderr, "caret live: the snapshot %s was not written: %s\n", path, err);
		return;
	}
	L->snapshots++;
	write_miss_file(path, misses, n);
}

/* Where a look of several hosts stops: the last event of the host that
 * is furthest behind among those still sending (a host that stopped
 * sending holds nobody back), on the first host's clock. */
static uint64_t hosts_until(struct live *L, const ca_trace *t)
{
	const ca_architecture *a = ca_trace_architecture(t);
	uint64_t until = UINT64_MAX, latest = 0;
	for (size_t h = 0; h < L->n_hosts; h++) {
		uint64_t last = 0;
		for (size_t i = 0; i < a->n_processes; i++) {
			uint64_t f, l;
			const char *host = a->processes[i].host;
			if (host && !strcmp(host, L->hosts[h].name) &&
			    ca_trace_process_window(t, a->processes[i].pid, &f, &l) && l > last)
				last = l;
		}
		L->hosts[h].last_event = last;
		L->hosts[h].last_event = last;
		latest = last > latest ? last : latest;
		if (L->hosts[h].active && last && last < until)
			until = last;
	}
	return until == UINT64_MAX ? latest : until;
}

/* Each host's clock against the first's from this look's messages: the
 * estimate moves its correction for the next look. */
static void follow_clocks(struct live *L, const ca_trace *t, const ca_records *rec,
	uint64_t until)
{
	ca_host_clock *h;
	size_t n = ca_host_clocks(t, rec, &h);
	if (!h) /* one host's processes so far */
		n = 0;
	for (size_t i = 0; i < L->n_hosts; i++) {
		struct live_host *x = &L->hosts[i];
		x->clock.host = NULL;
		for (size_t k = 0; k < n; k++) {
			int64_t estimate, uncertainty;
			if (strcmp(h[k].host, x->name))
				continue;
			x->clock = h[k];
			x->clock.host = x->name;
			/* moved only by more than its uncertainty and a millisecond: a
			 * correction that changes moves the hosts' events across the
			 * boundary between two looks (counted twice, or never) */
			if (k && ca_host_clock_estimate(&h[k], &estimate, &uncertainty) &&
			    llabs(estimate) > uncertainty && llabs(estimate) > 1000000) {
				x->correction += estimate;
				/* the samples counted so far, read again, have moved:
				 * none of them counted again */
				forget_counted(L, until);
			}
		}
	}
	free(h);
}

bool live_look(struct live *L, uint64_t until)
{
	/* back to the start of what the last look left on its way (a message,
	 * a run), at most the lookback: the chunks before hold nothing a count
	 * of this look needs */
	uint64_t lookback = (uint64_t)(L->o->lookback_s * 1e9), margin = 20000000;
	uint64_t since = until > lookback ? until - lookback : 0;
	uint64_t open = L->open_since < L->counted_until ? L->open_since : L->counted_until;
	if (!L->looks) /* everything recorded so far: the first chunk can be long (a
			* system slow to answer the start), and all of it is counted */
		since = 0;
	else if (open > since + margin)
		since = open - margin;
	const char **paths = malloc((L->chunks.n + 1) * sizeof *paths);
	if (!paths)
		return false;
	size_t n = live_chunks_to_read(&L->chunks, since, paths);
	L->read_from = since; /* a chunk's packets before it are not read */
	bool ok = live_look_at(L, paths, n, until);
	L->read_from = 0;
	free(paths);
	return ok;
}

/* What a look counts: the callbacks' runs, the service calls and action
 * goals, the watched paths' instances (the misses said), then the hosts'
 * clocks followed; false after a message on a failure. */
static bool count_everything(struct live *L, const ca_trace *t, uint64_t until)
{
	const struct live_options *o = L->o;
	char err[1024];
	ca_records *rec = ca_records_build_options(t, NULL, err, sizeof err);
	L->open_since = UINT64_MAX;
	bool ok = rec && count_callbacks(L, t, rec, until) && live_count_calls(L, t, until);
	struct live_miss *misses = ok ? malloc(16 * sizeof *misses) : NULL;
	size_t found = 0, described;
	ok = ok && misses;
	for (size_t i = 0; i < o->n_paths && ok; i++)
		ok = count_path(L, &L->watches[i], t, rec, until, misses, 16, &found);
	if (!ok)
		fprintf(stderr, "caret live: %s\n", rec ? "out of memory" : err);
	described = found < 16 ? found : 16;
	if (ok)
		report_misses(L, misses, described, found);
	if (ok && L->n_hosts > 1)
		follow_clocks(L, t, rec, until);
	/* what a later look can see again: back to the lookback, and a second */
	uint64_t remembered = (uint64_t)((o->lookback_s + 1) * 1e9);
	forget_counted(L, until > remembered ? until - remembered : 0);
	free(misses);
	ca_records_free(rec);
	L->counted_until = until;
	L->looks++;
	return ok;
}

bool live_look_at(struct live *L, const char *const *paths, size_t n, uint64_t until)
{
	if (!n)
		return true;
	ca_load_options lo = ca_load_defaults();
	lo.keep_runtime = true; /* one pass: the chunks are small */
	lo.merge = true;        /* the chunks of one session, or of several hosts */
	lo.framing_checked = true; /* live_chunk_examine checked each as it came */
	lo.runtime_from_ns = L->read_from;
	/* a look of the chunks caret live rotated itself: what was written by
	 * the moment it asked for the rotation, all of it and only that (the
	 * rest, a part of the streams' events after it, comes with the next
	 * look). --watch knows no such moment of a host's. */
	lo.runtime_until_ns = until;
	const char *names[LIVE_MAX_HOSTS];
	int64_t corrections[LIVE_MAX_HOSTS];
	for (size_t i = 0; i < L->n_hosts; i++) {
		names[lo.n_clock_corrections] = L->hosts[i].name;
		corrections[lo.n_clock_corrections++] = L->hosts[i].correction;
	}
	lo.clock_hosts = names;
	lo.clock_corrections = corrections;
	ca_trace *t;
	caret_error *why;
	caret_status status = ca_trace_open(paths, n, &lo, &t, &why);
	if (status == CARET_ERR_EMPTY) { /* the hosts' processes have not begun yet */
		caret_error_free(why);
		return true;
	}
	if (status != CARET_OK) {
		fprintf(stderr, "caret live: cannot read the chunks: %s\n", caret_error_message(why));
		caret_error_free(why);
		return false;
	}
	if (!L->recorder) /* --watch: the processes of the hosts' chunks */
		L->processes = ca_trace_architecture(t)->n_processes;
	live_presence_name(L, t);
	if (!until)
		until = hosts_until(L, t);
	/* a node asked for and not in the first look (every traced process
	 * replayed its initialization into it): nothing to watch. With
	 * --watch, a host may come later with it: not followed till then. */
	bool ok = L->looks || !L->recorder || live_nodes_present(L, t);
	if (ok && until > L->counted_until) /* else nothing new from the host behind */
		ok = count_everything(L, t, until);
	ca_trace_free(t);
	return ok;
}
