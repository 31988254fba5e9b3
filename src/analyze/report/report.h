/*
 * report.h - what the sections of the HTML report share (private to
 * report/): the page being written, its data, the time base every chart
 * uses, and what belongs to the user's system.
 *
 * The page is HTML written top to bottom (header, tables, the places of
 * the charts), then one JSON object with every chart's data, then the
 * chart library and the page's script (web/page/, one file a job), all inline. Parts
 * of the page are written at once by two threads (html.c), each into its
 * own buffers with its own chart ids: a section reads the trace and the
 * records, and writes nothing but its part.
 */
#ifndef CA_REPORT_H
#define CA_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ca.h"
#include "requirements.h"

/* A miss a snapshot of caret live was written for (snapshot_miss.c): its
 * path's label, its instance's times (trace clock, ns) and deadline. */
struct report_miss {
	char path[512];
	uint64_t start, end;
	int64_t latency, deadline;
};
/* The misses of the snapshot files in dirs (CA_SNAPSHOT_MISS_FILE), in
 * *out (free it); how many. */
size_t report_read_misses(const char *const *dirs, size_t n_dirs, struct report_miss **out);

struct report {
	FILE *out;   /* the page */
	FILE *data;  /* the members of the page's "charts" object (a memory stream) */
	size_t data_members;
	const ca_trace *trace;
	/* The records each part reads (html.c, ca_report_records): the
	 * callbacks' runs (any kind of records); the messages' latencies with
	 * their publish times, and the joins' caveats (every record, or
	 * latencies_only with latency_times); every record, for tf, or NULL
	 * (the trace has no tf event). */
	const ca_records *runs, *messages, *every;
	/* Where a path's messages waited (sec_split.c): a splitter of joined
	 * records and how their receptions were known; NULL and 0 when the
	 * trace recorded no reception. */
	const ca_hop_splitter *splitter;
	unsigned receptions;
	const ca_architecture *arch;
	const ca_report_options *options;
	uint64_t t0, t1; /* the time base: the trace's first and last event (ns) */
	/* the architecture file's requirements (deadlines:), drawn on their
	 * path's or callback's charts; the misses of a snapshot of caret live */
	const ca_requirement *requirements;
	size_t n_requirements;
	const struct report_miss *misses;
	size_t n_misses;
	const char *id_prefix; /* of the chart ids this part of the page hands out */
	size_t charts;   /* ids handed out */
	char *err;
	size_t err_size;
};

/* ---- what the user's system is (filter.c) ---------------------------------
 * Left out unless options->all: the tracer's nodes and what it marks hidden
 * (ca_architecture's hidden flags: the tracer's caret_trace_ nodes,
 * ignored_callback_N), the services ROS 2 gives every node and their
 * clients and callbacks (ca_service_name_is_ros2_own; the user's services
 * are shown, though the original's architecture leaves them out), and the
 * topics every node has or that rmw uses for itself. */
bool report_shows_node(const struct report *r, size_t node);
bool report_shows_callback(const struct report *r, size_t callback);
bool report_shows_service(const struct report *r, size_t service);
bool report_shows_client(const struct report *r, size_t client);
bool report_shows_topic(const struct report *r, const char *topic);
/* Callback indexes shown, sorted by node name, then callback name;
 * returns how many (into *out, to free). */
size_t report_callbacks_in_order(const struct report *r, size_t **out);
/* How many objects the filter left out. */
struct report_hidden {
	size_t nodes, callbacks, topics, services;
};
void report_hidden_counts(const struct report *r, struct report_hidden *hidden);

/* The requirement on that path or callback, or NULL. */
const ca_requirement *report_requirement(const struct report *r, ca_requirement_object object,
	const char *name);
/* The data of a deadline drawn on the charts of a card's metric:
 * ,"dl":{"m":metric,"v":µs,"n":misses} (nothing when deadline_ns is 0). */
void report_deadline_data(FILE *d, const char *metric, int64_t deadline_ns, size_t misses);

/* The distinct ROS 2 distributions (rmw false) or rmw implementations of
 * the processes, ", "-joined (to free), or NULL when none is recorded
 * (process_values.c). */
char *report_process_values(const ca_architecture *a, bool rmw);

/* ---- the page ---------------------------------------------------------- */

/* A new chart id (the prefix and a number: "cb12"), into buf; the next
 * one, not handed out yet. */
const char *report_chart_id(struct report *r, char *buf, size_t size);
const char *report_next_chart_id(const struct report *r, char *buf, size_t size);
/* Begins the data member `id` ("id":) and returns the stream to write its
 * value to. */
FILE *report_datum(struct report *r, const char *id);
/* Text with &, <, >, ", ' escaped. */
void report_text(FILE *out, const char *s);
/* A name shortened to at most max characters, its middle cut ("…"), into
 * buf. */
const char *report_short_name(const char *name, size_t max, char *buf, size_t size);
/* A stream in memory (open_memstream) for a part of the page written
 * before it is placed; report_buffer_put writes it to out (NULL: nowhere)
 * and frees it. */
struct report_buffer {
	FILE *f;
	char *text;
	size_t size;
};
bool report_buffer_open(struct report_buffer *b);
void report_buffer_put(struct report_buffer *b, FILE *out);
/* One row of statistics in ms (count min mean p50 p99 max) of values
 * (reordered by it); the first cell and the cells after are the caller's. */
void report_stats_cells(FILE *out, int64_t *values, size_t n);
/* The same cells of statistics already taken. */
void report_stats_cells_of(FILE *out, const ca_stats *stats);
/* A table's head for report_stats_cells rows: first column, then extra
 * columns (HTML) after the statistics. */
void report_stats_head(FILE *out, const char *first, const char *extra);
/* "executor_5 · single-threaded" (its type without "_executor"), into buf
 * (room for the name, the type and 8 bytes). */
void report_executor_label(const ca_executor *x, char *buf);
/* The executor a node's callback groups belong to, or NULL. */
const ca_executor *report_executor_of_node(const ca_architecture *a, size_t node);

/* ---- the sections, in page order ------------------------------------------ */
void report_header(struct report *r);
void report_check_section(struct report *r);
void report_graph_section(struct report *r);
void report_sched_section(struct report *r, const ca_path_latency *const *paths,
	const ca_path *const *path_defs, size_t n_paths);
void report_callbacks_section(struct report *r);
void report_topics_section(struct report *r);
/* The Services and the Actions sections, each only when the trace has
 * calls of the user's (or, with --all, any). */
void report_services_section(struct report *r);
void report_tf_section(struct report *r);
/* The paths, each (title, path) with its latency built from the records
 * that followed it (followed[i], may be NULL), else from every record,
 * else from records of a pass of their own (report_paths_build); their
 * latencies also for the scheduling view (report_paths_view); written by
 * report_paths_section. */
struct report_paths;
struct report_paths *report_paths_build(struct report *r, const char *const *titles,
	const ca_path *const *paths, const ca_records *const *followed, size_t n);
size_t report_paths_view(const struct report_paths *p, const ca_path_latency *const **l,
	const ca_path *const **defs);
int report_paths_section(struct report *r, const struct report_paths *p);
/* A path's topic hops split where its messages waited (sec_split.c, with
 * r->splitter): publish→DDS write, DDS write→reception,
 * reception→callback. split_mean: a topic hop over the messages that went
 * all the way (those of the hops' means), each part's sum over the split
 * ones and the hop's over the others (rest), each divided by all of them
 * (done): they add up to the hop's mean. */
enum { SPLIT_PARTS = 3 };
struct split_mean {
	double part[SPLIT_PARTS], rest;
	size_t split, done;
};
/* Into s (hop_count of them, zeroed; the topic hops', odd k, filled);
 * false without a splitter. */
bool report_split_means(const struct report *r, const ca_path_latency *l, struct split_mean *s);
/* A topic hop's segment of the bar of hops (share: its width, %), its
 * parts inside it. */
void report_split_segment(FILE *out, const char *label, const char *colour, double share,
	double mean, const struct split_mean *s);
/* Under the bar: each topic hop's parts, how the receptions were known,
 * the messages not split. */
void report_split_legend(const struct report *r, FILE *out, char **labels,
	const struct split_mean *s, size_t h);
/* Under a topic hop's row of the worst instances' table: a row per part,
 * each instance's own (messages: their indexes in l). */
void report_split_rows(const struct report *r, FILE *out, const ca_path_latency *l, size_t hop,
	const size_t *messages, size_t n);
/* The page's data of the instances' splits: ,"sp":[...], per message, per
 * topic hop, its three parts (µs, null when not split). */
void report_split_data(const struct report *r, FILE *d, const ca_path_latency *l,
	const size_t *messages, size_t n);
/* Whether a path could not be followed: the first one's name and why in err. */
bool report_paths_failed(const struct report_paths *p, char *err, size_t err_size);
void report_paths_free(struct report_paths *p);

#endif
