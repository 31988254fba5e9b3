/*
 * tbrt/runtime.h - the testbed runtime: an rclcpp-like C runtime over
 * Cyclone DDS. From a tracer's point of view it behaves like rclcpp + rcl +
 * rmw_cyclonedds: it creates the same objects, calls the ros_trace_*
 * functions at the same points and in the same order, calls the rclcpp
 * functions a tracer hooks under their mangled names (rclcpp_abi.h), and
 * publishes through Cyclone's dds_write. It also records the ground truth
 * (truth.h) so an analyzer's numbers can be checked against facts.
 *
 * Threading: create everything from one thread before spinning; publish and
 * call clients from callbacks; tb_context_shutdown may be called from any
 * thread or a signal handler.
 */
#ifndef TBRT_RUNTIME_H
#define TBRT_RUNTIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tb_msgs.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TB_API __attribute__((visibility("default")))

typedef struct tb_context tb_context;
typedef struct tb_node tb_node;
typedef struct tb_callback_group tb_callback_group;
typedef struct tb_publisher tb_publisher;
typedef struct tb_subscription tb_subscription;
typedef struct tb_timer tb_timer;
typedef struct tb_service tb_service;
typedef struct tb_client tb_client;
typedef struct tb_executor tb_executor;

typedef tb_msgs_msg_dds__Chain_ tb_message;
typedef tb_msgs_srv_dds__Call_ tb_call;

/* rclcpp::CallbackGroupType values. */
enum tb_group_type { TB_GROUP_MUTUALLY_EXCLUSIVE = 0, TB_GROUP_REENTRANT = 1 };

enum tb_executor_type {
	TB_EXECUTOR_SINGLE_THREADED,
	TB_EXECUTOR_MULTI_THREADED,
	TB_EXECUTOR_STATIC_SINGLE_THREADED,
};

typedef void (*tb_timer_fn)(tb_timer *timer, void *user);
/* msg is valid during the call only. */
typedef void (*tb_subscription_fn)(tb_subscription *sub, const tb_message *msg,
	bool intra_process, void *user);
/* Fill nothing: the runtime replies with the request's ids. */
typedef void (*tb_service_fn)(tb_service *service, const tb_call *request,
	void *user);
typedef void (*tb_response_fn)(tb_client *client, const tb_call *response,
	void *user);

struct tb_context_options {
	const char *process_name; /* for ground truth file names */
	int domain_id;            /* DDS domain; -1: ROS_DOMAIN_ID or 0 */
	bool intra_process;       /* same-process links by pointer handoff */
	const char *truth_dir;    /* write ground truth there; NULL: none */
};

/* CLOCK_MONOTONIC in ns: the clock LTTng stamps events with. */
TB_API int64_t tb_now(void);

/* Last error of this thread, e.g. "dds_create_participant: ...". */
TB_API const char *tb_last_error(void);

TB_API tb_context *tb_context_create(const struct tb_context_options *options);
/* Stops every executor of the context within 100 ms (async-signal-safe). */
TB_API void tb_context_shutdown(tb_context *ctx);
TB_API bool tb_context_ok(const tb_context *ctx);
/* Flushes the ground truth and frees everything. */
TB_API void tb_context_destroy(tb_context *ctx);

TB_API tb_node *tb_node_create(tb_context *ctx, const char *name, const char *ns);
TB_API const char *tb_node_fqn(const tb_node *node); /* "/ns/name" */
/* The node's default group (mutually exclusive), created with the node. */
TB_API tb_callback_group *tb_node_default_group(tb_node *node);
TB_API tb_callback_group *tb_group_create(tb_node *node, enum tb_group_type type);

/* topic: a ROS name ("/sensing/raw"); the DDS topic is "rt" + topic. */
TB_API tb_publisher *tb_publisher_create(tb_node *node, const char *topic,
	size_t depth, size_t payload_size);
/* Publishes one message with this header stamp and chain origin; returns
 * its sequence number (> 0), or 0 on failure. */
TB_API uint64_t tb_publish(tb_publisher *pub, int64_t stamp, int64_t origin);
TB_API const char *tb_publisher_topic(const tb_publisher *pub);

/* group NULL: the node's default group. symbol: what
 * rclcpp_callback_register records (a demangled function name). */
TB_API tb_subscription *tb_subscription_create(tb_node *node, const char *topic,
	size_t depth, tb_callback_group *group, tb_subscription_fn fn,
	void *user, const char *symbol);
TB_API tb_timer *tb_timer_create(tb_node *node, int64_t period_ns,
	tb_callback_group *group, tb_timer_fn fn, void *user,
	const char *symbol);
TB_API tb_service *tb_service_create(tb_node *node, const char *name,
	tb_callback_group *group, tb_service_fn fn, void *user,
	const char *symbol);
TB_API tb_client *tb_client_create(tb_node *node, const char *service,
	tb_callback_group *group, tb_response_fn fn, void *user);
/* Sends a request; returns its request id (> 0), or 0 on failure. */
TB_API int64_t tb_client_send(tb_client *client);

/* threads: for TB_EXECUTOR_MULTI_THREADED (0: 2). */
TB_API tb_executor *tb_executor_create(tb_context *ctx, enum tb_executor_type type,
	unsigned threads);
/* Adds every callback group of the node, as rclcpp's add_node does. */
TB_API int tb_executor_add_node(tb_executor *exec, tb_node *node);
/* Runs callbacks until tb_context_shutdown. 0, or -1 on a DDS error. */
TB_API int tb_executor_spin(tb_executor *exec);

/* Ground truth: msg ended its chain in sub's callback at end_ns (the
 * end-to-end latency is end_ns - msg->origin). */
TB_API void tb_record_chain_end(tb_subscription *sub, const tb_message *msg,
	int64_t end_ns);

/* Names as callbacks are known in the ground truth and the architecture:
 * "timer_callback_N" / "subscription_callback_N" / "service_callback_N",
 * N by construction order within the node. */
TB_API const char *tb_timer_name(const tb_timer *timer);
TB_API const char *tb_subscription_name(const tb_subscription *sub);
TB_API tb_node *tb_subscription_node(const tb_subscription *sub);
TB_API tb_node *tb_timer_node(const tb_timer *timer);
TB_API tb_context *tb_node_context(const tb_node *node);

#ifdef __cplusplus
}
#endif

#endif
