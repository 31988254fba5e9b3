/* processes.c - see processes.h. */
#include "processes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "control.h"

#define STALE_NS 3000000000LL     /* a process silent this long is gone */
#define RECHECK_NS 500000000LL    /* how often an unknown writer is looked up again */
#define MAX_WRITERS 65536         /* beyond: further writers are counted as foreign */

struct writer {
	dds_instance_handle_t handle;
	int64_t checked;  /* last lookup, monotonic ns */
	size_t process;   /* index, or SIZE_MAX while not known to be a tracer */
	uint64_t ignored; /* messages taken before (or without) that */
};

struct cr_processes {
	dds_entity_t status_reader, start_writer;
	struct writer *writers;
	size_t n_writers, cap_writers;
	struct cr_process *procs;
	size_t n_procs, cap_procs;
	uint64_t foreign, malformed;
};

struct cr_processes *cr_processes_create(dds_entity_t status_reader, dds_entity_t start_writer)
{
	struct cr_processes *ps = calloc(1, sizeof *ps);
	if (ps) {
		ps->status_reader = status_reader;
		ps->start_writer = start_writer;
	}
	return ps;
}

void cr_processes_free(struct cr_processes *ps)
{
	if (!ps)
		return;
	free(ps->writers);
	free(ps->procs);
	free(ps);
}

static bool grow(void **items, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return true;
	size_t c = *cap ? 2 * *cap : 16;
	void *p = realloc(*items, c * size);
	if (!p)
		return false;
	*items = p;
	*cap = c;
	return true;
}

/* Does the participant have a reader matched with our Start writer? */
static bool has_start_reader(const struct cr_processes *ps, const dds_guid_t *participant)
{
	dds_instance_handle_t readers[1024];
	dds_return_t n = dds_get_matched_subscriptions(ps->start_writer, readers, 1024);
	bool found = false;
	for (dds_return_t i = 0; i < n && i < 1024 && !found; i++) {
		dds_builtintopic_endpoint_t *e =
			dds_get_matched_subscription_data(ps->start_writer, readers[i]);
		if (!e)
			continue;
		found = !memcmp(&e->participant_key, participant, sizeof *participant);
		dds_builtintopic_free_endpoint(e);
	}
	return found;
}

/* The process a writer speaks for, once its participant is known to be a
 * tracer's; SIZE_MAX meanwhile. */
static size_t process_of(struct cr_processes *ps, struct writer *w)
{
	int64_t now = caret_monotonic_ns();
	if (w->process != SIZE_MAX || (w->checked && now - w->checked < RECHECK_NS))
		return w->process;
	w->checked = now;
	dds_builtintopic_endpoint_t *e = dds_get_matched_publication_data(ps->status_reader,
		w->handle);
	if (!e)
		return SIZE_MAX;
	dds_guid_t participant = e->participant_key;
	dds_builtintopic_free_endpoint(e);
	if (!has_start_reader(ps, &participant))
		return SIZE_MAX;
	for (size_t i = 0; i < ps->n_procs; i++)
		if (!memcmp(&ps->procs[i].participant, &participant, sizeof participant))
			return w->process = i;
	if (!grow((void **)&ps->procs, &ps->cap_procs, ps->n_procs, sizeof *ps->procs))
		return SIZE_MAX;
	struct cr_process *p = &ps->procs[ps->n_procs];
	memset(p, 0, sizeof *p);
	p->participant = participant;
	return w->process = ps->n_procs++;
}

static struct writer *writer_of(struct cr_processes *ps, dds_instance_handle_t handle)
{
	for (size_t i = 0; i < ps->n_writers; i++)
		if (ps->writers[i].handle == handle)
			return &ps->writers[i];
	if (ps->n_writers >= MAX_WRITERS ||
	    !grow((void **)&ps->writers, &ps->cap_writers, ps->n_writers, sizeof *ps->writers))
		return NULL;
	struct writer *w = &ps->writers[ps->n_writers++];
	*w = (struct writer){ .handle = handle, .process = SIZE_MAX };
	return w;
}

/* caret_trace_ followed by the uuid's hex digits and underscores. */
static bool well_formed(const cc_status *s)
{
	const char *name = s->caret_node_name;
	if (!name || strncmp(name, "caret_trace_", 12) || strlen(name) >= 64)
		return false;
	for (const char *c = name + 12; *c; c++)
		if (!((*c >= '0' && *c <= '9') || (*c >= 'a' && *c <= 'f') ||
		      (*c >= 'A' && *c <= 'F') || *c == '_'))
			return false;
	return s->status >= CC_UNINITIALIZED && s->status <= CC_RECORD;
}

static void apply(struct cr_process *p, const cc_status *s, bool watch_record)
{
	int64_t now = caret_monotonic_ns();
	if (!p->name[0])
		snprintf(p->name, sizeof p->name, "%s", s->caret_node_name);
	p->pid = s->pid;
	if (s->status == CC_RECORD && p->state != CC_RECORD)
		p->recording_since = now;
	if (watch_record && p->state == CC_RECORD && s->status != CC_RECORD && !p->left_record)
		p->left_record = now;
	p->state = s->status;
	p->last_seen = now;
	for (uint32_t i = 0; i < s->node_names._length; i++) {
		const char *entry = s->node_names._buffer[i];
		if (!entry)
			continue;
		if (!strncmp(entry, CC_STATUS_WARNING, strlen(CC_STATUS_WARNING)))
			snprintf(p->warning, sizeof p->warning, "%s",
				entry + strlen(CC_STATUS_WARNING));
		else if (!p->first_node[0] || i == 0)
			snprintf(p->first_node, sizeof p->first_node, "%s", entry);
	}
}

void cr_processes_update(struct cr_processes *ps, bool watch_record)
{
	void *samples[32] = { NULL };
	dds_sample_info_t infos[32];
	dds_return_t n;

	while ((n = dds_take(ps->status_reader, samples, infos, 32, 32)) > 0) {
		for (int i = 0; i < n; i++) {
			const cc_status *s = samples[i];
			if (!infos[i].valid_data)
				continue;
			if (!well_formed(s)) {
				ps->malformed++;
				continue;
			}
			struct writer *w = writer_of(ps, infos[i].publication_handle);
			size_t k = w ? process_of(ps, w) : SIZE_MAX;
			if (k == SIZE_MAX) {
				if (w)
					w->ignored++;
				else
					ps->foreign++;
				continue;
			}
			struct cr_process *p = &ps->procs[k];
			if (p->name[0] && strcmp(p->name, s->caret_node_name)) {
				ps->malformed++; /* one tracer, one name */
				continue;
			}
			apply(p, s, watch_record);
		}
		dds_return_loan(ps->status_reader, samples, n);
		memset(samples, 0, sizeof samples);
	}
}

bool cr_processes_live(const struct cr_processes *ps, size_t i)
{
	int64_t seen = ps->procs[i].last_seen;
	return seen && caret_monotonic_ns() - seen <= STALE_NS;
}

struct cr_tally cr_processes_tally(const struct cr_processes *ps)
{
	struct cr_tally t = { 0 };
	for (size_t i = 0; i < ps->n_procs; i++) {
		const struct cr_process *p = &ps->procs[i];
		if (!cr_processes_live(ps, i))
			continue;
		t.live++;
		t.wait += p->state == CC_WAIT || p->state == CC_UNINITIALIZED;
		t.prepare += p->state == CC_PREPARE;
		t.record += p->state == CC_RECORD;
	}
	return t;
}

size_t cr_processes_count(const struct cr_processes *ps)
{
	return ps->n_procs;
}

const struct cr_process *cr_processes_at(const struct cr_processes *ps, size_t i)
{
	return &ps->procs[i];
}

void cr_processes_ignored(const struct cr_processes *ps, uint64_t *foreign, uint64_t *malformed)
{
	*foreign = ps->foreign;
	for (size_t i = 0; i < ps->n_writers; i++)
		if (ps->writers[i].process == SIZE_MAX)
			*foreign += ps->writers[i].ignored;
	*malformed = ps->malformed;
}
