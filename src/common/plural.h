/* plural.h - a count's noun in the singular for 1, else the plural: "1
 * process", "2 processes" (every message that counts things). */
#ifndef CARET_COMMON_PLURAL_H
#define CARET_COMMON_PLURAL_H

#include <stdint.h>

static inline const char *caret_plural(uint64_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

#endif
