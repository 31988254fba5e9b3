/*
 * ros2_caret_tp.c - the LTTng-UST provider `ros2_caret` (probes and
 * tracepoint definitions), built as its own object library that the tracer
 * links. The provider header is generated from src/schema/events.def.
 */
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#define LTTNG_UST_TRACEPOINT_DEFINE
#include "ros2_caret_tp.h"
