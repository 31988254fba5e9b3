/*
 * original.h - the next definition of a hooked symbol, found lazily and
 * cached; a missing one is not an error (the hook then does only its own
 * work). dlsym(RTLD_NEXT) sees only the global scope: a library loaded
 * with local binding (Python's extensions, such as rclpy's, and librcl,
 * librmw and libtracetools under them) is searched after it, in each
 * loaded object's own scope (original.c).
 */
#ifndef CT_ORIGINAL_H
#define CT_ORIGINAL_H

#include <dlfcn.h>
#include <stdatomic.h>

#include "tracer.h"

/* The definition of name after libcaret.so's: the global scope's next,
 * else the first a loaded library resolves it to. NULL if none. Takes the
 * loader's lock when the global scope has none: first calls only. */
CT_HIDDEN void *ct_original_lookup(const char *name);

/* Declares `fn_type original` for symbol name in the calling hook. */
#define CT_ORIGINAL(fn_type, name)                                              \
	typedef __typeof__(fn_type) ct_original_fn;                             \
	static _Atomic(ct_original_fn) ct_slot_;                                \
	static atomic_bool ct_looked_up_;                                       \
	ct_original_fn original = atomic_load_explicit(&ct_slot_, memory_order_acquire); \
	if (CT_UNLIKELY(!original && !atomic_load_explicit(&ct_looked_up_, memory_order_acquire))) { \
		original = (ct_original_fn)ct_original_lookup(name);              \
		atomic_store_explicit(&ct_slot_, original, memory_order_release); \
		atomic_store_explicit(&ct_looked_up_, true, memory_order_release); \
	}

#endif
