/*
 * truth.h - ground truth: what really happened in a process, timed with
 * CLOCK_MONOTONIC (the clock LTTng uses). One CSV file per kind and process
 * in the truth directory; columns in docs/testbed.md.
 */
#ifndef TB_TRUTH_H
#define TB_TRUTH_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct tb_truth;

/* For an address the writer cannot know (the real rclcpp apps do not see
 * the callback objects rclcpp traces): written "?", and not compared. */
#define TB_TRUTH_UNKNOWN ((const void *)-1)

struct tb_truth *tb_truth_open(const char *dir, const char *process, int pid);
void tb_truth_close(struct tb_truth *t);

/* entities: kind,node,name,handle,callback,group,symbol,period_ns,time_ns
 * (one row per object, in creation order) */
void tb_truth_entity(struct tb_truth *t, const char *kind, const char *node,
	const char *name, const void *handle, const void *callback,
	const void *group, const char *symbol, int64_t period_ns);
/* The same with the time the object was created at (a timer: the clock
 * read its firings count from). */
void tb_truth_entity_at(struct tb_truth *t, int64_t time, const char *kind,
	const char *node, const char *name, const void *handle, const void *callback,
	const void *group, const char *symbol, int64_t period_ns);
/* callbacks: node,callback_name,callback,kind,tid,start_ns,end_ns */
void tb_truth_callback(struct tb_truth *t, const char *node,
	const char *callback_name, const void *callback, const char *kind,
	int64_t start, int64_t end);
/* publishes: node,topic,publisher,seq,stamp_ns,origin_ns,time_ns,
 *            intra_subscriptions,inter_process */
void tb_truth_publish(struct tb_truth *t, const char *node, const char *topic,
	uint64_t publisher, uint64_t seq, int64_t stamp, int64_t origin,
	int64_t time, unsigned intra_subscriptions, bool inter_process);
/* receives: node,callback_name,topic,publisher,seq,stamp_ns,origin_ns,
 *           source_timestamp,time_ns,delivery */
void tb_truth_receive(struct tb_truth *t, const char *node,
	const char *callback_name, const char *topic, uint64_t publisher,
	uint64_t seq, int64_t stamp, int64_t origin, int64_t source_timestamp,
	int64_t time, bool intra);
/* e2e: node,callback_name,topic,publisher,seq,origin_ns,end_ns,latency_ns */
void tb_truth_e2e(struct tb_truth *t, const char *node,
	const char *callback_name, const char *topic, uint64_t publisher,
	uint64_t seq, int64_t origin, int64_t end);

#ifdef __cplusplus
}
#endif

#endif
