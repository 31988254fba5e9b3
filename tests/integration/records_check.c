/*
 * records_check - checks the analyzer's runtime records against the
 * testbed's ground truth, inside the window each process was recorded
 * (from its first to its last event in the trace):
 *   - every callback run of the truth is a run in the records (same pid and
 *     callback address, the nearest start), with its latency within
 *     TOLERANCE; no run in the records that the truth does not have;
 *   - every message the truth says a subscription callback handled, whose
 *     publish lies in the publisher's window, is a communication record
 *     (the run that handled it, and the publish of the same process), with
 *     its latency (callback start - publish) within TOLERANCE.
 * At most NOISY_SHARE of the instances (or NOISY_MIN) may be off by more
 * than TOLERANCE. An instance is found by its times within NEAR, or, when
 * one clock read of the truth is far from its tracepoint (a thread
 * preempted between the two on a busy machine: 10 to 28 ms seen), by what
 * still names it: a message by its DDS source stamp, a callback run or a
 * path message by its other end and the overlap; its latency then counts
 * among the noisy ones. A truth callback is named by its address, or (the real
 * rclcpp apps, which cannot see it) by its timer's, subscription's or
 * service's rcl handle.
 * Prints the counts and the worst differences.
 *
 * With --callbacks-only, callback runs and timers only (a trace whose
 * messages cannot be linked: intra-process on upstream Humble).
 *
 * usage: records_check [--callbacks-only] TRACE_DIR TRUTH_DIR PID_FILE
 *                      [--path A,B,...|FILE:NAME]
 */
#define _GNU_SOURCE /* asprintf */
#include <glob.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ca.h"

#define TOLERANCE 50000 /* ns: what a latency may differ from the truth's */
#define NEAR 10000000    /* ns: how far apart the same instance's times may be */
/* The truth's clock reads sit next to the tracepoints, but a process can be
 * preempted between the two (seen: 2.6 ms on 2 busy cores; 7 of 120
 * instances in one CI run of a mixed-DDS system, whose Fast DDS threads
 * compete with the callbacks; 9 of 80 in a services system): at most this
 * share of instances (or NOISY_MIN of them, on short runs) may differ by
 * more than TOLERANCE. An analyzer error (a start paired with the wrong
 * end, a wrong clock) moves most instances of its kind, and their median
 * difference with them: each kind's must be within TOLERANCE. */
#define NOISY_SHARE 0.25
#define NOISY_MIN 5
#define MAX_COLUMNS 16

static int failures;

/* Rows of one kind of truth file for every launched pid, split in place. */
struct csv {
	char **lines;
	size_t n, cap;
};

static void load(struct csv *c, const char *dir, const char *pid_file, const char *kind)
{
	FILE *pids = fopen(pid_file, "r");
	char name[256], line[8192];
	long pid;
	while (pids && fscanf(pids, "%255s %ld", name, &pid) == 2) {
		char *pattern;
		glob_t g;
		if (asprintf(&pattern, "%s/*.%s.%ld.csv", dir, kind, pid) < 0)
			exit(2);
		if (glob(pattern, 0, NULL, &g) == 0 && g.gl_pathc == 1) {
			FILE *f = fopen(g.gl_pathv[0], "r");
			while (f && fgets(line, sizeof line, f)) {
				if (!strncmp(line, "pid,", 4))
					continue;
				if (c->n == c->cap && !(c->lines = realloc(c->lines,
					(c->cap = c->cap ? 2 * c->cap : 256) * sizeof *c->lines)))
					exit(2);
				line[strcspn(line, "\n")] = '\0';
				c->lines[c->n++] = strdup(line);
			}
			if (f)
				fclose(f);
			globfree(&g);
		}
		free(pattern);
	}
	if (pids)
		fclose(pids);
}

static void free_csv(struct csv *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->lines[i]);
	free(c->lines);
}

static int split(char *line, char **f)
{
	int n = 0;
	for (char *p = line; n < MAX_COLUMNS; n++) {
		f[n] = p;
		if (!(p = strchr(p, ',')))
			return n + 1;
		*p++ = '\0';
	}
	return n;
}

static const ca_architecture *a;
static const ca_trace *trace;

/* Inside a process's recorded window (its first to its last event in the
 * trace) by at least margin on each side. */
/* Each process's first runtime event the records hold (a run's start or
 * a publish), by pid; 0 for none. A recording that joins a process replays
 * its initialization first (PREPARE) and records runtime events only from
 * RECORD on: its first event is the replay's, and a run before RECORD is
 * rightly missing (seen: a Python process's replay of 10 ms or more on a
 * loaded machine, real_jazzy-rclpy_fastdds in a clean-clone run). */
static struct runtime_start {
	int64_t pid;
	uint64_t first;
} *runtime_starts;
static size_t n_runtime_starts;

static void note_runtime(int64_t pid, uint64_t t)
{
	size_t i = 0;
	while (i < n_runtime_starts && runtime_starts[i].pid != pid)
		i++;
	if (i == n_runtime_starts) {
		struct runtime_start *grown = realloc(runtime_starts, (i + 1) * sizeof *grown);
		if (!grown)
			return;
		runtime_starts = grown;
		runtime_starts[n_runtime_starts++] = (struct runtime_start){ pid, t };
	} else if (t < runtime_starts[i].first) {
		runtime_starts[i].first = t;
	}
}

static void find_runtime_starts(const ca_records *rec)
{
	const ca_callback_instance *runs;
	const ca_publish_instance *ps;
	size_t n = ca_records_callbacks(rec, &runs);
	for (size_t i = 0; i < n; i++)
		if (runs[i].start)
			note_runtime(runs[i].pid, runs[i].start);
	n = ca_records_publishes(rec, &ps);
	for (size_t i = 0; i < n; i++) {
		uint64_t t = ps[i].rclcpp_time ? ps[i].rclcpp_time : ps[i].rcl_time;
		if (t)
			note_runtime(ps[i].pid, t);
	}
}

static bool in_window(int64_t pid, uint64_t from, uint64_t to, uint64_t margin)
{
	uint64_t first, last;
	if (!ca_architecture_process(a, pid) || !ca_trace_process_window(trace, pid, &first, &last))
		return false;
	for (size_t i = 0; i < n_runtime_starts; i++)
		if (runtime_starts[i].pid == pid && runtime_starts[i].first > first)
			first = runtime_starts[i].first;
	return from >= first + margin && to + margin <= last;
}

/* Whether the processes pids[0..n-1] were all recording at time t. */
static bool recording_at(const int64_t *pids, size_t n, uint64_t t)
{
	for (size_t k = 0; k < n; k++)
		if (!in_window(pids[k], t, t, NEAR))
			return false;
	return true;
}

static int64_t diff(int64_t x, int64_t y)
{
	return x > y ? x - y : y - x;
}

/* ---- callbacks ---------------------------------------------------------- */

/* The callback the truth names by address at time t: its own, or its
 * entity's handle; of several at that address (freed and reused), the
 * newest created by t. */
static size_t callback_of(int64_t pid, uint64_t address, uint64_t t)
{
	size_t found = CA_NONE;
	uint64_t found_time = 0;
#define CONSIDER(match, object_time, callback)                                  \
	if ((match) && (found == CA_NONE || ((object_time) <= t && (object_time) > found_time) || \
			(found_time > t && (object_time) < found_time))) {       \
		found = (callback);                                             \
		found_time = (object_time);                                     \
	}
	for (size_t i = 0; i < a->n_callbacks; i++)
		CONSIDER(a->callbacks[i].pid == pid && (a->callbacks[i].address == address ||
			a->callbacks[i].intra_address == address), a->callbacks[i].time, i)
	for (size_t i = 0; i < a->n_timers; i++)
		CONSIDER(a->timers[i].pid == pid && a->timers[i].handle == address,
			a->timers[i].time, a->timers[i].callback)
	for (size_t i = 0; i < a->n_subscriptions; i++)
		CONSIDER(a->subscriptions[i].pid == pid && a->subscriptions[i].handle == address,
			a->subscriptions[i].time, a->subscriptions[i].callback)
	for (size_t i = 0; i < a->n_services; i++)
		CONSIDER(a->services[i].pid == pid && a->services[i].handle == address,
			a->services[i].time, a->services[i].callback)
#undef CONSIDER
	return found;
}

/* The unmatched run of the callback, in the same thread, that is the
 * truth's run from start to end. A thread runs one run of a callback at a
 * time, so a run that overlaps the truth's is that run (the one
 * overlapping it most). Only the app's clock reads can be far from their
 * tracepoints: a thread preempted between them on a busy machine (seen:
 * 11.9 ms, test_tracer_executors_unmerged under busy.sh), or a Python
 * thread waiting for the GIL inside the run, outside the app's reads (seen:
 * up to 135 ms before callback_end, the rclpy apps under make test's load;
 * docs/dev/rclpy.md); such a wait before the app's first read puts the
 * next run's start nearer the app's than the run's own. With no overlap,
 * the run whose start is within NEAR, nearest by start and end. */
static size_t run_near(const ca_callback_instance *runs, size_t n, const uint64_t *matched_by,
	int64_t pid, int64_t tid, uint64_t address, uint64_t start, uint64_t end)
{
	size_t best = CA_NONE, overlapping = CA_NONE, callback = callback_of(pid, address, start);
	int64_t best_d = INT64_MAX;
	uint64_t most = 0;
	for (size_t i = 0; i < n && callback != CA_NONE; i++) {
		const ca_callback_instance *r = &runs[i];
		if (matched_by[i] || r->pid != pid || r->tid != tid || r->callback != callback)
			continue;
		if (r->end && r->start < end && r->end > start) {
			uint64_t shared = (r->end < end ? r->end : end) -
				(r->start > start ? r->start : start);
			if (overlapping == CA_NONE || shared > most) {
				overlapping = i;
				most = shared;
			}
			continue;
		}
		int64_t ds = diff((int64_t)r->start, (int64_t)start);
		int64_t de = r->end ? diff((int64_t)r->end, (int64_t)end) : 0;
		if (ds <= NEAR && ds + de < best_d) {
			best = i;
			best_d = ds + de;
		}
	}
	return overlapping != CA_NONE ? overlapping : best;
}

static size_t noisy, instances;

/* The differences of the kind of instance being checked. */
static struct {
	int64_t *v;
	size_t n, cap;
} kind;

/* Counts d among its kind's differences; 1 if it is over TOLERANCE. */
static size_t over(int64_t d)
{
	if (kind.n == kind.cap) {
		size_t cap = kind.cap ? 2 * kind.cap : 256;
		int64_t *v = realloc(kind.v, cap * sizeof *v);
		if (!v) {
			fprintf(stderr, "records_check: out of memory\n");
			exit(1);
		}
		kind.v = v;
		kind.cap = cap;
	}
	kind.v[kind.n++] = d;
	return d > TOLERANCE;
}

/* The end of a kind's check: its median difference within TOLERANCE. */
static void kind_done(const char *what)
{
	if (kind.n) {
		ca_stats st;
		ca_stats_of(kind.v, kind.n, CA_PERCENTILE_NEAREST_RANK, &st);
		int64_t median = (int64_t)st.p50;
		if (median > TOLERANCE) {
			failures++;
			fprintf(stderr, "records_check: %s: the median latency difference, %" PRId64
				" ns, is over %d ns\n", what, median, TOLERANCE);
		}
	}
	kind.n = 0;
}

/* Callbacks of objects rclcpp made itself (symbol "?" in the truth of the
 * real apps: parameter services, the /parameter_events subscription): the
 * apps cannot time their runs, so the truth has none of them. */
static bool *untimed_callbacks(struct csv *entities)
{
	bool *untimed = calloc(a->n_callbacks + 1, 1);
	for (size_t i = 0; untimed && i < entities->n; i++) {
		char *f[MAX_COLUMNS], line[8192];
		snprintf(line, sizeof line, "%s", entities->lines[i]);
		if (split(line, f) >= 8 && !strcmp(f[7], "?")) {
			const char *time = strrchr(entities->lines[i], ',');
			size_t cb = callback_of(strtoll(f[0], NULL, 10), strtoull(f[4], NULL, 16),
				strtoull(time + 1, NULL, 10));
			if (cb != CA_NONE)
				untimed[cb] = true;
		}
	}
	return untimed;
}

static void check_callbacks(const ca_records *rec, struct csv *truth, struct csv *entities)
{
	const ca_callback_instance *runs;
	size_t n = ca_records_callbacks(rec, &runs), expected = 0, found = 0, off = 0;
	int64_t worst = 0;
	/* each run's truth run (its start) once matched; 0: not yet */
	uint64_t *matched_by = calloc(n + 1, sizeof *matched_by);
	for (size_t i = 0; i < truth->n; i++) {
		char *f[MAX_COLUMNS], line[8192];
		snprintf(line, sizeof line, "%s", truth->lines[i]);
		if (split(line, f) < 8)
			continue;
		int64_t pid = strtoll(f[0], NULL, 10);
		uint64_t address = strtoull(f[3], NULL, 16), start = strtoull(f[6], NULL, 10),
			 end = strtoull(f[7], NULL, 10);
		/* Away from the window's edges: a process's threads do not stop
		 * recording at the same instant (the extra runs are counted with
		 * the same margin). */
		if (!in_window(pid, start, end, NEAR))
			continue;
		expected++;
		size_t r = run_near(runs, n, matched_by, pid, strtoll(f[5], NULL, 10), address, start,
			end);
		if (r == CA_NONE || !runs[r].end) {
			if (failures++ < 10) {
				/* the nearest run of that process, to tell what differs */
				size_t near = CA_NONE;
				for (size_t k = 0; k < n; k++)
					if (runs[k].pid == pid && (near == CA_NONE ||
					    diff((int64_t)runs[k].start, (int64_t)start) <
					    diff((int64_t)runs[near].start, (int64_t)start)))
						near = k;
				fprintf(stderr, "records_check: run of %s (%s) at %" PRIu64 "-%" PRIu64
					" (tid %s) not found", f[2], f[1], start, end, f[5]);
				if (near != CA_NONE)
					fprintf(stderr, "; nearest: %s at %" PRIu64 "-%" PRIu64 " (tid %"
						PRId64 ")", runs[near].callback == CA_NONE ? "?" :
						a->callbacks[runs[near].callback].name, runs[near].start,
						runs[near].end, runs[near].tid);
				if (near != CA_NONE && matched_by[near])
					fprintf(stderr, ", matched to the truth's run at %" PRIu64,
						matched_by[near]);
				/* and of its thread: whether the thread recorded anything then */
				int64_t tid = strtoll(f[5], NULL, 10);
				size_t in_thread = CA_NONE;
				for (size_t k = 0; k < n; k++)
					if (runs[k].pid == pid && runs[k].tid == tid &&
					    (in_thread == CA_NONE ||
					     diff((int64_t)runs[k].start, (int64_t)start) <
					     diff((int64_t)runs[in_thread].start, (int64_t)start)))
						in_thread = k;
				if (in_thread != CA_NONE && in_thread != near)
					fprintf(stderr, "; nearest in its thread: %s at %" PRIu64 "-%" PRIu64,
						runs[in_thread].callback == CA_NONE ? "?" :
						a->callbacks[runs[in_thread].callback].name,
						runs[in_thread].start, runs[in_thread].end);
				uint64_t first, last;
				if (ca_trace_process_window(trace, pid, &first, &last))
					fprintf(stderr, "; the process's events %" PRIu64 "-%" PRIu64, first,
						last);
				size_t cb = callback_of(pid, address, start);
				fprintf(stderr, "; the truth's callback is %s in the trace\n",
					cb == CA_NONE ? "none" : a->callbacks[cb].name);
			}
			continue;
		}
		found++;
		matched_by[r] = start;
		int64_t d = diff((int64_t)(runs[r].end - runs[r].start), (int64_t)(end - start));
		off += over(d);
		if (d > worst)
			worst = d;
	}
	/* Runs of the records, whole inside the window, that the truth lacks. */
	size_t extra = 0;
	bool *untimed = untimed_callbacks(entities);
	for (size_t i = 0; i < n; i++)
		if (!matched_by[i] && runs[i].end && runs[i].callback != CA_NONE &&
		    !(untimed && untimed[runs[i].callback]) &&
		    in_window(runs[i].pid, runs[i].start, runs[i].end, NEAR)) {
			if (extra++ < 5)
				fprintf(stderr, "records_check: run of %s at %" PRIu64 "-%" PRIu64
					" (tid %" PRId64 ") not in the truth\n",
					a->callbacks[runs[i].callback].name, runs[i].start, runs[i].end,
					runs[i].tid);
			failures++;
		}
	kind_done("callbacks");
	noisy += off;
	instances += found;
	printf("callbacks: %zu of %zu truth runs found, %zu not in the truth; latency "
		"differences: worst %" PRId64 " ns, %zu over %d ns\n", found, expected, extra, worst,
		off, TOLERANCE);
	free(untimed);
	free(matched_by);
}

/* ---- communications ----------------------------------------------------- */

struct publish {
	int64_t pid;
	uint64_t publisher, seq, time;
	char topic[256];
};

/* The truth's runs by start, to find the run that took a message (a
 * receive's time is its run's start). */
struct truth_run {
	int64_t pid;
	uint64_t start, end;
	char callback[64];
};

static int by_start(const void *x, const void *y)
{
	uint64_t a1 = ((const struct truth_run *)x)->start, b1 = ((const struct truth_run *)y)->start;
	return (a1 > b1) - (a1 < b1);
}

static struct truth_run *truth_runs(struct csv *callbacks, size_t *n)
{
	struct truth_run *t = calloc(callbacks->n + 1, sizeof *t);
	*n = 0;
	for (size_t i = 0; t && i < callbacks->n; i++) {
		char *f[MAX_COLUMNS], line[8192];
		snprintf(line, sizeof line, "%s", callbacks->lines[i]);
		if (split(line, f) < 8)
			continue;
		t[*n] = (struct truth_run){ strtoll(f[0], NULL, 10), strtoull(f[6], NULL, 10),
			strtoull(f[7], NULL, 10), "" };
		snprintf(t[*n].callback, sizeof t[*n].callback, "%s", f[2]);
		(*n)++;
	}
	if (t)
		qsort(t, *n, sizeof *t, by_start);
	return t;
}

/* The end of the truth's run of CALLBACK in process PID that started at
 * START, or START when there is none. */
static uint64_t truth_run_end(const struct truth_run *t, size_t n, int64_t pid,
	const char *callback, uint64_t start)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (t[mid].start < start)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < n && t[lo].start == start; lo++)
		if (t[lo].pid == pid && !strcmp(t[lo].callback, callback))
			return t[lo].end;
	return start;
}

static void check_communications(const ca_records *rec, struct csv *receives, struct csv *publishes,
	struct csv *callbacks)
{
	struct publish *pubs = calloc(publishes->n + 1, sizeof *pubs);
	for (size_t i = 0; i < publishes->n; i++) {
		char *f[MAX_COLUMNS], line[8192];
		snprintf(line, sizeof line, "%s", publishes->lines[i]);
		if (split(line, f) < 8)
			continue;
		pubs[i] = (struct publish){ strtoll(f[0], NULL, 10), strtoull(f[3], NULL, 10),
			strtoull(f[4], NULL, 10), strtoull(f[7], NULL, 10), "" };
		snprintf(pubs[i].topic, sizeof pubs[i].topic, "%s", f[2]);
	}
	size_t n_truth;
	struct truth_run *truth = truth_runs(callbacks, &n_truth);
	const ca_communication *comms;
	const ca_callback_instance *runs;
	const ca_publish_instance *ps;
	size_t n = ca_records_communications(rec, &comms), expected = 0, found = 0, off = 0;
	ca_records_callbacks(rec, &runs);
	ca_records_publishes(rec, &ps);
	int64_t worst = 0;

	for (size_t i = 0; i < receives->n; i++) {
		char *f[MAX_COLUMNS], line[8192];
		snprintf(line, sizeof line, "%s", receives->lines[i]);
		if (split(line, f) < 11 || strncmp(f[2], "subscription_callback", 21))
			continue; /* service requests and responses are not topics */
		int64_t pid = strtoll(f[0], NULL, 10);
		uint64_t publisher = strtoull(f[4], NULL, 10), seq = strtoull(f[5], NULL, 10),
			 stamp = strtoull(f[8], NULL, 10), time = strtoull(f[9], NULL, 10);
		const struct publish *pub = NULL;
		for (size_t k = 0; k < publishes->n && !pub; k++)
			if (pubs[k].publisher == publisher && pubs[k].seq == seq)
				pub = &pubs[k];
		/* the whole run that took it: a run is recorded whole (merged
		 * timing: one event at its end) or not, and one that ended after
		 * its process stopped recording is rightly missing with the
		 * message it took (seen: a Python run of 22 ms at a late
		 * recording's end, its take recorded alone) */
		if (!pub || !in_window(pid, time, time, NEAR) ||
		    !in_window(pub->pid, pub->time, pub->time, NEAR) ||
		    !in_window(pid, time, truth_run_end(truth, n_truth, pid, f[2], time), NEAR))
			continue;
		expected++;
		/* the message handled by the run nearest the truth's; first of
		 * all the one of the same DDS sample (the take's source stamp is
		 * the truth's), however far the run's start is from the truth's
		 * clock read (the thread preempted between that read and
		 * callback_start, seen: 21 ms under busy.sh) */
		size_t c = CA_NONE;
		int64_t best = INT64_MAX;
		bool best_same = false;
		for (size_t k = 0; k < n; k++) {
			const ca_callback_instance *run = &runs[comms[k].callback_instance];
			int64_t d = diff((int64_t)run->start, (int64_t)time);
			bool same = stamp && !comms[k].intra && comms[k].source_stamp == stamp;
			if (run->pid == pid && (same || d <= NEAR) && comms[k].subscription != CA_NONE &&
			    !strcmp(a->subscriptions[comms[k].subscription].topic, f[3]) &&
			    (same > best_same || (same == best_same && d < best))) {
				c = k;
				best = d;
				best_same = same;
			}
		}
		if (c == CA_NONE || comms[c].publish == CA_NONE) {
			if (failures++ < 10)
				fprintf(stderr, "records_check: %s seq %" PRIu64 " to %s: %s\n", f[3], seq,
					f[1], c == CA_NONE ? "no communication" : "no publish");
			continue;
		}
		const ca_publish_instance *p = &ps[comms[c].publish];
		uint64_t pt = p->rclcpp_time ? p->rclcpp_time : p->rcl_time;
		int64_t dp = diff((int64_t)pt, (int64_t)pub->time);
		/* The same DDS sample (the publish's source stamp is the one the
		 * subscriber's truth got) is the same message however far apart
		 * the clocks were read: a thread preempted between the truth's
		 * clock read and the publish tracepoint (seen: 10.8 and 12.1 ms on
		 * two cores kept busy, test_tracer_executors_unmerged) makes
		 * its latency off, counted as noise below, not a wrong message.
		 * Another sample, or none to compare, must be within NEAR. */
		bool same_sample = stamp && p->source_stamp == stamp;
		if (p->pid != pub->pid || (dp > NEAR && !same_sample)) {
			if (failures++ < 10)
				fprintf(stderr, "records_check: %s seq %" PRIu64 ": publish off by %" PRId64
					" ns\n", f[3], seq, dp);
			continue;
		}
		found++;
		int64_t d = diff((int64_t)(runs[comms[c].callback_instance].start - pt),
			(int64_t)(time - pub->time));
		off += over(d);
		if (d > worst)
			worst = d;
	}
	kind_done("communications");
	noisy += off;
	instances += found;
	printf("communications: %zu of %zu truth messages found; latency differences: worst %"
		PRId64 " ns, %zu over %d ns\n", found, expected, worst, off, TOLERANCE);
	free(pubs);
	free(truth);
}

/* ---- timers ------------------------------------------------------------- */

/* a - b on the circle of one period, in (-period/2, period/2] */
static int64_t circle_diff(int64_t a, int64_t b, int64_t period)
{
	int64_t x = (a - b) % period;
	if (x > period / 2)
		x -= period;
	else if (x <= -period / 2)
		x += period;
	return x;
}

/* Each timer run's delay (start - creation, modulo the period) against the
 * truth's for the same run (the trace's run nearest in start time): the
 * creation times of trace and truth are clock reads a few microseconds
 * apart, like the starts, so a delay near 0 in one may be near the period
 * in the other; delays compare on the circle of one period. */
static void check_timers(const ca_records *rec, struct csv *entities, struct csv *callbacks)
{
	const ca_callback_instance *runs;
	size_t n = ca_records_callbacks(rec, &runs), compared = 0, off = 0;
	int64_t *delays = malloc((n + 1) * sizeof *delays), worst = 0, offset = 0;
	uint64_t *starts = malloc((n + 1) * sizeof *starts);
	for (size_t k = 0; delays && starts && k < a->n_timers; k++) {
		const ca_timer *tm = &a->timers[k];
		if (tm->callback == CA_NONE)
			continue;
		/* The truth's timer at that handle created nearest to the trace's
		 * (a timer destroyed and another made at its address). */
		uint64_t created = 0;
		int64_t nearest = INT64_MAX;
		for (size_t i = 0; i < entities->n; i++) {
			char *f[MAX_COLUMNS], line[8192];
			snprintf(line, sizeof line, "%s", entities->lines[i]);
			/* time_ns is the last column: a symbol may hold commas */
			const char *time = strrchr(entities->lines[i], ',');
			uint64_t t = strtoull(time + 1, NULL, 10);
			if (split(line, f) >= 10 && !strcmp(f[1], "timer") &&
			    strtoll(f[0], NULL, 10) == tm->pid && strtoull(f[4], NULL, 16) == tm->handle &&
			    diff((int64_t)t, (int64_t)tm->time) < nearest) {
				created = t;
				nearest = diff((int64_t)t, (int64_t)tm->time);
			}
		}
		/* ca_records_timer_delays gives the delays of the timer's runs
		 * from its creation on, in start order: the same walk gives
		 * each delay's start. */
		size_t m = ca_records_timer_delays(rec, k, delays), n_s = 0;
		for (size_t i = 0; i < n && n_s < m; i++)
			if (runs[i].callback == tm->callback && runs[i].start >= tm->time)
				starts[n_s++] = runs[i].start;
		int64_t *d = malloc((callbacks->n + 1) * sizeof *d);
		size_t n_d = 0;
		for (size_t i = 0; d && i < callbacks->n && created && n_s == m; i++) {
			char *f[MAX_COLUMNS], line[8192];
			snprintf(line, sizeof line, "%s", callbacks->lines[i]);
			if (split(line, f) < 8 || strtoll(f[0], NULL, 10) != tm->pid ||
			    callback_of(tm->pid, strtoull(f[3], NULL, 16), strtoull(f[6], NULL, 10)) !=
				    tm->callback)
				continue;
			uint64_t start = strtoull(f[6], NULL, 10);
			if (!in_window(tm->pid, start, start, NEAR) || start < created)
				continue;
			int64_t truth = (int64_t)((start - created) % (uint64_t)tm->period_ns);
			size_t same = m;
			int64_t best = INT64_MAX;
			for (size_t j = 0; j < m; j++)
				if (diff((int64_t)starts[j], (int64_t)start) < best) {
					best = diff((int64_t)starts[j], (int64_t)start);
					same = j;
				}
			if (same < m && best <= NEAR)
				d[n_d++] = circle_diff(delays[same], truth, tm->period_ns);
		}
		if (d && n_d) {
			/* the constant: the median difference */
			ca_stats st;
			int64_t *sorted = malloc(n_d * sizeof *sorted);
			if (sorted) {
				memcpy(sorted, d, n_d * sizeof *d);
				ca_stats_of(sorted, n_d, CA_PERCENTILE_NEAREST_RANK, &st);
				offset = diff((int64_t)st.p50, 0) > offset ? diff((int64_t)st.p50, 0) : offset;
				for (size_t i = 0; i < n_d; i++) {
					int64_t x = diff(circle_diff(d[i], (int64_t)st.p50, tm->period_ns), 0);
					compared++;
					off += over(x);
					worst = x > worst ? x : worst;
				}
				free(sorted);
			}
		}
		free(d);
	}
	kind_done("timers");
	noisy += off;
	instances += compared;
	printf("timers: %zu runs' delays compared; differences (beyond a constant per timer, at "
		"most %" PRId64 " ns): worst %" PRId64 " ns, %zu over %d ns\n", compared, offset, worst,
		off, TOLERANCE);
	free(delays);
	free(starts);
}

/* ---- paths -------------------------------------------------------------- */

/* The path followed on records of its nodes alone (ca_records_options
 * nodes, what `caret path latency` builds) gives every message and hop
 * that l, on every record, gives. */
static void same_path_on_its_nodes(const ca_records *rec, const ca_path *p,
	const ca_path_latency *l)
{
	char err[256];
	ca_records_options o = { .nodes = p->nodes, .n_nodes = p->node_count };
	ca_records *mine = ca_records_build_options(trace, &o, err, sizeof err);
	ca_path_latency *k = mine ? ca_path_latency_build(mine, p, CA_POLICY_CALLBACK_CHAIN, err,
		sizeof err) : NULL;
	const ca_path_message *a, *b;
	const int64_t *ha, *hb;
	size_t n = ca_path_latency_messages(l, &a, &ha), h = ca_path_latency_hop_count(l);
	size_t m = k ? ca_path_latency_messages(k, &b, &hb) : 0;
	const ca_callback_instance *all, *kept;
	size_t runs = ca_records_callbacks(mine, &kept), every = ca_records_callbacks(rec, &all);
	bool same = k && n == m && (!n || (!memcmp(a, b, n * sizeof *a) &&
		!memcmp(ha, hb, n * h * sizeof *ha)));
	if (!same)
		failures++;
	printf("path on its nodes' records alone: %s (%zu messages, %zu of %zu runs kept)%s%s\n",
		same ? "the same" : "DIFFERS", m, runs, every, k ? "" : ": ", k ? "" : err);
	ca_path_latency_free(k);
	ca_records_free(mine);
}

/* list: "A,B,C" (node names), or "FILE:NAME" (an architecture file's
 * named path, with its message contexts) */
static void check_path(const ca_records *rec, char *list, struct csv *e2e)
{
	const char *nodes[32];
	size_t n = 0;
	char err[1024], *colon = strchr(list, ':');
	ca_path_set *set;
	if (colon) {
		*colon = '\0';
		set = ca_arch_file_path(list, colon + 1, err, sizeof err);
	} else {
		for (char *s = strtok(list, ","); s && n < 32; s = strtok(NULL, ","))
			nodes[n++] = s;
		set = ca_path_of_nodes(trace, nodes, n, err, sizeof err);
	}
	const ca_path *p = NULL;
	ca_path_set_paths(set, &p);
	if (p) {
		n = p->node_count;
		for (size_t i = 0; i < n; i++)
			nodes[i] = p->nodes[i];
	}
	ca_path_latency *l = set ? ca_path_latency_build(rec, p, CA_POLICY_CALLBACK_CHAIN, err,
		sizeof err) : NULL;
	if (!l) {
		failures++;
		fprintf(stderr, "records_check: path: %s\n", err);
		ca_path_set_free(set);
		return;
	}
	/* The truth's messages go from the first callback's start to the last
	 * one's end. */
	const ca_path_span whole = { true, true };
	const ca_path_message *all;
	size_t n_all = ca_path_latency_messages(l, &all, NULL), m = 0, expected = 0, found = 0;
	size_t off = 0;
	uint64_t *starts = malloc((n_all + 1) * sizeof *starts);
	uint64_t *ends = malloc((n_all + 1) * sizeof *ends);
	for (size_t i = 0; starts && ends && i < n_all; i++)
		if (ca_path_message_span(&all[i], whole, &starts[m], &ends[m]))
			m++;
	bool *matched = calloc(m + 1, 1);
	int64_t worst = 0;
	/* The window: every node's process but the last recording when a
	 * message starts (a late recording starts each process in its turn:
	 * one taken by a middle node not yet recording reaches the end
	 * unpublished), the last one when it ends. The same bounds for the
	 * truth's messages and the trace's instances. */
	const ca_architecture *arch = a;
	int64_t pids[32];
	for (size_t k = 0; k < n; k++)
		pids[k] = -1;
	for (size_t i = 0; i < arch->n_nodes; i++)
		for (size_t k = 0; k < n; k++)
			if (!strcmp(arch->nodes[i].fqn, nodes[k]))
				pids[k] = arch->nodes[i].pid;
	int64_t last_pid = pids[n - 1];
	size_t before_last = n > 1 ? n - 1 : 1; /* a path of one node: its start too */
	for (size_t i = 0; i < e2e->n; i++) {
		char *f[MAX_COLUMNS], line[8192];
		snprintf(line, sizeof line, "%s", e2e->lines[i]);
		if (split(line, f) < 9 || strcmp(f[1], nodes[n - 1]))
			continue;
		uint64_t origin = strtoull(f[6], NULL, 10), end = strtoull(f[7], NULL, 10);
		/* NEAR inside the window, as for callback runs: where a recording
		 * starts late, a process's first event may precede a callback
		 * start that came in a few microseconds too early for it (one
		 * real_jazzy_pipeline3 run in CI lost a message that way) */
		if (!recording_at(pids, before_last, origin) || !in_window(last_pid, end - TOLERANCE,
			end - TOLERANCE, NEAR))
			continue;
		expected++;
		size_t best = CA_NONE;
		int64_t best_d = NEAR + 1;
		for (size_t k = 0; k < m; k++) {
			int64_t d = diff((int64_t)starts[k], (int64_t)origin);
			if (!matched[k] && d < best_d && diff((int64_t)ends[k], (int64_t)end) <= NEAR) {
				best = k;
				best_d = d;
			}
		}
		/* none: one of the two clock reads may be far from its
		 * tracepoint (a thread preempted between them, as for callback
		 * runs and messages above): the unmatched message that overlaps
		 * the truth's, one of its ends where the truth's is, nearest */
		for (size_t k = 0; best == CA_NONE && k < m; k++) {
			if (matched[k] || starts[k] >= end || ends[k] <= origin)
				continue;
			int64_t ds = diff((int64_t)starts[k], (int64_t)origin),
				de = diff((int64_t)ends[k], (int64_t)end);
			if (ds <= NEAR || de <= NEAR) {
				size_t j = k; /* the nearest such one */
				for (size_t q = k + 1; q < m; q++) {
					int64_t qs = diff((int64_t)starts[q], (int64_t)origin),
						qe = diff((int64_t)ends[q], (int64_t)end);
					if (!matched[q] && starts[q] < end && ends[q] > origin &&
					    (qs <= NEAR || qe <= NEAR) && qs + qe < ds + de)
						j = q, ds = qs, de = qe;
				}
				best = j;
			}
		}
		if (best == CA_NONE) {
			if (failures++ < 10)
				fprintf(stderr, "records_check: path message from %" PRIu64 " not found\n",
					origin);
			continue;
		}
		matched[best] = true;
		found++;
		int64_t d = diff((int64_t)(ends[best] - starts[best]), (int64_t)(end - origin));
		off += over(d);
		if (d > worst)
			worst = d;
	}
	size_t extra = 0;
	for (size_t k = 0; k < m; k++)
		extra += !matched[k] && recording_at(pids, before_last, starts[k]) &&
			in_window(last_pid, ends[k], ends[k], NEAR);
	failures += (int)extra;
	kind_done("path");
	noisy += off;
	instances += found;
	printf("path: %zu of %zu truth messages end to end, %zu not in the truth, %" PRIu64
		" not reaching the end; latency differences: worst %" PRId64 " ns, %zu over %d ns\n",
		found, expected, extra, ca_path_latency_lost(l, whole), worst, off, TOLERANCE);
	free(matched);
	free(starts);
	free(ends);
	same_path_on_its_nodes(rec, p, l);
	ca_path_latency_free(l);
	ca_path_set_free(set);
}

int main(int argc, char **argv)
{
	char *path = NULL;
	bool messages = true;
	if (argc > 1 && !strcmp(argv[1], "--callbacks-only")) {
		messages = false;
		argc--;
		argv++;
	}
	if (argc == 6 && !strcmp(argv[4], "--path")) {
		path = argv[5];
		argc -= 2;
	}
	if (argc != 4) {
		fprintf(stderr, "usage: records_check [--callbacks-only] TRACE_DIR TRUTH_DIR PID_FILE "
			"[--path A,B,...|FILE:NAME]\n");
		return 2;
	}
	char err[1024];
	const char *paths[] = { argv[1] };
	ca_trace *t = ca_trace_load(paths, 1, err, sizeof err);
	if (!t) {
		fprintf(stderr, "records_check: %s\n", err);
		return 1;
	}
	trace = t;
	a = ca_trace_architecture(t);
	ca_records *rec = ca_records_build(t, err, sizeof err);
	if (!rec) {
		fprintf(stderr, "records_check: %s\n", err);
		return 1;
	}
	struct csv callbacks = { 0 }, receives = { 0 }, publishes = { 0 }, e2e = { 0 },
		entities = { 0 };
	load(&callbacks, argv[2], argv[3], "callbacks");
	load(&receives, argv[2], argv[3], "receives");
	load(&publishes, argv[2], argv[3], "publishes");
	if (!callbacks.n)
		failures++, fprintf(stderr, "records_check: no truth\n");
	load(&entities, argv[2], argv[3], "entities");
	find_runtime_starts(rec);
	check_callbacks(rec, &callbacks, &entities);
	if (messages)
		check_communications(rec, &receives, &publishes, &callbacks);
	check_timers(rec, &entities, &callbacks);
	if (path && messages) {
		load(&e2e, argv[2], argv[3], "e2e");
		check_path(rec, path, &e2e);
	}
	if (noisy > NOISY_MIN && (double)noisy > NOISY_SHARE * (double)instances) {
		failures++;
		fprintf(stderr, "records_check: %zu of %zu latencies off by more than %d ns\n", noisy,
			instances, TOLERANCE);
	}
	const ca_record_losses *l = ca_records_losses(rec);
	printf("losses: %" PRIu64 " not ended, %" PRIu64 " not started, %" PRIu64
		" not published, %" PRIu64 " taken not run: %s\n", l->not_ended, l->not_started,
		l->not_published, l->taken_not_run, failures ? "FAILED" : "ok");
	free(runtime_starts);
	free_csv(&callbacks);
	free_csv(&receives);
	free_csv(&publishes);
	free_csv(&e2e);
	free_csv(&entities);
	free(kind.v);
	ca_records_free(rec);
	ca_trace_free(t);
	return failures ? 1 : 0;
}
