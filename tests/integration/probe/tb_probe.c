/*
 * tb_probe - a tiny LD_PRELOAD library for the testbed's tests. It hooks
 * the runtime's rclcpp symbols (by mangled name) and Cyclone's dds_write,
 * logs every call with the values a tracer would read (this, group type,
 * handles at rclcpp's offsets), and forwards to the original. For
 * dds_write it writes with an explicit source timestamp and records
 * ros2_caret:dds_bind_addr_to_stamp, as the tracer does, so a test can
 * match publishes to takes from the trace.
 *
 * Log: $TB_PROBE_DIR/probe.<pid>.log, one line per call:
 *   construct_executor <type> <this> [<entities_collector>]
 *   add_callback_group <executor> <group> <type>
 *   add_callback_group_static_executor <collector> <group> <type>
 *   callback_group_add_<kind> <group> <rcl handle>
 *   dds_write <data> <source_timestamp>
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <dds/dds.h>

#include "rclcpp_symbols.h"
#include "ros2_caret_tp.h"

#define EXPORT __attribute__((visibility("default")))
#define MANGLED(name) __asm__(name) EXPORT

struct shared_ptr {
	void *ptr;
	void *ctrl;
};

static void logf_(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void logf_(const char *fmt, ...)
{
	static int fd = -1;
	int saved = errno;
	char line[512];

	if (fd < 0) {
		const char *dir = getenv("TB_PROBE_DIR");
		char path[4096];
		snprintf(path, sizeof path, "%s/probe.%d.log", dir ? dir : "/tmp", getpid());
		fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	}
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(line, sizeof line - 1, fmt, ap);
	va_end(ap);
	if (fd >= 0 && n > 0) {
		line[n] = '\n';
		ssize_t w = write(fd, line, (size_t)n + 1);
		(void)w;
	}
	errno = saved;
}

#define ORIGINAL(type, name) \
	typedef __typeof__(type) original_fn; \
	static original_fn original; \
	if (!original) \
		original = (original_fn)dlsym(RTLD_NEXT, name)

static const char *group_type(const void *group)
{
	int type = *(const int *)group; /* rclcpp::CallbackGroup::type_ at 0 */
	return type == 0 ? "mutually_exclusive" : type == 1 ? "reentrant" : "unknown";
}

static void *member(const void *object, size_t offset)
{
	return *(void *const *)((const char *)object + offset);
}

#define S_CTOR RCLCPP_SYM_SINGLE_THREADED_EXECUTOR_CTOR
#define M_CTOR RCLCPP_SYM_MULTI_THREADED_EXECUTOR_CTOR
#define ST_CTOR RCLCPP_SYM_STATIC_EXECUTOR_CTOR
#define ADD_TO_MAP RCLCPP_SYM_ADD_CALLBACK_GROUP_TO_MAP
#define COLLECTOR_ADD RCLCPP_SYM_COLLECTOR_ADD_CALLBACK_GROUP

void probe_single_ctor(void *self, const void *options) MANGLED(S_CTOR);
void probe_single_ctor(void *self, const void *options)
{
	ORIGINAL(void (*)(void *, const void *), S_CTOR);
	original(self, options);
	logf_("construct_executor single_threaded_executor %p", self);
}

void probe_multi_ctor(void *self, const void *options, size_t threads, bool yield,
	int64_t timeout) MANGLED(M_CTOR);
void probe_multi_ctor(void *self, const void *options, size_t threads, bool yield,
	int64_t timeout)
{
	ORIGINAL(void (*)(void *, const void *, size_t, bool, int64_t), M_CTOR);
	original(self, options, threads, yield, timeout);
	logf_("construct_executor multi_threaded_executor %p", self);
}

void probe_static_ctor(void *self, const void *options) MANGLED(ST_CTOR);
void probe_static_ctor(void *self, const void *options)
{
	ORIGINAL(void (*)(void *, const void *), ST_CTOR);
	original(self, options);
	/* entities_collector_ follows rclcpp::Executor (576 bytes). */
	logf_("construct_executor static_single_threaded_executor %p %p", self,
		member(self, RCLCPP_ENTITIES_COLLECTOR_OFFSET));
}

void probe_add_to_map(void *self, struct shared_ptr *group, struct shared_ptr *node,
	void *map, bool notify) MANGLED(ADD_TO_MAP);
void probe_add_to_map(void *self, struct shared_ptr *group, struct shared_ptr *node,
	void *map, bool notify)
{
	ORIGINAL(void (*)(void *, struct shared_ptr *, struct shared_ptr *, void *, bool),
		ADD_TO_MAP);
	logf_("add_callback_group %p %p %s", self, group->ptr, group_type(group->ptr));
	original(self, group, node, map, notify);
}

bool probe_collector_add(void *self, struct shared_ptr *group, struct shared_ptr *node,
	void *map) MANGLED(COLLECTOR_ADD);
bool probe_collector_add(void *self, struct shared_ptr *group, struct shared_ptr *node,
	void *map)
{
	ORIGINAL(bool (*)(void *, struct shared_ptr *, struct shared_ptr *, void *),
		COLLECTOR_ADD);
	logf_("add_callback_group_static_executor %p %p %s", self, group->ptr,
		group_type(group->ptr));
	return original(self, group, node, map);
}

#define GROUP_ADD_HOOK(fn, symbol, kind, offset)                                 \
	void fn(void *self, struct shared_ptr *entity) MANGLED(symbol);          \
	void fn(void *self, struct shared_ptr *entity)                           \
	{                                                                        \
		ORIGINAL(void (*)(void *, struct shared_ptr *), symbol);         \
		logf_("callback_group_add_" kind " %p %p", self,                 \
			member(entity->ptr, offset));                            \
		original(self, entity);                                          \
	}

/* rcl handles at rclcpp's member offsets (rclcpp_symbols.h). */
GROUP_ADD_HOOK(probe_add_timer, RCLCPP_SYM_GROUP_ADD_TIMER, "timer",
	RCLCPP_TIMER_HANDLE_OFFSET)
GROUP_ADD_HOOK(probe_add_subscription, RCLCPP_SYM_GROUP_ADD_SUBSCRIPTION, "subscription",
	RCLCPP_SUBSCRIPTION_HANDLE_OFFSET)
GROUP_ADD_HOOK(probe_add_service, RCLCPP_SYM_GROUP_ADD_SERVICE, "service",
	RCLCPP_SERVICE_HANDLE_OFFSET)
GROUP_ADD_HOOK(probe_add_client, RCLCPP_SYM_GROUP_ADD_CLIENT, "client",
	RCLCPP_CLIENT_HANDLE_OFFSET)

EXPORT dds_return_t dds_write(dds_entity_t writer, const void *data)
{
	ORIGINAL(dds_return_t (*)(dds_entity_t, const void *, dds_time_t), "dds_write_ts");
	dds_time_t stamp = dds_time();
	dds_return_t rc = original(writer, data, stamp);
	lttng_ust_tracepoint(ros2_caret, dds_bind_addr_to_stamp, data, (uint64_t)stamp);
	logf_("dds_write %p %lld", data, (long long)stamp);
	return rc;
}
