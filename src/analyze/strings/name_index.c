/* name_index.c - see name_index.h. */
#include "name_index.h"

#include <stdlib.h>
#include <string.h>

static bool grow(struct name_index *x)
{
	size_t size = x->size ? 2 * x->size : 256;
	const char **keys = calloc(size, sizeof *keys);
	void **values = calloc(size, sizeof *values);
	if (!keys || !values) {
		free(keys);
		free(values);
		return false;
	}
	for (size_t i = 0; i < x->size; i++) {
		if (!x->keys[i])
			continue;
		size_t k = ca_hash_str(x->keys[i]) & (size - 1);
		while (keys[k])
			k = (k + 1) & (size - 1);
		keys[k] = x->keys[i];
		values[k] = x->values[i];
	}
	free(x->keys);
	free(x->values);
	x->keys = keys;
	x->values = values;
	x->size = size;
	return true;
}

bool name_index_put(struct name_index *x, const char *key, void *value)
{
	if (!key)
		return true;
	if ((x->count + 1) * 2 > x->size && !grow(x))
		return false;
	size_t k = ca_hash_str(key) & (x->size - 1);
	for (; x->keys[k]; k = (k + 1) & (x->size - 1))
		if (!strcmp(x->keys[k], key))
			return true;
	x->keys[k] = key;
	x->values[k] = value;
	x->count++;
	return true;
}

void *name_index_get(const struct name_index *x, const char *key)
{
	if (!key || !x->size)
		return NULL;
	for (size_t k = ca_hash_str(key) & (x->size - 1); x->keys[k]; k = (k + 1) & (x->size - 1))
		if (!strcmp(x->keys[k], key))
			return x->values[k];
	return NULL;
}

void name_index_free(struct name_index *x)
{
	free(x->keys);
	free(x->values);
	*x = (struct name_index){ 0 };
}
