/*
 * state.h - what `caret live` carries from one chunk to the next: the
 * chunks, the callbacks' and paths' series, where counting stopped.
 */
#ifndef CL_STATE_H
#define CL_STATE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ca.h"
#include "chunks.h"
#include "live.h"
#include "series.h"

#define LIVE_MAX_HOPS (2 * LIVE_MAX_NODES + 1)

/* A path watched. */
struct live_watch {
	const struct live_path_spec *spec;
	ca_path_set *set;   /* a named path (--nodes: found in each look's trace) */
	char why[512];      /* while not followed: why */
	uint64_t not_reaching_end; /* instances lost on the way, since the start */
	struct live_series series;
};

/* An end-to-end instance over its deadline. */
struct live_miss {
	const struct live_watch *watch;
	uint64_t start, end;
	int64_t latency, detected_after;
	size_t n_hops, worst;
	char hop_names[LIVE_MAX_HOPS][160];
	int64_t hops[LIVE_MAX_HOPS];
	char snapshot[4096]; /* empty: none */
};

struct live {
	struct live_options *o;
	struct recorder *recorder;
	struct live_chunks chunks;
	struct live_series *callbacks;
	int64_t *callback_period; /* a timer's period (its runs over it are misses); else 0 */
	size_t n_callbacks, cap_callbacks;
	struct live_watch watches[LIVE_MAX_PATHS];
	uint64_t counted_until; /* instances ended before this are counted */
	uint64_t events, discarded, looks;
	size_t processes;
	uint64_t misses;
	struct live_miss recent[4]; /* the latest, shown under the table on a terminal */
	size_t n_recent;
	unsigned snapshots;
	bool tty;
	bool failed; /* a look failed: said once, the run ends 1 */
	FILE *out;
};

/* One look: the chunks read back to the lookback, every instance ended
 * in (counted_until, until] counted, misses reported; false on a failure
 * said on stderr. */
bool live_look(struct live *L, uint64_t until);

/* The table (or the JSON line) of the window ending at `until`. */
void live_print_window(struct live *L, uint64_t until);
/* A miss, as it is found. */
void live_print_miss(struct live *L, const struct live_miss *m);

#endif
