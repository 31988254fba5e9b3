/*
 * followed.h - messages followed along a path (ca_path_latency): what the
 * path follower (follow.c) produces, told by the records' scan or by the
 * records' arrays (path/latency.c), and what every reader of a path's
 * latency (its spans, its response times) reads.
 */
#ifndef CA_FOLLOWED_H
#define CA_FOLLOWED_H

#include <stddef.h>
#include <stdint.h>

#include "ca.h"

/* The messages' (input, output) pairs for the span last asked, which
 * every response-time case starts from (path/response.c), kept with a path
 * latency so that the four cases work them out once. */
struct ca_response_cache {
	void *pairs; /* response.c's; NULL: none yet */
	size_t n;
	ca_path_span span;
};

/* An inter-process publish on a path's topic: its stages after the
 * rclcpp one (0: not in the trace), by topic and publish time. */
struct ca_publish_stages {
	uint64_t time, rcl, dds_write, source_stamp;
	size_t topic; /* the path's topic index */
};

struct ca_path_latency {
	size_t hop_count;
	ca_path_message *messages;
	size_t n_messages, cap_messages;
	int64_t *hops; /* messages x hop_count, alongside messages (same capacity) */
	struct ca_response_cache *responses; /* NULL: none kept */
	/* the follower's: stages of its topics' inter-process publishes,
	 * sorted by topic then time; what it saw on each of the path's topics
	 * (NULL: nothing) */
	struct ca_publish_stages *stages;
	size_t n_stages;
	ca_path_topic_seen *topics_seen;
	/* the first run's start of the oldest message whose input a latest
	 * message node still held when the facts ended (0: none) */
	uint64_t held_since;
};

/* The stages of the publish at `time` on the path's topic `topic`, or NULL. */
const struct ca_publish_stages *ca_path_latency_stages(const ca_path_latency *l, size_t topic,
	uint64_t time);

/* A path latency of hop_count hops per message, taking the arrays
 * (messages n, hops n x hop_count); NULL out of memory (they are not
 * freed). */
ca_path_latency *ca_path_latency_of(ca_path_message *messages, int64_t *hops, size_t n,
	size_t hop_count);

/* l's response cache (NULL: none: each case works the pairs out) */
struct ca_response_cache *ca_path_latency_responses(const ca_path_latency *l);

#endif
