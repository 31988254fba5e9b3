/* trace_event.c - see trace_event.h. */
#include "trace_event.h"

#include <inttypes.h>
#include <stdlib.h>

#include "json.h"

void te_us(FILE *out, uint64_t t0, uint64_t t)
{
	te_duration(out, t > t0 ? t - t0 : 0);
}

void te_duration(FILE *out, uint64_t d)
{
	fprintf(out, "%" PRIu64 ".%03" PRIu64, d / 1000, d % 1000);
}

FILE *te_event(struct te_writer *w, char phase)
{
	fputs(w->events++ ? ",\n{\"ph\":\"" : "\n{\"ph\":\"", w->out);
	fputc(phase, w->out);
	fputc('"', w->out);
	return w->out;
}

void te_metadata(struct te_writer *w, const char *what, int64_t pid, int64_t tid,
	const char *name)
{
	FILE *out = te_event(w, 'M');
	fprintf(out, ",\"name\":\"%s\",\"pid\":%" PRId64 ",\"tid\":%" PRId64 ",\"args\":{\"name\":",
		what, pid, tid);
	json_string(out, name);
	fputs("}}", out);
}

bool te_thread_named(const struct te_writer *w, int64_t pid, int64_t tid)
{
	for (size_t i = 0; i < w->n_named; i++)
		if (w->named[i].pid == pid && w->named[i].tid == tid)
			return true;
	return false;
}

void te_name_thread(struct te_writer *w, int64_t pid, int64_t tid, const char *name)
{
	if (te_thread_named(w, pid, tid))
		return;
	if (w->n_named == w->cap_named) {
		size_t cap = w->cap_named ? 2 * w->cap_named : 16;
		struct te_thread *grown = realloc(w->named, cap * sizeof *grown);
		if (!grown)
			return; /* named again, then: a duplicate name is harmless */
		w->named = grown;
		w->cap_named = cap;
	}
	w->named[w->n_named++] = (struct te_thread){ pid, tid };
	te_metadata(w, "thread_name", pid, tid, name);
}
