/* ctf_copies.h - every trace directory a load reads, read once: a
 * recording's copy filed beside it (one host's session copied under the
 * same hostname, a trace directory copied next to itself) or one folder
 * reached through two of the paths given would count each of its events
 * twice. Two directories are the same data when a stream file of one
 * opens with the very packet header (trace UUID, stream, times and sizes)
 * of a stream file of the other: separate recordings never share one. (The
 * trace UUID alone would not do: a rotated session's chunks share it.) */
#ifndef CARET_CTF_COPIES_H
#define CARET_CTF_COPIES_H

#include <stddef.h>

#include "caret/error.h"

/* CARET_OK when no trace directory under paths[0..n) is read twice; else
 * CARET_ERR_INVALID with err naming both folders (or the one given twice),
 * or ctf_list_traces' failure. */
caret_status ctf_check_copies(const char *const *paths, size_t n_paths, char *err,
	size_t err_size);

#endif
