/*
 * ros2_caret_sites.c - the `ros2_caret` tracepoints as libcaret.so calls
 * them, without their probes: they stay disabled until libcaret-lttng.so
 * (ros2_caret_probes.c, linked with liblttng-ust) is loaded, which
 * lttng_loader.c does only where LTTng-UST can run.
 */
#define LTTNG_UST_TRACEPOINT_DEFINE
#define LTTNG_UST_TRACEPOINT_PROBE_DYNAMIC_LINKAGE
#include "ros2_caret_tp.h"
