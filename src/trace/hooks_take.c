/*
 * hooks_take.c - when a message reached the subscriber's middleware, on
 * the middleware that says it. rcl takes a message through
 * librmw_implementation's rmw_take_with_info, and a preloaded definition
 * comes before it (as for the service hooks). rmw_fastrtps fills the
 * message info's received_timestamp with Fast DDS's reception time of the
 * sample (the system clock, as the source timestamp beside it): recorded
 * just after the rmw_take the rmw traced inside, as rmw_take_reception
 * (the subscription, the source timestamp, the reception). rmw_cyclonedds
 * gives none (0 on Humble, the take's own time on Jazzy): nothing is
 * recorded for it, and the analyzer says the reception is not known.
 */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "abi.h"
#include "active.h"
#include "filter.h"
#include "original.h"
#include "rmw_abi.h"
#include "ros2_caret_tp.h"
#include "tracer.h"

/* rmw_fastrtps_cpp's and rmw_fastrtps_dynamic_cpp's subscriptions: the
 * identifier seen once, then compared by address. */
static _Atomic(const char *) fastrtps_identifier;

static bool receives_with_time(const void *subscription)
{
	const char *id = ((const struct ct_rmw_subscription_head *)subscription)->
		implementation_identifier;
	if (!id)
		return false;
	if (id == atomic_load_explicit(&fastrtps_identifier, memory_order_relaxed))
		return true;
	if (strncmp(id, "rmw_fastrtps", 12) != 0)
		return false;
	atomic_store_explicit(&fastrtps_identifier, id, memory_order_relaxed);
	return true;
}

/* The take is not counted as a hook entered (no CT_ENTER around it): the
 * rmw_take tracepoint rmw emits inside must be recorded as ever. */
CT_EXPORT ct_rmw_ret rmw_take_with_info(const void *subscription, void *ros_message, bool *taken,
	struct ct_rmw_message_info_head *message_info, void *allocation)
{
	CT_ORIGINAL(ct_rmw_take_with_info_fn, "rmw_take_with_info");
	ct_rmw_ret rc = original ?
		original(subscription, ros_message, taken, message_info, allocation) : 1;
	if (rc == CT_RMW_RET_OK && taken && *taken && message_info &&
	    message_info->received_timestamp > 0 && subscription && !ct_thread.depth &&
	    ct_recording() && ct_active() && !ct_thread.in_control &&
	    !ct_in_run_left_out() && ct_allow_rmw_subscription(subscription) &&
	    receives_with_time(subscription)) {
		CT_ENTER(e);
		lttng_ust_tracepoint(ros2_caret, rmw_take_reception, subscription,
			(uint64_t)message_info->source_timestamp,
			(uint64_t)message_info->received_timestamp);
		CT_LEAVE(e);
	}
	return rc;
}
