/*
 * arch_check - checks the architecture libcaret-analyze rebuilds from a
 * trace against the testbed's ground truth (the entities each process
 * created, with their addresses): every node, publisher, subscription,
 * timer (period), service, client, callback (address, symbol, name by
 * creation order in its node), callback group (type, node, executor) and
 * executor (type, entities collector) of the launched processes, and no
 * object more than the truth has.
 *
 * With --no-structure (a trace without libcaret: no executor or group
 * events) executors and callback groups must be absent instead.
 *
 * The real rclcpp apps (tests/real) write "?" for what they cannot know:
 * a callback's address (the callback is then the one of the row's timer,
 * subscription or service, found by its handle), the handle of a publisher
 * rclcpp made itself (found by node and topic), the static executor's
 * entities collector; a symbol "?" (an object rclcpp made itself) is not
 * compared, nor its callback's name.
 *
 * usage: arch_check [--no-structure] TRACE_DIR TRUTH_DIR PID_FILE
 */
#define _GNU_SOURCE /* asprintf */
#include <glob.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ca.h"

struct row {
	int64_t pid;
	char kind[32], node[256], name[256], symbol[4096]; /* a lambda in a constructor: its whole signature */
	uint64_t handle, callback, group;
	int64_t period, time;
};

static int failures;

static int fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int fail(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "arch_check: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	failures++;
	return 0;
}

#define UNKNOWN UINT64_MAX /* "?" in the truth */

static uint64_t address(const char *s)
{
	if (!strcmp(s, "?"))
		return UNKNOWN;
	return strcmp(s, "(nil)") ? strtoull(s, NULL, 16) : 0;
}

/* pid,kind,node,name,handle,callback,group,symbol,period_ns,time_ns; the
 * symbol may hold commas, so it is what lies between the 7th and the
 * second-to-last comma. */
static bool parse(char *line, struct row *r)
{
	char *f[7], *p = line;
	line[strcspn(line, "\n")] = '\0';
	for (int i = 0; i < 7; i++) {
		f[i] = p;
		if (!(p = strchr(p, ',')))
			return false;
		*p++ = '\0';
	}
	char *time = strrchr(p, ',');
	if (!time)
		return false;
	*time++ = '\0';
	r->time = strtoll(time, NULL, 10);
	char *period = strrchr(p, ',');
	if (!period)
		return false;
	*period++ = '\0';
	r->pid = strtoll(f[0], NULL, 10);
	snprintf(r->kind, sizeof r->kind, "%s", f[1]);
	snprintf(r->node, sizeof r->node, "%s", f[2]);
	snprintf(r->name, sizeof r->name, "%s", f[3]);
	r->handle = address(f[4]);
	r->callback = address(f[5]);
	r->group = address(f[6]);
	snprintf(r->symbol, sizeof r->symbol, "%s", p);
	r->period = strtoll(period, NULL, 10);
	return true;
}

static struct row *load_truth(const char *dir, const char *pid_file, size_t *n)
{
	FILE *pids = fopen(pid_file, "r");
	struct row *rows = NULL;
	size_t cap = 0;
	char name[256], line[8192];
	long pid;
	*n = 0;
	if (!pids)
		return NULL;
	while (fscanf(pids, "%255s %ld", name, &pid) == 2) {
		char *pattern;
		glob_t g;
		if (asprintf(&pattern, "%s/*.entities.%ld.csv", dir, pid) < 0)
			exit(2);
		if (glob(pattern, 0, NULL, &g) != 0 || g.gl_pathc != 1) {
			fail("no truth file %s", pattern);
			free(pattern);
			continue;
		}
		FILE *f = fopen(g.gl_pathv[0], "r");
		while (f && fgets(line, sizeof line, f)) {
			if (!strncmp(line, "pid,", 4))
				continue;
			if (*n == cap && !(rows = realloc(rows, (cap = cap ? 2 * cap : 64) * sizeof *rows)))
				exit(2);
			if (!parse(line, &rows[*n]))
				fail("bad truth line: %s", line);
			else
				(*n)++;
		}
		if (f)
			fclose(f);
		globfree(&g);
		free(pattern);
	}
	fclose(pids);
	return rows;
}

/* ---- finding arch objects ----------------------------------------------- */

/* The object of array with that pid and field value; of several (an
 * address freed and reused), the one created nearest to the truth row r's
 * time. */
#define FIND(array, pid_, field, value)                                          \
	({                                                                      \
		size_t found_ = CA_NONE;                                        \
		int64_t best_ = INT64_MAX;                                      \
		for (size_t i_ = 0; i_ < a->n_##array; i_++)                    \
			if (a->array[i_].pid == (pid_) && a->array[i_].field == (value) && \
			    llabs((int64_t)a->array[i_].time - r->time) < best_) {   \
				found_ = i_;                                    \
				best_ = llabs((int64_t)a->array[i_].time - r->time); \
			}                                                       \
		found_;                                                         \
	})

static const char *node_name(const ca_architecture *a, size_t node)
{
	return node == CA_NONE ? "(none)" : a->nodes[node].fqn;
}

static void expect_str(const char *what, const char *got, const char *want, const struct row *r)
{
	if (!got || strcmp(got, want))
		fail("pid %" PRId64 " %s %s: %s is '%s', truth '%s'", r->pid, r->kind, r->name,
			what, got ? got : "(null)", want);
}

static void check_callback(const ca_architecture *a, size_t cb, const struct row *r,
	size_t group)
{
	if (cb == CA_NONE) {
		fail("pid %" PRId64 " %s %s: no callback", r->pid, r->kind, r->name);
		return;
	}
	const ca_callback *c = &a->callbacks[cb];
	if (r->callback != UNKNOWN && c->address != r->callback)
		fail("pid %" PRId64 " %s %s: callback 0x%" PRIx64 ", truth 0x%" PRIx64, r->pid,
			r->kind, r->name, c->address, r->callback);
	if (strcmp(r->symbol, "?"))
		expect_str("symbol", c->symbol, r->symbol, r);
	expect_str("callback node", node_name(a, c->node), r->node, r);
	if (group != CA_NONE && a->groups[group].address != r->group)
		fail("pid %" PRId64 " %s %s: group 0x%" PRIx64 ", truth 0x%" PRIx64, r->pid,
			r->kind, r->name, a->groups[group].address, r->group);
}

/* The original's names (docs/dev/original-architecture.md), from the
 * truth's creation order: callback_N over the node's timers, then its
 * subscriptions, N padded to the digits of their count; services
 * service_callback_K; /parameter_events, /rosout and /clock subscriptions
 * ignored_callback_K. */
static bool row_ignored(const struct row *r)
{
	return !strcmp(r->kind, "subscription") && (!strcmp(r->name, "/parameter_events") ||
		!strcmp(r->name, "/rosout") || !strcmp(r->name, "/clock") ||
		!strcmp(r->node, "/rviz2"));
}

static void check_callback_name(const ca_architecture *a, const struct row *rows, size_t n,
	size_t i)
{
	const struct row *r = &rows[i];
	size_t timers = 0, subs = 0, before = 0, services = 0, ignored = 0;
	for (size_t j = 0; j < n; j++) {
		const struct row *x = &rows[j];
		if (x->pid != r->pid || strcmp(x->node, r->node))
			continue;
		bool timer = !strcmp(x->kind, "timer");
		bool sub = !strcmp(x->kind, "subscription") && !row_ignored(x);
		timers += timer;
		subs += sub;
		if (j < i) {
			before += !strcmp(r->kind, "timer") ? timer : sub;
			services += !strcmp(x->kind, "service");
			ignored += row_ignored(x);
		}
	}
	size_t cb = CA_NONE, e;
	if (r->callback != UNKNOWN)
		cb = FIND(callbacks, r->pid, address, r->callback);
	else if (!strcmp(r->kind, "timer") && (e = FIND(timers, r->pid, handle, r->handle)) != CA_NONE)
		cb = a->timers[e].callback;
	else if (!strcmp(r->kind, "subscription") &&
		 (e = FIND(subscriptions, r->pid, handle, r->handle)) != CA_NONE)
		cb = a->subscriptions[e].callback;
	else if (!strcmp(r->kind, "service") &&
		 (e = FIND(services, r->pid, handle, r->handle)) != CA_NONE)
		cb = a->services[e].callback;
	char want[600];
	int width = 1;
	for (size_t count = timers + subs; count >= 10; count /= 10)
		width++;
	if (!strcmp(r->kind, "service"))
		snprintf(want, sizeof want, "%s/service_callback_%zu", r->node, services);
	else if (row_ignored(r))
		snprintf(want, sizeof want, "%s/ignored_callback_%zu", r->node, ignored);
	else
		snprintf(want, sizeof want, "%s/callback_%0*zu", r->node, width,
			!strcmp(r->kind, "timer") ? before : timers + before);
	if (cb != CA_NONE)
		expect_str("callback name", a->callbacks[cb].name, want, r);
}

/* The publisher of r's node on r's topic (a handle the truth does not know). */
static size_t publisher_of(const ca_architecture *a, const struct row *r)
{
	size_t found = CA_NONE;
	int64_t best = INT64_MAX;
	for (size_t i = 0; i < a->n_publishers; i++)
		if (a->publishers[i].pid == r->pid && a->publishers[i].node != CA_NONE &&
		    !strcmp(a->nodes[a->publishers[i].node].fqn, r->node) &&
		    !strcmp(a->publishers[i].topic, r->name) &&
		    llabs((int64_t)a->publishers[i].time - r->time) < best) {
			found = i;
			best = llabs((int64_t)a->publishers[i].time - r->time);
		}
	return found;
}

static bool has_members(const struct row *rows, size_t n, const struct row *group)
{
	for (size_t i = 0; i < n; i++)
		if (rows[i].pid == group->pid && rows[i].group == group->group &&
		    strcmp(rows[i].kind, "callback_group") && strcmp(rows[i].kind, "executor_group"))
			return true;
	return false;
}

static int check_row(const ca_architecture *a, const struct row *rows, size_t n,
	const struct row *r, bool structure)
{
	size_t i;
	if (!strcmp(r->kind, "node")) {
		if ((i = FIND(nodes, r->pid, handle, r->handle)) == CA_NONE)
			return fail("pid %" PRId64 " node %s missing", r->pid, r->node);
		expect_str("name", a->nodes[i].fqn, r->node, r);
	} else if (!strcmp(r->kind, "publisher")) {
		i = r->handle == UNKNOWN ? publisher_of(a, r) : FIND(publishers, r->pid, handle, r->handle);
		if (i == CA_NONE)
			return fail("pid %" PRId64 " publisher %s missing", r->pid, r->name);
		expect_str("topic", a->publishers[i].topic, r->name, r);
		expect_str("node", node_name(a, a->publishers[i].node), r->node, r);
	} else if (!strcmp(r->kind, "subscription")) {
		if ((i = FIND(subscriptions, r->pid, handle, r->handle)) == CA_NONE)
			return fail("pid %" PRId64 " subscription %s missing", r->pid, r->name);
		expect_str("topic", a->subscriptions[i].topic, r->name, r);
		expect_str("node", node_name(a, a->subscriptions[i].node), r->node, r);
		check_callback(a, a->subscriptions[i].callback, r, a->subscriptions[i].group);
	} else if (!strcmp(r->kind, "timer")) {
		if ((i = FIND(timers, r->pid, handle, r->handle)) == CA_NONE)
			return fail("pid %" PRId64 " timer %s missing", r->pid, r->name);
		if (a->timers[i].period_ns != r->period)
			fail("pid %" PRId64 " timer %s: period %" PRId64 ", truth %" PRId64, r->pid,
				r->name, a->timers[i].period_ns, r->period);
		expect_str("node", node_name(a, a->timers[i].node), r->node, r);
		check_callback(a, a->timers[i].callback, r, a->timers[i].group);
	} else if (!strcmp(r->kind, "service")) {
		if ((i = FIND(services, r->pid, handle, r->handle)) == CA_NONE)
			return fail("pid %" PRId64 " service %s missing", r->pid, r->name);
		expect_str("service name", a->services[i].name, r->name, r);
		expect_str("node", node_name(a, a->services[i].node), r->node, r);
		check_callback(a, a->services[i].callback, r, a->services[i].group);
	} else if (!strcmp(r->kind, "client")) {
		if ((i = FIND(clients, r->pid, handle, r->handle)) == CA_NONE)
			return fail("pid %" PRId64 " client %s missing", r->pid, r->name);
		expect_str("service name", a->clients[i].name, r->name, r);
		expect_str("node", node_name(a, a->clients[i].node), r->node, r);
		if (structure && (a->clients[i].group == CA_NONE ||
			a->groups[a->clients[i].group].address != r->group))
			fail("pid %" PRId64 " client %s: not in its group", r->pid, r->name);
	} else if (!strcmp(r->kind, "callback_group") && structure) {
		if ((i = FIND(groups, r->pid, address, r->group)) == CA_NONE)
			return fail("pid %" PRId64 " callback group of %s missing", r->pid, r->node);
		expect_str("group type", a->groups[i].type, r->name, r);
		/* A group without members has no node in a trace (no event says). */
		expect_str("group node", node_name(a, a->groups[i].node),
			has_members(rows, n, r) ? r->node : "(none)", r);
	} else if (!strcmp(r->kind, "executor") && structure) {
		if ((i = FIND(executors, r->pid, address, r->handle)) == CA_NONE)
			return fail("pid %" PRId64 " executor %s missing", r->pid, r->name);
		expect_str("executor type", a->executors[i].type, r->name, r);
		if (r->callback != UNKNOWN && a->executors[i].entities_collector != r->callback)
			fail("pid %" PRId64 " executor: entities collector 0x%" PRIx64 ", truth 0x%"
				PRIx64, r->pid, a->executors[i].entities_collector, r->callback);
	} else if (!strcmp(r->kind, "executor_group") && structure) {
		if ((i = FIND(groups, r->pid, address, r->group)) == CA_NONE)
			return fail("pid %" PRId64 " executor group of %s missing", r->pid, r->node);
		size_t e = a->groups[i].executor;
		if (e == CA_NONE || a->executors[e].address != r->handle)
			fail("pid %" PRId64 " group of %s: not in executor 0x%" PRIx64, r->pid,
				r->node, r->handle);
	}
	return 0;
}

/* Exactly as many objects of each kind per pid as the truth created. */
static void check_counts(const ca_architecture *a, const struct row *rows, size_t n,
	bool structure)
{
	for (size_t i = 0; i < n; i++) {
		if (i && rows[i - 1].pid == rows[i].pid)
			continue;
		int64_t pid = rows[i].pid;
		size_t want[8] = { 0 }, got[8] = { 0 };
		static const char *const kinds[8] = { "node", "publisher", "subscription", "timer",
			"service", "client", "callback_group", "executor" };
		for (size_t j = 0; j < n; j++)
			for (int k = 0; k < 8; k++)
				want[k] += rows[j].pid == pid && !strcmp(rows[j].kind, kinds[k]);
#define COUNT(k, array) \
	for (size_t j = 0; j < a->n_##array; j++) got[k] += a->array[j].pid == pid;
		COUNT(0, nodes) COUNT(1, publishers) COUNT(2, subscriptions) COUNT(3, timers)
		COUNT(4, services) COUNT(5, clients) COUNT(6, groups) COUNT(7, executors)
#undef COUNT
		if (!structure)
			want[6] = want[7] = 0;
		for (int k = 0; k < 8; k++)
			if (want[k] != got[k])
				fail("pid %" PRId64 ": %zu %s objects, truth %zu", pid, got[k], kinds[k],
					want[k]);
		size_t callbacks = 0;
		for (size_t j = 0; j < a->n_callbacks; j++)
			callbacks += a->callbacks[j].pid == pid;
		if (callbacks != want[3] + want[2] + want[4])
			fail("pid %" PRId64 ": %zu callbacks, truth %zu", pid, callbacks,
				want[2] + want[3] + want[4]);
	}
}

int main(int argc, char **argv)
{
	bool structure = true;
	if (argc > 1 && !strcmp(argv[1], "--no-structure")) {
		structure = false;
		argc--;
		argv++;
	}
	if (argc != 4) {
		fprintf(stderr, "usage: arch_check [--no-structure] TRACE_DIR TRUTH_DIR PID_FILE\n");
		return 2;
	}
	char err[1024];
	const char *paths[] = { argv[1] };
	ca_trace *t = ca_trace_load(paths, 1, err, sizeof err);
	if (!t) {
		fprintf(stderr, "arch_check: %s\n", err);
		return 1;
	}
	size_t n;
	struct row *rows = load_truth(argv[2], argv[3], &n);
	const ca_architecture *a = ca_trace_architecture(t);
	if (!n)
		fail("no truth rows");
	for (size_t i = 0; i < n; i++) {
		check_row(a, rows, n, &rows[i], structure);
		if (rows[i].callback && strcmp(rows[i].symbol, "?") && (!strcmp(rows[i].kind, "timer") ||
			!strcmp(rows[i].kind, "subscription") || !strcmp(rows[i].kind, "service")))
			check_callback_name(a, rows, n, i);
	}
	check_counts(a, rows, n, structure);
	printf("arch_check: %zu truth objects, %zu nodes, %zu callbacks, %zu groups, "
		"%zu executors: %s\n", n, a->n_nodes, a->n_callbacks, a->n_groups,
		a->n_executors, failures ? "FAILED" : "ok");
	free(rows);
	ca_trace_free(t);
	return failures ? 1 : 0;
}
