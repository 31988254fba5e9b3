/*
 * ros2_caret_tp.c - the LTTng-UST provider `ros2_caret` (probes and
 * tracepoint definitions) in one object, linked with liblttng-ust: for
 * programs that carry the provider themselves (the unit tests, the
 * testbed's emitters). libcaret.so splits it in two instead
 * (ros2_caret_sites.c, ros2_caret_probes.c). The provider header is
 * generated from src/schema/events.def.
 */
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#define LTTNG_UST_TRACEPOINT_DEFINE
#include "ros2_caret_tp.h"
