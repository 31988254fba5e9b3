/*
 * tracetools.h - the ros2_tracing C ABI (Humble 4.1.x plus the CARET Humble
 * fork), as exported by the testbed's libtracetools.so. The signatures are
 * those of ../shared/reference/tracetools-abi.md; a tracer interposes them.
 */
#ifndef TRACETOOLS_TRACETOOLS_H
#define TRACETOOLS_TRACETOOLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version string ros_trace_rcl_init records in ros2:rcl_init.version. */
#define TRACETOOLS_VERSION "4.1.1"

bool ros_trace_compile_status(void);

void ros_trace_rcl_init(const void *context_handle);
void ros_trace_rcl_node_init(const void *node_handle, const void *rmw_handle,
	const char *node_name, const char *node_namespace);
void ros_trace_rmw_publisher_init(const void *rmw_publisher_handle,
	const uint8_t *gid);
void ros_trace_rcl_publisher_init(const void *publisher_handle,
	const void *node_handle, const void *rmw_publisher_handle,
	const char *topic_name, const size_t queue_depth);
void ros_trace_rclcpp_publish(const void *publisher_handle, const void *message);
void ros_trace_rcl_publish(const void *publisher_handle, const void *message);
void ros_trace_rmw_publish(const void *message);
void ros_trace_rmw_subscription_init(const void *rmw_subscription_handle,
	const uint8_t *gid);
void ros_trace_rcl_subscription_init(const void *subscription_handle,
	const void *node_handle, const void *rmw_subscription_handle,
	const char *topic_name, const size_t queue_depth);
void ros_trace_rclcpp_subscription_init(const void *subscription_handle,
	const void *subscription);
void ros_trace_rclcpp_subscription_callback_added(const void *subscription,
	const void *callback);
void ros_trace_rmw_take(const void *rmw_subscription_handle, const void *message,
	int64_t source_timestamp, const bool taken);
void ros_trace_rcl_take(const void *message);
void ros_trace_rclcpp_take(const void *message);
void ros_trace_rcl_service_init(const void *service_handle,
	const void *node_handle, const void *rmw_service_handle,
	const char *service_name);
void ros_trace_rclcpp_service_callback_added(const void *service_handle,
	const void *callback);
void ros_trace_rcl_client_init(const void *client_handle,
	const void *node_handle, const void *rmw_client_handle,
	const char *service_name);
void ros_trace_rcl_timer_init(const void *timer_handle, int64_t period);
void ros_trace_rclcpp_timer_callback_added(const void *timer_handle,
	const void *callback);
void ros_trace_rclcpp_timer_link_node(const void *timer_handle,
	const void *node_handle);
void ros_trace_rclcpp_callback_register(const void *callback,
	const char *function_symbol);
void ros_trace_callback_start(const void *callback, const bool is_intra_process);
void ros_trace_callback_end(const void *callback);
void ros_trace_rcl_lifecycle_state_machine_init(const void *node_handle,
	const void *state_machine);
void ros_trace_rcl_lifecycle_transition(const void *state_machine,
	const char *start_label, const char *goal_label);
void ros_trace_rclcpp_executor_get_next_ready(void);
void ros_trace_rclcpp_executor_wait_for_work(const int64_t timeout);
void ros_trace_rclcpp_executor_execute(const void *handle);

/* CARET Humble fork additions. */
void ros_trace_message_construct(const void *original_message,
	const void *constructed_message);
void ros_trace_rclcpp_intra_publish(const void *publisher_handle,
	const void *message);
void ros_trace_dispatch_subscription_callback(const void *message,
	const void *callback, const uint64_t source_timestamp,
	const uint64_t message_timestamp);
void ros_trace_dispatch_intra_process_subscription_callback(const void *message,
	const void *callback, const uint64_t message_timestamp);

#ifdef __cplusplus
}
#endif

#endif
