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

/* Chunks of a host that will never be read: missing, empty, damaged. */
struct live_lost {
	size_t from, to;        /* their indices */
	bool missing;           /* not there (one filed later is not read) */
	char why[1200];
	uint64_t after, before; /* the host's last event before them, first after (its
				 * own clock; 0: none) */
};

/* Names said once each. */
struct live_names {
	char **items;
	size_t n;
};

/* A host whose chunks the relay daemon files (caret live --watch). */
struct live_host {
	char name[256];
	char *session;          /* its session's folder under the watched one */
	size_t next_chunk;      /* the index of the chunk it archives next */
	int64_t later_seen;     /* CLOCK_MONOTONIC when a later chunk was there without
				 * next_chunk (0: none) */
	bool had_events;        /* a chunk with events came: an empty one after lost them */
	size_t init_awaited;    /* 1 + the index of its first chunk with events when that
				 * held no initialization (the next one must), else 0 */
	uint64_t chunk_first, chunk_last; /* its first and latest chunk's events (own clock) */
	struct live_lost *lost;
	size_t n_lost;
	struct live_names said;   /* the entries of archives/ named: stray, late, twin */
	size_t unread_folders;    /* stray ones that hold files (a chunk misnamed?) */
	struct live_names others; /* its other sessions' folders, said: not followed */
	struct live_chunks chunks;
	uint64_t last_event;    /* in the last look (0: none), on the first host's clock */
	int64_t heard;          /* CLOCK_MONOTONIC when a chunk of it came last */
	bool active;            /* a chunk came in the last few seconds */
	bool said_gone;
	int64_t gone_at;        /* CLOCK_MONOTONIC when it was last said gone, or 0 */
	int64_t correction;     /* its clock's estimate against the first host's, taken off */
	ca_host_clock clock;    /* the last look's bounds (clock.host NULL: none) */
};

/* A traced process, as the recorder hears its Status (presence.c). */
struct live_process {
	int64_t pid;
	char label[192];   /* "program (pid N): /node, ..." once a look saw it */
	char program[64];  /* its procname once a look saw it ("" till then) */
	char host[64];     /* --watch: its host's name */
	bool live;         /* heard in the last few seconds (--watch: its host sends) */
};

/* What changed lately, kept to show again under a redrawn table. */
#define LIVE_RECENT 4

struct live {
	struct live_options *o;
	struct live_host hosts[LIVE_MAX_HOSTS];
	size_t n_hosts;
	size_t hosts_not_followed; /* --watch: over LIVE_MAX_HOSTS */
	struct recorder *recorder;
	struct live_chunks chunks;
	/* the user's callbacks (limit: a timer's period: its runs over it are
	 * misses; else 0), service calls (client to server: the round trip)
	 * and action goals (the request to the take of the result) */
	struct live_series_list callbacks, services, actions;
	struct live_watch watches[LIVE_MAX_PATHS];
	uint64_t counted_until; /* instances ended before this are counted */
	uint64_t open_since;    /* the first run of what the last look saw on its way */
	uint64_t read_from;     /* the look's runtime events from this time on (0: all) */
	uint64_t first_end;     /* the end of the first sample counted (0: none yet) */
	uint64_t events, discarded, looks;
	size_t processes;       /* recording (heard from lately) */
	struct live_process *known; /* every traced process heard from */
	size_t n_known, cap_known, gone;
	uint64_t misses;
	struct live_miss recent[LIVE_RECENT]; /* the latest, shown under the table on a terminal */
	size_t n_recent;
	char changes[LIVE_RECENT][320]; /* the latest processes joined or gone, as said */
	size_t n_changes;
	unsigned snapshots;
	bool tty;
	bool failed; /* a look failed: said once, the run ends 1 */
	FILE *out;
	struct live_metrics *metrics; /* --metrics: the server, or NULL */
};

/* One look: the chunks read back to the lookback, every instance ended
 * in (counted_until, until] counted, misses reported; false on a failure
 * said on stderr. */
bool live_look(struct live *L, uint64_t until);
/* The same at these chunks (of several hosts: --watch); until 0: up to
 * the last event of the host that is behind among those still sending. */
bool live_look_at(struct live *L, const char *const *paths, size_t n, uint64_t until);

/* What a chunk holds, read on its own as it comes (chunk_facts.c). */
struct live_chunk_facts {
	bool has_events;   /* false: closed while no traced process wrote */
	bool has_init;     /* initialization events: a look reads it every time */
	uint64_t first, last; /* its events' span (its own clock) */
};
/* false with why (the reader's words) when it cannot be read: damaged,
 * truncated, a FIFO where a stream is expected... */
bool live_chunk_examine(const char *chunk, struct live_chunk_facts *f, char *why,
	size_t why_size);

/* --snapshot-on-miss DIR made if need be, a file written in it and room
 * for a snapshot: true, else false after a line saying why (snapshot_dir.c). */
bool live_snapshot_dir_ready(const struct live_options *o);

/* caret live --watch: the looks at the chunks a relay daemon files. */
int live_watch(struct live *L);

/* --watch: the chunks a host's session archived since the last scan, in
 * their order, each checked; a missing one (a later one there for a
 * second, or at once when final), an empty or unreadable one said and
 * passed over, the later ones taken; an entry that is no chunk named.
 * True when a chunk came (archives.c). */
bool live_archives_take(struct live_host *h, const char *archives, bool final);
/* At the end: each host's chunks lost, said with the span of its trace
 * missing and about how much that was not counted, and its stray folders
 * that hold files; how many of both (lost.c). */
size_t live_archives_lost(const struct live *L);
/* "chunk 6", "chunks 6 to 7": into buf, which it returns. */
const char *live_chunks_named(char *buf, size_t size, size_t from, size_t to);
/* Adds name unless there: true the first time (to be said then). */
bool live_names_once(struct live_names *l, const char *name);
void live_host_free(struct live_host *h);

/* Counts a sample (a run, an instance, a call) that ended in
 * (counted_until, until], or before and seen only now, once (look.c).
 * 1: counted; 0: counted before; -1: out of memory. */
int live_count_once(struct live *L, struct live_series *s, uint64_t end, uint64_t start);

/* The user's service calls and action goals that ended in the look, each
 * counted once; false out of memory (calls.c). */
bool live_count_calls(struct live *L, const ca_trace *t, uint64_t until);

/* Whether every node a watched path names is in the trace; false after
 * "no node N in the trace (did you mean ...)" on stderr (asked.c). */
bool live_nodes_present(const struct live *L, const ca_trace *t);

/* The processes of a look named (program, pid, nodes) for what is said of
 * them; then, from the recorder's Status, each process that joined or
 * went since the last look said once (presence.c). */
void live_presence_name(struct live *L, const ca_trace *t);
void live_presence_follow(struct live *L, uint64_t until);
void live_presence_free(struct live *L);
/* --watch: each process up while its host sends (after the hosts' marks). */
void live_presence_hosts(struct live *L);

/* --metrics: what the looks counted so far as Prometheus's text format
 * (openmetrics false) or OpenMetrics' (true, ending with "# EOF"), in a
 * malloc'd string of *len bytes; NULL out of memory (metrics_text.c). */
char *live_metrics_text(const struct live *L, bool openmetrics, size_t *len);
/* Both texts of the state now handed to the server, if there is one. */
void live_metrics_update(struct live *L);

/* The samples older than the window ending at `until` dropped (live.c). */
void live_expire(struct live *L, uint64_t until);

/* The table (or the JSON line) of the window ending at `until`. */
void live_print_window(struct live *L, uint64_t until);
/* A miss, as it is found. */
void live_print_miss(struct live *L, const struct live_miss *m);
/* The miss as the JSON line --json prints (and a snapshot's miss file). */
void live_json_miss(FILE *f, const struct live_miss *m);
/* A process that joined (or came back) or went, as it is seen. */
void live_print_process(struct live *L, const struct live_process *p, bool joined,
	uint64_t until);

#endif
