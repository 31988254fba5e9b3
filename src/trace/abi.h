/*
 * abi.h - which ROS 2 ABI the process has, detected once from the symbols
 * present (not from a build switch or ROS_DISTRO): the signatures of the
 * tracetools functions the tracer interposes and the rclcpp member offsets
 * it reads differ between Humble and Jazzy. On an ABI the tracer does not
 * know, every hook only forwards to the original (and CARET_DEBUG says so
 * once).
 */
#ifndef CT_ABI_H
#define CT_ABI_H

#include <stdbool.h>
#include <stddef.h>

#include "tracer.h"

enum ct_abi {
	CT_ABI_UNKNOWN,
	CT_ABI_HUMBLE, /* tracetools 4.x (upstream, CARET's fork), rclcpp 16 */
	CT_ABI_JAZZY,  /* tracetools 8.x, rclcpp 28 */
};

/* Where rclcpp keeps what the tracer reads (x86-64, libstdc++). */
struct ct_rclcpp_layout {
	size_t timer_handle;        /* TimerBase::timer_handle_ */
	size_t subscription_handle; /* SubscriptionBase::subscription_handle_ */
	size_t service_handle;      /* ServiceBase::service_handle_ */
	size_t client_handle;       /* ClientBase::client_handle_ */
};

CT_HIDDEN extern _Atomic int ct_abi_detected; /* enum ct_abi; read with ct_abi() */

/* Detects the ABI (once; thread-safe). */
CT_HIDDEN enum ct_abi ct_abi_detect(void);

static inline enum ct_abi ct_abi(void)
{
	int abi = atomic_load_explicit(&ct_abi_detected, memory_order_acquire);
	return abi >= 0 ? (enum ct_abi)abi : ct_abi_detect();
}

static inline bool ct_abi_known(void)
{
	return ct_abi() != CT_ABI_UNKNOWN;
}

/* The layout of the detected ABI (Humble's when unknown: never read then). */
CT_HIDDEN const struct ct_rclcpp_layout *ct_rclcpp_layout(void);

CT_HIDDEN const char *ct_abi_name(enum ct_abi abi);

#endif
