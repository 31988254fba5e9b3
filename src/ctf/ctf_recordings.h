/* ctf_recordings.h - which recordings (LTTng sessions) the CTF traces
 * under a path belong to, so that several are never read as one by
 * accident (docs/trace-format.md#recordings defines a recording). */
#ifndef CARET_CTF_RECORDINGS_H
#define CARET_CTF_RECORDINGS_H

#include <stddef.h>

#include "caret/error.h"

/* The recording the trace directory dir (found under path, so path is its
 * prefix) belongs to, into out (size bytes): the LTTng session folder
 * above its ust/uid/UID/BITS, ust/pid/PROC or kernel folder (and above a
 * rotated session's archives/CHUNK), but never above path; dir itself
 * when it is laid out as no session's. */
void ctf_recording_of(const char *path, const char *dir, char *out, size_t size);

/* The recordings under path, sorted and each once: CARET_OK with *roots
 * (ctf_free_dirs) and *n, or ctf_list_traces' failure with err. */
caret_status ctf_find_recordings(const char *path, char ***roots, size_t *n, char *err,
	size_t err_size);

#endif
