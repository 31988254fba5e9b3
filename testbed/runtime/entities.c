/*
 * entities.c - publishers, subscriptions, timers, services and clients,
 * created with the tracetools calls rclcpp/rcl/rmw make, in their order
 * (../shared/reference/tracetools-abi.md), and added to their callback group
 * through the hookable CallbackGroup::add_* functions.
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rclcpp_abi.h"
#include "tracetools/tracetools.h"

static bool valid_topic(const char *topic)
{
	if (!topic || topic[0] != '/' || topic[1] == '\0') {
		tb_set_error("invalid topic or service name '%s' (must be absolute)",
			topic ? topic : "");
		return false;
	}
	return true;
}

static dds_qos_t *reliable_qos(size_t depth, bool ignore_local)
{
	dds_qos_t *qos = dds_create_qos();

	dds_qset_reliability(qos, DDS_RELIABILITY_RELIABLE, DDS_SECS(1));
	dds_qset_history(qos, DDS_HISTORY_KEEP_LAST, depth ? (int32_t)depth : 10);
	/* With intra-process delivery on, same-process messages arrive by
	 * pointer, not over DDS (rclcpp's ignore_local_publications). */
	if (ignore_local)
		dds_qset_ignorelocal(qos, DDS_IGNORELOCAL_PARTICIPANT);
	return qos;
}

static tb_callback_group *group_or_default(tb_node *node, tb_callback_group *g)
{
	return g ? g : node->default_group;
}

static void name_callback(struct tb_callback *cb, enum tb_callback_kind kind,
	const char *prefix, unsigned index)
{
	cb->kind = kind;
	snprintf(cb->name, sizeof cb->name, "%s_callback_%u", prefix, index);
}

/* Entities are added before spinning; a group already in an executor gets
 * the new entity's wait condition attached. */
static void attach_if_spun(tb_callback_group *group, dds_entity_t ready, void *entity)
{
	if (group->executor && ready > 0)
		dds_waitset_attach(group->executor->waitset, ready, (dds_attach_t)entity);
}

tb_publisher *tb_publisher_create(tb_node *node, const char *topic,
	size_t depth, size_t payload_size)
{
	tb_context *ctx = node->ctx;

	if (!valid_topic(topic))
		return NULL;
	tb_publisher *pub = calloc(1, sizeof *pub);
	if (!pub)
		return NULL;
	pub->node = node;
	pub->topic = tb_strdup(topic);
	pub->payload_size = payload_size;
	pub->id = ((uint64_t)ctx->pid << 16) | atomic_fetch_add(&ctx->next_local_id, 1);
	atomic_init(&pub->seq, 0);

	dds_entity_t t = tb_create_topic(ctx, "rt", topic, "", &tb_msgs_msg_dds__Chain__desc);
	if (t < 0)
		goto fail;
	dds_qos_t *qos = reliable_qos(depth, false);
	pub->writer = dds_create_writer(ctx->participant, t, qos, NULL);
	dds_delete_qos(qos);
	if (pub->writer < 0) {
		tb_set_error("dds_create_writer %s: %s", topic, dds_strretcode(pub->writer));
		goto fail;
	}
	tb_make_gid(ctx, pub->gid);
	ros_trace_rmw_publisher_init(&pub->rmw_handle, pub->gid);
	ros_trace_rcl_publisher_init(&pub->rcl_handle, &node->rcl_handle,
		&pub->rmw_handle, topic, depth);
	tb_truth_entity(ctx->truth, "publisher", node->fqn, topic, &pub->rcl_handle,
		NULL, NULL, NULL, 0);
	pthread_mutex_lock(&ctx->lock);
	tb_list_push(&ctx->publishers, pub);
	pthread_mutex_unlock(&ctx->lock);
	return pub;
fail:
	free(pub->topic);
	free(pub);
	return NULL;
}

const char *tb_publisher_topic(const tb_publisher *pub)
{
	return pub->topic;
}

tb_subscription *tb_subscription_create(tb_node *node, const char *topic,
	size_t depth, tb_callback_group *group, tb_subscription_fn fn,
	void *user, const char *symbol)
{
	tb_context *ctx = node->ctx;

	if (!valid_topic(topic))
		return NULL;
	tb_subscription *sub = calloc(1, sizeof *sub);
	if (!sub || tb_intra_init(&sub->intra, depth ? depth : 10) != 0) {
		free(sub);
		tb_set_error("out of memory");
		return NULL;
	}
	sub->node = node;
	sub->group = group_or_default(node, group);
	sub->topic = tb_strdup(topic);
	sub->fn = fn;
	sub->user = user;
	atomic_init(&sub->taking, false);
	name_callback(&sub->callback, TB_CB_SUBSCRIPTION, "subscription",
		node->subscription_count++);

	dds_entity_t t = tb_create_topic(ctx, "rt", topic, "", &tb_msgs_msg_dds__Chain__desc);
	if (t < 0)
		goto fail;
	dds_qos_t *qos = reliable_qos(depth, ctx->intra_process);
	sub->reader = dds_create_reader(ctx->participant, t, qos, NULL);
	dds_delete_qos(qos);
	if (sub->reader < 0) {
		tb_set_error("dds_create_reader %s: %s", topic, dds_strretcode(sub->reader));
		goto fail;
	}
	sub->ready = dds_create_readcondition(sub->reader, DDS_ANY_STATE);

	/* rmw, rcl, then rclcpp's Subscription constructor. */
	tb_make_gid(ctx, sub->gid);
	ros_trace_rmw_subscription_init(&sub->rmw_handle, sub->gid);
	ros_trace_rcl_subscription_init(&sub->rcl_handle, &node->rcl_handle,
		&sub->rmw_handle, topic, depth);
	sub->rclcpp.node_base = &node->node_base;
	sub->rclcpp.node_handle.ptr = &node->rcl_handle;
	sub->rclcpp.subscription_handle.ptr = &sub->rcl_handle;
	ros_trace_rclcpp_subscription_init(&sub->rcl_handle, sub);
	ros_trace_rclcpp_subscription_callback_added(sub, &sub->callback);
	ros_trace_rclcpp_callback_register(&sub->callback, symbol);
	tb_truth_entity(ctx->truth, "subscription", node->fqn, topic,
		&sub->rcl_handle, &sub->callback, sub->group, symbol, 0);

	/* node_topics->add_subscription(sub, group) */
	struct tb_shared_ptr sp = { sub, NULL };
	tb_rclcpp_group_add_subscription(sub->group, &sp);
	attach_if_spun(sub->group, sub->ready, sub);
	pthread_mutex_lock(&ctx->lock);
	tb_list_push(&ctx->subscriptions, sub);
	pthread_mutex_unlock(&ctx->lock);
	return sub;
fail:
	tb_intra_fini(&sub->intra);
	free(sub->topic);
	free(sub);
	return NULL;
}

const char *tb_subscription_name(const tb_subscription *sub)
{
	return sub->callback.name;
}

tb_node *tb_subscription_node(const tb_subscription *sub)
{
	return sub->node;
}

tb_timer *tb_timer_create(tb_node *node, int64_t period_ns,
	tb_callback_group *group, tb_timer_fn fn, void *user, const char *symbol)
{
	if (period_ns <= 0) {
		tb_set_error("timer period must be positive");
		return NULL;
	}
	tb_timer *timer = calloc(1, sizeof *timer);
	if (!timer)
		return NULL;
	timer->node = node;
	timer->group = group_or_default(node, group);
	timer->period = period_ns;
	timer->next_call = tb_now() + period_ns;
	timer->fn = fn;
	timer->user = user;
	timer->rclcpp.timer_handle.ptr = &timer->rcl_handle;
	name_callback(&timer->callback, TB_CB_TIMER, "timer", node->timer_count++);

	ros_trace_rcl_timer_init(&timer->rcl_handle, period_ns);
	ros_trace_rclcpp_timer_callback_added(&timer->rcl_handle, &timer->callback);
	ros_trace_rclcpp_callback_register(&timer->callback, symbol);
	tb_truth_entity_at(node->ctx->truth, timer->next_call - period_ns, "timer", node->fqn,
		timer->callback.name, &timer->rcl_handle, &timer->callback, timer->group, symbol,
		period_ns);
	/* node_timers->add_timer(timer, group), then the link to the node. */
	struct tb_shared_ptr sp = { timer, NULL };
	tb_rclcpp_group_add_timer(timer->group, &sp);
	ros_trace_rclcpp_timer_link_node(&timer->rcl_handle, &node->rcl_handle);
	return timer;
}

const char *tb_timer_name(const tb_timer *timer)
{
	return timer->callback.name;
}

tb_node *tb_timer_node(const tb_timer *timer)
{
	return timer->node;
}

/* A service reads requests and writes replies; a client the reverse, on
 * rq/<name>Request and rr/<name>Reply. ready: a read condition on reader. */
static int service_endpoints(tb_context *ctx, const char *name, bool server,
	dds_entity_t *reader, dds_entity_t *writer, dds_entity_t *ready)
{
	dds_entity_t rq = tb_create_topic(ctx, "rq", name, "Request", &tb_msgs_srv_dds__Call__desc);
	dds_entity_t rr = tb_create_topic(ctx, "rr", name, "Reply", &tb_msgs_srv_dds__Call__desc);

	if (rq < 0 || rr < 0)
		return -1;
	dds_qos_t *qos = reliable_qos(10, false);
	*reader = dds_create_reader(ctx->participant, server ? rq : rr, qos, NULL);
	*writer = dds_create_writer(ctx->participant, server ? rr : rq, qos, NULL);
	dds_delete_qos(qos);
	if (*reader < 0 || *writer < 0) {
		tb_set_error("cannot create the DDS entities of %s %s",
			server ? "service" : "client", name);
		return -1;
	}
	*ready = dds_create_readcondition(*reader, DDS_ANY_STATE);
	return 0;
}

tb_service *tb_service_create(tb_node *node, const char *name,
	tb_callback_group *group, tb_service_fn fn, void *user, const char *symbol)
{
	tb_context *ctx = node->ctx;

	if (!valid_topic(name))
		return NULL;
	tb_service *srv = calloc(1, sizeof *srv);
	if (!srv)
		return NULL;
	srv->node = node;
	srv->group = group_or_default(node, group);
	srv->name = tb_strdup(name);
	srv->fn = fn;
	srv->user = user;
	atomic_init(&srv->taking, false);
	name_callback(&srv->callback, TB_CB_SERVICE, "service", node->service_count++);

	if (service_endpoints(ctx, name, true, &srv->request_reader,
		    &srv->reply_writer, &srv->ready) != 0)
		goto fail;
	srv->rclcpp.node_handle.ptr = &node->rcl_handle;
	srv->rclcpp.service_handle.ptr = &srv->rcl_handle;

	ros_trace_rcl_service_init(&srv->rcl_handle, &node->rcl_handle,
		&srv->rmw_handle, name);
	ros_trace_rclcpp_service_callback_added(&srv->rcl_handle, &srv->callback);
	ros_trace_rclcpp_callback_register(&srv->callback, symbol);
	tb_truth_entity(ctx->truth, "service", node->fqn, name, &srv->rcl_handle,
		&srv->callback, srv->group, symbol, 0);
	struct tb_shared_ptr sp = { srv, NULL };
	tb_rclcpp_group_add_service(srv->group, &sp);
	attach_if_spun(srv->group, srv->ready, srv);
	return srv;
fail:
	free(srv->name);
	free(srv);
	return NULL;
}

tb_client *tb_client_create(tb_node *node, const char *service,
	tb_callback_group *group, tb_response_fn fn, void *user)
{
	tb_context *ctx = node->ctx;

	if (!valid_topic(service))
		return NULL;
	tb_client *cl = calloc(1, sizeof *cl);
	if (!cl)
		return NULL;
	cl->node = node;
	cl->group = group_or_default(node, group);
	cl->service = tb_strdup(service);
	cl->fn = fn;
	cl->user = user;
	cl->id = ((uint64_t)ctx->pid << 16) | atomic_fetch_add(&ctx->next_local_id, 1);
	atomic_init(&cl->next_request, 1);
	atomic_init(&cl->taking, false);

	if (service_endpoints(ctx, service, false, &cl->reply_reader,
		    &cl->request_writer, &cl->ready) != 0)
		goto fail;
	cl->rclcpp.node_handle.ptr = &node->rcl_handle;
	cl->rclcpp.client_handle.ptr = &cl->rcl_handle;

	ros_trace_rcl_client_init(&cl->rcl_handle, &node->rcl_handle,
		&cl->rmw_handle, service);
	tb_truth_entity(ctx->truth, "client", node->fqn, service, &cl->rcl_handle,
		NULL, cl->group, NULL, 0);
	struct tb_shared_ptr sp = { cl, NULL };
	tb_rclcpp_group_add_client(cl->group, &sp);
	attach_if_spun(cl->group, cl->ready, cl);
	return cl;
fail:
	free(cl->service);
	free(cl);
	return NULL;
}
