/*
 * hooks_tracetools.c - the ros_trace_* functions of ros2_tracing's
 * libtracetools.so, interposed. Initialization events become ros2_caret
 * events with init_timestamp, stored for replay, and are not passed on.
 * Runtime events are passed to the original only in RECORD and when the
 * filter allows them (or merged). Executor and take events are dropped.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "filter.h"
#include "init_store.h"
#include "merge.h"
#include "original.h"
#include "ros2_caret_tp.h"
#include "tracer.h"
#include "tracetools/tracetools.h" /* the ABI: our hooks must match it */

/* ---- initialization --------------------------------------------------- */

#define P(x) { .u = (uint64_t)(uintptr_t)(x) }
#define S(x) { .s = (x) }
#define U(x) { .u = (uint64_t)(x) }
#define I(x) { .i = (int64_t)(x) }

#define INIT_HOOK(name, params, ...)                                            \
	CT_EXPORT void ros_trace_##name params                                  \
	{                                                                       \
		CT_ENTER(e);                                                    \
		if (!CT_REENTERED()) {                                          \
			const union ct_value v[] = { __VA_ARGS__ };             \
			ct_record_initialization(CS_EV_ros2_caret_##name, v,     \
				sizeof v / sizeof *v, ct_now());                \
		}                                                               \
		CT_LEAVE(e);                                                    \
	}

INIT_HOOK(rcl_init, (const void *context_handle), P(context_handle))
INIT_HOOK(rcl_node_init, (const void *node_handle, const void *rmw_handle,
	const char *node_name, const char *node_namespace),
	P(node_handle), P(rmw_handle), S(node_name), S(node_namespace))
INIT_HOOK(rcl_publisher_init, (const void *publisher_handle, const void *node_handle,
	const void *rmw_publisher_handle, const char *topic_name, const size_t queue_depth),
	P(publisher_handle), P(node_handle), P(rmw_publisher_handle), S(topic_name),
	U(queue_depth))
INIT_HOOK(rcl_subscription_init, (const void *subscription_handle,
	const void *node_handle, const void *rmw_subscription_handle,
	const char *topic_name, const size_t queue_depth),
	P(subscription_handle), P(node_handle), P(rmw_subscription_handle),
	S(topic_name), U(queue_depth))
INIT_HOOK(rclcpp_subscription_init, (const void *subscription_handle,
	const void *subscription), P(subscription_handle), P(subscription))
INIT_HOOK(rclcpp_subscription_callback_added, (const void *subscription,
	const void *callback), P(subscription), P(callback))
INIT_HOOK(rcl_service_init, (const void *service_handle, const void *node_handle,
	const void *rmw_service_handle, const char *service_name),
	P(service_handle), P(node_handle), P(rmw_service_handle), S(service_name))
INIT_HOOK(rclcpp_service_callback_added, (const void *service_handle,
	const void *callback), P(service_handle), P(callback))
INIT_HOOK(rcl_client_init, (const void *client_handle, const void *node_handle,
	const void *rmw_client_handle, const char *service_name),
	P(client_handle), P(node_handle), P(rmw_client_handle), S(service_name))
INIT_HOOK(rcl_timer_init, (const void *timer_handle, int64_t period),
	P(timer_handle), I(period))
INIT_HOOK(rclcpp_timer_callback_added, (const void *timer_handle,
	const void *callback), P(timer_handle), P(callback))
INIT_HOOK(rclcpp_timer_link_node, (const void *timer_handle, const void *node_handle),
	P(timer_handle), P(node_handle))
INIT_HOOK(rclcpp_callback_register, (const void *callback, const char *function_symbol),
	P(callback), S(function_symbol))
INIT_HOOK(rcl_lifecycle_state_machine_init, (const void *node_handle,
	const void *state_machine), P(node_handle), P(state_machine))

/* ---- not recorded (reference: tracepoints.md) ---------------------------- */

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#define DROPPED_HOOK(name, params) \
	CT_EXPORT void ros_trace_##name params {}

DROPPED_HOOK(rmw_publisher_init, (const void *rmw_publisher_handle, const uint8_t *gid))
DROPPED_HOOK(rmw_subscription_init, (const void *rmw_subscription_handle,
	const uint8_t *gid))
DROPPED_HOOK(rcl_take, (const void *message))
DROPPED_HOOK(rclcpp_take, (const void *message))
DROPPED_HOOK(rclcpp_executor_get_next_ready, (void))
DROPPED_HOOK(rclcpp_executor_wait_for_work, (const int64_t timeout))
DROPPED_HOOK(rclcpp_executor_execute, (const void *handle))
#pragma GCC diagnostic pop

/* ---- runtime ------------------------------------------------------------ */

/* The rclcpp stage of a publish, which began at time: merged, or the
 * original event (stamped now by LTTng: later than time when it was held
 * for its rcl_publish, by the few hundred ns between the two calls). */
static void emit_rclcpp_publish(const void *publisher_handle, const void *message,
	int64_t time)
{
	if (ct_merge) {
		ct_merge_publish(CT_STAGE_RCLCPP, publisher_handle, message, time);
	} else {
		CT_ORIGINAL(void (*)(const void *, const void *), "ros_trace_rclcpp_publish");
		if (original)
			original(publisher_handle, message);
	}
}

/* Passes a runtime event to the original tracetools function when
 * recording and `allowed`. */
#define FORWARD_HOOK(name, params, allowed, ...)                                \
	CT_EXPORT void ros_trace_##name params                                  \
	{                                                                       \
		CT_ENTER(e);                                                    \
		if (!CT_REENTERED() && ct_recording() && (allowed)) {           \
			CT_ORIGINAL(void (*) params, "ros_trace_" #name);       \
			if (original)                                           \
				original(__VA_ARGS__);                          \
		}                                                               \
		CT_LEAVE(e);                                                    \
	}

FORWARD_HOOK(rclcpp_intra_publish, (const void *publisher_handle, const void *message),
	(ct_thread.publish_allowed = ct_allow_publisher(publisher_handle)),
	publisher_handle, message)
FORWARD_HOOK(message_construct, (const void *original_message,
	const void *constructed_message), ct_thread.publish_allowed,
	original_message, constructed_message)
FORWARD_HOOK(dispatch_subscription_callback, (const void *message, const void *callback,
	const uint64_t source_timestamp, const uint64_t message_timestamp),
	ct_allow_callback(callback), message, callback, source_timestamp, message_timestamp)
FORWARD_HOOK(dispatch_intra_process_subscription_callback, (const void *message,
	const void *callback, const uint64_t message_timestamp),
	ct_allow_callback(callback), message, callback, message_timestamp)
FORWARD_HOOK(rmw_take, (const void *rmw_subscription_handle, const void *message,
	int64_t source_timestamp, const bool taken),
	ct_allow_rmw_subscription(rmw_subscription_handle), rmw_subscription_handle,
	message, source_timestamp, taken)
FORWARD_HOOK(rcl_lifecycle_transition, (const void *state_machine,
	const char *start_label, const char *goal_label),
	ct_allow_state_machine(state_machine), state_machine, start_label, goal_label)

CT_EXPORT void ros_trace_callback_start(const void *callback, const bool is_intra_process)
{
	CT_ENTER(e);
	if (!CT_REENTERED() && ct_recording() && ct_allow_callback(callback)) {
		if (ct_merge) {
			ct_merge_callback_start(callback, is_intra_process);
		} else {
			CT_ORIGINAL(void (*)(const void *, const bool), "ros_trace_callback_start");
			if (original)
				original(callback, is_intra_process);
		}
	}
	CT_LEAVE(e);
}

CT_EXPORT void ros_trace_callback_end(const void *callback)
{
	CT_ENTER(e);
	if (!CT_REENTERED() && ct_recording() && ct_allow_callback(callback)) {
		if (ct_merge) {
			ct_merge_callback_end(callback);
		} else {
			CT_ORIGINAL(void (*)(const void *), "ros_trace_callback_end");
			if (original)
				original(callback);
		}
	}
	CT_LEAVE(e);
}

/* rclcpp_publish starts a publish: its filter decision holds for the rcl,
 * rmw and DDS stages that follow in this thread. Upstream Humble's names no
 * publisher: with filters on, it waits for its rcl_publish, which follows
 * at once with the publisher's handle, and is recorded (or not) with it. */
CT_EXPORT void ros_trace_rclcpp_publish(const void *publisher_handle, const void *message)
{
	CT_ENTER(e);
	if (!CT_REENTERED() && ct_recording()) {
		if (!publisher_handle && ct_filter_active) {
			ct_thread.unnamed_message = message;
			ct_thread.unnamed_time = ct_now();
		} else if ((ct_thread.publish_allowed = ct_allow_publisher(publisher_handle))) {
			emit_rclcpp_publish(publisher_handle, message, ct_now());
		}
	}
	CT_LEAVE(e);
}

CT_EXPORT void ros_trace_rcl_publish(const void *publisher_handle, const void *message)
{
	CT_ENTER(e);
	bool unnamed = ct_thread.unnamed_message == message && message;
	ct_thread.unnamed_message = NULL;
	if (!CT_REENTERED() && ct_recording() &&
	    (ct_thread.publish_allowed = ct_allow_publisher(publisher_handle))) {
		if (unnamed)
			emit_rclcpp_publish(NULL, message, ct_thread.unnamed_time);
		if (ct_merge) {
			ct_merge_publish(CT_STAGE_RCL, publisher_handle, message, ct_now());
		} else {
			CT_ORIGINAL(void (*)(const void *, const void *), "ros_trace_rcl_publish");
			if (original)
				original(publisher_handle, message);
		}
	}
	CT_LEAVE(e);
}

/* Recorded as ros2_caret:dds_write. */
CT_EXPORT void ros_trace_rmw_publish(const void *message)
{
	CT_ENTER(e);
	if (!CT_REENTERED() && ct_recording() && ct_thread.publish_allowed) {
		if (ct_merge)
			ct_merge_publish(CT_STAGE_DDS_WRITE, NULL, message, ct_now());
		else
			lttng_ust_tracepoint(ros2_caret, dds_write, message);
	}
	CT_LEAVE(e);
}

/* The truth: whether the process's tracetools was built with LTTng (tools
 * such as `tracetools status` ask; the tracer records it too). */
CT_EXPORT bool ros_trace_compile_status(void)
{
	return ct_tracetools_tracing();
}
