/*
 * model.c - builds the model of a loaded trace and answers the public
 * queries about it (types/ca.h).
 */
#include "model.h"

#include <stdlib.h>

#include "vec.h"

static int by_pid(const void *a, const void *b)
{
	const struct ca_pid *x = a, *y = b;
	return (x->vpid > y->vpid) - (x->vpid < y->vpid);
}

static int add_processes(ca_trace *t, struct ca_model *m)
{
	if (t->n_pids > 1)
		qsort(t->pids, t->n_pids, sizeof *t->pids, by_pid);
	t->last_pid = SIZE_MAX; /* the pid index is stale from here on */
	for (size_t i = 0; i < t->n_pids; i++) {
		ca_process *p = VEC_PUSH(m->processes, m->n_processes, m->cap_processes);
		if (!p)
			return -1;
		p->pid = t->pids[i].vpid;
		p->procname = ca_trace_string(t, t->pids[i].procname);
		p->host = t->pids[i].host ? ca_trace_string(t, t->pids[i].host) : NULL;
		p->host_shift_ns = t->pids[i].host_shift_ns;
		p->events = t->pids[i].events;
		p->tracetools_tracing = -1;
	}
	m->unknown = calloc(m->n_processes ? m->n_processes : 1, sizeof *m->unknown);
	return m->unknown ? 0 : -1;
}

/* Processes are sorted by pid. */
static size_t find_pid(const ca_process *p, size_t n, int64_t pid)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (p[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && p[lo].pid == pid ? lo : SIZE_MAX;
}

size_t ca_model_process_index(const struct ca_model *m, int64_t pid)
{
	return find_pid(m->processes, m->n_processes, pid);
}

static void publish_views(struct ca_model *m)
{
	ca_architecture *a = &m->arch;
	a->processes = m->processes;
	a->n_processes = m->n_processes;
	a->nodes = m->nodes;
	a->n_nodes = m->n_nodes;
	a->publishers = m->publishers;
	a->n_publishers = m->n_publishers;
	a->subscriptions = m->subscriptions;
	a->n_subscriptions = m->n_subscriptions;
	a->timers = m->timers;
	a->n_timers = m->n_timers;
	a->services = m->services;
	a->n_services = m->n_services;
	a->clients = m->clients;
	a->n_clients = m->n_clients;
	a->callbacks = m->callbacks;
	a->n_callbacks = m->n_callbacks;
	a->groups = m->groups;
	a->n_groups = m->n_groups;
	a->executors = m->executors;
	a->n_executors = m->n_executors;
}

int ca_model_build(ca_trace *t)
{
	struct ca_model *m = calloc(1, sizeof *m);
	if (!m)
		return -1;
	t->model = m;
	if (add_processes(t, m) || ca_model_init_objects(t, m) || ca_model_name_objects(t, m))
		return -1;
	publish_views(m); /* a riding scan may read them (a path to follow) */
	if (t->records_only) {
		/* the riding records' scan alone (ca_load_options): it visits
		 * the pass itself, not beside the counts */
		void (*scan)(void *, enum cs_event_id, uint64_t, int32_t, int32_t,
			const uint64_t *) = t->tee;
		t->tee = NULL;
		int status = t->replay_runtime(t, scan, t->tee_ctx);
		t->tee = scan;
		if (status != 0)
			return -1;
	} else if (ca_model_scan_runtime(t, m) || ca_model_check(t, m)) {
		return -1;
	}
	publish_views(m);
	return 0;
}

void ca_model_free(struct ca_model *m)
{
	if (!m)
		return;
	free(m->processes);
	free(m->nodes);
	free(m->publishers);
	free(m->subscriptions);
	free(m->sub_rclcpp);
	free(m->timers);
	free(m->services);
	free(m->clients);
	free(m->callbacks);
	free(m->groups);
	free(m->executors);
	free(m->ring_buffers);
	free(m->findings);
	free(m->node_counts);
	free(m->topic_counts);
	free(m->unknown);
	free(m->stamped_writes);
	free(m->intra_runs);
	ca_handle_map_free(&m->handles);
	free(m);
}

uint64_t ca_row_field(const ca_trace *t, enum cs_event_id id, size_t row, const char *field)
{
	int f = cs_field_index(&cs_events[id], field);
	return f < 0 || row >= t->tables[id].rows ? 0 : t->tables[id].field[f][row];
}

const char *ca_row_string(const ca_trace *t, enum cs_event_id id, size_t row, const char *field)
{
	return ca_trace_string(t, ca_row_field(t, id, row, field));
}

/* ---- public queries ----------------------------------------------------- */

const ca_architecture *ca_trace_architecture(const ca_trace *t)
{
	return t && t->model ? &t->model->arch : NULL;
}

const ca_process *ca_architecture_process(const ca_architecture *a, int64_t pid)
{
	size_t i = a ? find_pid(a->processes, a->n_processes, pid) : SIZE_MAX;
	return i == SIZE_MAX ? NULL : &a->processes[i];
}

size_t ca_trace_findings(const ca_trace *t, const ca_finding **findings)
{
	*findings = t && t->model ? t->model->findings : NULL;
	return t && t->model ? t->model->n_findings : 0;
}

size_t ca_trace_node_counts(const ca_trace *t, const ca_node_count **counts)
{
	*counts = t && t->model ? t->model->node_counts : NULL;
	return t && t->model ? t->model->n_node_counts : 0;
}

size_t ca_trace_topic_counts(const ca_trace *t, const ca_topic_count **counts)
{
	*counts = t && t->model ? t->model->topic_counts : NULL;
	return t && t->model ? t->model->n_topic_counts : 0;
}

bool ca_trace_process_window(const ca_trace *t, int64_t pid, uint64_t *first, uint64_t *last)
{
	size_t i = t && t->model ? ca_model_process_index(t->model, pid) : SIZE_MAX;
	if (i == SIZE_MAX)
		return false;
	*first = t->pids[i].first_time;
	*last = t->pids[i].last_time;
	return true;
}

size_t ca_model_callback_executor(const ca_architecture *a, size_t callback)
{
	const ca_callback *c = &a->callbacks[callback];
	size_t group = c->kind == CA_CALLBACK_TIMER ? a->timers[c->owner].group :
		c->kind == CA_CALLBACK_SUBSCRIPTION ? a->subscriptions[c->owner].group :
		a->services[c->owner].group;
	return group == CA_NONE ? CA_NONE : a->groups[group].executor;
}

void ca_model_time_span(const ca_trace *t, uint64_t *first, uint64_t *last)
{
	const ca_architecture *a = ca_trace_architecture(t);
	uint64_t t0 = UINT64_MAX, t1 = 0;
	for (size_t i = 0; i < a->n_processes; i++) {
		uint64_t f, l;
		if (ca_trace_process_window(t, a->processes[i].pid, &f, &l)) {
			t0 = f < t0 ? f : t0;
			t1 = l > t1 ? l : t1;
		}
	}
	*first = t0 == UINT64_MAX ? 0 : t0;
	*last = t1 > *first ? t1 : *first;
}
