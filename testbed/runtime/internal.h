/*
 * internal.h - the runtime's objects. Each object that rclcpp passes to a
 * hooked function starts with the members a tracer reads (rclcpp_layout.h);
 * every rcl/rmw handle is a distinct address inside its owner.
 */
#ifndef TB_RUNTIME_INTERNAL_H
#define TB_RUNTIME_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>

#include <dds/dds.h>

#include "rclcpp_layout.h"
#include "tbrt/runtime.h"
#include "truth.h"

#define TB_HIDDEN __attribute__((visibility("hidden")))

/* An address standing for an rcl or rmw object (rcl_node_t, rmw_node_t...). */
struct tb_handle {
	char unused;
};

enum tb_callback_kind { TB_CB_TIMER, TB_CB_SUBSCRIPTION, TB_CB_SERVICE };

/* The object whose address a trace calls "callback" (rclcpp's
 * AnySubscriptionCallback, a timer's callback_ member, ...). */
struct tb_callback {
	enum tb_callback_kind kind;
	char name[48]; /* timer_callback_N, subscription_callback_N, ... */
};

struct tb_list {
	void **items;
	size_t count, capacity;
};
TB_HIDDEN int tb_list_push(struct tb_list *list, void *item);
TB_HIDDEN void tb_list_free(struct tb_list *list);

struct tb_context {
	struct tb_handle rcl_context; /* context_handle of rcl_init */
	dds_entity_t participant;
	bool intra_process;
	int pid;
	atomic_bool shutdown;
	atomic_uint next_local_id;
	pthread_mutex_t lock; /* entity lists */
	struct tb_list nodes, executors, subscriptions, publishers;
	struct tb_truth *truth;
};

struct tb_node {
	struct tb_handle rcl_handle, rmw_handle;
	struct tb_node_base node_base; /* rclcpp NodeBaseInterface stand-in */
	tb_context *ctx;
	char *name, *ns, *fqn;
	tb_callback_group *default_group;
	struct tb_list groups;
	unsigned timer_count, subscription_count, service_count;
};

struct tb_callback_group {
	struct tb_callback_group_layout rclcpp; /* first: type_ */
	tb_node *node;
	struct tb_list timers, subscriptions, services, clients;
	tb_executor *executor;
	bool busy; /* a callback of this mutually exclusive group runs */
};

struct tb_publisher {
	struct tb_handle rcl_handle, rmw_handle;
	tb_node *node;
	char *topic;
	dds_entity_t writer;
	size_t payload_size;
	uint64_t id;
	atomic_uint_fast64_t seq;
	uint8_t gid[24];
};

/* A message waiting in an intra-process queue; the queue owns it. */
struct tb_intra_queue {
	pthread_mutex_t lock;
	tb_message **items;
	size_t capacity, head, count;
};

struct tb_subscription {
	struct tb_subscription_layout rclcpp; /* rclcpp::SubscriptionBase */
	struct tb_handle rcl_handle, rmw_handle;
	struct tb_callback callback;
	tb_node *node;
	tb_callback_group *group;
	char *topic;
	dds_entity_t reader, ready; /* ready: a read condition on reader */
	tb_subscription_fn fn;
	void *user;
	struct tb_intra_queue intra;
	atomic_bool taking; /* picked, not yet taken */
	uint8_t gid[24];
};

struct tb_timer {
	struct tb_timer_layout rclcpp; /* rclcpp::TimerBase */
	struct tb_handle rcl_handle;
	struct tb_callback callback;
	tb_node *node;
	tb_callback_group *group;
	int64_t period;
	int64_t next_call; /* guarded by the executor's lock */
	tb_timer_fn fn;
	void *user;
};

struct tb_service {
	struct tb_service_layout rclcpp; /* rclcpp::ServiceBase */
	struct tb_handle rcl_handle, rmw_handle;
	struct tb_callback callback;
	tb_node *node;
	tb_callback_group *group;
	char *name;
	dds_entity_t request_reader, reply_writer, ready;
	tb_service_fn fn;
	void *user;
	atomic_bool taking;
};

struct tb_client {
	struct tb_client_layout rclcpp; /* rclcpp::ClientBase */
	struct tb_handle rcl_handle, rmw_handle;
	tb_node *node;
	tb_callback_group *group;
	char *service;
	dds_entity_t request_writer, reply_reader, ready;
	tb_response_fn fn;
	void *user;
	uint64_t id;
	atomic_int_fast64_t next_request;
	atomic_bool taking;
};

struct tb_executor {
	struct tb_executor_layout rclcpp; /* rclcpp::Executor / static twin */
	tb_context *ctx;
	enum tb_executor_type type;
	unsigned threads;
	dds_entity_t waitset, wakeup; /* wakeup: guard condition */
	pthread_mutex_t lock;
	pthread_cond_t idle; /* threads not waiting on the waitset */
	bool someone_waits;
	unsigned running; /* callbacks being executed */
	struct tb_list groups;
	int error;
};

/* What the executor constructors do (rclcpp_abi.c calls it). */
TB_HIDDEN void tb_executor_construct(tb_executor *exec,
	enum tb_executor_type type, unsigned threads);
/* Entities are registered with the executor when their group is added. */
TB_HIDDEN int tb_executor_attach_group(tb_executor *exec, tb_callback_group *group);
/* Wakes the executor of a group (intra-process message, shutdown). */
TB_HIDDEN void tb_executor_wake(tb_executor *exec);

TB_HIDDEN void tb_set_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
TB_HIDDEN char *tb_strdup(const char *s);
/* "rt" + topic, "rq" + name + "Request", ... */
TB_HIDDEN dds_entity_t tb_create_topic(tb_context *ctx, const char *prefix,
	const char *name, const char *suffix, const dds_topic_descriptor_t *desc);
TB_HIDDEN void tb_make_gid(tb_context *ctx, uint8_t gid[24]);

/* Intra-process delivery (intra.c). */
TB_HIDDEN int tb_intra_init(struct tb_intra_queue *q, size_t depth);
TB_HIDDEN void tb_intra_fini(struct tb_intra_queue *q);
TB_HIDDEN tb_message *tb_intra_pop(struct tb_intra_queue *q);
TB_HIDDEN bool tb_intra_pending(struct tb_intra_queue *q);
TB_HIDDEN tb_message *tb_message_alloc(size_t payload_size);
TB_HIDDEN tb_message *tb_message_copy(const tb_message *m);
TB_HIDDEN void tb_message_free(tb_message *m);
/* Hands msg to sub's queue (taking ownership) and wakes its executor. */
TB_HIDDEN void tb_intra_deliver(tb_subscription *sub, tb_message *msg);

/* Executing one ready entity (execute.c). */
TB_HIDDEN void tb_execute_timer(tb_timer *timer);
TB_HIDDEN void tb_execute_subscription(tb_subscription *sub);
TB_HIDDEN void tb_execute_service(tb_service *service);
TB_HIDDEN void tb_execute_client(tb_client *client);

#endif
