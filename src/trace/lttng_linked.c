/* lttng_linked.c - lttng_loader.h for programs that link the ros2_caret
 * provider with liblttng-ust themselves (caret_tp: the unit tests): LTTng-UST
 * came with the program, nothing to decide. */
#include "lttng_loader.h"

_Atomic int ct_lttng_status = 1;

bool ct_lttng_decide(void)
{
	return true;
}
