/*
 * ros2_caret_probes.c - the `ros2_caret` probes: libcaret-lttng.so, the
 * part of the tracer linked with liblttng-ust, loaded by libcaret.so
 * (lttng_loader.c) beside which it is installed.
 */
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#include "ros2_caret_tp.h"
