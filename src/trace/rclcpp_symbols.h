/*
 * rclcpp_symbols.h - the Itanium-mangled names of the rclcpp functions the
 * tracer hooks, and the member offsets it reads, for rclcpp 16 (Humble,
 * upstream and CARET's fork) and rclcpp 28 (Jazzy); shared with the testbed
 * runtime, which exports the Humble ones, and the testbed's probe.
 * docs/dev/testbed.md and docs/dev/tracer.md list their C++ names; the
 * offsets were read from the DWARF of the real libraries and are checked by
 * tests/real (arch_check finds every group, timer, subscription, service and
 * client where the app made it).
 */
#ifndef CT_RCLCPP_SYMBOLS_H
#define CT_RCLCPP_SYMBOLS_H

#define RCLCPP_SYM_SINGLE_THREADED_EXECUTOR_CTOR \
	"_ZN6rclcpp9executors22SingleThreadedExecutorC1ERKNS_15ExecutorOptionsE"
#define RCLCPP_SYM_MULTI_THREADED_EXECUTOR_CTOR \
	"_ZN6rclcpp9executors21MultiThreadedExecutorC1ERKNS_15ExecutorOptionsEmbNSt6chrono8durationIlSt5ratioILl1ELl1000000000EEEE"
#define RCLCPP_SYM_STATIC_EXECUTOR_CTOR \
	"_ZN6rclcpp9executors28StaticSingleThreadedExecutorC1ERKNS_15ExecutorOptionsE"
#define RCLCPP_SYM_ADD_CALLBACK_GROUP_TO_MAP \
	"_ZN6rclcpp8Executor25add_callback_group_to_mapESt10shared_ptrINS_13CallbackGroupEES1_INS_15node_interfaces17NodeBaseInterfaceEERSt3mapISt8weak_ptrIS2_ES8_IS5_ESt10owner_lessIS9_ESaISt4pairIKS9_SA_EEEb"
#define RCLCPP_SYM_COLLECTOR_ADD_CALLBACK_GROUP \
	"_ZN6rclcpp9executors31StaticExecutorEntitiesCollector18add_callback_groupESt10shared_ptrINS_13CallbackGroupEES2_INS_15node_interfaces17NodeBaseInterfaceEERSt3mapISt8weak_ptrIS3_ES9_IS6_ESt10owner_lessISA_ESaISt4pairIKSA_SB_EEE"
#define RCLCPP_SYM_GROUP_ADD_TIMER \
	"_ZN6rclcpp13CallbackGroup9add_timerESt10shared_ptrINS_9TimerBaseEE"
#define RCLCPP_SYM_GROUP_ADD_SUBSCRIPTION \
	"_ZN6rclcpp13CallbackGroup16add_subscriptionESt10shared_ptrINS_16SubscriptionBaseEE"
#define RCLCPP_SYM_GROUP_ADD_SERVICE \
	"_ZN6rclcpp13CallbackGroup11add_serviceESt10shared_ptrINS_11ServiceBaseEE"
#define RCLCPP_SYM_GROUP_ADD_CLIENT \
	"_ZN6rclcpp13CallbackGroup10add_clientESt10shared_ptrINS_10ClientBaseEE"

/* Member offsets in rclcpp Humble (x86-64, libstdc++). */
#define RCLCPP_TIMER_HANDLE_OFFSET 24        /* TimerBase::timer_handle_ */
#define RCLCPP_SUBSCRIPTION_HANDLE_OFFSET 48 /* SubscriptionBase::subscription_handle_ */
#define RCLCPP_SERVICE_HANDLE_OFFSET 24      /* ServiceBase::service_handle_ */
#define RCLCPP_CLIENT_HANDLE_OFFSET 72       /* ClientBase::client_handle_ */
#define RCLCPP_ENTITIES_COLLECTOR_OFFSET 576 /* StaticSingleThreadedExecutor::entities_collector_ */

/* rclcpp 28 (Jazzy): every executor hands its callback groups to an
 * ExecutorEntitiesCollector (this = the collector); Single-, Multi- and
 * StaticSingleThreadedExecutor embed it (Executor::collector_), the
 * EventsExecutor holds its own (a shared_ptr). The Executor constructor
 * (C2, run by every executor type) and the EventsExecutor's are hooked to
 * tie collectors to executors. */
#define RCLCPP_SYM_JAZZY_ADD_TO_COLLECTION \
	"_ZN6rclcpp9executors25ExecutorEntitiesCollector32add_callback_group_to_collectionESt10shared_ptrINS_13CallbackGroupEERSt3setISt8weak_ptrIS3_ESt10owner_lessIS7_ESaIS7_EE"
#define RCLCPP_SYM_EXECUTOR_CTOR_C1 "_ZN6rclcpp8ExecutorC1ERKNS_15ExecutorOptionsE"
#define RCLCPP_SYM_EXECUTOR_CTOR_C2 "_ZN6rclcpp8ExecutorC2ERKNS_15ExecutorOptionsE"
#define RCLCPP_SYM_EVENTS_EXECUTOR_CTOR_C1 \
	"_ZN6rclcpp12experimental9executors14EventsExecutorC1ESt10unique_ptrINS1_11EventsQueueESt14default_deleteIS4_EEbRKNS_15ExecutorOptionsE"
#define RCLCPP_SYM_EVENTS_EXECUTOR_CTOR_C2 \
	"_ZN6rclcpp12experimental9executors14EventsExecutorC2ESt10unique_ptrINS1_11EventsQueueESt14default_deleteIS4_EEbRKNS_15ExecutorOptionsE"

/* Member offsets in rclcpp Jazzy (x86-64, libstdc++). */
#define RCLCPP_JAZZY_TIMER_HANDLE_OFFSET 96         /* TimerBase::timer_handle_ */
#define RCLCPP_JAZZY_SUBSCRIPTION_HANDLE_OFFSET 120 /* SubscriptionBase::subscription_handle_ */
#define RCLCPP_JAZZY_SERVICE_HANDLE_OFFSET 96       /* ServiceBase::service_handle_ */
#define RCLCPP_JAZZY_CLIENT_HANDLE_OFFSET 160       /* ClientBase::client_handle_ */
#define RCLCPP_JAZZY_EXECUTOR_COLLECTOR_OFFSET 128  /* Executor::collector_ (by value) */
#define RCLCPP_JAZZY_EVENTS_EXECUTOR_COLLECTOR_OFFSET 1464 /* EventsExecutor::entities_collector_ (shared_ptr) */

#endif
