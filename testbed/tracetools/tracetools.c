/*
 * tracetools.c - the testbed's libtracetools.so: each ros_trace_* function
 * emits its ros2:* event, as ros2_tracing does. Argument conversions follow
 * the recorded field types (bool -> i32, size_t -> u64).
 */
#include "tracetools/tracetools.h"

#include "ros2_tp.h"

#define TB_EXPORT __attribute__((visibility("default")))

#ifdef TB_TRACETOOLS_NO_LTTNG
/* The variant of a tracetools built without LTTng: every function there
 * and doing nothing, compile_status false (tests of what caret check says). */
#undef lttng_ust_tracepoint
#define lttng_ust_tracepoint(...) ((void)0)
#endif

#ifdef TB_TRACETOOLS_IRON_LIKE
/* The variant an ABI the tracer does not know looks like: Iron's
 * enabled/do functions, without Jazzy's ring buffers. */
TB_EXPORT bool ros_trace_enabled_rcl_init(void);
TB_EXPORT bool ros_trace_enabled_rcl_init(void)
{
	return true;
}
#endif

TB_EXPORT bool ros_trace_compile_status(void)
{
#ifdef TB_TRACETOOLS_NO_LTTNG
	return false;
#else
	return true;
#endif
}

TB_EXPORT void ros_trace_rcl_init(const void *context_handle)
{
	lttng_ust_tracepoint(ros2, rcl_init, context_handle, TRACETOOLS_VERSION);
}

TB_EXPORT void ros_trace_rcl_node_init(const void *node_handle,
	const void *rmw_handle, const char *node_name, const char *node_namespace)
{
	lttng_ust_tracepoint(ros2, rcl_node_init, node_handle, rmw_handle,
		node_name, node_namespace);
}

TB_EXPORT void ros_trace_rmw_publisher_init(const void *rmw_publisher_handle,
	const uint8_t *gid)
{
	lttng_ust_tracepoint(ros2, rmw_publisher_init, rmw_publisher_handle, gid);
}

TB_EXPORT void ros_trace_rcl_publisher_init(const void *publisher_handle,
	const void *node_handle, const void *rmw_publisher_handle,
	const char *topic_name, const size_t queue_depth)
{
	lttng_ust_tracepoint(ros2, rcl_publisher_init, publisher_handle,
		node_handle, rmw_publisher_handle, topic_name,
		(uint64_t)queue_depth);
}

TB_EXPORT void ros_trace_rclcpp_publish(const void *publisher_handle,
	const void *message)
{
	lttng_ust_tracepoint(ros2, rclcpp_publish, publisher_handle, message);
}

TB_EXPORT void ros_trace_rcl_publish(const void *publisher_handle,
	const void *message)
{
	lttng_ust_tracepoint(ros2, rcl_publish, publisher_handle, message);
}

/* Humble's ABI; the event has Jazzy's fields (the schema's one layout),
 * the publisher and the timestamp unknown here: 0. */
TB_EXPORT void ros_trace_rmw_publish(const void *message)
{
	lttng_ust_tracepoint(ros2, rmw_publish, NULL, message, 0);
}

TB_EXPORT void ros_trace_rmw_subscription_init(
	const void *rmw_subscription_handle, const uint8_t *gid)
{
	lttng_ust_tracepoint(ros2, rmw_subscription_init,
		rmw_subscription_handle, gid);
}

TB_EXPORT void ros_trace_rcl_subscription_init(const void *subscription_handle,
	const void *node_handle, const void *rmw_subscription_handle,
	const char *topic_name, const size_t queue_depth)
{
	lttng_ust_tracepoint(ros2, rcl_subscription_init, subscription_handle,
		node_handle, rmw_subscription_handle, topic_name,
		(uint64_t)queue_depth);
}

TB_EXPORT void ros_trace_rclcpp_subscription_init(
	const void *subscription_handle, const void *subscription)
{
	lttng_ust_tracepoint(ros2, rclcpp_subscription_init,
		subscription_handle, subscription);
}

TB_EXPORT void ros_trace_rclcpp_subscription_callback_added(
	const void *subscription, const void *callback)
{
	lttng_ust_tracepoint(ros2, rclcpp_subscription_callback_added,
		subscription, callback);
}

TB_EXPORT void ros_trace_rmw_take(const void *rmw_subscription_handle,
	const void *message, int64_t source_timestamp, const bool taken)
{
	lttng_ust_tracepoint(ros2, rmw_take, rmw_subscription_handle, message,
		source_timestamp, taken ? 1 : 0);
}

TB_EXPORT void ros_trace_rcl_take(const void *message)
{
	lttng_ust_tracepoint(ros2, rcl_take, message);
}

TB_EXPORT void ros_trace_rclcpp_take(const void *message)
{
	lttng_ust_tracepoint(ros2, rclcpp_take, message);
}

TB_EXPORT void ros_trace_rcl_service_init(const void *service_handle,
	const void *node_handle, const void *rmw_service_handle,
	const char *service_name)
{
	lttng_ust_tracepoint(ros2, rcl_service_init, service_handle, node_handle,
		rmw_service_handle, service_name);
}

TB_EXPORT void ros_trace_rclcpp_service_callback_added(
	const void *service_handle, const void *callback)
{
	lttng_ust_tracepoint(ros2, rclcpp_service_callback_added, service_handle,
		callback);
}

TB_EXPORT void ros_trace_rcl_client_init(const void *client_handle,
	const void *node_handle, const void *rmw_client_handle,
	const char *service_name)
{
	lttng_ust_tracepoint(ros2, rcl_client_init, client_handle, node_handle,
		rmw_client_handle, service_name);
}

TB_EXPORT void ros_trace_rcl_timer_init(const void *timer_handle, int64_t period)
{
	lttng_ust_tracepoint(ros2, rcl_timer_init, timer_handle, period);
}

TB_EXPORT void ros_trace_rclcpp_timer_callback_added(const void *timer_handle,
	const void *callback)
{
	lttng_ust_tracepoint(ros2, rclcpp_timer_callback_added, timer_handle,
		callback);
}

TB_EXPORT void ros_trace_rclcpp_timer_link_node(const void *timer_handle,
	const void *node_handle)
{
	lttng_ust_tracepoint(ros2, rclcpp_timer_link_node, timer_handle,
		node_handle);
}

TB_EXPORT void ros_trace_rclcpp_callback_register(const void *callback,
	const char *function_symbol)
{
	lttng_ust_tracepoint(ros2, rclcpp_callback_register, callback,
		function_symbol);
}

TB_EXPORT void ros_trace_callback_start(const void *callback,
	const bool is_intra_process)
{
	lttng_ust_tracepoint(ros2, callback_start, callback,
		is_intra_process ? 1 : 0);
}

TB_EXPORT void ros_trace_callback_end(const void *callback)
{
	lttng_ust_tracepoint(ros2, callback_end, callback);
}

TB_EXPORT void ros_trace_rcl_lifecycle_state_machine_init(
	const void *node_handle, const void *state_machine)
{
	lttng_ust_tracepoint(ros2, rcl_lifecycle_state_machine_init, node_handle,
		state_machine);
}

TB_EXPORT void ros_trace_rcl_lifecycle_transition(const void *state_machine,
	const char *start_label, const char *goal_label)
{
	lttng_ust_tracepoint(ros2, rcl_lifecycle_transition, state_machine,
		start_label, goal_label);
}

TB_EXPORT void ros_trace_rclcpp_executor_get_next_ready(void)
{
	lttng_ust_tracepoint(ros2, rclcpp_executor_get_next_ready);
}

TB_EXPORT void ros_trace_rclcpp_executor_wait_for_work(const int64_t timeout)
{
	lttng_ust_tracepoint(ros2, rclcpp_executor_wait_for_work, timeout);
}

TB_EXPORT void ros_trace_rclcpp_executor_execute(const void *handle)
{
	lttng_ust_tracepoint(ros2, rclcpp_executor_execute, handle);
}

TB_EXPORT void ros_trace_message_construct(const void *original_message,
	const void *constructed_message)
{
	lttng_ust_tracepoint(ros2, message_construct, original_message,
		constructed_message);
}

TB_EXPORT void ros_trace_rclcpp_intra_publish(const void *publisher_handle,
	const void *message)
{
	lttng_ust_tracepoint(ros2, rclcpp_intra_publish, publisher_handle,
		message);
}

TB_EXPORT void ros_trace_dispatch_subscription_callback(const void *message,
	const void *callback, const uint64_t source_timestamp,
	const uint64_t message_timestamp)
{
	lttng_ust_tracepoint(ros2, dispatch_subscription_callback, message,
		callback, source_timestamp, message_timestamp);
}

TB_EXPORT void ros_trace_dispatch_intra_process_subscription_callback(
	const void *message, const void *callback,
	const uint64_t message_timestamp)
{
	lttng_ust_tracepoint(ros2, dispatch_intra_process_subscription_callback,
		message, callback, message_timestamp);
}
