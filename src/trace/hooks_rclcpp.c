/*
 * hooks_rclcpp.c - rclcpp functions interposed by their Itanium-mangled
 * Humble names (docs/dev/testbed.md): executor constructors, callback
 * groups added to executors, entities added to callback groups. Each
 * records its ros2_caret event and forwards to the original. Values are
 * read from the objects at rclcpp's member offsets: a C tracer cannot call
 * the C++ accessors without taking part in shared_ptr reference counting.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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
	if (!CT_REENTERED())
		RECORD(CS_EV_ros2_caret_construct_executor, now, P(self),
			S("single_threaded_executor"));
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
	if (!CT_REENTERED())
		RECORD(CS_EV_ros2_caret_construct_executor, now, P(self),
			S("multi_threaded_executor"));
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
	/* The constructor made the entities collector: read it after. */
	if (!CT_REENTERED())
		RECORD(CS_EV_ros2_caret_construct_static_executor, now, P(self),
			U(member(self, RCLCPP_ENTITIES_COLLECTOR_OFFSET)),
			S("static_single_threaded_executor"));
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
 * from the entity before forwarding. */
#define GROUP_ADD_HOOK(fn, symbol, event, offset)                               \
	void fn(void *self, struct shared_ptr *entity) MANGLED(symbol);        \
	void fn(void *self, struct shared_ptr *entity)                         \
	{                                                                      \
		CT_ENTER(e);                                                   \
		if (!CT_REENTERED())                                           \
			RECORD(event, ct_now(), P(self),                       \
				U(member(entity ? entity->ptr : NULL, offset))); \
		CT_ORIGINAL(void (*)(void *, struct shared_ptr *), symbol);    \
		errno = e;                                                     \
		if (original)                                                  \
			original(self, entity);                                \
		e = errno;                                                     \
		CT_LEAVE(e);                                                   \
	}

GROUP_ADD_HOOK(ct_group_add_timer, RCLCPP_SYM_GROUP_ADD_TIMER,
	CS_EV_ros2_caret_callback_group_add_timer, RCLCPP_TIMER_HANDLE_OFFSET)
GROUP_ADD_HOOK(ct_group_add_subscription, RCLCPP_SYM_GROUP_ADD_SUBSCRIPTION,
	CS_EV_ros2_caret_callback_group_add_subscription, RCLCPP_SUBSCRIPTION_HANDLE_OFFSET)
GROUP_ADD_HOOK(ct_group_add_service, RCLCPP_SYM_GROUP_ADD_SERVICE,
	CS_EV_ros2_caret_callback_group_add_service, RCLCPP_SERVICE_HANDLE_OFFSET)
GROUP_ADD_HOOK(ct_group_add_client, RCLCPP_SYM_GROUP_ADD_CLIENT,
	CS_EV_ros2_caret_callback_group_add_client, RCLCPP_CLIENT_HANDLE_OFFSET)
