/* execute.c - running one ready entity, with the tracetools calls rclcpp
 * makes around it (take, dispatch, callback_start/end) and the ground truth
 * of what happened. */
#include "internal.h"

#include "tracetools/tracetools.h"

static const char *const kind_name[] = {
	[TB_CB_TIMER] = "timer",
	[TB_CB_SUBSCRIPTION] = "subscription",
	[TB_CB_SERVICE] = "service",
};

static void record_callback(tb_node *node, const struct tb_callback *cb,
	int64_t start, int64_t end)
{
	tb_truth_callback(node->ctx->truth, node->fqn, cb->name, cb,
		kind_name[cb->kind], start, end);
}

void tb_execute_timer(tb_timer *timer)
{
	ros_trace_rclcpp_executor_execute(&timer->rcl_handle);
	int64_t start = tb_now();
	ros_trace_callback_start(&timer->callback, false);
	timer->fn(timer, timer->user);
	ros_trace_callback_end(&timer->callback);
	record_callback(timer->node, &timer->callback, start, tb_now());
}

static void run_subscription_callback(tb_subscription *sub, const tb_message *msg,
	bool intra, int64_t source_timestamp)
{
	int64_t start = tb_now();

	ros_trace_callback_start(&sub->callback, intra);
	tb_truth_receive(sub->node->ctx->truth, sub->node->fqn, sub->callback.name,
		sub->topic, msg->publisher, msg->seq, msg->stamp, msg->origin,
		source_timestamp, start, intra);
	sub->fn(sub, msg, intra, sub->user);
	ros_trace_callback_end(&sub->callback);
	record_callback(sub->node, &sub->callback, start, tb_now());
}

void tb_execute_subscription(tb_subscription *sub)
{
	ros_trace_rclcpp_executor_execute(&sub->rcl_handle);

	tb_message *intra = tb_intra_pop(&sub->intra);
	if (intra) {
		atomic_store(&sub->taking, false);
		ros_trace_dispatch_intra_process_subscription_callback(intra,
			&sub->callback, (uint64_t)intra->stamp);
		run_subscription_callback(sub, intra, true, 0);
		tb_message_free(intra);
		return;
	}

	void *samples[1] = { NULL };
	dds_sample_info_t info;
	dds_return_t n = dds_take(sub->reader, samples, &info, 1, 1);
	atomic_store(&sub->taking, false);
	bool taken = n > 0 && info.valid_data;
	/* rmw_take is traced for empty takes too (taken = false). */
	ros_trace_rmw_take(&sub->rmw_handle, samples[0],
		taken ? info.source_timestamp : 0, taken);
	if (taken) {
		const tb_message *msg = samples[0];
		ros_trace_rcl_take(msg);
		ros_trace_rclcpp_take(msg);
		ros_trace_dispatch_subscription_callback(msg, &sub->callback,
			(uint64_t)info.source_timestamp, (uint64_t)msg->stamp);
		run_subscription_callback(sub, msg, false, info.source_timestamp);
	}
	if (n > 0)
		dds_return_loan(sub->reader, samples, n);
}

void tb_execute_service(tb_service *srv)
{
	ros_trace_rclcpp_executor_execute(&srv->rcl_handle);

	void *samples[1] = { NULL };
	dds_sample_info_t info;
	dds_return_t n = dds_take(srv->request_reader, samples, &info, 1, 1);
	atomic_store(&srv->taking, false);
	if (n > 0 && info.valid_data) {
		tb_call reply = *(const tb_call *)samples[0];
		int64_t start = tb_now();
		ros_trace_callback_start(&srv->callback, false);
		tb_truth_receive(srv->node->ctx->truth, srv->node->fqn,
			srv->callback.name, srv->name, reply.client,
			(uint64_t)reply.request_id, reply.stamp, reply.stamp,
			info.source_timestamp, start, false);
		srv->fn(srv, &reply, srv->user);
		ros_trace_callback_end(&srv->callback);
		record_callback(srv->node, &srv->callback, start, tb_now());
		dds_write(srv->reply_writer, &reply);
	}
	if (n > 0)
		dds_return_loan(srv->request_reader, samples, n);
}

void tb_execute_client(tb_client *cl)
{
	ros_trace_rclcpp_executor_execute(&cl->rcl_handle);

	void *samples[1] = { NULL };
	dds_sample_info_t info;
	dds_return_t n = dds_take(cl->reply_reader, samples, &info, 1, 1);
	atomic_store(&cl->taking, false);
	if (n > 0 && info.valid_data) {
		const tb_call *reply = samples[0];
		/* Replies to other clients of the service share the topic. */
		if (reply->client == cl->id) {
			tb_truth_receive(cl->node->ctx->truth, cl->node->fqn, "response",
				cl->service, reply->client, (uint64_t)reply->request_id,
				reply->stamp, reply->stamp, info.source_timestamp,
				tb_now(), false);
			if (cl->fn)
				cl->fn(cl, reply, cl->user);
		}
	}
	if (n > 0)
		dds_return_loan(cl->reply_reader, samples, n);
}

void tb_record_chain_end(tb_subscription *sub, const tb_message *msg,
	int64_t end_ns)
{
	tb_truth_e2e(sub->node->ctx->truth, sub->node->fqn, sub->callback.name,
		sub->topic, msg->publisher, msg->seq, msg->origin, end_ns);
}
