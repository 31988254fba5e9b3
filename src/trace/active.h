/*
 * active.h - whether the hooks do their work: the process has an ABI the
 * tracer knows (abi.h) and LTTng-UST could be loaded in it (lttng_loader.h).
 * Otherwise every hook only forwards to the original.
 */
#ifndef CT_ACTIVE_H
#define CT_ACTIVE_H

#include <stdbool.h>

#include "abi.h"
#include "lttng_loader.h"

static inline bool ct_active(void)
{
	return ct_abi_known() && ct_lttng_ready();
}

#endif
