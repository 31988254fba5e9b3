/* intra.c - messages, publishing, and intra-process delivery: a message
 * goes by pointer to the first same-process subscription and as a copy
 * (message_construct) to each further one, as rclcpp's intra-process
 * manager does; other processes get it over DDS. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

#include "tracetools/tracetools.h"

tb_message *tb_message_alloc(size_t payload_size)
{
	tb_message *m = calloc(1, sizeof *m);

	if (!m)
		return NULL;
	if (payload_size) {
		m->payload._buffer = malloc(payload_size);
		if (!m->payload._buffer) {
			free(m);
			return NULL;
		}
		memset(m->payload._buffer, 0xa5, payload_size);
	}
	m->payload._length = m->payload._maximum = (uint32_t)payload_size;
	return m;
}

tb_message *tb_message_copy(const tb_message *src)
{
	tb_message *m = tb_message_alloc(src->payload._length);

	if (!m)
		return NULL;
	m->stamp = src->stamp;
	m->seq = src->seq;
	m->origin = src->origin;
	m->publisher = src->publisher;
	if (src->payload._length)
		memcpy(m->payload._buffer, src->payload._buffer, src->payload._length);
	return m;
}

void tb_message_free(tb_message *m)
{
	if (m) {
		free(m->payload._buffer);
		free(m);
	}
}

int tb_intra_init(struct tb_intra_queue *q, size_t depth)
{
	pthread_mutex_init(&q->lock, NULL);
	q->items = calloc(depth, sizeof *q->items);
	q->capacity = depth;
	return q->items ? 0 : -1;
}

void tb_intra_fini(struct tb_intra_queue *q)
{
	tb_message *m;

	if (!q->items)
		return;
	while ((m = tb_intra_pop(q)))
		tb_message_free(m);
	free(q->items);
	q->items = NULL;
	pthread_mutex_destroy(&q->lock);
}

tb_message *tb_intra_pop(struct tb_intra_queue *q)
{
	tb_message *m = NULL;

	pthread_mutex_lock(&q->lock);
	if (q->count) {
		m = q->items[q->head];
		q->head = (q->head + 1) % q->capacity;
		q->count--;
	}
	pthread_mutex_unlock(&q->lock);
	return m;
}

bool tb_intra_pending(struct tb_intra_queue *q)
{
	pthread_mutex_lock(&q->lock);
	bool pending = q->count > 0;
	pthread_mutex_unlock(&q->lock);
	return pending;
}

void tb_intra_deliver(tb_subscription *sub, tb_message *msg)
{
	struct tb_intra_queue *q = &sub->intra;
	tb_message *dropped = NULL;

	pthread_mutex_lock(&q->lock);
	if (q->count == q->capacity) { /* keep last: drop the oldest */
		dropped = q->items[q->head];
		q->head = (q->head + 1) % q->capacity;
		q->count--;
	}
	q->items[(q->head + q->count) % q->capacity] = msg;
	q->count++;
	pthread_mutex_unlock(&q->lock);
	tb_message_free(dropped);
	if (sub->group->executor)
		tb_executor_wake(sub->group->executor);
}

/* Same-process subscriptions of the topic, when intra-process is on. */
static size_t intra_subscriptions(tb_context *ctx, const char *topic,
	tb_subscription **out, size_t max)
{
	size_t n = 0;

	if (!ctx->intra_process)
		return 0;
	pthread_mutex_lock(&ctx->lock);
	for (size_t i = 0; i < ctx->subscriptions.count && n < max; i++) {
		tb_subscription *s = ctx->subscriptions.items[i];
		if (strcmp(s->topic, topic) == 0)
			out[n++] = s;
	}
	pthread_mutex_unlock(&ctx->lock);
	return n;
}

static bool has_remote_readers(tb_publisher *pub)
{
	dds_publication_matched_status_t st;

	return dds_get_publication_matched_status(pub->writer, &st) == 0 &&
	       st.current_count > 0;
}

uint64_t tb_publish(tb_publisher *pub, int64_t stamp, int64_t origin)
{
	tb_context *ctx = pub->node->ctx;
	tb_subscription *subs[64];
	int64_t time;
	tb_message *msg = tb_message_alloc(pub->payload_size);

	if (!msg)
		return 0;
	msg->seq = atomic_fetch_add(&pub->seq, 1) + 1;
	msg->stamp = stamp;
	msg->origin = origin;
	msg->publisher = pub->id;

	size_t n_intra = intra_subscriptions(ctx, pub->topic, subs, 64);
	/* Readers of this participant are ignored when intra-process is on,
	 * so matched readers are other processes'. */
	bool inter = n_intra == 0 || has_remote_readers(pub);

	/* The publish time of the truth: next to the first publish tracepoint,
	 * as a trace sees it. */
	time = tb_now();
	if (n_intra) {
		ros_trace_rclcpp_intra_publish(&pub->rcl_handle, msg);
		for (size_t i = 1; i < n_intra; i++) {
			tb_message *copy = tb_message_copy(msg);
			if (!copy)
				continue;
			ros_trace_message_construct(msg, copy);
			tb_intra_deliver(subs[i], copy);
		}
	}
	if (inter) {
		ros_trace_rclcpp_publish(&pub->rcl_handle, msg);
		ros_trace_rcl_publish(&pub->rcl_handle, msg);
		ros_trace_rmw_publish(msg);
		dds_return_t rc = dds_write(pub->writer, msg);
		if (rc < 0)
			tb_set_error("dds_write %s: %s", pub->topic, dds_strretcode(rc));
	}
	tb_truth_publish(ctx->truth, pub->node->fqn, pub->topic, pub->id, msg->seq,
		stamp, origin, time, (unsigned)n_intra, inter);
	uint64_t seq = msg->seq;
	if (n_intra)
		tb_intra_deliver(subs[0], msg); /* the original, by pointer */
	else
		tb_message_free(msg);
	return seq;
}

int64_t tb_client_send(tb_client *client)
{
	tb_call req = {
		.client = client->id,
		.request_id = atomic_fetch_add(&client->next_request, 1),
		.stamp = tb_now(),
	};
	dds_return_t rc = dds_write(client->request_writer, &req);

	if (rc < 0) {
		tb_set_error("dds_write %s request: %s", client->service, dds_strretcode(rc));
		return 0;
	}
	tb_truth_publish(client->node->ctx->truth, client->node->fqn, client->service,
		client->id, (uint64_t)req.request_id, req.stamp, req.stamp, req.stamp,
		0, true);
	return req.request_id;
}
