/*
 * hooks_arrival.c - when a sample reached a subscription's reader, on
 * Cyclone DDS, whose sample info carries no reception time. rmw_cyclonedds
 * gives each subscription's reader a data-available listener as it creates
 * it (dds_lset_data_available_arg inside rmw_create_subscription), and
 * Cyclone calls that listener in its receive thread for every sample it
 * stores. The hook puts a relay in front of rmw's callback: the relay
 * records rmw_data_available(subscription) and calls rmw's callback with
 * rmw's argument. The arrival names no message: the analyzer matches
 * arrivals to messages in order (records/receptions.c).
 *
 * A relay is allocated when its subscription is created (never on the
 * message path) and freed once rmw destroyed the subscription: Cyclone's
 * dds_delete waits for the listener calls in progress.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include <dds/dds.h>

#include "abi.h"
#include "active.h"
#include "filter.h"
#include "original.h"
#include "rmw_abi.h"
#include "ros2_caret_tp.h"
#include "tracer.h"

struct relay {
	dds_on_data_available_fn callback; /* rmw's */
	void *arg;
	_Atomic(const void *) subscription; /* rmw_subscription_t, once created */
	struct relay *next;
};

/* The subscription this thread is creating: the first data-available
 * listener set inside rmw_create_subscription is its reader's. */
static CT_TLS bool creating;
static CT_TLS struct relay *created_relay;

static pthread_mutex_t relays_lock = PTHREAD_MUTEX_INITIALIZER;
static struct relay *relays;

static void on_arrival(dds_entity_t reader, void *arg)
{
	struct relay *r = arg;
	const void *subscription = atomic_load_explicit(&r->subscription, memory_order_acquire);
	int e = errno;
	if (subscription && ct_recording() && ct_active() &&
	    ct_allow_rmw_subscription(subscription))
		lttng_ust_tracepoint(ros2_caret, rmw_data_available, subscription);
	errno = e;
	if (r->callback)
		r->callback(reader, r->arg);
}

CT_EXPORT dds_return_t dds_lset_data_available_arg(dds_listener_t *listener,
	dds_on_data_available_fn callback, void *arg, bool reset_on_invoke)
{
	CT_ORIGINAL(dds_return_t (*)(dds_listener_t *, dds_on_data_available_fn, void *, bool),
		"dds_lset_data_available_arg");
	if (!original)
		return DDS_RETCODE_ERROR;
	int e = errno;
	struct relay *r = creating && !created_relay && listener && callback ?
		calloc(1, sizeof *r) : NULL;
	errno = e;
	if (!r)
		return original(listener, callback, arg, reset_on_invoke);
	r->callback = callback;
	r->arg = arg;
	dds_return_t rc = original(listener, on_arrival, r, reset_on_invoke);
	e = errno;
	if (rc == DDS_RETCODE_OK)
		created_relay = r;
	else
		free(r);
	errno = e;
	return rc;
}

/* Not counted as a hook entered (no CT_ENTER around the creation): the
 * tracepoints rmw emits inside it (rmw_subscription_init) are recorded. */
CT_EXPORT void *rmw_create_subscription(const void *node, const void *type_support,
	const char *topic_name, const void *qos_policies, const void *subscription_options)
{
	CT_ORIGINAL(ct_rmw_create_subscription_fn, "rmw_create_subscription");
	bool outer = !creating && !ct_thread.depth && !ct_thread.in_control && ct_active();
	if (outer) {
		creating = true;
		created_relay = NULL;
	}
	void *subscription = original ?
		original(node, type_support, topic_name, qos_policies, subscription_options) : NULL;
	if (outer) {
		int e = errno;
		struct relay *r = created_relay;
		creating = false;
		created_relay = NULL;
		/* Failed: rmw deleted the reader it made, if any; the relay stays
		 * (a few bytes) rather than risk a late call. */
		if (r && subscription) {
			atomic_store_explicit(&r->subscription, subscription, memory_order_release);
			pthread_mutex_lock(&relays_lock);
			r->next = relays;
			relays = r;
			pthread_mutex_unlock(&relays_lock);
		}
		errno = e;
	}
	return subscription;
}

static struct relay *unlink_relay(const void *subscription)
{
	pthread_mutex_lock(&relays_lock);
	struct relay **at = &relays;
	while (*at && atomic_load_explicit(&(*at)->subscription, memory_order_relaxed) !=
		subscription)
		at = &(*at)->next;
	struct relay *r = *at;
	if (r)
		*at = r->next;
	pthread_mutex_unlock(&relays_lock);
	return r;
}

CT_EXPORT ct_rmw_ret rmw_destroy_subscription(void *node, void *subscription)
{
	CT_ORIGINAL(ct_rmw_destroy_subscription_fn, "rmw_destroy_subscription");
	ct_rmw_ret rc = original ? original(node, subscription) : 1;
	if (rc == CT_RMW_RET_OK && subscription) {
		int e = errno;
		free(unlink_relay(subscription));
		errno = e;
	}
	return rc;
}
