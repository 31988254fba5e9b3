/*
 * vec.h - growable arrays: a pointer, a length and a capacity, grown by
 * doubling. VEC_PUSH yields a pointer to the new (zeroed) last element, or
 * NULL when out of memory. VEC_PUSH_RAW, for an element the caller writes
 * whole: not zeroed, and the room grown not touched, so the pages of a
 * large array's unused room are never faulted in (the last doubling
 * leaves up to half of it).
 */
#ifndef CARET_VEC_H
#define CARET_VEC_H

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static inline bool caret_vec_grow(void **items, size_t *cap, size_t item_size, bool zero)
{
	size_t n = *cap ? 2 * *cap : 16;
	void *grown = realloc(*items, n * item_size);
	if (!grown)
		return false;
	if (zero)
		memset((char *)grown + *cap * item_size, 0, (n - *cap) * item_size);
	*items = grown;
	*cap = n;
	return true;
}

#define VEC_PUSH(items, n, cap)                                                          \
	(((n) < (cap) || caret_vec_grow((void **)&(items), &(cap), sizeof *(items), true)) \
		? &(items)[(n)++] : NULL)
#define VEC_PUSH_RAW(items, n, cap)                                                       \
	(((n) < (cap) || caret_vec_grow((void **)&(items), &(cap), sizeof *(items), false)) \
		? &(items)[(n)++] : NULL)

/* Room for one more element (not zeroed): false when out of memory. */
#define VEC_ROOM(items, n, cap) \
	((n) < (cap) || caret_vec_grow((void **)&(items), &(cap), sizeof *(items), false))

#endif
