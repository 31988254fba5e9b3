/*
 * lttng_loader.h - LTTng-UST in the tracer's process, loaded only where it
 * can run. libcaret.so does not link liblttng-ust, whose constructor starts
 * the listener threads; its probes (libcaret-lttng.so, installed beside it)
 * do, and are loaded once, before any hook does work, when lttng_room.c
 * finds what the listeners need. Otherwise the tracer stays out of the
 * process: every hook forwards (as on an unknown ABI), no store, no
 * control thread, and CARET_DEBUG says why, once.
 */
#ifndef CT_LTTNG_LOADER_H
#define CT_LTTNG_LOADER_H

#include <stdatomic.h>
#include <stdbool.h>

#include "tracer.h"

/* -1 not decided yet, 0 the tracer stays out, 1 the probes are loaded. */
CT_HIDDEN extern _Atomic int ct_lttng_status;

/* Decides (once; thread-safe) and says whether the probes are loaded. */
CT_HIDDEN bool ct_lttng_decide(void);

static inline bool ct_lttng_ready(void)
{
	int status = atomic_load_explicit(&ct_lttng_status, memory_order_acquire);
	return status >= 0 ? status == 1 : ct_lttng_decide();
}

#endif
