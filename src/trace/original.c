/* original.c - see original.h. */
#define _GNU_SOURCE
#include "original.h"

#include <link.h>
#include <string.h>

#include "tracer.h"

struct search {
	const char *name;
	const void *own_base; /* libcaret.so's: never its own hooks */
	void *found;
};

/* A loaded object other than the program and the tracer: the symbol as
 * that object's lookup scope (itself, then its dependencies) resolves it. */
static int search_object(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	struct search *s = data;
	if (!info->dlpi_name || !*info->dlpi_name || (const void *)info->dlpi_addr == s->own_base)
		return 0;
	/* Held open: the library may not be unloaded under a cached pointer. */
	void *handle = dlopen(info->dlpi_name, RTLD_NOLOAD | RTLD_LAZY);
	if (!handle)
		return 0;
	void *f = dlsym(handle, s->name);
	Dl_info where;
	if (f && dladdr(f, &where) && where.dli_fbase != s->own_base) {
		s->found = f;
		return 1;
	}
	dlclose(handle);
	return 0;
}

void *ct_original_lookup(const char *name)
{
	void *f = dlsym(RTLD_NEXT, name);
	if (f)
		return f;
	Dl_info self;
	if (!dladdr((const void *)ct_original_lookup, &self))
		return NULL;
	struct search s = { .name = name, .own_base = self.dli_fbase };
	dl_iterate_phdr(search_object, &s);
	return s.found;
}
