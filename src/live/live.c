/* live.c - see live.h: the recording's chunks handed to the looks. */
#define _GNU_SOURCE
#include "live.h"

#include <inttypes.h>
#include <limits.h>
#include <malloc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "metrics_http.h"
#include "session.h"
#include "trace_dir.h"
#include "state.h"

void live_expire(struct live *L, uint64_t until)
{
	uint64_t window = (uint64_t)(L->o->window_s * 1e9), before = until > window ?
		until - window : 0;
	live_series_list_expire(&L->callbacks, before);
	live_series_list_expire(&L->services, before);
	live_series_list_expire(&L->actions, before);
	for (size_t i = 0; i < L->o->n_paths; i++)
		live_series_expire(&L->watches[i].series, before);
}

static int on_chunk(void *user, struct recorder *r, const char *chunk, int64_t until_ns,
	bool last)
{
	struct live *L = user;
	(void)last;
	L->recorder = r;
	if (!*chunk) /* relayed: nothing here to read */
		return 0;
	struct stat st;
	if (stat(chunk, &st) != 0 || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "caret live: %s, the chunk LTTng archived, is not there (deleted?): "
			"its events are lost\n", chunk);
		L->failed = true;
		return 1;
	}
	if (cr_dir_bytes(chunk) == 0) { /* no traced process wrote anything yet */
		live_presence_follow(L, (uint64_t)until_ns);
		live_print_window(L, (uint64_t)until_ns);
		return 0;
	}
	struct live_chunk_facts facts;
	char why[1024];
	if (!live_chunk_examine(chunk, &facts, why, sizeof why)) {
		fprintf(stderr, "caret live: cannot read the chunk LTTng archived: %s\n", why);
		L->failed = true;
		return 1;
	}
	if (!live_chunks_add(&L->chunks, chunk, (uint64_t)until_ns, facts.has_init)) {
		fprintf(stderr, "caret live: out of memory\n");
		L->failed = true;
		return 1;
	}
	int64_t discarded = cr_record_discarded(r);
	L->discarded = discarded > 0 ? (uint64_t)discarded : 0;
	if (!live_look(L, (uint64_t)until_ns)) {
		L->failed = true;
		return 1;
	}
	uint64_t lookback = (uint64_t)(L->o->lookback_s * 1e9);
	live_presence_follow(L, (uint64_t)until_ns);
	live_expire(L, (uint64_t)until_ns);
	live_print_window(L, (uint64_t)until_ns);
	live_chunks_prune(&L->chunks, (uint64_t)until_ns - lookback - 1000000000ULL);
	return 0;
}

/* The named paths of the architecture file, known before any trace. */
static int resolve_named(struct live *L)
{
	char err[1024];
	for (size_t i = 0; i < L->o->n_paths; i++) {
		struct live_watch *w = &L->watches[i];
		w->spec = &L->o->paths[i];
		w->series.limit_ns = w->spec->deadline_ns;
		if (!w->spec->path_name)
			continue;
		w->set = ca_arch_file_path(L->o->arch, w->spec->path_name, err, sizeof err);
		if (!w->set) {
			fprintf(stderr, "caret live: %s\n", err);
			return 1;
		}
	}
	return 0;
}

/* The looks, at the chunks this host's session archives or (--watch) a
 * relay daemon files: the exit status. */
static int run_looks(struct live *L)
{
	struct live_options *o = L->o;
	char scratch[PATH_MAX] = "", trace[PATH_MAX + 8];
	if (o->watch_dir) {
		int status = live_watch(L);
		fprintf(stderr, "caret live: %" PRIu64 " %s, %" PRIu64 " deadline %s\n", L->looks,
			L->looks == 1 ? "look" : "looks", L->misses, L->misses == 1 ? "miss" :
			"misses");
		return status ? status : L->misses ? 3 : 0;
	}
	if (o->snapshot_dir && !live_snapshot_dir_ready(o))
		return 1;
	if (!o->keep_trace) { /* the chunks go as soon as no look needs them */
		const char *tmp = getenv("TMPDIR");
		snprintf(scratch, sizeof scratch, "%s/caret-live-XXXXXX", tmp && *tmp ? tmp : "/tmp");
		if (!mkdtemp(scratch)) {
			fprintf(stderr, "caret live: cannot make a folder under %s for the chunks\n",
				tmp && *tmp ? tmp : "/tmp");
			return 1;
		}
		snprintf(trace, sizeof trace, "%s/trace", scratch);
		o->record.output_dir = trace;
	}
	o->record.rotate_seconds = o->period_s;
	o->record.on_chunk = on_chunk;
	o->record.user = L;
	o->record.quiet = true;
	o->record.verb = "caret live";
	o->record.snapshot_session = o->snapshot_dir != NULL;
	int status = cr_record_run(&o->record);
	if (L->looks || (!status && !L->failed)) /* else why there was none is said */
		fprintf(stderr, "caret live: %" PRIu64 " %s, %" PRIu64 " deadline %s, %u %s "
			"written\n", L->looks, L->looks == 1 ? "look" : "looks", L->misses,
			L->misses == 1 ? "miss" : "misses", L->snapshots,
			L->snapshots == 1 ? "snapshot" : "snapshots");
	if (scratch[0])
		cr_remove_tree(scratch);
	live_series_list_free(&L->callbacks);
	live_series_list_free(&L->services);
	live_series_list_free(&L->actions);
	live_presence_free(L);
	for (size_t i = 0; i < o->n_paths; i++) {
		live_series_free(&L->watches[i].series);
		ca_path_set_free(L->watches[i].set);
	}
	live_chunks_free(&L->chunks);
	if (status || L->failed)
		return 1;
	return L->misses ? 3 : 0;
}

int live_run(struct live_options *o)
{
	static struct live state;
	struct live *L = &state;
	memset(L, 0, sizeof *L);
	L->o = o;
	L->out = stdout;
	L->tty = isatty(STDOUT_FILENO) && !o->json;
	L->chunks.keep = o->keep_trace;
	/* every look allocates and frees the same large arrays: kept in the
	 * heap instead of mapped and unmapped each second (page faults were
	 * a fifth of the time) */
	mallopt(M_MMAP_THRESHOLD, 256 << 20);
	mallopt(M_TRIM_THRESHOLD, 512 << 20);
	if (resolve_named(L))
		return 1;
	if (o->metrics_host) { /* before the recording: a port taken ends it at once */
		char why[256];
		if (!(L->metrics = live_metrics_listen(o->metrics_host, o->metrics_port, why,
			sizeof why))) {
			fprintf(stderr, "caret live: --metrics %s:%s: cannot listen there: %s\n",
				o->metrics_host, o->metrics_port, why);
			return 1;
		}
		fprintf(stderr, "caret live: metrics at http://%s%s%s:%s/metrics\n",
			strchr(o->metrics_host, ':') ? "[" : "", o->metrics_host,
			strchr(o->metrics_host, ':') ? "]" : "", o->metrics_port);
		live_metrics_update(L);
	}
	int status = run_looks(L);
	live_metrics_stop(L->metrics);
	return status;
}
