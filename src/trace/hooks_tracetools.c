/*
 * hooks_tracetools.c - the ros_trace_* functions of ros2_tracing's
 * libtracetools.so, interposed (signatures: tracetools_abi.h).
 * Initialization events become ros2_caret events with init_timestamp,
 * stored for replay, and are not passed on. Runtime events are passed to the
 * original only in RECORD and when the filter allows them (or merged).
 * Executor and take events are dropped. On an ABI the tracer does not know
 * (abi.h), every call goes to the original unchanged.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "abi.h"
#include "active.h"
#include "filter.h"
#include "init_store.h"
#include "merge.h"
#include "original.h"
#include "rclpy_attach.h"
#include "ros2_caret_tp.h"
#include "tracer.h"
#include "tracetools_abi.h" /* the ABI: our hooks must match it */

/* Calls the original ros_trace_<name>, of type params, with args (in
 * parentheses). */
#define FORWARD(name, params, args)                                             \
	do {                                                                    \
		CT_ORIGINAL(void (*) params, "ros_trace_" #name);               \
		if (original)                                                   \
			original args;                                          \
	} while (0)

/* ---- initialization --------------------------------------------------- */

#define P(x) { .u = (uint64_t)(uintptr_t)(x) }
#define S(x) { .s = (x) }
#define U(x) { .u = (uint64_t)(x) }
#define I(x) { .i = (int64_t)(x) }

static void record_initialization(int id, const union ct_value *v, size_t n)
{
	ct_record_initialization(id, v, n, ct_now());
}

#define RECORD_INIT(id, ...)                                                    \
	do {                                                                    \
		const union ct_value v_[] = { __VA_ARGS__ };                    \
		record_initialization(id, v_, sizeof v_ / sizeof *v_);          \
	} while (0)

/* ros_trace_<name> params: recorded as ros2_caret:<name> (values...), or
 * forwarded with args on an unknown ABI. */
#define INIT_HOOK(name, params, args, ...)                                      \
	CT_EXPORT void ros_trace_##name params                                  \
	{                                                                       \
		CT_ENTER(e);                                                    \
		if (!CT_REENTERED()) {                                          \
			if (ct_active())                                     \
				RECORD_INIT(CS_EV_ros2_caret_##name, __VA_ARGS__); \
			else                                                    \
				FORWARD(name, params, args);                    \
		}                                                               \
		CT_LEAVE(e);                                                    \
	}

INIT_HOOK(rcl_init, (const void *context_handle), (context_handle), P(context_handle))
/* rclpy's first node: the tracer's Python part starts (rclpy_attach.c). */
CT_EXPORT void ros_trace_rcl_node_init(const void *node_handle, const void *rmw_handle,
	const char *node_name, const char *node_namespace)
{
	CT_ENTER(e);
	if (CT_REENTERED())
		;
	else if (ct_active()) {
		ct_rclpy_attach();
		RECORD_INIT(CS_EV_ros2_caret_rcl_node_init, P(node_handle), P(rmw_handle),
			S(node_name), S(node_namespace));
	} else {
		FORWARD(rcl_node_init, (const void *, const void *, const char *, const char *),
			(node_handle, rmw_handle, node_name, node_namespace));
	}
	CT_LEAVE(e);
}
INIT_HOOK(rcl_publisher_init, (const void *publisher_handle, const void *node_handle,
	const void *rmw_publisher_handle, const char *topic_name, const size_t queue_depth),
	(publisher_handle, node_handle, rmw_publisher_handle, topic_name, queue_depth),
	P(publisher_handle), P(node_handle), P(rmw_publisher_handle), S(topic_name),
	U(queue_depth))
INIT_HOOK(rcl_subscription_init, (const void *subscription_handle,
	const void *node_handle, const void *rmw_subscription_handle,
	const char *topic_name, const size_t queue_depth),
	(subscription_handle, node_handle, rmw_subscription_handle, topic_name, queue_depth),
	P(subscription_handle), P(node_handle), P(rmw_subscription_handle),
	S(topic_name), U(queue_depth))
INIT_HOOK(rclcpp_subscription_init, (const void *subscription_handle,
	const void *subscription), (subscription_handle, subscription),
	P(subscription_handle), P(subscription))
INIT_HOOK(rclcpp_subscription_callback_added, (const void *subscription,
	const void *callback), (subscription, callback), P(subscription), P(callback))
INIT_HOOK(rcl_service_init, (const void *service_handle, const void *node_handle,
	const void *rmw_service_handle, const char *service_name),
	(service_handle, node_handle, rmw_service_handle, service_name),
	P(service_handle), P(node_handle), P(rmw_service_handle), S(service_name))
INIT_HOOK(rclcpp_service_callback_added, (const void *service_handle,
	const void *callback), (service_handle, callback), P(service_handle), P(callback))
INIT_HOOK(rcl_client_init, (const void *client_handle, const void *node_handle,
	const void *rmw_client_handle, const char *service_name),
	(client_handle, node_handle, rmw_client_handle, service_name),
	P(client_handle), P(node_handle), P(rmw_client_handle), S(service_name))
/* rclpy's timers wait for Node.create_timer to claim them (rclpy_attach.c). */
CT_EXPORT void ros_trace_rcl_timer_init(const void *timer_handle, int64_t period)
{
	CT_ENTER(e);
	if (CT_REENTERED())
		;
	else if (!ct_active())
		FORWARD(rcl_timer_init, (const void *, int64_t), (timer_handle, period));
	else if (!ct_rclpy_hold_timer(timer_handle, period))
		RECORD_INIT(CS_EV_ros2_caret_rcl_timer_init, P(timer_handle), I(period));
	CT_LEAVE(e);
}
INIT_HOOK(rclcpp_timer_callback_added, (const void *timer_handle,
	const void *callback), (timer_handle, callback), P(timer_handle), P(callback))
INIT_HOOK(rclcpp_timer_link_node, (const void *timer_handle, const void *node_handle),
	(timer_handle, node_handle), P(timer_handle), P(node_handle))
INIT_HOOK(rclcpp_callback_register, (const void *callback, const char *function_symbol),
	(callback, function_symbol), P(callback), S(function_symbol))
INIT_HOOK(rcl_lifecycle_state_machine_init, (const void *node_handle,
	const void *state_machine), (node_handle, state_machine), P(node_handle),
	P(state_machine))
/* Jazzy: intra-process ring buffers, their buffers and subscriptions. */
INIT_HOOK(rclcpp_construct_ring_buffer, (const void *buffer, const uint64_t capacity),
	(buffer, capacity), P(buffer), U(capacity))
INIT_HOOK(rclcpp_buffer_to_ipb, (const void *buffer, const void *ipb), (buffer, ipb),
	P(buffer), P(ipb))
INIT_HOOK(rclcpp_ipb_to_subscription, (const void *ipb, const void *subscription),
	(ipb, subscription), P(ipb), P(subscription))

/* Jazzy's rclcpp registers callbacks with `if (ros_trace_enabled_X())
 * ros_trace_do_X(...)` in code compiled into the application: enabled has
 * to say yes even with no session, so the tracer can store them. */
CT_EXPORT bool ros_trace_enabled_rclcpp_callback_register(void)
{
	if (ct_active())
		return true;
	CT_ORIGINAL(bool (*)(void), "ros_trace_enabled_rclcpp_callback_register");
	return original && original();
}

CT_EXPORT void ros_trace_do_rclcpp_callback_register(const void *callback,
	const char *function_symbol)
{
	CT_ENTER(e);
	if (!CT_REENTERED()) {
		if (ct_active())
			RECORD_INIT(CS_EV_ros2_caret_rclcpp_callback_register, P(callback),
				S(function_symbol));
		else
			FORWARD(do_rclcpp_callback_register, (const void *, const char *),
				(callback, function_symbol));
	}
	CT_LEAVE(e);
}

/* ---- not recorded (reference: tracepoints.md) ---------------------------- */

#define DROPPED_HOOK(name, params, args)                                        \
	CT_EXPORT void ros_trace_##name params                                  \
	{                                                                       \
		if (CT_UNLIKELY(!ct_active()))                               \
			FORWARD(name, params, args);                            \
	}

DROPPED_HOOK(rmw_publisher_init, (const void *rmw_publisher_handle, const uint8_t *gid),
	(rmw_publisher_handle, gid))
DROPPED_HOOK(rmw_subscription_init, (const void *rmw_subscription_handle,
	const uint8_t *gid), (rmw_subscription_handle, gid))
DROPPED_HOOK(rcl_take, (const void *message), (message))
DROPPED_HOOK(rclcpp_take, (const void *message), (message))
DROPPED_HOOK(rclcpp_executor_get_next_ready, (void), ())
DROPPED_HOOK(rclcpp_executor_wait_for_work, (const int64_t timeout), (timeout))
DROPPED_HOOK(rclcpp_executor_execute, (const void *handle), (handle))

/* ---- runtime ------------------------------------------------------------ */

/* Not recording: on an unknown ABI the original decides (it records if a
 * session wants it); on a known one the event is not recorded. */
#define NOT_RECORDING(name, params, args)                                       \
	do {                                                                    \
		if (CT_UNLIKELY(!ct_active()))                               \
			FORWARD(name, params, args);                            \
	} while (0)

/* The rclcpp stage of a publish, which began at time: merged, or the
 * original event (stamped now by LTTng: later than time when it was held
 * for its rcl_publish, by the few hundred ns between the two calls). */
static void emit_rclcpp_publish(const void *publisher_handle, const void *message,
	int64_t time)
{
	if (ct_merge)
		ct_merge_publish(CT_STAGE_RCLCPP, publisher_handle, message, time);
	else
		FORWARD(rclcpp_publish, (const void *, const void *), (publisher_handle, message));
}

/* Passes a runtime event to the original tracetools function when
 * recording and `allowed`. */
#define FORWARD_HOOK(name, params, args, allowed)                               \
	CT_EXPORT void ros_trace_##name params                                  \
	{                                                                       \
		CT_ENTER(e);                                                    \
		if (CT_REENTERED())                                             \
			;                                                       \
		else if (ct_recording()) {                                      \
			if (allowed)                                            \
				FORWARD(name, params, args);                    \
		} else {                                                        \
			NOT_RECORDING(name, params, args);                      \
		}                                                               \
		CT_LEAVE(e);                                                    \
	}

FORWARD_HOOK(rclcpp_intra_publish, (const void *publisher_handle, const void *message),
	(publisher_handle, message),
	(ct_thread.publish_allowed = ct_allow_publisher(publisher_handle)))
FORWARD_HOOK(message_construct, (const void *original_message,
	const void *constructed_message), (original_message, constructed_message),
	ct_thread.publish_allowed)
FORWARD_HOOK(dispatch_subscription_callback, (const void *message, const void *callback,
	const uint64_t source_timestamp, const uint64_t message_timestamp),
	(message, callback, source_timestamp, message_timestamp), ct_allow_callback(callback))
FORWARD_HOOK(dispatch_intra_process_subscription_callback, (const void *message,
	const void *callback, const uint64_t message_timestamp),
	(message, callback, message_timestamp), ct_allow_callback(callback))
FORWARD_HOOK(rmw_take, (const void *rmw_subscription_handle, const void *message,
	int64_t source_timestamp, const bool taken),
	(rmw_subscription_handle, message, source_timestamp, taken),
	ct_allow_rmw_subscription(rmw_subscription_handle))
FORWARD_HOOK(rcl_lifecycle_transition, (const void *state_machine,
	const char *start_label, const char *goal_label),
	(state_machine, start_label, goal_label), ct_allow_state_machine(state_machine))
/* Jazzy: a message into, or out of, a subscription's intra-process buffer. */
FORWARD_HOOK(rclcpp_ring_buffer_enqueue, (const void *buffer, const uint64_t index,
	const uint64_t size, const bool overwritten), (buffer, index, size, overwritten),
	ct_allow_buffer(buffer))
FORWARD_HOOK(rclcpp_ring_buffer_dequeue, (const void *buffer, const uint64_t index,
	const uint64_t size), (buffer, index, size), ct_allow_buffer(buffer))
FORWARD_HOOK(rclcpp_ring_buffer_clear, (const void *buffer), (buffer), ct_allow_buffer(buffer))

void ct_emit_callback_start(const void *callback, bool is_intra_process)
{
	if (ct_merge)
		ct_merge_callback_start(callback, is_intra_process);
	else
		FORWARD(callback_start, (const void *, const bool), (callback, is_intra_process));
}

void ct_emit_callback_end(const void *callback)
{
	if (ct_merge)
		ct_merge_callback_end(callback);
	else
		FORWARD(callback_end, (const void *), (callback));
}

CT_EXPORT void ros_trace_callback_start(const void *callback, const bool is_intra_process)
{
	CT_ENTER(e);
	bool allowed;
	if (CT_REENTERED())
		;
	else if (ct_recording()) {
		allowed = ct_allow_callback(callback);
		if (ct_filter_active)
			ct_run_begins(allowed);
		if (allowed)
			ct_emit_callback_start(callback, is_intra_process);
	} else {
		NOT_RECORDING(callback_start, (const void *, const bool), (callback, is_intra_process));
	}
	CT_LEAVE(e);
}

CT_EXPORT void ros_trace_callback_end(const void *callback)
{
	CT_ENTER(e);
	if (CT_REENTERED())
		;
	else if (ct_recording()) {
		if (ct_filter_active)
			ct_run_ends();
		if (ct_allow_callback(callback))
			ct_emit_callback_end(callback);
	} else {
		NOT_RECORDING(callback_end, (const void *), (callback));
	}
	CT_LEAVE(e);
}

/* rclcpp_publish starts a publish: its filter decision holds for the rcl,
 * rmw and DDS stages that follow in this thread. Upstream Humble's and
 * Jazzy's name no publisher: with filters on, it waits for its rcl_publish,
 * which follows at once with the publisher's handle, and is recorded (or
 * not) with it. */
CT_EXPORT void ros_trace_rclcpp_publish(const void *publisher_handle, const void *message)
{
	CT_ENTER(e);
	if (CT_REENTERED())
		;
	else if (ct_recording()) {
		if (!publisher_handle && ct_filter_active) {
			ct_thread.unnamed_message = message;
			ct_thread.unnamed_time = ct_now();
		} else if ((ct_thread.publish_allowed = ct_allow_publisher(publisher_handle))) {
			emit_rclcpp_publish(publisher_handle, message, ct_now());
		}
		ct_thread.announced_message = message;
	} else {
		NOT_RECORDING(rclcpp_publish, (const void *, const void *), (publisher_handle, message));
	}
	CT_LEAVE(e);
}

CT_EXPORT void ros_trace_rcl_publish(const void *publisher_handle, const void *message)
{
	CT_ENTER(e);
	bool unnamed = ct_thread.unnamed_message == message && message;
	/* rclpy's publish: no rclcpp stage before this one */
	bool rclpy = ct_thread.announced_message != message &&
		atomic_load_explicit(&ct_rclpy_attached, memory_order_relaxed);
	ct_thread.unnamed_message = NULL;
	ct_thread.announced_message = NULL;
	if (CT_REENTERED())
		;
	else if (ct_recording()) {
		if ((ct_thread.publish_allowed = ct_allow_publisher(publisher_handle))) {
			if (unnamed)
				emit_rclcpp_publish(NULL, message, ct_thread.unnamed_time);
			else if (rclpy)
				emit_rclcpp_publish(publisher_handle, message, ct_now());
			if (ct_merge)
				ct_merge_publish(CT_STAGE_RCL, publisher_handle, message, ct_now());
			else
				FORWARD(rcl_publish, (const void *, const void *),
					(publisher_handle, message));
		}
	} else {
		NOT_RECORDING(rcl_publish, (const void *, const void *), (publisher_handle, message));
	}
	CT_LEAVE(e);
}

/* Recorded as ros2_caret:dds_write. Humble passes (message); Jazzy
 * (rmw_publisher_handle, message, timestamp: the DDS source timestamp it
 * writes with). */
CT_EXPORT void ros_trace_rmw_publish(const void *first, const void *message, int64_t timestamp)
{
	CT_ENTER(e);
	if (CT_REENTERED())
		;
	else if (ct_recording()) {
		const void *handle = first;
		if (ct_abi() != CT_ABI_JAZZY) {
			message = first;
			handle = NULL;
			timestamp = 0;
		}
		ct_thread.writing_message = ct_thread.publish_allowed ? message : NULL;
		if (!ct_thread.publish_allowed)
			;
		else if (ct_merge)
			ct_merge_publish(CT_STAGE_DDS_WRITE, NULL, message, ct_now());
		else
			lttng_ust_tracepoint(ros2_caret, dds_write, handle, message, timestamp);
	} else {
		ct_thread.writing_message = NULL;
		NOT_RECORDING(rmw_publish, (const void *, const void *, int64_t),
			(first, message, timestamp));
	}
	CT_LEAVE(e);
}

/* The truth: whether the process's tracetools was built with LTTng (tools
 * such as `tracetools status` ask; the tracer records it too). */
CT_EXPORT bool ros_trace_compile_status(void)
{
	return ct_tracetools_tracing();
}
