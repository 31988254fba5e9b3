/*
 * hooks_rclcpp.c - rclcpp functions interposed by their Itanium-mangled
 * names (rclcpp_symbols.h): executor constructors, callback groups added to
 * executors (Humble: the executor or the static executor's collector;
 * Jazzy: every executor's ExecutorEntitiesCollector), entities added to
 * callback groups. Each records its ros2_caret event and forwards to the
 * original. Values are read from the objects at rclcpp's member offsets
 * for the ABI detected (abi.h): a C tracer cannot call the C++ accessors
 * without taking part in shared_ptr reference counting. On an unknown ABI
 * they only forward.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "abi.h"
#include "active.h"
#include "filter.h"
#include "init_store.h"
#include "original.h"
#include "rclcpp_symbols.h"
#include "tracer.h"

#define MANGLED(name) __asm__(name) CT_EXPORT

/* std::shared_ptr<T> passed by value arrives as a pointer to it. */
struct shared_ptr {
	void *ptr;
	void *ctrl;
};

static uint64_t member(const void *object, size_t offset)
{
	return object ? (uint64_t)(uintptr_t)*(void *const *)((const char *)object + offset) : 0;
}

/* CallbackGroup::type_ is its first member. */
static const char *group_type(const void *group)
{
	int type = group ? *(const int *)group : -1;
	return type == 0 ? "mutually_exclusive" : type == 1 ? "reentrant" : "unknown";
}

#define P(x) { .u = (uint64_t)(uintptr_t)(x) }
#define U(x) { .u = (x) }
#define S(x) { .s = (x) }
#define RECORD(id, ts, ...)                                                    \
	do {                                                                   \
		const union ct_value v_[] = { __VA_ARGS__ };                   \
		ct_record_initialization(id, v_, sizeof v_ / sizeof *v_, ts);  \
	} while (0)

/* Jazzy: the entities collector that takes the executor's callback groups. */
static void record_collector(const void *executor, uint64_t collector, int64_t now)
{
	if (ct_abi() == CT_ABI_JAZZY)
		RECORD(CS_EV_ros2_caret_executor_entity_collector_to_executor, now, P(executor),
			U(collector));
}

/* Jazzy: the collector of Single-, Multi- and StaticSingleThreadedExecutor
 * (and of any executor of the application's own), Executor::collector_. */
static void record_embedded_collector(const void *executor, int64_t now)
{
	record_collector(executor,
		(uint64_t)(uintptr_t)executor + RCLCPP_JAZZY_EXECUTOR_COLLECTOR_OFFSET, now);
}

#define S_CTOR RCLCPP_SYM_SINGLE_THREADED_EXECUTOR_CTOR
#define M_CTOR RCLCPP_SYM_MULTI_THREADED_EXECUTOR_CTOR
#define ST_CTOR RCLCPP_SYM_STATIC_EXECUTOR_CTOR
#define ADD_TO_MAP RCLCPP_SYM_ADD_CALLBACK_GROUP_TO_MAP
#define COLLECTOR_ADD RCLCPP_SYM_COLLECTOR_ADD_CALLBACK_GROUP

void ct_single_threaded_executor_ctor(void *self, const void *options) MANGLED(S_CTOR);
void ct_single_threaded_executor_ctor(void *self, const void *options)
{
	CT_ENTER(e);
	int64_t now = ct_now();
	CT_ORIGINAL(void (*)(void *, const void *), S_CTOR);
	if (original)
		original(self, options);
	e = errno;
	if (!CT_REENTERED()) {
		RECORD(CS_EV_ros2_caret_construct_executor, now, P(self),
			S("single_threaded_executor"));
		record_embedded_collector(self, now);
	}
	CT_LEAVE(e);
}

void ct_multi_threaded_executor_ctor(void *self, const void *options, size_t threads,
	bool yield_before_execute, int64_t timeout_ns) MANGLED(M_CTOR);
void ct_multi_threaded_executor_ctor(void *self, const void *options, size_t threads,
	bool yield_before_execute, int64_t timeout_ns)
{
	CT_ENTER(e);
	int64_t now = ct_now();
	CT_ORIGINAL(void (*)(void *, const void *, size_t, bool, int64_t), M_CTOR);
	if (original)
		original(self, options, threads, yield_before_execute, timeout_ns);
	e = errno;
	if (!CT_REENTERED()) {
		RECORD(CS_EV_ros2_caret_construct_executor, now, P(self),
			S("multi_threaded_executor"));
		record_embedded_collector(self, now);
	}
	CT_LEAVE(e);
}

void ct_static_executor_ctor(void *self, const void *options) MANGLED(ST_CTOR);
void ct_static_executor_ctor(void *self, const void *options)
{
	CT_ENTER(e);
	int64_t now = ct_now();
	CT_ORIGINAL(void (*)(void *, const void *), ST_CTOR);
	if (original)
		original(self, options);
	e = errno;
	/* Humble: the constructor made the entities collector, read after.
	 * Jazzy: the collector is the one every executor embeds. */
	if (!CT_REENTERED() && ct_active()) {
		uint64_t collector = ct_abi() == CT_ABI_JAZZY ?
			(uint64_t)(uintptr_t)self + RCLCPP_JAZZY_EXECUTOR_COLLECTOR_OFFSET :
			member(self, RCLCPP_ENTITIES_COLLECTOR_OFFSET);
		RECORD(CS_EV_ros2_caret_construct_static_executor, now, P(self), U(collector),
			S("static_single_threaded_executor"));
		record_collector(self, collector, now);
	}
	CT_LEAVE(e);
}

void ct_add_callback_group_to_map(void *self, struct shared_ptr *group,
	struct shared_ptr *node, void *weak_groups_to_nodes, bool notify) MANGLED(ADD_TO_MAP);
void ct_add_callback_group_to_map(void *self, struct shared_ptr *group,
	struct shared_ptr *node, void *weak_groups_to_nodes, bool notify)
{
	CT_ENTER(e);
	void *g = group ? group->ptr : NULL;
	if (!CT_REENTERED())
		RECORD(CS_EV_ros2_caret_add_callback_group, ct_now(), P(self), P(g),
			S(group_type(g)));
	CT_ORIGINAL(void (*)(void *, struct shared_ptr *, struct shared_ptr *, void *, bool),
		ADD_TO_MAP);
	errno = e;
	if (original)
		original(self, group, node, weak_groups_to_nodes, notify);
	e = errno;
	CT_LEAVE(e);
}

bool ct_collector_add_callback_group(void *self, struct shared_ptr *group,
	struct shared_ptr *node, void *weak_groups_to_nodes) MANGLED(COLLECTOR_ADD);
bool ct_collector_add_callback_group(void *self, struct shared_ptr *group,
	struct shared_ptr *node, void *weak_groups_to_nodes)
{
	CT_ENTER(e);
	void *g = group ? group->ptr : NULL;
	bool added = false;
	if (!CT_REENTERED())
		RECORD(CS_EV_ros2_caret_add_callback_group_static_executor, ct_now(),
			P(self), P(g), S(group_type(g)));
	CT_ORIGINAL(bool (*)(void *, struct shared_ptr *, struct shared_ptr *, void *),
		COLLECTOR_ADD);
	errno = e;
	if (original)
		added = original(self, group, node, weak_groups_to_nodes);
	e = errno;
	CT_LEAVE(e);
	return added;
}

/* CallbackGroup::add_<kind>(shared_ptr<KindBase>): the rcl handle is read
 * from the entity, at the ABI's offset (layout field), before forwarding. */
#define GROUP_ADD_HOOK(fn, symbol, event, field)                                \
	void fn(void *self, struct shared_ptr *entity) MANGLED(symbol);        \
	void fn(void *self, struct shared_ptr *entity)                         \
	{                                                                      \
		CT_ENTER(e);                                                   \
		if (!CT_REENTERED() && ct_active())                         \
			RECORD(event, ct_now(), P(self),                       \
				U(member(entity ? entity->ptr : NULL,          \
					ct_rclcpp_layout()->field)));          \
		CT_ORIGINAL(void (*)(void *, struct shared_ptr *), symbol);    \
		errno = e;                                                     \
		if (original)                                                  \
			original(self, entity);                                \
		e = errno;                                                     \
		CT_LEAVE(e);                                                   \
	}

GROUP_ADD_HOOK(ct_group_add_timer, RCLCPP_SYM_GROUP_ADD_TIMER,
	CS_EV_ros2_caret_callback_group_add_timer, timer_handle)
GROUP_ADD_HOOK(ct_group_add_subscription, RCLCPP_SYM_GROUP_ADD_SUBSCRIPTION,
	CS_EV_ros2_caret_callback_group_add_subscription, subscription_handle)
GROUP_ADD_HOOK(ct_group_add_service, RCLCPP_SYM_GROUP_ADD_SERVICE,
	CS_EV_ros2_caret_callback_group_add_service, service_handle)
GROUP_ADD_HOOK(ct_group_add_client, RCLCPP_SYM_GROUP_ADD_CLIENT,
	CS_EV_ros2_caret_callback_group_add_client, client_handle)

/* ---- Jazzy ---------------------------------------------------------------- */

/* ExecutorEntitiesCollector::add_callback_group_to_collection(group, set&):
 * this is the collector; it runs when the executor collects its entities
 * (at once, or at its next wait while spinning). */
#define ADD_TO_COLLECTION RCLCPP_SYM_JAZZY_ADD_TO_COLLECTION
void ct_add_callback_group_to_collection(void *self, struct shared_ptr *group,
	void *collection) MANGLED(ADD_TO_COLLECTION);
void ct_add_callback_group_to_collection(void *self, struct shared_ptr *group,
	void *collection)
{
	CT_ENTER(e);
	void *g = group ? group->ptr : NULL;
	if (!CT_REENTERED() && ct_abi() == CT_ABI_JAZZY)
		RECORD(CS_EV_ros2_caret_callback_group_to_executor_entity_collector, ct_now(),
			P(self), P(g), S(group_type(g)));
	CT_ORIGINAL(void (*)(void *, struct shared_ptr *, void *), ADD_TO_COLLECTION);
	errno = e;
	if (original)
		original(self, group, collection);
	e = errno;
	CT_LEAVE(e);
}

/* rclcpp::Executor's own constructor (C2 when a derived executor runs it):
 * for executors whose constructor the tracer does not hook (the
 * application's own), their collector. The hooked ones record theirs. */
#define EXECUTOR_CTOR_C1 RCLCPP_SYM_EXECUTOR_CTOR_C1
#define EXECUTOR_CTOR_C2 RCLCPP_SYM_EXECUTOR_CTOR_C2
typedef void (*executor_ctor_fn)(void *, const void *);

static void executor_ctor(void *self, const void *options, executor_ctor_fn original)
{
	CT_ENTER(e);
	int64_t now = ct_now();
	if (original)
		original(self, options);
	e = errno;
	if (!CT_REENTERED())
		record_embedded_collector(self, now);
	CT_LEAVE(e);
}

void ct_executor_ctor_c1(void *self, const void *options) MANGLED(EXECUTOR_CTOR_C1);
void ct_executor_ctor_c1(void *self, const void *options)
{
	CT_ORIGINAL(executor_ctor_fn, EXECUTOR_CTOR_C1);
	executor_ctor(self, options, original);
}

void ct_executor_ctor_c2(void *self, const void *options) MANGLED(EXECUTOR_CTOR_C2);
void ct_executor_ctor_c2(void *self, const void *options)
{
	CT_ORIGINAL(executor_ctor_fn, EXECUTOR_CTOR_C2);
	executor_ctor(self, options, original);
}

/* EventsExecutor(EventsQueue::UniquePtr, bool, ExecutorOptions const&): the
 * unique_ptr arrives as a pointer to it. Its callback groups go to a
 * collector of its own (a shared_ptr member), not the embedded one. */
#define EVENTS_CTOR_C1 RCLCPP_SYM_EVENTS_EXECUTOR_CTOR_C1
#define EVENTS_CTOR_C2 RCLCPP_SYM_EVENTS_EXECUTOR_CTOR_C2
typedef void (*events_ctor_fn)(void *, void *, bool, const void *);

static void events_executor_ctor(void *self, void *events_queue, bool timers_thread,
	const void *options, events_ctor_fn original)
{
	CT_ENTER(e);
	int64_t now = ct_now();
	if (original)
		original(self, events_queue, timers_thread, options);
	e = errno;
	if (!CT_REENTERED() && ct_abi() == CT_ABI_JAZZY) {
		RECORD(CS_EV_ros2_caret_construct_executor, now, P(self), S("events_executor"));
		record_collector(self, member(self, RCLCPP_JAZZY_EVENTS_EXECUTOR_COLLECTOR_OFFSET),
			now);
	}
	CT_LEAVE(e);
}

void ct_events_executor_ctor_c1(void *self, void *events_queue, bool timers_thread,
	const void *options) MANGLED(EVENTS_CTOR_C1);
void ct_events_executor_ctor_c1(void *self, void *events_queue, bool timers_thread,
	const void *options)
{
	CT_ORIGINAL(events_ctor_fn, EVENTS_CTOR_C1);
	events_executor_ctor(self, events_queue, timers_thread, options, original);
}

void ct_events_executor_ctor_c2(void *self, void *events_queue, bool timers_thread,
	const void *options) MANGLED(EVENTS_CTOR_C2);
void ct_events_executor_ctor_c2(void *self, void *events_queue, bool timers_thread,
	const void *options)
{
	CT_ORIGINAL(events_ctor_fn, EVENTS_CTOR_C2);
	events_executor_ctor(self, events_queue, timers_thread, options, original);
}
