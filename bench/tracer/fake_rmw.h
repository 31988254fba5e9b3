/*
 * fake_rmw.h - fake_rmw.c's functions, under rmw's names (the tracer's
 * hooks stand in front of them when preloaded).
 */
#ifndef FAKE_RMW_H
#define FAKE_RMW_H

#include <stdbool.h>
#include <stdint.h>

/* options: the identifier the subscription reports (rmw_cyclonedds_cpp or
 * rmw_fastrtps_cpp). */
void *rmw_create_subscription(const void *node, const void *type_support, const char *topic,
	const void *qos, const void *options);
int32_t rmw_take_with_info(const void *s, void *message, bool *taken, int64_t *info,
	void *allocation);
/* Cyclone's call of the reader's listener, as it stores a sample. */
void fake_rmw_sample_stored(void *s);

#endif
