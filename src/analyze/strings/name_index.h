/*
 * name_index.h - names to pointers in expected constant time (open
 * addressing, FNV-1a): what turns "is this name defined somewhere?" from a
 * scan into a lookup. Keys are borrowed, not copied; the first value put
 * under a name stays.
 */
#ifndef CA_NAME_INDEX_H
#define CA_NAME_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

static inline uint64_t ca_hash_str(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return h;
}

struct name_index {
	const char **keys;
	void **values;
	size_t size, count;
};

/* false when out of memory. */
bool name_index_put(struct name_index *x, const char *key, void *value);
/* NULL when absent (or key is NULL). */
void *name_index_get(const struct name_index *x, const char *key);
void name_index_free(struct name_index *x);

#endif
