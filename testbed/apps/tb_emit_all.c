/*
 * tb_emit_all - emits every event of the schema once: each ros2:* event
 * through the testbed's libtracetools.so (by its ros_trace_* function, as
 * rclcpp would; directly through the ros2 provider for what the testbed's
 * Humble ABI lacks: Jazzy's events and rmw_publish's Jazzy fields), and each
 * ros2_caret:* event through the tracer's provider.
 * Every field carries the value tb_expected.h derives for it.
 *
 * usage: tb_emit_all [ros2|ros2_caret|all]   (default all)
 */
#include "tb_expected.h"
#include "ros2_tp.h"
#include "ros2_caret_tp.h"
#include "tracetools/tracetools.h"

#include <stdio.h>
#include <string.h>

/* Expected value of field f of event ev, typed for the call site. */
#define PTR(prov, ev, f) ((const void *)(uintptr_t)tb_expected_u64(prov ":" #ev, #f))
#define U64(prov, ev, f) tb_expected_u64(prov ":" #ev, #f)
#define I64(prov, ev, f) tb_expected_i64(prov ":" #ev, #f)
#define I32(prov, ev, f) tb_expected_i32(prov ":" #ev, #f)
#define STR(prov, ev, f) TB_EXPECTED_STR(prov ":" #ev, #f)

#define RP(ev, f) PTR("ros2", ev, f)
#define RU(ev, f) U64("ros2", ev, f)
#define RI(ev, f) I64("ros2", ev, f)
#define RS(ev, f) STR("ros2", ev, f)

static void emit_ros2(void)
{
	uint8_t gid[TB_GID_LENGTH];

	ros_trace_rcl_init(RP(rcl_init, context_handle));
	ros_trace_rcl_node_init(RP(rcl_node_init, node_handle),
		RP(rcl_node_init, rmw_handle), RS(rcl_node_init, node_name),
		RS(rcl_node_init, namespace));
	tb_expected_gid("ros2:rmw_publisher_init", "gid", gid);
	ros_trace_rmw_publisher_init(
		RP(rmw_publisher_init, rmw_publisher_handle), gid);
	ros_trace_rcl_publisher_init(RP(rcl_publisher_init, publisher_handle),
		RP(rcl_publisher_init, node_handle),
		RP(rcl_publisher_init, rmw_publisher_handle),
		RS(rcl_publisher_init, topic_name),
		(size_t)RU(rcl_publisher_init, queue_depth));
	ros_trace_rclcpp_publish(RP(rclcpp_publish, publisher_handle),
		RP(rclcpp_publish, message));
	ros_trace_rcl_publish(RP(rcl_publish, publisher_handle),
		RP(rcl_publish, message));
	lttng_ust_tracepoint(ros2, rmw_publish, RP(rmw_publish, rmw_publisher_handle),
		RP(rmw_publish, message), RI(rmw_publish, timestamp));
	tb_expected_gid("ros2:rmw_subscription_init", "gid", gid);
	ros_trace_rmw_subscription_init(
		RP(rmw_subscription_init, rmw_subscription_handle), gid);
	ros_trace_rcl_subscription_init(
		RP(rcl_subscription_init, subscription_handle),
		RP(rcl_subscription_init, node_handle),
		RP(rcl_subscription_init, rmw_subscription_handle),
		RS(rcl_subscription_init, topic_name),
		(size_t)RU(rcl_subscription_init, queue_depth));
	ros_trace_rclcpp_subscription_init(
		RP(rclcpp_subscription_init, subscription_handle),
		RP(rclcpp_subscription_init, subscription));
	ros_trace_rclcpp_subscription_callback_added(
		RP(rclcpp_subscription_callback_added, subscription),
		RP(rclcpp_subscription_callback_added, callback));
	ros_trace_rmw_take(RP(rmw_take, rmw_subscription_handle),
		RP(rmw_take, message), RI(rmw_take, source_timestamp), true);
	ros_trace_rcl_take(RP(rcl_take, message));
	ros_trace_rclcpp_take(RP(rclcpp_take, message));
	ros_trace_rcl_service_init(RP(rcl_service_init, service_handle),
		RP(rcl_service_init, node_handle),
		RP(rcl_service_init, rmw_service_handle),
		RS(rcl_service_init, service_name));
	ros_trace_rclcpp_service_callback_added(
		RP(rclcpp_service_callback_added, service_handle),
		RP(rclcpp_service_callback_added, callback));
	ros_trace_rcl_client_init(RP(rcl_client_init, client_handle),
		RP(rcl_client_init, node_handle),
		RP(rcl_client_init, rmw_client_handle),
		RS(rcl_client_init, service_name));
	ros_trace_rcl_timer_init(RP(rcl_timer_init, timer_handle),
		RI(rcl_timer_init, period));
	ros_trace_rclcpp_timer_callback_added(
		RP(rclcpp_timer_callback_added, timer_handle),
		RP(rclcpp_timer_callback_added, callback));
	ros_trace_rclcpp_timer_link_node(RP(rclcpp_timer_link_node, timer_handle),
		RP(rclcpp_timer_link_node, node_handle));
	ros_trace_rclcpp_callback_register(
		RP(rclcpp_callback_register, callback),
		RS(rclcpp_callback_register, symbol));
	ros_trace_callback_start(RP(callback_start, callback), true);
	ros_trace_callback_end(RP(callback_end, callback));
	ros_trace_rcl_lifecycle_state_machine_init(
		RP(rcl_lifecycle_state_machine_init, node_handle),
		RP(rcl_lifecycle_state_machine_init, state_machine));
	ros_trace_rcl_lifecycle_transition(
		RP(rcl_lifecycle_transition, state_machine),
		RS(rcl_lifecycle_transition, start_label),
		RS(rcl_lifecycle_transition, goal_label));
	ros_trace_rclcpp_executor_get_next_ready();
	ros_trace_rclcpp_executor_wait_for_work(
		RI(rclcpp_executor_wait_for_work, timeout));
	ros_trace_rclcpp_executor_execute(RP(rclcpp_executor_execute, handle));
	ros_trace_message_construct(RP(message_construct, original_message),
		RP(message_construct, constructed_message));
	ros_trace_rclcpp_intra_publish(RP(rclcpp_intra_publish, publisher_handle),
		RP(rclcpp_intra_publish, message));
	ros_trace_dispatch_subscription_callback(
		RP(dispatch_subscription_callback, message),
		RP(dispatch_subscription_callback, callback),
		RU(dispatch_subscription_callback, source_stamp),
		RU(dispatch_subscription_callback, message_timestamp));
	ros_trace_dispatch_intra_process_subscription_callback(
		RP(dispatch_intra_process_subscription_callback, message),
		RP(dispatch_intra_process_subscription_callback, callback),
		RU(dispatch_intra_process_subscription_callback, message_timestamp));
	/* Jazzy's intra-process buffers */
	lttng_ust_tracepoint(ros2, rclcpp_construct_ring_buffer,
		RP(rclcpp_construct_ring_buffer, buffer), RU(rclcpp_construct_ring_buffer, capacity));
	lttng_ust_tracepoint(ros2, rclcpp_buffer_to_ipb, RP(rclcpp_buffer_to_ipb, buffer),
		RP(rclcpp_buffer_to_ipb, ipb));
	lttng_ust_tracepoint(ros2, rclcpp_ipb_to_subscription, RP(rclcpp_ipb_to_subscription, ipb),
		RP(rclcpp_ipb_to_subscription, subscription));
	lttng_ust_tracepoint(ros2, rclcpp_ring_buffer_enqueue, RP(rclcpp_ring_buffer_enqueue, buffer),
		RU(rclcpp_ring_buffer_enqueue, index), RU(rclcpp_ring_buffer_enqueue, size),
		I32("ros2", rclcpp_ring_buffer_enqueue, overwritten));
	lttng_ust_tracepoint(ros2, rclcpp_ring_buffer_dequeue, RP(rclcpp_ring_buffer_dequeue, buffer),
		RU(rclcpp_ring_buffer_dequeue, index), RU(rclcpp_ring_buffer_dequeue, size));
	lttng_ust_tracepoint(ros2, rclcpp_ring_buffer_clear, RP(rclcpp_ring_buffer_clear, buffer));
	/* Kilted's services (u8[16] gids: the first 16 of the expected 24) */
	tb_expected_gid("ros2:rmw_client_init", "gid", gid);
	lttng_ust_tracepoint(ros2, rmw_client_init, RP(rmw_client_init, rmw_client_handle), gid);
	lttng_ust_tracepoint(ros2, rmw_send_request, RP(rmw_send_request, rmw_client_handle),
		RP(rmw_send_request, request), RI(rmw_send_request, sequence_number));
	tb_expected_gid("ros2:rmw_take_request", "client_gid", gid);
	lttng_ust_tracepoint(ros2, rmw_take_request, RP(rmw_take_request, rmw_service_handle),
		RP(rmw_take_request, request), gid, RI(rmw_take_request, sequence_number),
		I32("ros2", rmw_take_request, taken));
	tb_expected_gid("ros2:rmw_send_response", "client_gid", gid);
	lttng_ust_tracepoint(ros2, rmw_send_response, RP(rmw_send_response, rmw_service_handle),
		RP(rmw_send_response, response), gid, RI(rmw_send_response, sequence_number),
		RI(rmw_send_response, timestamp));
	lttng_ust_tracepoint(ros2, rmw_take_response, RP(rmw_take_response, rmw_client_handle),
		RP(rmw_take_response, response), RI(rmw_take_response, sequence_number),
		RI(rmw_take_response, source_timestamp), I32("ros2", rmw_take_response, taken));
}

#define CP(ev, f) PTR("ros2_caret", ev, f)
#define CU(ev, f) U64("ros2_caret", ev, f)
#define CI(ev, f) I64("ros2_caret", ev, f)
#define CS(ev, f) STR("ros2_caret", ev, f)
#define CTS(ev) CI(ev, init_timestamp)
#define TP(ev, ...) lttng_ust_tracepoint(ros2_caret, ev, __VA_ARGS__)

static void emit_ros2_caret(void)
{
	uint8_t gid[TB_GID_LENGTH];

	TP(rcl_init, CP(rcl_init, context_handle), CTS(rcl_init));
	TP(rcl_node_init, CP(rcl_node_init, node_handle),
		CP(rcl_node_init, rmw_handle), CS(rcl_node_init, node_name),
		CS(rcl_node_init, namespace), CTS(rcl_node_init));
	TP(rcl_publisher_init, CP(rcl_publisher_init, publisher_handle),
		CP(rcl_publisher_init, node_handle),
		CP(rcl_publisher_init, rmw_publisher_handle),
		CS(rcl_publisher_init, topic_name),
		CU(rcl_publisher_init, queue_depth), CTS(rcl_publisher_init));
	TP(rcl_subscription_init, CP(rcl_subscription_init, subscription_handle),
		CP(rcl_subscription_init, node_handle),
		CP(rcl_subscription_init, rmw_subscription_handle),
		CS(rcl_subscription_init, topic_name),
		CU(rcl_subscription_init, queue_depth),
		CTS(rcl_subscription_init));
	TP(rclcpp_subscription_init,
		CP(rclcpp_subscription_init, subscription_handle),
		CP(rclcpp_subscription_init, subscription),
		CTS(rclcpp_subscription_init));
	TP(rclcpp_subscription_callback_added,
		CP(rclcpp_subscription_callback_added, subscription),
		CP(rclcpp_subscription_callback_added, callback),
		CTS(rclcpp_subscription_callback_added));
	TP(rcl_service_init, CP(rcl_service_init, service_handle),
		CP(rcl_service_init, node_handle),
		CP(rcl_service_init, rmw_service_handle),
		CS(rcl_service_init, service_name), CTS(rcl_service_init));
	TP(rclcpp_service_callback_added,
		CP(rclcpp_service_callback_added, service_handle),
		CP(rclcpp_service_callback_added, callback),
		CTS(rclcpp_service_callback_added));
	TP(rcl_client_init, CP(rcl_client_init, client_handle),
		CP(rcl_client_init, node_handle),
		CP(rcl_client_init, rmw_client_handle),
		CS(rcl_client_init, service_name), CTS(rcl_client_init));
	TP(rcl_timer_init, CP(rcl_timer_init, timer_handle),
		CI(rcl_timer_init, period), CTS(rcl_timer_init));
	TP(rclcpp_timer_callback_added,
		CP(rclcpp_timer_callback_added, timer_handle),
		CP(rclcpp_timer_callback_added, callback),
		CTS(rclcpp_timer_callback_added));
	TP(rclcpp_timer_link_node, CP(rclcpp_timer_link_node, timer_handle),
		CP(rclcpp_timer_link_node, node_handle),
		CTS(rclcpp_timer_link_node));
	TP(rclcpp_callback_register, CP(rclcpp_callback_register, callback),
		CS(rclcpp_callback_register, symbol),
		CTS(rclcpp_callback_register));
	TP(rcl_lifecycle_state_machine_init,
		CP(rcl_lifecycle_state_machine_init, node_handle),
		CP(rcl_lifecycle_state_machine_init, state_machine),
		CTS(rcl_lifecycle_state_machine_init));
	tb_expected_gid("ros2_caret:rmw_client_init", "gid", gid);
	TP(rmw_client_init, CP(rmw_client_init, rmw_client_handle), gid, CTS(rmw_client_init));
	TP(rmw_implementation, CS(rmw_implementation, rmw_impl),
		CTS(rmw_implementation));
	TP(rclcpp_construct_ring_buffer, CP(rclcpp_construct_ring_buffer, buffer),
		CU(rclcpp_construct_ring_buffer, capacity), CTS(rclcpp_construct_ring_buffer));
	TP(rclcpp_buffer_to_ipb, CP(rclcpp_buffer_to_ipb, buffer), CP(rclcpp_buffer_to_ipb, ipb),
		CTS(rclcpp_buffer_to_ipb));
	TP(rclcpp_ipb_to_subscription, CP(rclcpp_ipb_to_subscription, ipb),
		CP(rclcpp_ipb_to_subscription, subscription), CTS(rclcpp_ipb_to_subscription));
	TP(callback_group_to_executor_entity_collector,
		CP(callback_group_to_executor_entity_collector, entities_collector_addr),
		CP(callback_group_to_executor_entity_collector, callback_group_addr),
		CS(callback_group_to_executor_entity_collector, group_type_name),
		CTS(callback_group_to_executor_entity_collector));
	TP(executor_entity_collector_to_executor,
		CP(executor_entity_collector_to_executor, executor_addr),
		CP(executor_entity_collector_to_executor, entities_collector_addr),
		CTS(executor_entity_collector_to_executor));
	TP(tracetools_status, I32("ros2_caret", tracetools_status, tracing_enabled),
		CTS(tracetools_status));
	TP(tracer_warning, CS(tracer_warning, message), CTS(tracer_warning));
	TP(construct_executor, CP(construct_executor, executor_addr),
		CS(construct_executor, executor_type_name),
		CTS(construct_executor));
	TP(construct_static_executor, CP(construct_static_executor, executor_addr),
		CP(construct_static_executor, entities_collector_addr),
		CS(construct_static_executor, executor_type_name),
		CTS(construct_static_executor));
	TP(add_callback_group, CP(add_callback_group, executor_addr),
		CP(add_callback_group, callback_group_addr),
		CS(add_callback_group, group_type_name), CTS(add_callback_group));
	TP(add_callback_group_static_executor,
		CP(add_callback_group_static_executor, entities_collector_addr),
		CP(add_callback_group_static_executor, callback_group_addr),
		CS(add_callback_group_static_executor, group_type_name),
		CTS(add_callback_group_static_executor));
	TP(callback_group_add_timer,
		CP(callback_group_add_timer, callback_group_addr),
		CP(callback_group_add_timer, timer_handle),
		CTS(callback_group_add_timer));
	TP(callback_group_add_subscription,
		CP(callback_group_add_subscription, callback_group_addr),
		CP(callback_group_add_subscription, subscription_handle),
		CTS(callback_group_add_subscription));
	TP(callback_group_add_service,
		CP(callback_group_add_service, callback_group_addr),
		CP(callback_group_add_service, service_handle),
		CTS(callback_group_add_service));
	TP(callback_group_add_client,
		CP(callback_group_add_client, callback_group_addr),
		CP(callback_group_add_client, client_handle),
		CTS(callback_group_add_client));
	TP(caret_init, CI(caret_init, clock_offset),
		CS(caret_init, distribution));
	TP(dds_write, CP(dds_write, rmw_publisher_handle), CP(dds_write, message),
		CI(dds_write, timestamp));
	TP(dds_bind_addr_to_stamp, CP(dds_bind_addr_to_stamp, addr),
		CU(dds_bind_addr_to_stamp, source_stamp));
	TP(dds_bind_addr_to_addr, CP(dds_bind_addr_to_addr, addr_from),
		CP(dds_bind_addr_to_addr, addr_to));
	TP(on_data_available, CU(on_data_available, source_stamp));
	TP(rmw_take_reception, CP(rmw_take_reception, rmw_subscription_handle),
		CU(rmw_take_reception, source_stamp), CU(rmw_take_reception, received_stamp));
	TP(rmw_data_available, CP(rmw_data_available, rmw_subscription_handle));
	tb_expected_gid("ros2_caret:rmw_take_request", "client_gid", gid);
	TP(rmw_send_request, CP(rmw_send_request, rmw_client_handle), CP(rmw_send_request, request),
		CI(rmw_send_request, sequence_number));
	TP(rmw_take_request, CP(rmw_take_request, rmw_service_handle), CP(rmw_take_request, request),
		gid, CI(rmw_take_request, sequence_number),
		I32("ros2_caret", rmw_take_request, taken));
	tb_expected_gid("ros2_caret:rmw_send_response", "client_gid", gid);
	TP(rmw_send_response, CP(rmw_send_response, rmw_service_handle),
		CP(rmw_send_response, response), gid, CI(rmw_send_response, sequence_number),
		CI(rmw_send_response, timestamp));
	TP(rmw_take_response, CP(rmw_take_response, rmw_client_handle),
		CP(rmw_take_response, response), CI(rmw_take_response, sequence_number),
		CI(rmw_take_response, source_timestamp), I32("ros2_caret", rmw_take_response, taken));
	TP(client_callback_start, CP(client_callback_start, client));
	TP(client_callback_end, CP(client_callback_end, client));
	TP(sim_time, CU(sim_time, stamp));
	TP(init_tf_buffer_frame_id_compact, CP(init_tf_buffer_frame_id_compact, tf_buffer_core),
		CS(init_tf_buffer_frame_id_compact, frame_id),
		CU(init_tf_buffer_frame_id_compact, frame_id_compact),
		CTS(init_tf_buffer_frame_id_compact));
	TP(send_transform, CP(send_transform, tf_broadcaster), CU(send_transform, stamp),
		CS(send_transform, frame_id), CS(send_transform, child_frame_id));
	TP(tf_set_transform, CP(tf_set_transform, tf_buffer_core), CU(tf_set_transform, stamp),
		CU(tf_set_transform, frame_id_compact), CU(tf_set_transform, child_frame_id_compact));
	TP(send_static_transform, CP(send_static_transform, tf_broadcaster),
		CU(send_static_transform, stamp), CS(send_static_transform, frame_id),
		CS(send_static_transform, child_frame_id), CTS(send_static_transform));
	TP(tf_set_static_transform, CP(tf_set_static_transform, tf_buffer_core),
		CU(tf_set_static_transform, stamp), CU(tf_set_static_transform, frame_id_compact),
		CU(tf_set_static_transform, child_frame_id_compact), CTS(tf_set_static_transform));
	TP(tf_lookup_transform, CP(tf_lookup_transform, tf_buffer_core),
		CU(tf_lookup_transform, target_frame_id_compact),
		CU(tf_lookup_transform, source_frame_id_compact), CU(tf_lookup_transform, lookup_time),
		CU(tf_lookup_transform, stamp));
	TP(tf_buffer_find_closest, CP(tf_buffer_find_closest, tf_buffer_core),
		CU(tf_buffer_find_closest, frame_id_compact),
		CU(tf_buffer_find_closest, child_frame_id_compact), CU(tf_buffer_find_closest, stamp),
		CU(tf_buffer_find_closest, frame_id_compact_),
		CU(tf_buffer_find_closest, child_frame_id_compact_),
		CU(tf_buffer_find_closest, stamp_));
	TP(merged_callback_timing, CP(merged_callback_timing, callback),
		CU(merged_callback_timing, callback_start_timestamp),
		I32("ros2_caret", merged_callback_timing, is_intra_process));
	TP(merged_publish_timing, CP(merged_publish_timing, publisher_handle),
		CP(merged_publish_timing, message),
		CU(merged_publish_timing, rclcpp_publish_timestamp),
		CU(merged_publish_timing, rcl_publish_timestamp),
		CU(merged_publish_timing, dds_write_timestamp),
		CU(merged_publish_timing, source_stamp));
}

int main(int argc, char **argv)
{
	const char *which = argc > 1 ? argv[1] : "all";
	bool all = strcmp(which, "all") == 0;

	if (argc > 2 || (!all && strcmp(which, "ros2") != 0 &&
			 strcmp(which, "ros2_caret") != 0)) {
		fprintf(stderr, "usage: tb_emit_all [ros2|ros2_caret|all]\n");
		return 2;
	}
	if (all || strcmp(which, "ros2") == 0)
		emit_ros2();
	if (all || strcmp(which, "ros2_caret") == 0)
		emit_ros2_caret();
	return 0;
}
