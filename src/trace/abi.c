/* abi.c - see abi.h. */
#define _GNU_SOURCE
#include "abi.h"

#include <dlfcn.h>
#include <pthread.h>

#include "original.h"
#include "rclcpp_symbols.h"

_Atomic int ct_abi_detected = -1;

static pthread_once_t once = PTHREAD_ONCE_INIT;

/* Defined by a library after ours (we define most of them ourselves), in
 * the global scope or a local one (rclpy's). */
static bool have(const char *symbol)
{
	return ct_original_lookup(symbol) != NULL;
}

/*
 * Humble: tracetools without the Iron-and-later ros_trace_enabled_*
 * functions. Jazzy: with them and with Jazzy's ring-buffer tracepoints, and
 * an rclcpp (if loaded) that has Jazzy's ExecutorEntitiesCollector and not
 * Humble's add_callback_group_to_map. Anything else (Iron, a newer
 * distribution, a mix) is unknown: Kilted and later (tracetools 8.5 and
 * later, with the rmw service tracepoints) are told apart from Jazzy by
 * those, never taken for it. No tracetools at all: nothing will call the
 * tracepoint hooks; Humble's rules are then harmless.
 */
static enum ct_abi classify(void)
{
	bool iron_or_later = have("ros_trace_enabled_rcl_init");
	if (!iron_or_later)
		return CT_ABI_HUMBLE;
	bool jazzy_tracetools = have("ros_trace_rclcpp_ring_buffer_enqueue") &&
		have("ros_trace_do_rclcpp_callback_register") &&
		!have("ros_trace_rmw_send_request"); /* Kilted's */
	bool humble_rclcpp = have(RCLCPP_SYM_ADD_CALLBACK_GROUP_TO_MAP);
	bool jazzy_rclcpp = have(RCLCPP_SYM_JAZZY_ADD_TO_COLLECTION);
	bool rclcpp = have(RCLCPP_SYM_GROUP_ADD_TIMER);
	if (jazzy_tracetools && !humble_rclcpp && (jazzy_rclcpp || !rclcpp))
		return CT_ABI_JAZZY;
	return CT_ABI_UNKNOWN;
}

/* A Python process that has not imported rclpy yet has no tracetools
 * loaded: asked again until it has (a program that links ROS 2 has it from
 * the start). */
static bool tracetools_to_come(void)
{
	return !have("ros_trace_rcl_init") && dlsym(RTLD_DEFAULT, "Py_IsInitialized");
}

static void detect_once(void)
{
	if (tracetools_to_come())
		return;
	enum ct_abi abi = classify();
	atomic_store_explicit(&ct_abi_detected, abi, memory_order_release);
	if (abi == CT_ABI_UNKNOWN)
		ct_debug("this process's tracetools/rclcpp ABI is not one the tracer knows "
			"(Humble, Jazzy)%s: it records nothing and forwards every call",
			have("ros_trace_rmw_send_request") ? "; its tracetools is Kilted's or later's" :
			"");
}

enum ct_abi ct_abi_detect(void)
{
	static pthread_mutex_t later = PTHREAD_MUTEX_INITIALIZER;
	pthread_once(&once, detect_once);
	int abi = atomic_load_explicit(&ct_abi_detected, memory_order_acquire);
	if (abi >= 0)
		return (enum ct_abi)abi;
	/* Python before rclpy: nothing to trace yet (Humble's rules are then
	 * harmless), and asked again, one thread at a time. */
	pthread_mutex_lock(&later);
	if (atomic_load_explicit(&ct_abi_detected, memory_order_acquire) < 0)
		detect_once();
	pthread_mutex_unlock(&later);
	abi = atomic_load_explicit(&ct_abi_detected, memory_order_acquire);
	return abi >= 0 ? (enum ct_abi)abi : CT_ABI_HUMBLE;
}

const struct ct_rclcpp_layout *ct_rclcpp_layout(void)
{
	static const struct ct_rclcpp_layout humble = { RCLCPP_TIMER_HANDLE_OFFSET,
		RCLCPP_SUBSCRIPTION_HANDLE_OFFSET, RCLCPP_SERVICE_HANDLE_OFFSET,
		RCLCPP_CLIENT_HANDLE_OFFSET };
	static const struct ct_rclcpp_layout jazzy = { RCLCPP_JAZZY_TIMER_HANDLE_OFFSET,
		RCLCPP_JAZZY_SUBSCRIPTION_HANDLE_OFFSET, RCLCPP_JAZZY_SERVICE_HANDLE_OFFSET,
		RCLCPP_JAZZY_CLIENT_HANDLE_OFFSET };
	return ct_abi() == CT_ABI_JAZZY ? &jazzy : &humble;
}

const char *ct_abi_name(enum ct_abi abi)
{
	switch (abi) {
	case CT_ABI_HUMBLE: return "humble";
	case CT_ABI_JAZZY: return "jazzy";
	default: return "unknown";
	}
}
