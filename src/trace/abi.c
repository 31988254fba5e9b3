/* abi.c - see abi.h. */
#define _GNU_SOURCE
#include "abi.h"

#include <dlfcn.h>
#include <pthread.h>

#include "rclcpp_symbols.h"

_Atomic int ct_abi_detected = -1;

static pthread_once_t once = PTHREAD_ONCE_INIT;

/* Defined by a library after ours (we define most of them ourselves). */
static bool have(const char *symbol)
{
	return dlsym(RTLD_NEXT, symbol) != NULL;
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

static void detect_once(void)
{
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
	pthread_once(&once, detect_once);
	return (enum ct_abi)atomic_load_explicit(&ct_abi_detected, memory_order_acquire);
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
