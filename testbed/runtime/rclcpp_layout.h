/*
 * rclcpp_layout.h - the leading members of the objects rclcpp (Humble,
 * x86-64, libstdc++) passes to the functions a tracer hooks, laid out at the
 * same byte offsets, so a tracer can read them as it would read rclcpp's.
 * Offsets are from the Humble headers (docs/dev/testbed.md); the one for the
 * static executor's entities collector is computed, not compiled.
 */
#ifndef TB_RCLCPP_LAYOUT_H
#define TB_RCLCPP_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

/* std::shared_ptr<T>: the T*, then the control block (NULL here: nothing
 * is reference counted, and a C++ copy of a NULL-control shared_ptr does
 * not touch it). */
struct tb_shared_ptr {
	void *ptr;
	void *ctrl;
};

/* std::weak_ptr<T>: same two words. */
struct tb_weak_ptr {
	void *ptr;
	void *ctrl;
};

/* rclcpp::CallbackGroup: no vtable; CallbackGroupType type_ at 0
 * (MutuallyExclusive = 0, Reentrant = 1). */
struct tb_callback_group_layout {
	int type;
};

/* rclcpp::TimerBase: vptr, clock_, timer_handle_ (@24), in_use_by_wait_set_;
 * GenericTimer's callback_ (the trace's callback address) follows at 48. */
struct tb_timer_layout {
	const void *vptr;
	struct tb_shared_ptr clock;
	struct tb_shared_ptr timer_handle; /* rcl_timer_t * */
	uint64_t in_use_by_wait_set;
};

/* rclcpp::SubscriptionBase: vptr, enable_shared_from_this's weak_ptr,
 * node_base_, node_handle_, subscription_handle_ (@48). */
struct tb_subscription_layout {
	const void *vptr;
	struct tb_weak_ptr weak_this;
	void *node_base;
	struct tb_shared_ptr node_handle;
	struct tb_shared_ptr subscription_handle; /* rcl_subscription_t * */
};

/* rclcpp::ServiceBase: vptr, node_handle_, service_handle_ (@24). */
struct tb_service_layout {
	const void *vptr;
	struct tb_shared_ptr node_handle;
	struct tb_shared_ptr service_handle; /* rcl_service_t * */
};

/* rclcpp::ClientBase: vptr, node_graph_, node_handle_, context_,
 * node_logger_, client_handle_ (@72). */
struct tb_client_layout {
	const void *vptr;
	struct tb_weak_ptr node_graph;
	struct tb_shared_ptr node_handle;
	struct tb_shared_ptr context;
	struct tb_shared_ptr node_logger;
	struct tb_shared_ptr client_handle; /* rcl_client_t * */
};

/* rclcpp::Executor is 576 bytes; StaticSingleThreadedExecutor's only member,
 * entities_collector_, follows it. */
#define TB_RCLCPP_EXECUTOR_SIZE 576
struct tb_executor_layout {
	const void *vptr;
	unsigned char executor_members[TB_RCLCPP_EXECUTOR_SIZE - sizeof(void *)];
	struct tb_shared_ptr entities_collector; /* static executor only */
};

/* rclcpp::node_interfaces::NodeBaseInterface stand-in: what
 * add_callback_group_to_map's node argument points to. */
struct tb_node_base {
	const void *vptr;
	void *node; /* the tb_node */
};

/* rclcpp::executors::StaticExecutorEntitiesCollector stand-in. */
struct tb_entities_collector {
	const void *vptr;
	void *executor; /* the tb_executor that owns it */
};

_Static_assert(offsetof(struct tb_timer_layout, timer_handle) == 24, "TimerBase");
_Static_assert(sizeof(struct tb_timer_layout) == 48, "GenericTimer::callback_");
_Static_assert(offsetof(struct tb_subscription_layout, subscription_handle) == 48,
	"SubscriptionBase");
_Static_assert(offsetof(struct tb_service_layout, service_handle) == 24, "ServiceBase");
_Static_assert(offsetof(struct tb_client_layout, client_handle) == 72, "ClientBase");
_Static_assert(offsetof(struct tb_executor_layout, entities_collector) ==
	TB_RCLCPP_EXECUTOR_SIZE, "StaticSingleThreadedExecutor");

#endif
