/*
 * filter.h - CARET_SELECT_NODES, CARET_IGNORE_NODES, CARET_SELECT_TOPICS,
 * CARET_IGNORE_TOPICS, CARET_IGNORE_PROCESSES: colon-separated POSIX
 * extended regular expressions, unanchored, `*` alone matching everything.
 * A variable holding an invalid pattern is not applied (reported in the
 * trace's tracer_warning and the Status), so a typo never hides data.
 * Node names are "/namespace/name". SELECT wins over IGNORE. An entity
 * whose node or topic is unknown is recorded. Timer callbacks are filtered
 * by their node too.
 *
 * Decisions are made once per handle while the initialization events go
 * by; the runtime path only looks them up (lock-free, no allocation).
 */
#ifndef CT_FILTER_H
#define CT_FILTER_H

#include <stdbool.h>

#include "record.h"
#include "tracer.h"

/* Reads the variables (once). Returns true when this process is ignored. */
CT_HIDDEN bool ct_filter_init(void);

/* What was wrong with the variables (an invalid pattern: that variable is
 * not applied), or NULL. */
CT_HIDDEN const char *ct_filter_problems(void);

/* Learns names and links from an initialization record. */
CT_HIDDEN void ct_filter_observe(const struct ct_record *r);

CT_HIDDEN extern bool ct_filter_active; /* any node or topic filter set */

/* Runtime lookups: true when the entity's events are recorded. */
CT_HIDDEN bool ct_filter_lookup_callback(const void *callback);
CT_HIDDEN bool ct_filter_lookup_publisher(const void *publisher_handle);
CT_HIDDEN bool ct_filter_lookup_rmw_subscription(const void *rmw_subscription_handle);
CT_HIDDEN bool ct_filter_lookup_state_machine(const void *state_machine);
/* Jazzy: a subscription's intra-process ring buffer. */
CT_HIDDEN bool ct_filter_lookup_buffer(const void *buffer);

static inline bool ct_allow_callback(const void *cb)
{
	return !ct_filter_active || ct_filter_lookup_callback(cb);
}
static inline bool ct_allow_publisher(const void *pub)
{
	return !ct_filter_active || ct_filter_lookup_publisher(pub);
}
static inline bool ct_allow_rmw_subscription(const void *h)
{
	return !ct_filter_active || ct_filter_lookup_rmw_subscription(h);
}
static inline bool ct_allow_buffer(const void *buffer)
{
	return !ct_filter_active || ct_filter_lookup_buffer(buffer);
}
static inline bool ct_allow_state_machine(const void *sm)
{
	return !ct_filter_active || ct_filter_lookup_state_machine(sm);
}

#endif
