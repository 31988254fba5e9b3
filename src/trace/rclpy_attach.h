/*
 * rclpy_attach.h - Python nodes (rclpy) traced through the tracer's Python
 * part, run inside the interpreter when rclpy makes its first node
 * (rclpy_attach.c, rclpy/caret_rclpy.py).
 */
#ifndef CT_RCLPY_ATTACH_H
#define CT_RCLPY_ATTACH_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "tracer.h"

/* The Python part runs in this process. */
CT_HIDDEN extern atomic_bool ct_rclpy_attached;

/* Called as a node is made: in a Python process with rclpy loaded, runs
 * the Python part (once). Holds the GIL meanwhile. */
CT_HIDDEN void ct_rclpy_attach(void);

/* An rcl timer made in a process with the Python part: held until
 * Node.create_timer claims it (true), else not rclpy's (false). */
CT_HIDDEN bool ct_rclpy_hold_timer(const void *handle, int64_t period);

/* A callback run's start and end, recorded (merged or through tracetools)
 * as rclcpp's are; the filter decision is the caller's (hooks_tracetools.c). */
CT_HIDDEN void ct_emit_callback_start(const void *callback, bool is_intra_process);
CT_HIDDEN void ct_emit_callback_end(const void *callback);

/* Called by caret_rclpy.py (ctypes, GIL held).
 * register(kind, handle, node, object, name):
 *   0 subscription, 1 timer, 2 service, 3 client: made, with its rcl handle,
 *     its node's (timers), its Python object and its callback's name;
 *   4 executor: the executor (object), its type (name);
 *   5 callback group: the executor (handle), the group (object), its type;
 *   6 in a group: the entity's rcl handle, its kind (0-3, as node), the
 *     group (object).
 * run(phase, entity): 0/1 a callback run's start/end, 2/3 a client
 * response run's, of the entity (its Python object). */
CT_EXPORT void caret_rclpy_register(int kind, const void *handle, const void *node,
	const void *entity, const char *symbol);
CT_EXPORT void caret_rclpy_run(int phase, const void *entity);

#endif
