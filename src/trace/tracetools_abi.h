/*
 * tracetools_abi.h - the ros2_tracing functions libcaret.so interposes, as
 * the tracer defines them: the union of the ABIs it knows (abi.h). Facts:
 * ../shared/reference/tracetools-abi.md and the installed headers
 * (/opt/ros/<distro>/include/tracetools/tracetools/tracetools.h).
 *
 * - Humble (tracetools 4.1), upstream and CARET's fork (which adds
 *   message_construct, rclcpp_intra_publish and the dispatch_* events).
 * - Jazzy (tracetools 8.2) adds rclcpp_intra_publish and the ring-buffer
 *   events, ros_trace_enabled_X / ros_trace_do_X for every event (rclcpp
 *   calls only rclcpp_callback_register that way), and changes rmw_publish
 *   from (message) to (rmw_publisher_handle, message, timestamp): the hook
 *   takes three arguments and reads them by the ABI detected.
 *
 * All are C functions returning void (but compile_status and enabled_X).
 * A hook that takes more arguments than its caller passes reads only those
 * its ABI has (x86-64: the rest are registers nobody set).
 */
#ifndef CT_TRACETOOLS_ABI_H
#define CT_TRACETOOLS_ABI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

bool ros_trace_compile_status(void);

/* initialization */
void ros_trace_rcl_init(const void *context_handle);
void ros_trace_rcl_node_init(const void *node_handle, const void *rmw_handle,
	const char *node_name, const char *node_namespace);
void ros_trace_rmw_publisher_init(const void *rmw_publisher_handle, const uint8_t *gid);
void ros_trace_rcl_publisher_init(const void *publisher_handle, const void *node_handle,
	const void *rmw_publisher_handle, const char *topic_name, const size_t queue_depth);
void ros_trace_rmw_subscription_init(const void *rmw_subscription_handle, const uint8_t *gid);
void ros_trace_rcl_subscription_init(const void *subscription_handle, const void *node_handle,
	const void *rmw_subscription_handle, const char *topic_name, const size_t queue_depth);
void ros_trace_rclcpp_subscription_init(const void *subscription_handle,
	const void *subscription);
void ros_trace_rclcpp_subscription_callback_added(const void *subscription,
	const void *callback);
void ros_trace_rcl_service_init(const void *service_handle, const void *node_handle,
	const void *rmw_service_handle, const char *service_name);
void ros_trace_rclcpp_service_callback_added(const void *service_handle, const void *callback);
void ros_trace_rcl_client_init(const void *client_handle, const void *node_handle,
	const void *rmw_client_handle, const char *service_name);
void ros_trace_rcl_timer_init(const void *timer_handle, int64_t period);
void ros_trace_rclcpp_timer_callback_added(const void *timer_handle, const void *callback);
void ros_trace_rclcpp_timer_link_node(const void *timer_handle, const void *node_handle);
void ros_trace_rclcpp_callback_register(const void *callback, const char *function_symbol);
void ros_trace_rcl_lifecycle_state_machine_init(const void *node_handle,
	const void *state_machine);
/* Jazzy */
bool ros_trace_enabled_rclcpp_callback_register(void);
void ros_trace_do_rclcpp_callback_register(const void *callback, const char *function_symbol);
void ros_trace_rclcpp_construct_ring_buffer(const void *buffer, const uint64_t capacity);
void ros_trace_rclcpp_buffer_to_ipb(const void *buffer, const void *ipb);
void ros_trace_rclcpp_ipb_to_subscription(const void *ipb, const void *subscription);

/* runtime */
void ros_trace_rclcpp_publish(const void *publisher_handle, const void *message);
void ros_trace_rcl_publish(const void *publisher_handle, const void *message);
/* Humble: (message); Jazzy: (rmw_publisher_handle, message, timestamp) */
void ros_trace_rmw_publish(const void *first, const void *message, int64_t timestamp);
void ros_trace_rmw_take(const void *rmw_subscription_handle, const void *message,
	int64_t source_timestamp, const bool taken);
void ros_trace_rcl_take(const void *message);
void ros_trace_rclcpp_take(const void *message);
void ros_trace_callback_start(const void *callback, const bool is_intra_process);
void ros_trace_callback_end(const void *callback);
void ros_trace_rcl_lifecycle_transition(const void *state_machine, const char *start_label,
	const char *goal_label);
void ros_trace_rclcpp_executor_get_next_ready(void);
void ros_trace_rclcpp_executor_wait_for_work(const int64_t timeout);
void ros_trace_rclcpp_executor_execute(const void *handle);
/* CARET's Humble fork; rclcpp_intra_publish is upstream in Jazzy */
void ros_trace_message_construct(const void *original_message, const void *constructed_message);
void ros_trace_rclcpp_intra_publish(const void *publisher_handle, const void *message);
void ros_trace_dispatch_subscription_callback(const void *message, const void *callback,
	const uint64_t source_timestamp, const uint64_t message_timestamp);
void ros_trace_dispatch_intra_process_subscription_callback(const void *message,
	const void *callback, const uint64_t message_timestamp);
/* Jazzy */
void ros_trace_rclcpp_ring_buffer_enqueue(const void *buffer, const uint64_t index,
	const uint64_t size, const bool overwritten);
void ros_trace_rclcpp_ring_buffer_dequeue(const void *buffer, const uint64_t index,
	const uint64_t size);
void ros_trace_rclcpp_ring_buffer_clear(const void *buffer);

#endif
