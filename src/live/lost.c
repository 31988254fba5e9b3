/*
 * lost.c - at the end of caret live --watch, what it could not count: each
 * host's chunks lost, with the span of its trace they held and about how
 * many instances that was (the rates of what was counted), and its stray
 * folders that hold files (state.h).
 */
#include <stdio.h>

#include "state.h"

/* About how many of a total counted over counted_s seconds fell in span_s. */
static unsigned long long about(uint64_t total, double counted_s, double span_s)
{
	return counted_s > 0 ? (unsigned long long)((double)total * span_s / counted_s + 0.5) : 0;
}

size_t live_archives_lost(const struct live *L)
{
	size_t ranges = 0;
	double lost_s = 0;
	for (size_t i = 0; i < L->n_hosts; i++)
		for (size_t k = 0; k < L->hosts[i].n_lost; k++) {
			const struct live_lost *l = &L->hosts[i].lost[k];
			lost_s += l->after && l->before > l->after ? (double)(l->before - l->after) / 1e9 : 0;
		}
	/* the rates of what was counted, over the time it was counted in */
	double counted_s = L->first_end && L->counted_until > L->first_end ?
		(double)(L->counted_until - L->first_end) / 1e9 - lost_s : 0;
	uint64_t runs = 0;
	for (size_t i = 0; i < L->callbacks.n; i++)
		runs += L->callbacks.items[i].total;
	for (size_t i = 0; i < L->n_hosts; i++) {
		const struct live_host *h = &L->hosts[i];
		if (h->unread_folders)
			fprintf(stderr, "caret live: %s: %zu %s in %s/archives %s files but no chunk's "
				"name: not read\n", h->name, h->unread_folders,
				h->unread_folders == 1 ? "folder" : "folders", h->session,
				h->unread_folders == 1 ? "holds" : "hold");
		ranges += h->unread_folders;
		for (size_t k = 0; k < h->n_lost; k++, ranges++) {
			const struct live_lost *l = &h->lost[k];
			char which[64];
			fprintf(stderr, "caret live: %s: %s: %s: ", h->name,
				live_chunks_named(which, sizeof which, l->from, l->to), l->why);
			if (!l->after) {
				fprintf(stderr, "what its trace held before its first chunk read is not "
					"counted\n");
				continue;
			}
			if (l->before <= l->after) { /* none came after (or its clock went back) */
				fprintf(stderr, "its trace after %.2f s into it is not counted (no later "
					"event)\n", (double)(int64_t)(l->after - h->chunk_first) / 1e9);
				continue;
			}
			double span = (double)(l->before - l->after) / 1e9;
			fprintf(stderr, "%.2f s of its trace not counted (%.2f s to %.2f s into it)", span,
				(double)(int64_t)(l->after - h->chunk_first) / 1e9,
				(double)(int64_t)(l->before - h->chunk_first) / 1e9);
			/* an instance of a path needs every host's events; a
			 * callback's run one host's: the rate of all of them is
			 * that host's only when it is alone */
			for (size_t p = 0; p < L->o->n_paths; p++)
				fprintf(stderr, ", about %llu instances of %s",
					about(L->watches[p].series.total, counted_s, span),
					L->o->paths[p].label);
			if (L->n_hosts == 1)
				fprintf(stderr, ", about %llu callback runs", about(runs, counted_s, span));
			fputc('\n', stderr);
		}
	}
	return ranges;
}

