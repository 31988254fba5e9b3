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

struct ca_path_latency {
	size_t hop_count;
	ca_path_message *messages;
	size_t n_messages, cap_messages;
	int64_t *hops; /* messages x hop_count, alongside messages (same capacity) */
	struct ca_response_cache *responses; /* NULL: none kept */
};

/* A path latency of hop_count hops per message, taking the arrays
 * (messages n, hops n x hop_count); NULL out of memory (they are not
 * freed). */
ca_path_latency *ca_path_latency_of(ca_path_message *messages, int64_t *hops, size_t n,
	size_t hop_count);

/* l's response cache (NULL: none: each case works the pairs out) */
struct ca_response_cache *ca_path_latency_responses(const ca_path_latency *l);

#endif
