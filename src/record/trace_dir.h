/*
 * trace_dir.h - a trace folder on disk: how much LTTng wrote in it, and
 * taking away one a failed recording left (it did not exist before).
 */
#ifndef CR_TRACE_DIR_H
#define CR_TRACE_DIR_H

#include <stdint.h>

/* Bytes of the regular files under path (0 when it does not exist);
 * symbolic links not followed. */
uint64_t cr_dir_bytes(const char *path);

/* Removes dir and everything under it; symbolic links are removed, not
 * followed. */
void cr_remove_tree(const char *dir);

#endif
