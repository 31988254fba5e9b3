/*
 * strings.h - the string table every stage of the analyzer shares: each
 * distinct string once, named by an id (1, 2, ...; 0 is no string). The
 * loader interns the trace's strings, the model and the paths name theirs
 * by the same ids. A leaf: it includes nothing of the analyzer.
 */
#ifndef CA_STRINGS_H
#define CA_STRINGS_H

#include <stddef.h>
#include <stdint.h>

struct ca_strings {
	char **items; /* id - 1 -> string */
	size_t n, cap;
	uint32_t *index; /* open addressing: id, 0 free */
	size_t index_size;
};

/* s's id, the string copied the first time it is met; 0 when out of memory. */
uint64_t ca_strings_intern(struct ca_strings *table, const char *s);
/* The string of id; NULL for 0 or an id not given. */
const char *ca_strings_get(const struct ca_strings *table, uint64_t id);
void ca_strings_free(struct ca_strings *table);

#endif
