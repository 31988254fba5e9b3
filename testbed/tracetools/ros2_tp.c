/*
 * ros2_tp.c - the LTTng-UST provider `ros2`, as ros2_tracing's
 * libtracetools.so carries it. Header generated from src/schema/events.def.
 */
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#define LTTNG_UST_TRACEPOINT_DEFINE
#include "ros2_tp.h"
