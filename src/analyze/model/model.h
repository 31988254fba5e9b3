/*
 * model.h - the architecture rebuilt from a loaded trace, its findings and
 * its per-node / per-topic counts. Private to libcaret-analyze.
 *
 * Built in three steps, one file each: init.c (initialization events ->
 * objects and links), names.c (stable names), runtime.c (runtime events
 * checked against the objects and counted), then check.c (findings).
 */
#ifndef CA_MODEL_H
#define CA_MODEL_H

#include "ca.h"
#include "handle_map.h"
#include "trace.h"

/* The rclcpp side of a subscription: up to two rclcpp objects (with
 * intra-process on, the first one created is the intra-process one). */
struct ca_sub_rclcpp {
	uint64_t object[2];
	unsigned count;
};

/* Jazzy: the ring buffer a subscription's intra-process messages wait in
 * (rclcpp_construct_ring_buffer, rclcpp_buffer_to_ipb,
 * rclcpp_ipb_to_subscription). */
struct ca_ring_buffer {
	int32_t pid;
	uint64_t address, ipb, time;
	size_t subscription; /* CA_NONE: not known (yet) */
};

/* Runtime events of one process that named no known object, per event. */
struct ca_unknown {
	uint64_t count[CS_EVENT_COUNT];
	uint64_t example[CS_EVENT_COUNT];
};

#define CA_ARRAY(type, name) type *name; size_t n_##name, cap_##name

struct ca_model {
	ca_architecture arch; /* views of the arrays below */
	CA_ARRAY(ca_process, processes);
	CA_ARRAY(ca_node, nodes);
	CA_ARRAY(ca_publisher, publishers);
	CA_ARRAY(ca_subscription, subscriptions);
	CA_ARRAY(struct ca_sub_rclcpp, sub_rclcpp); /* parallel to subscriptions */
	CA_ARRAY(ca_timer, timers);
	CA_ARRAY(ca_service, services);
	CA_ARRAY(ca_client, clients);
	CA_ARRAY(ca_callback, callbacks);
	CA_ARRAY(ca_callback_group, groups);
	CA_ARRAY(ca_executor, executors);
	CA_ARRAY(struct ca_ring_buffer, ring_buffers);
	CA_ARRAY(ca_finding, findings);
	CA_ARRAY(ca_node_count, node_counts);
	CA_ARRAY(ca_topic_count, topic_counts);
	struct ca_unknown *unknown; /* one per process */
	uint64_t dangling_links;    /* init events naming an object never created */
	/* per process (runtime.c): rmw_publish / dds_write with a source
	 * timestamp, callback runs for an intra-process message */
	uint64_t *stamped_writes, *intra_runs;
	struct ca_handle_map handles;
};

/* The process index of a pid (processes are sorted by pid), or SIZE_MAX. */
size_t ca_model_process_index(const struct ca_model *m, int64_t pid);
/* The first and the last event of the trace's processes (0, 0: none): the
 * time base of the report and the export. */
void ca_model_time_span(const ca_trace *t, uint64_t *first, uint64_t *last);
/* The executor (index) of a callback's group, or CA_NONE. */
size_t ca_model_callback_executor(const ca_architecture *a, size_t callback);

/* The model of the loaded tables (model.c); 0, or -1 when out of memory. */
int ca_model_build(ca_trace *t);
void ca_model_free(struct ca_model *m);
int ca_model_init_objects(ca_trace *t, struct ca_model *m);
int ca_model_name_objects(ca_trace *t, struct ca_model *m);
int ca_model_scan_runtime(ca_trace *t, struct ca_model *m);
int ca_model_check(ca_trace *t, struct ca_model *m);

/* A field of a row, by name (resolved per call: for initialization events). */
uint64_t ca_row_field(const ca_trace *t, enum cs_event_id id, size_t row, const char *field);
const char *ca_row_string(const ca_trace *t, enum cs_event_id id, size_t row, const char *field);

#endif
