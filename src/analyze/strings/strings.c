/*
 * strings.c - the analyzer's string table (strings.h): open addressing on
 * FNV-1a, the table at most half full.
 */
#include "strings.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "name_index.h"
#include "vec.h"

static bool grow_index(struct ca_strings *t)
{
	size_t size = t->index_size ? 2 * t->index_size : 1024;
	uint32_t *index = calloc(size, sizeof *index);
	if (!index)
		return false;
	for (size_t i = 0; i < t->n; i++) {
		size_t k = ca_hash_str(t->items[i]) & (size - 1);
		while (index[k])
			k = (k + 1) & (size - 1);
		index[k] = (uint32_t)i + 1;
	}
	free(t->index);
	t->index = index;
	t->index_size = size;
	return true;
}

uint64_t ca_strings_intern(struct ca_strings *t, const char *s)
{
	if ((t->n + 1) * 2 > t->index_size && !grow_index(t))
		return 0;
	size_t k = ca_hash_str(s) & (t->index_size - 1);
	for (; t->index[k]; k = (k + 1) & (t->index_size - 1))
		if (!strcmp(t->items[t->index[k] - 1], s))
			return t->index[k];
	if (!VEC_ROOM(t->items, t->n, t->cap) || !(t->items[t->n] = strdup(s)))
		return 0;
	t->index[k] = (uint32_t)++t->n;
	return t->n;
}

const char *ca_strings_get(const struct ca_strings *t, uint64_t id)
{
	return id >= 1 && id <= t->n ? t->items[id - 1] : NULL;
}

void ca_strings_free(struct ca_strings *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->items[i]);
	free(t->items);
	free(t->index);
	*t = (struct ca_strings){ 0 };
}
