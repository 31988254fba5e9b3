/*
 * merge.h - merged events (seed 003): runs of events that always occur
 * consecutively in one thread become one event, built in thread-local
 * storage. merged_callback_timing replaces callback_start + callback_end;
 * merged_publish_timing replaces rclcpp_publish + rcl_publish + dds_write +
 * dds_bind_addr_to_stamp. A publish chain left incomplete is flushed, with
 * the missing stages 0, when the next one starts in the thread or when the
 * callback it started in ends. Nested callbacks nest.
 */
#ifndef CT_MERGE_H
#define CT_MERGE_H

#include <stdbool.h>
#include <stdint.h>

#include "tracer.h"

CT_HIDDEN void ct_merge_callback_start(const void *callback, bool intra);
CT_HIDDEN void ct_merge_callback_end(const void *callback);

enum ct_publish_stage { CT_STAGE_RCLCPP, CT_STAGE_RCL, CT_STAGE_DDS_WRITE };
/* A publish stage at time (ct_now()); publisher is NULL when the stage
 * does not know it. */
CT_HIDDEN void ct_merge_publish(enum ct_publish_stage stage, const void *publisher,
	const void *message, int64_t time);
/* The DDS write's source timestamp: completes the chain of message. */
CT_HIDDEN void ct_merge_bind(const void *message, uint64_t source_stamp);

#endif
