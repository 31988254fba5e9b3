/*
 * fake_rmw.c - a stand-in for rmw's part in receiving a message, for
 * bench_reception: a subscription created as rmw_cyclonedds creates one
 * (its reader's data-available listener set with Cyclone's
 * dds_lset_data_available_arg, which libcaret.so preloaded interposes),
 * Cyclone's call of that listener as a sample is stored, and a take that
 * fills the message info as rmw_fastrtps does (source and reception
 * times). The identifier says which middleware the tracer sees.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include <dds/dds.h>

#include "fake_rmw.h"

struct fake_subscription {
	const char *implementation_identifier; /* rmw_subscription_t's first member */
	dds_listener_t *listener;
	uint64_t unread; /* what rmw_cyclonedds's own callback counts */
};

static struct fake_subscription subscription;

static void rmw_listener(dds_entity_t reader, void *arg)
{
	(void)reader;
	++*(volatile uint64_t *)arg;
}

void *rmw_create_subscription(const void *node, const void *type_support, const char *topic,
	const void *qos, const void *options)
{
	(void)node, (void)type_support, (void)topic, (void)qos;
	subscription.implementation_identifier = options;
	subscription.listener = dds_create_listener(NULL);
	/* rmw_cyclonedds's reader listener; rmw_fastrtps has none of Cyclone's */
	if (!strcmp(options, "rmw_cyclonedds_cpp"))
		dds_lset_data_available_arg(subscription.listener, rmw_listener,
			&subscription.unread, false);
	return &subscription;
}

int32_t rmw_take_with_info(const void *s, void *message, bool *taken, int64_t *info,
	void *allocation)
{
	(void)s, (void)message, (void)allocation;
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	info[0] = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec; /* source timestamp */
	info[1] = info[0] + 50000;                              /* received */
	*taken = true;
	return 0;
}

void fake_rmw_sample_stored(void *s)
{
	dds_on_data_available_fn callback;
	void *arg;
	bool reset;
	dds_lget_data_available_arg(((struct fake_subscription *)s)->listener, &callback, &arg,
		&reset);
	if (callback)
		callback(0, arg);
}
