/* ros2_kilted_tp.c - the ros2 provider with Kilted's layout (kilted_emit). */
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#define LTTNG_UST_TRACEPOINT_DEFINE
#include "ros2_kilted_tp.h"
