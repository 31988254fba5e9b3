/*
 * rclcpp_abi.h - the rclcpp functions a tracer hooks (and the accessors it
 * may call), exported by the runtime under their Itanium-mangled Humble
 * names, with Itanium argument conventions: `this` first; a by-value
 * std::shared_ptr arrives as a pointer to the caller's shared_ptr object; a
 * returned std::shared_ptr is written through a hidden first pointer.
 * The runtime calls them through the PLT, so a preloaded library can
 * interpose them exactly as it would librclcpp.so's.
 */
#ifndef TB_RCLCPP_ABI_H
#define TB_RCLCPP_ABI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rclcpp_layout.h"
#include "rclcpp_symbols.h" /* src/trace: the names the tracer hooks */

#define TB_MANGLED(name) __asm__(name) __attribute__((visibility("default")))

/* rclcpp::executors::SingleThreadedExecutor::SingleThreadedExecutor(
 *     rclcpp::ExecutorOptions const&) */
void tb_rclcpp_single_threaded_executor_ctor(void *self, const void *options)
	TB_MANGLED(RCLCPP_SYM_SINGLE_THREADED_EXECUTOR_CTOR);

/* MultiThreadedExecutor(ExecutorOptions const&, size_t number_of_threads,
 *     bool yield_before_execute, std::chrono::nanoseconds timeout) */
void tb_rclcpp_multi_threaded_executor_ctor(void *self, const void *options,
	size_t number_of_threads, bool yield_before_execute, int64_t timeout_ns)
	TB_MANGLED(RCLCPP_SYM_MULTI_THREADED_EXECUTOR_CTOR);

/* StaticSingleThreadedExecutor(ExecutorOptions const&) */
void tb_rclcpp_static_single_threaded_executor_ctor(void *self, const void *options)
	TB_MANGLED(RCLCPP_SYM_STATIC_EXECUTOR_CTOR);

/* void Executor::add_callback_group_to_map(shared_ptr<CallbackGroup>,
 *     shared_ptr<NodeBaseInterface>, WeakCallbackGroupsToNodesMap&, bool) */
void tb_rclcpp_executor_add_callback_group_to_map(void *self,
	struct tb_shared_ptr *group, struct tb_shared_ptr *node,
	void *weak_groups_to_nodes, bool notify)
	TB_MANGLED(RCLCPP_SYM_ADD_CALLBACK_GROUP_TO_MAP);

/* bool StaticExecutorEntitiesCollector::add_callback_group(
 *     shared_ptr<CallbackGroup>, shared_ptr<NodeBaseInterface>,
 *     WeakCallbackGroupsToNodesMap&) */
bool tb_rclcpp_entities_collector_add_callback_group(void *self,
	struct tb_shared_ptr *group, struct tb_shared_ptr *node,
	void *weak_groups_to_nodes)
	TB_MANGLED(RCLCPP_SYM_COLLECTOR_ADD_CALLBACK_GROUP);

/* void CallbackGroup::add_timer(shared_ptr<TimerBase>) and its siblings. */
void tb_rclcpp_group_add_timer(void *self, struct tb_shared_ptr *timer)
	TB_MANGLED(RCLCPP_SYM_GROUP_ADD_TIMER);
void tb_rclcpp_group_add_subscription(void *self, struct tb_shared_ptr *sub)
	TB_MANGLED(RCLCPP_SYM_GROUP_ADD_SUBSCRIPTION);
void tb_rclcpp_group_add_service(void *self, struct tb_shared_ptr *service)
	TB_MANGLED(RCLCPP_SYM_GROUP_ADD_SERVICE);
void tb_rclcpp_group_add_client(void *self, struct tb_shared_ptr *client)
	TB_MANGLED(RCLCPP_SYM_GROUP_ADD_CLIENT);

/* Accessors CARET's C++ hooks call. */
const int *tb_rclcpp_group_type(const void *self)
	TB_MANGLED("_ZNK6rclcpp13CallbackGroup4typeEv");
struct tb_shared_ptr *tb_rclcpp_timer_get_timer_handle(struct tb_shared_ptr *ret, void *self)
	TB_MANGLED("_ZN6rclcpp9TimerBase16get_timer_handleEv");
struct tb_shared_ptr *tb_rclcpp_subscription_get_handle(struct tb_shared_ptr *ret, void *self)
	TB_MANGLED("_ZN6rclcpp16SubscriptionBase23get_subscription_handleEv");
struct tb_shared_ptr *tb_rclcpp_service_get_handle(struct tb_shared_ptr *ret, void *self)
	TB_MANGLED("_ZN6rclcpp11ServiceBase18get_service_handleEv");
struct tb_shared_ptr *tb_rclcpp_client_get_handle(struct tb_shared_ptr *ret, void *self)
	TB_MANGLED("_ZN6rclcpp10ClientBase17get_client_handleEv");

#endif
