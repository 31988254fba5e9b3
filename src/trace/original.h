/*
 * original.h - the next definition of a hooked symbol, found lazily with
 * dlsym(RTLD_NEXT) and cached; a missing one is not an error (the hook
 * then does only its own work).
 */
#ifndef CT_ORIGINAL_H
#define CT_ORIGINAL_H

#include <dlfcn.h>
#include <stdatomic.h>

/* Declares `fn_type original` for symbol name in the calling hook. */
#define CT_ORIGINAL(fn_type, name)                                              \
	typedef __typeof__(fn_type) ct_original_fn;                             \
	static _Atomic(ct_original_fn) ct_slot_;                                \
	static atomic_bool ct_looked_up_;                                       \
	ct_original_fn original = atomic_load_explicit(&ct_slot_, memory_order_acquire); \
	if (CT_UNLIKELY(!original && !atomic_load_explicit(&ct_looked_up_, memory_order_acquire))) { \
		original = (ct_original_fn)dlsym(RTLD_NEXT, name);              \
		atomic_store_explicit(&ct_slot_, original, memory_order_release); \
		atomic_store_explicit(&ct_looked_up_, true, memory_order_release); \
	}

#endif
