/*
 * records.h - the runtime joins behind ca_records_* (types/ca.h).
 * Private to libcaret-analyze.
 *
 * scan.c walks the runtime events in time order with per-thread state
 * (open callback runs, the publish chain in progress) and collects runs,
 * publishes, takes and message copies; join.c then links takes to the runs
 * that handled them and those to their publishes, and counts losses.
 */
#ifndef CA_RECORDS_H
#define CA_RECORDS_H

#include "model.h"
#include "pair_map.h"

/* A message taken for a callback: from rmw_take, a dispatch event, or
 * (Jazzy) a ring buffer's dequeue (buffer != 0: the slot it read). */
struct ca_take {
	uint64_t time, stamp, message, header;
	uint64_t buffer, slot;
	int32_t pid, tid;
	size_t callback, subscription;
	bool intra;
};

/* When a message reached a subscription's middleware, as scanned: the
 * tracer's rmw_take_reception (the message's source stamp, Fast DDS's
 * reception time on the system clock) or rmw_data_available (stamp 0: an
 * arrival, received on the trace's clock). */
struct ca_reception {
	size_t subscription;
	uint64_t stamp, received;
};

/* Jazzy: an intra-process message put into a subscription's ring buffer,
 * by the publish in progress in that thread. */
struct ca_enqueue {
	uint64_t time, buffer, slot;
	int32_t pid;
	size_t publish; /* CA_NONE: no publish seen (recording began meanwhile) */
};

/* message_construct: an intra-process copy of a message. */
struct ca_copy {
	uint64_t time, original, copy;
	int32_t pid;
};

/* A callback run kept compactly (run_store.c): its start's top bit says
 * whether it began for an intra-process message. */
struct ca_run_slot {
	uint64_t start_intra, end;
	int32_t pid, tid;
};

/* runs_only records: the runs per callback (the last bucket: unknown
 * callbacks), each callback's in start order once sorted. */
struct ca_run_store {
	struct ca_run_bucket *buckets;
	size_t n_callbacks;
};
struct ca_run_store *ca_run_store_new(size_t n_callbacks);
void ca_run_store_free(struct ca_run_store *s);
/* A new run; NULL out of memory. The slot stays where it is. */
struct ca_run_slot *ca_run_store_add(struct ca_run_store *s, size_t callback, uint64_t start,
	uint64_t end, int32_t pid, int32_t tid, bool intra);
/* Every callback's runs by start, then thread; false out of memory. */
bool ca_run_store_sort(struct ca_run_store *s);
size_t ca_run_store_count(const struct ca_run_store *s, size_t callback);
size_t ca_run_store_runs(const struct ca_run_store *s, size_t callback,
	ca_callback_instance *out);
size_t ca_run_store_starts(const struct ca_run_store *s, size_t callback, uint64_t *out);

/* The latencies of one subscription's messages of one delivery, in the
 * order of the runs that handled them; with latency_times, the publish
 * time (ca_publish_time) of each. */
struct ca_latency_list {
	int64_t *values;
	uint64_t *published;
	size_t n;
};

struct ca_records {
	const ca_trace *t;
	const struct ca_model *m;
	bool runs_only;
	bool latencies_only; /* the streamed joins' results alone (stream.c) */
	bool latency_times;  /* latencies_only: each latency's publish time kept */
	bool with_runs;      /* latencies_only: the runs kept too, in run_store */
	/* ca_records_options.nodes, kept until the model is met, then per
	 * node of the model whether its records are kept (NULL: all) */
	const char *const *node_names;
	size_t n_node_names;
	bool *keep_node;
	bool *keep_callback; /* the same per callback of the model, read for each event */
	struct ca_stream *stream;
	struct ca_latency_list *latencies; /* latencies_only: [2 subscription + intra] */
	uint64_t *not_published;           /* latencies_only: [2 subscription + intra] */
	CA_ARRAY(ca_node_path, node_paths); /* latencies_only */
	CA_ARRAY(size_t, free_publishes);   /* latencies_only: publishes is a pool */
	struct ca_run_store *run_store; /* runs_only, with_runs: the runs, not in runs */
	/* ca_records_options.follow, kept until the model is met; then, when
	 * the stream can follow it, the path as the model interned it (its
	 * arrays owned) and each node's policy: latencies_only records whose
	 * stream follows it (follow.c) into `followed`. */
	const ca_path *follow_request;
	ca_node_policy follow_policy;
	/* ca_records_options.follow_longest: the path chosen when the model is
	 * met (ca_records_choose_longest), kept by longest_owner */
	bool follow_longest;
	void *longest_owner;
	/* what following a path asks of the path stage; NULL: no path followed */
	const struct ca_follow_planner *planner;
	bool keep_none; /* follow_longest and no chain: no node's records kept */
	ca_path follow_path; /* each node's policy in its policies */
	ca_path_latency *followed;
	uint64_t next_run_id; /* runs numbered for the follower, from 1 */
	struct scan *live; /* a scan begun, fed by the model's runtime pass */
	CA_ARRAY(ca_callback_instance, runs);
	CA_ARRAY(ca_publish_instance, publishes);
	CA_ARRAY(ca_communication, communications);
	CA_ARRAY(struct ca_take, takes);
	CA_ARRAY(struct ca_copy, copies);
	CA_ARRAY(struct ca_enqueue, enqueues);
	CA_ARRAY(struct ca_reception, receptions); /* until joined (receptions.c) */
	int64_t *dds_hops; /* per communication: its write to its reception; INT64_MIN unknown */
	unsigned reception_kinds; /* CA_RECEPTION_* */
	uint64_t *not_received; /* per subscription and delivery: [2s + intra] */
	size_t *by_thread; /* runs by pid, tid, start (ca_records_run_at) */
	struct ca_radix *sorter[2]; /* the joins' sorts, reused (join.c) */
	ca_record_losses losses;
	bool oom;
};

/* receptions.c: a reception noted as scanned (false out of memory);
 * sorted once the scan ends; matched to the communications once joined,
 * then let go (-1 out of memory). */
bool ca_receptions_add(struct ca_records *r, size_t subscription, uint64_t stamp,
	uint64_t received);
void ca_receptions_sort(struct ca_records *r);
int ca_receptions_match(struct ca_records *r);

/* The intra-process publish of Jazzy's ring-buffer slot: the second key
 * of a slot (pids are below 2^22 on a host; a host's rank is added << 24
 * when several are read: 31 bits). */
static inline uint64_t ca_slot_key(uint64_t slot, int32_t pid)
{
	return slot << 31 | ((uint64_t)(uint32_t)pid & 0x7fffffff);
}

/* Things of threads in order of process, thread, then time. */
static inline int ca_thread_time_order(int64_t pid_a, int64_t tid_a, uint64_t a, int64_t pid_b,
	int64_t tid_b, uint64_t b)
{
	if (pid_a != pid_b)
		return pid_a < pid_b ? -1 : 1;
	if (tid_a != tid_b)
		return tid_a < tid_b ? -1 : 1;
	return (a > b) - (a < b);
}

/* A thread (or, tid 0, a process) as one key of the joins' maps. */
static inline uint64_t ca_thread_key(int32_t pid, int32_t tid)
{
	return (uint64_t)(uint32_t)pid << 32 | (uint32_t)tid;
}

/* The longest a DDS write may follow its publish for the unstamped match. */
#define CA_MAX_WRITE_DELAY 100000000 /* ns */

int ca_records_scan(struct ca_records *r);
/* r->keep_node from r->node_names, once r->m is set; false out of memory. */
bool ca_records_filter_nodes(struct ca_records *r);
/* What records that follow a path ask of the path stage (path/plan.c),
 * handed to them by whoever builds them (pipeline/): the records stage
 * itself knows nothing of paths but the one it is given. */
struct ca_follow_planner {
	/* the one topic node `from` publishes and node `to` takes; NULL:
	 * none or several */
	const char *(*shared_topic)(const ca_architecture *a, const char *from, const char *to);
	/* the longest chain of a's graph: false when none (or out of
	 * memory); else *path, valid until free_owner(*owner) */
	bool (*longest)(const ca_architecture *a, const ca_path **path, void **owner);
	void (*free_owner)(void *owner);
};

/* Records of options o (NULL: every record, no path followed), built in
 * a scan of their own unless the load scanned them already; planner:
 * what a path followed needs (NULL: none is). */
ca_records *ca_records_build_with(const ca_trace *t, const ca_records_options *o,
	const struct ca_follow_planner *planner, char *err, size_t err_size);

/* Once r->m is set: records asked to follow a path follow it when the
 * stream can (latencies_only set), or are the path nodes' full records
 * (a hop through tf, a node inheriting stamps or named twice, a topic
 * not found); false out of memory. */
bool ca_records_setup_follow(struct ca_records *r);
/* Records asked to follow the longest chain: follow_request set to it
 * once r->m is set (none, and no record kept, when there is no chain). */
void ca_records_choose_longest(struct ca_records *r);
/* The path latency these records followed, handed over once, when
 * (path, policy) is what they followed (*done set; NULL and err: not
 * that path, or handed over already); else *done false. */
ca_path_latency *ca_records_followed(const ca_records *r, const ca_path *path,
	ca_node_policy policy, bool *done, char *err, size_t err_size);
int ca_records_join(struct ca_records *r);
/* The scan in steps, its events given by the model's runtime pass (the
 * trace's tee): begin (-1 out of memory), visit each event, end. */
int ca_records_scan_begin(struct ca_records *r);
/* Several records riding one load: each sees every event (ctx: the
 * riders). */
struct ca_riders {
	struct ca_records **r;
	size_t n;
};
void ca_records_scan_visit_all(void *ctx, enum cs_event_id id, uint64_t time, int32_t vpid,
	int32_t vtid, const uint64_t *values);
void ca_records_scan_visit(void *ctx, enum cs_event_id id, uint64_t time, int32_t vpid,
	int32_t vtid, const uint64_t *values);
int ca_records_scan_end(struct ca_records *r);
void ca_records_scan_drop(struct ca_records *r); /* a scan begun, not ended */
/* Records of options o whose scan rides along the model's runtime pass of
 * a load (t->tee, ca_records_scan_visit): NULL out of memory. */
struct ca_records *ca_records_ride(ca_trace *t, const ca_records_options *o,
	const struct ca_follow_planner *planner);

/* The messages on topic with the given delivery that a callback handled
 * and whose publish is in the trace, as publish times (ca_publish_time) in
 * `published` and latencies (the callback's start - it) in `latencies`,
 * each with room for ca_records_topic_timed_count(), in publish order;
 * *not_published (if not NULL) counts those handled with no publish.
 * Every record, or latencies_only records with latency_times (0 from
 * other records, and out of memory). */
size_t ca_records_topic_timed_count(const ca_records *r, const char *topic, bool intra);
size_t ca_records_topic_timed(const ca_records *r, const char *topic, bool intra,
	uint64_t *published, int64_t *latencies, uint64_t *not_published);

/* ---- stable radix sorts (radix.c) ------------------------------------------
 * To order n items by several keys: fill keys[i] with item i's least
 * significant key, ca_radix_by, then the next key, ..., the most
 * significant last; order then holds the items' indexes in order. */
struct ca_radix {
	size_t n;
	size_t *order, *tmp, *counts;
	uint64_t *keys; /* by item index */
	void *scratch;  /* ca_radix_permute's copy */
	size_t cap_order, cap_tmp, cap_counts, cap_keys, cap_scratch; /* bytes */
};
struct ca_radix *ca_radix_new(size_t n);
/* *r (made when NULL) ready for n items, its arrays kept from one sort to
 * the next (fresh pages cost more than sorting them on large traces);
 * false out of memory. */
bool ca_radix_prepare(struct ca_radix **r, size_t n);
void ca_radix_by(struct ca_radix *r);
/* Reorders items (n of size bytes) as order says; false out of memory. */
bool ca_radix_permute(struct ca_radix *r, void *items, size_t size);
void ca_radix_free(struct ca_radix *r);
/* Sorts n signed values in place; false out of memory (v unchanged). */
bool ca_radix_sort_values(int64_t *v, size_t n);
/* qsort, unless the items are in cmp's order already (as runs, publishes
 * and messages mostly come): the same result, the C library's sort being
 * stable (a merge sort), in one pass. */
void ca_sort_unless_sorted(void *items, size_t n, size_t size,
	int (*cmp)(const void *, const void *));

/* The object a runtime event names, its handle found among the model's
 * at the event's time (scan.c): a callback (callback_start, a dispatch,
 * a merged run), a publisher (a publish), a subscription (rmw_take) or a
 * ring buffer (its dequeue); CA_NONE when it names none. Reads the model
 * only: the decoding thread calls it too (ca_trace.tee_object), with
 * CA_TEE_SCRATCH bytes of its own where the answers that hold at any
 * time are kept (NULL: none). */
size_t ca_records_event_object(const struct ca_model *m, void *scratch, enum cs_event_id id,
	int32_t pid, uint64_t time, const uint64_t *values);

/* ---- what each subscription should have received (deliveries.c) ---------- */
struct ca_deliveries {
	const struct ca_model *m;
	struct ca_pair_map first_of; /* topic -> its first subscription */
	size_t *next;                /* per subscription: the next on its topic */
	uint64_t (*window)[2];       /* per subscription: its process's first, last time */
	uint64_t *expected;          /* [2 subscription + intra] */
};
/* false out of memory (ca_deliveries_free all the same). */
bool ca_deliveries_init(struct ca_deliveries *d, const ca_trace *t, const struct ca_model *m);
/* A publish, its publisher and time known: counted for each subscription
 * of its topic that should receive it. */
void ca_deliveries_publish(struct ca_deliveries *d, const ca_publish_instance *p);
/* Per [2 subscription + intra]: expected less received, at least 0. */
void ca_deliveries_not_received(const struct ca_deliveries *d, const uint64_t *received,
	uint64_t *not_received);
void ca_deliveries_free(struct ca_deliveries *d);

/* ---- streamed joins of latencies_only records (stream.c) ----------------------
 * The scan calls these in time order. */
struct ca_stream;
struct ca_stream_run { /* a callback run as it starts */
	uint64_t start;
	size_t callback;
	int depth;   /* of nesting in its thread */
	uint64_t id; /* records that follow a path: the run's number (from 1) */
};
/* NULL out of memory; needs r->m. */
struct ca_stream *ca_stream_new(struct ca_records *r);
void ca_stream_free(struct ca_stream *s);
/* A publish with its publisher known (an intra-process one: at once),
 * made in the open run `open` of its thread (NULL: none open). Records
 * that follow a path: the publish's reference, which the scan keeps in
 * p->callback_instance for ca_stream_stamp; else 0. */
uint64_t ca_stream_publish(struct ca_stream *s, const ca_publish_instance *p,
	const struct ca_stream_run *open);
/* Its DDS source stamp known (after ca_stream_publish). */
void ca_stream_stamp(struct ca_stream *s, const ca_publish_instance *p);
/* Its rcl or DDS write stage known (after ca_stream_publish): a path
 * follower keeps them for the messages' stamps. */
void ca_stream_stages(struct ca_stream *s, const ca_publish_instance *p);
void ca_stream_copy(struct ca_stream *s, int32_t pid, uint64_t copy, uint64_t original);
/* Publish p (told by ca_stream_publish) put a message in a ring buffer. */
void ca_stream_enqueue(struct ca_stream *s, int32_t pid, uint64_t buffer, uint64_t slot,
	const ca_publish_instance *p);
void ca_stream_take(struct ca_stream *s, const struct ca_take *k);
void ca_stream_run_start(struct ca_stream *s, int32_t pid, int32_t tid,
	const struct ca_stream_run *run, bool intra);
/* The thread's outermost open run left its stack (its depth 0): the
 * others are one level less deep. */
void ca_stream_run_dropped(struct ca_stream *s, int32_t pid, int32_t tid);
/* A merged run, its event at its end. */
void ca_stream_run_merged(struct ca_stream *s, int32_t pid, int32_t tid,
	const struct ca_stream_run *run, uint64_t end, bool intra);
/* A run ends (records that follow a path). */
void ca_stream_run_end(struct ca_stream *s, const struct ca_stream_run *run, uint64_t end);
/* The results into the records; -1 out of memory. */
int ca_stream_end(struct ca_stream *s);

/* ---- the path follower (follow.c) -----------------------------------------------
 * Told of the publishes, deliveries, links and run ends of the path's
 * nodes, it follows each message along the path once its facts are
 * settled (no stamp can come for them any more). stream.c tells them as
 * the scan goes, in nearly time order; path/latency.c from the records'
 * arrays, in any order (ca_follow_unordered). Runs are told by a number
 * of the teller's (never 0) with their start and callback. */
struct ca_follow;
/* How a path's hop is made: messages on a topic (deliveries), or a link
 * the teller works out (tf, a service: ca_follow_link), counted from the
 * run's start or (SINCE_ENTRY) from when the message entered it. */
enum ca_follow_hop { CA_FOLLOW_TOPIC, CA_FOLLOW_LINK, CA_FOLLOW_LINK_SINCE_ENTRY };
/* NULL out of memory or over 65,535 nodes; path's nodes and topics as the
 * model interned them, its policies every node's (the first's and the
 * last's unused); hop_kinds per topic (NULL: every hop a topic's). */
struct ca_follow *ca_follow_new(const struct ca_model *m, const ca_path *path,
	const uint8_t *hop_kinds);
/* Facts come in any order: sorted once, before the first settles. */
void ca_follow_unordered(struct ca_follow *f);
void ca_follow_free(struct ca_follow *f);
/* A publish at `time` in run `run` (its id 0: none yet, see place):
 * its reference (never 0), 0 out of memory. */
uint64_t ca_follow_publish(struct ca_follow *f, uint64_t time, const struct ca_stream_run *run,
	const char *topic);
/* The same, told in two: the publish (its reference, in the order told:
 * 1, 2, ...) and, once its run is known, the output it may be. */
uint64_t ca_follow_note_publish(struct ca_follow *f, uint64_t time, uint64_t run);
bool ca_follow_output(struct ca_follow *f, uint64_t time, const struct ca_stream_run *run,
	const char *topic);
/* A publish made outside any open run, claimed by a merged run. */
bool ca_follow_place(struct ca_follow *f, uint64_t ref, const struct ca_stream_run *run,
	const char *topic);
/* Run `run` handled a message on `topic` whose publish is `ref` (0: none
 * found), header stamp `header` (0: unknown), delivered within its
 * process or not; false out of memory. */
bool ca_follow_deliver(struct ca_follow *f, const struct ca_stream_run *run, const char *topic,
	uint64_t ref, uint64_t header, bool intra);
/* The stages after rclcpp's of inter-process publish `ref` on `topic`, as
 * far as known (told again as more become known); kept for the path's
 * topics, for the messages' stamps; false out of memory. */
bool ca_follow_stages(struct ca_follow *f, uint64_t ref, const char *topic, uint64_t rcl,
	uint64_t dds_write, uint64_t source_stamp);
/* Where a link took what run `from` sent at `sent`: */
struct ca_follow_link {
	uint64_t run;   /* the run it arrived in (0: none: the message is lost there) */
	uint64_t entry; /* when it entered that run */
	uint64_t end;   /* that run's end, if the last node's (0: not ended) */
};
bool ca_follow_link(struct ca_follow *f, size_t hop, uint64_t sent,
	const struct ca_stream_run *from, const struct ca_follow_link *to);
bool ca_follow_end(struct ca_follow *f, const struct ca_stream_run *run, uint64_t end);
/* Every fact before `settled` is known: the messages go on through them. */
bool ca_follow_settle(struct ca_follow *f, uint64_t settled);
/* The messages followed (all facts settled); NULL out of memory. */
ca_path_latency *ca_follow_finish(struct ca_follow *f);

#endif
