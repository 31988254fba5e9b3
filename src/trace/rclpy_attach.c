/*
 * rclpy_attach.c - Python nodes (rclpy). rclpy has no tracepoints and runs
 * its callbacks from Python, so no C function marks where a callback run
 * begins or ends. When rclpy makes its first node (rcl_node_init, with
 * rclpy's extension loaded in a running interpreter), the tracer runs
 * caret_rclpy.py in it, which wraps rclpy's Node.create_* and Executor
 * take methods and reports, through the functions below:
 *   - each subscription, timer, service and client made, with its
 *     callback's Python name: recorded as rclcpp's initialization events
 *     (the entity's Python object standing for rclcpp's, its address + 1
 *     for its callback);
 *   - each callback run: callback_start/end, a client's response run:
 *     client_callback_start/end.
 * rcl and the rmw record the rest (node, publisher, take, publish) as for
 * rclcpp, and a publish gets the rclcpp_publish stage rclpy lacks.
 *
 * The interpreter is reached through its C API, looked up in the process
 * (libcaret.so does not link libpython); the script's errors are cleared,
 * never printed: Python nodes are then not traced (CARET_DEBUG says why),
 * and the program runs as without the tracer.
 */
#define _GNU_SOURCE
#include "rclpy_attach.h"

#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>

#include "active.h"
#include "filter.h"
#include "init_store.h"
#include "merge.h"
#include "original.h"
#include "ros2_caret_tp.h"
#include "tracer.h"

extern const char ct_rclpy_script[]; /* caret_rclpy.py, embedded at build */

atomic_bool ct_rclpy_attached;

/* rclpy's timers. rclpy makes a timer on every spin_once with a timeout:
 * its rcl_timer_init is held (per thread) and recorded only when
 * Node.create_timer reports the timer it made. */
static CT_TLS struct { const void *handle; int64_t period, time; } held_timer;

/* ---- the interpreter ---------------------------------------------------- */

#define PY_FILE_INPUT 257 /* Py_file_input */

struct python {
	int (*is_initialized)(void);
	int (*gil_ensure)(void);
	void (*gil_release)(int);
	void *(*dict_new)(void);
	void *(*builtins)(void);
	int (*dict_set)(void *, const char *, void *);
	void *(*compile)(const char *, const char *, int, void *, int);
	void *(*eval)(void *, void *, void *);
	void (*fetch)(void **, void **, void **);
	void (*restore)(void *, void *, void *);
	void (*decref)(void *);
	void *(*str)(void *);
	const char *(*utf8)(void *);
};

#define LOOK_UP(py, field, name) \
	((py)->field = (__typeof__((py)->field))dlsym(RTLD_DEFAULT, name)) != NULL

static bool find_python(struct python *py)
{
	return LOOK_UP(py, is_initialized, "Py_IsInitialized") &&
	       LOOK_UP(py, gil_ensure, "PyGILState_Ensure") &&
	       LOOK_UP(py, gil_release, "PyGILState_Release") &&
	       LOOK_UP(py, dict_new, "PyDict_New") &&
	       LOOK_UP(py, builtins, "PyEval_GetBuiltins") &&
	       LOOK_UP(py, dict_set, "PyDict_SetItemString") &&
	       LOOK_UP(py, compile, "Py_CompileStringExFlags") &&
	       LOOK_UP(py, eval, "PyEval_EvalCode") &&
	       LOOK_UP(py, fetch, "PyErr_Fetch") &&
	       LOOK_UP(py, restore, "PyErr_Restore") &&
	       LOOK_UP(py, decref, "Py_DecRef") &&
	       LOOK_UP(py, str, "PyObject_Str") &&
	       LOOK_UP(py, utf8, "PyUnicode_AsUTF8");
}

static int is_rclpy_extension(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	(void)data;
	return info->dlpi_name && strstr(info->dlpi_name, "/_rclpy_pybind11");
}

/* What the script raised, in why (the exception's text). */
static void describe(const struct python *py, void *value, char *why, size_t size)
{
	void *text = value ? py->str(value) : NULL;
	const char *utf8 = text ? py->utf8(text) : NULL;
	snprintf(why, size, "%s", utf8 ? utf8 : "an exception without text");
	if (text)
		py->decref(text);
}

/* Runs the script in a module namespace of its own; its exception, if any,
 * said in why and cleared (the caller's, if any, kept). */
static bool run_script(const struct python *py, char *why, size_t why_size)
{
	void *type, *value, *trace;
	py->fetch(&type, &value, &trace);
	bool ok = false;
	void *globals = py->dict_new();
	if (globals && !py->dict_set(globals, "__builtins__", py->builtins())) {
		/* the name a traceback through the wrappers shows */
		void *code = py->compile(ct_rclpy_script, "caret-c tracer (libcaret.so)",
			PY_FILE_INPUT, NULL, -1);
		void *result = code ? py->eval(code, globals, globals) : NULL;
		ok = result != NULL;
		if (result)
			py->decref(result);
		if (code)
			py->decref(code);
	}
	void *objects[3] = { NULL, NULL, NULL }; /* the script's: said, then dropped */
	py->fetch(&objects[0], &objects[1], &objects[2]);
	if (!ok)
		describe(py, objects[1], why, why_size);
	for (int i = 0; i < 3; i++)
		if (objects[i])
			py->decref(objects[i]);
	py->fetch(&objects[0], &objects[1], &objects[2]); /* describe's own, if any */
	for (int i = 0; i < 3; i++)
		if (objects[i])
			py->decref(objects[i]);
	if (globals)
		py->decref(globals); /* the wrappers hold what they need */
	py->restore(type, value, trace);
	return ok;
}

void ct_rclpy_attach(void)
{
	static atomic_bool tried;
	if (atomic_load_explicit(&tried, memory_order_relaxed) || ct_process_ignored)
		return;
	struct python py;
	if (!find_python(&py) || !py.is_initialized() ||
	    !dl_iterate_phdr(is_rclpy_extension, NULL))
		return; /* not rclpy's node (rclcpp's, in or out of Python) */
	if (atomic_exchange(&tried, true))
		return;
	char why[160] = "";
	int gil = py.gil_ensure();
	bool ok = run_script(&py, why, sizeof why);
	py.gil_release(gil);
	atomic_store_explicit(&ct_rclpy_attached, ok, memory_order_release);
	if (ok) {
		ct_debug("rclpy: its nodes are traced");
	} else {
		char problem[256];
		snprintf(problem, sizeof problem, "rclpy's nodes are not traced: %s", why);
		ct_report_problem(problem);
	}
}

/* ---- rclpy's timers ----------------------------------------------------- */

bool ct_rclpy_hold_timer(const void *handle, int64_t period)
{
	if (!atomic_load_explicit(&ct_rclpy_attached, memory_order_acquire))
		return false;
	held_timer.handle = handle;
	held_timer.period = period;
	held_timer.time = ct_now();
	return true;
}

/* ---- what caret_rclpy.py reports ----------------------------------------- */

#define P(x) { .u = (uint64_t)(uintptr_t)(x) }
#define S(x) { .s = (x) }
#define I(x) { .i = (int64_t)(x) }

#define RECORD_INIT(time, id, ...)                                              \
	do {                                                                    \
		const union ct_value v_[] = { __VA_ARGS__ };                    \
		ct_record_initialization(id, v_, sizeof v_ / sizeof *v_, time); \
	} while (0)

enum { KIND_SUBSCRIPTION, KIND_TIMER, KIND_SERVICE, KIND_CLIENT, KIND_EXECUTOR, KIND_GROUP,
	KIND_IN_GROUP };

/* An executor, a callback group it runs, an entity in a group. */
static void record_execution(int kind, const void *handle, const void *other,
	const void *object, const char *name, int64_t now)
{
	static const int in_group[] = { CS_EV_ros2_caret_callback_group_add_subscription,
		CS_EV_ros2_caret_callback_group_add_timer,
		CS_EV_ros2_caret_callback_group_add_service,
		CS_EV_ros2_caret_callback_group_add_client };
	uintptr_t entity_kind = (uintptr_t)other;
	if (kind == KIND_EXECUTOR)
		RECORD_INIT(now, CS_EV_ros2_caret_construct_executor, P(object), S(name));
	else if (kind == KIND_GROUP && handle)
		RECORD_INIT(now, CS_EV_ros2_caret_add_callback_group, P(handle), P(object), S(name));
	else if (kind == KIND_IN_GROUP && handle && entity_kind < 4)
		RECORD_INIT(now, in_group[entity_kind], P(object), P(handle));
}
enum { RUN_START, RUN_END, RUN_CLIENT_START, RUN_CLIENT_END };

CT_EXPORT void caret_rclpy_register(int kind, const void *handle, const void *node,
	const void *entity, const char *symbol)
{
	CT_ENTER(e);
	const char *callback = (const char *)entity + 1;
	int64_t now = ct_now();
	if (CT_REENTERED() || !ct_active() || !entity)
		;
	else if (kind >= KIND_EXECUTOR)
		record_execution(kind, handle, node, entity, symbol ? symbol : "", now);
	else if (!handle)
		;
	else if (kind == KIND_SUBSCRIPTION) {
		RECORD_INIT(now, CS_EV_ros2_caret_rclcpp_subscription_init, P(handle), P(entity));
		RECORD_INIT(now, CS_EV_ros2_caret_rclcpp_subscription_callback_added, P(entity),
			P(callback));
	} else if (kind == KIND_TIMER) {
		if (held_timer.handle == handle)
			RECORD_INIT(held_timer.time, CS_EV_ros2_caret_rcl_timer_init, P(handle),
				I(held_timer.period));
		held_timer.handle = NULL;
		RECORD_INIT(now, CS_EV_ros2_caret_rclcpp_timer_callback_added, P(handle),
			P(callback));
		RECORD_INIT(now, CS_EV_ros2_caret_rclcpp_timer_link_node, P(handle), P(node));
	} else if (kind == KIND_SERVICE) {
		RECORD_INIT(now, CS_EV_ros2_caret_rclcpp_service_callback_added, P(handle),
			P(callback));
	}
	if (!CT_REENTERED() && ct_active() && handle && entity && kind < KIND_CLIENT &&
	    symbol && *symbol)
		RECORD_INIT(now, CS_EV_ros2_caret_rclcpp_callback_register, P(callback), S(symbol));
	CT_LEAVE(e);
}

/* As rclcpp's callback_start/end and execute_client (hooks_tracetools.c,
 * hooks_client.c) record them. */
CT_EXPORT void caret_rclpy_run(int phase, const void *entity)
{
	CT_ENTER(e);
	const void *callback = (const char *)entity + 1;
	if (CT_REENTERED() || !ct_recording() || !ct_active() || ct_thread.in_control)
		;
	else if (phase == RUN_CLIENT_START)
		lttng_ust_tracepoint(ros2_caret, client_callback_start, entity);
	else if (phase == RUN_CLIENT_END)
		lttng_ust_tracepoint(ros2_caret, client_callback_end, entity);
	else if (phase == RUN_START) {
		bool allowed = ct_allow_callback(callback);
		if (ct_filter_active)
			ct_run_begins(allowed);
		if (allowed)
			ct_emit_callback_start(callback, false);
	} else if (phase == RUN_END) {
		if (ct_filter_active)
			ct_run_ends();
		if (ct_allow_callback(callback))
			ct_emit_callback_end(callback);
	}
	CT_LEAVE(e);
}
