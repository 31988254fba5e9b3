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

#define TB_MANGLED(name) __asm__(name) __attribute__((visibility("default")))

/* rclcpp::executors::SingleThreadedExecutor::SingleThreadedExecutor(
 *     rclcpp::ExecutorOptions const&) */
void tb_rclcpp_single_threaded_executor_ctor(void *self, const void *options)
	TB_MANGLED("_ZN6rclcpp9executors22SingleThreadedExecutorC1ERKNS_15ExecutorOptionsE");

/* MultiThreadedExecutor(ExecutorOptions const&, size_t number_of_threads,
 *     bool yield_before_execute, std::chrono::nanoseconds timeout) */
void tb_rclcpp_multi_threaded_executor_ctor(void *self, const void *options,
	size_t number_of_threads, bool yield_before_execute, int64_t timeout_ns)
	TB_MANGLED("_ZN6rclcpp9executors21MultiThreadedExecutorC1ERKNS_15ExecutorOptionsEmbNSt6chrono8durationIlSt5ratioILl1ELl1000000000EEEE");

/* StaticSingleThreadedExecutor(ExecutorOptions const&) */
void tb_rclcpp_static_single_threaded_executor_ctor(void *self, const void *options)
	TB_MANGLED("_ZN6rclcpp9executors28StaticSingleThreadedExecutorC1ERKNS_15ExecutorOptionsE");

/* void Executor::add_callback_group_to_map(shared_ptr<CallbackGroup>,
 *     shared_ptr<NodeBaseInterface>, WeakCallbackGroupsToNodesMap&, bool) */
void tb_rclcpp_executor_add_callback_group_to_map(void *self,
	struct tb_shared_ptr *group, struct tb_shared_ptr *node,
	void *weak_groups_to_nodes, bool notify)
	TB_MANGLED("_ZN6rclcpp8Executor25add_callback_group_to_mapESt10shared_ptrINS_13CallbackGroupEES1_INS_15node_interfaces17NodeBaseInterfaceEERSt3mapISt8weak_ptrIS2_ES8_IS5_ESt10owner_lessIS9_ESaISt4pairIKS9_SA_EEEb");

/* bool StaticExecutorEntitiesCollector::add_callback_group(
 *     shared_ptr<CallbackGroup>, shared_ptr<NodeBaseInterface>,
 *     WeakCallbackGroupsToNodesMap&) */
bool tb_rclcpp_entities_collector_add_callback_group(void *self,
	struct tb_shared_ptr *group, struct tb_shared_ptr *node,
	void *weak_groups_to_nodes)
	TB_MANGLED("_ZN6rclcpp9executors31StaticExecutorEntitiesCollector18add_callback_groupESt10shared_ptrINS_13CallbackGroupEES2_INS_15node_interfaces17NodeBaseInterfaceEERSt3mapISt8weak_ptrIS3_ES9_IS6_ESt10owner_lessISA_ESaISt4pairIKSA_SB_EEE");

/* void CallbackGroup::add_timer(shared_ptr<TimerBase>) and its siblings. */
void tb_rclcpp_group_add_timer(void *self, struct tb_shared_ptr *timer)
	TB_MANGLED("_ZN6rclcpp13CallbackGroup9add_timerESt10shared_ptrINS_9TimerBaseEE");
void tb_rclcpp_group_add_subscription(void *self, struct tb_shared_ptr *sub)
	TB_MANGLED("_ZN6rclcpp13CallbackGroup16add_subscriptionESt10shared_ptrINS_16SubscriptionBaseEE");
void tb_rclcpp_group_add_service(void *self, struct tb_shared_ptr *service)
	TB_MANGLED("_ZN6rclcpp13CallbackGroup11add_serviceESt10shared_ptrINS_11ServiceBaseEE");
void tb_rclcpp_group_add_client(void *self, struct tb_shared_ptr *client)
	TB_MANGLED("_ZN6rclcpp13CallbackGroup10add_clientESt10shared_ptrINS_10ClientBaseEE");

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
