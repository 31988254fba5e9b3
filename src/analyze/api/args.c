/*
 * args.c - the caller's arguments checked at the public API's door: a
 * NULL where a pointer is needed, a number outside its range and a file
 * that is not a regular one become CARET_ERR_INVALID (or CARET_ERR_IO)
 * naming the function and the argument, never a crash or a blocked open.
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "api.h"
#include "error_build.h"

bool caret_api_given(const void *arg, const char *function, const char *name,
	caret_error **error)
{
	if (arg)
		return true;
	caret_error_add(error, CARET_ERR_INVALID, NULL, -1, NULL, "%s: %s is NULL", function, name);
	return false;
}

/* What a file that is not a regular one is. */
static const char *file_kind(mode_t mode)
{
	return S_ISDIR(mode) ? "a directory" : S_ISFIFO(mode) ? "a FIFO" :
		S_ISSOCK(mode) ? "a socket" : S_ISCHR(mode) || S_ISBLK(mode) ? "a device" :
		"a special file";
}

bool caret_api_regular_file(const char *file, bool may_be_missing, const char *function,
	caret_error **error)
{
	struct stat st;
	if (!caret_api_given(file, function, "file", error))
		return false;
	if (stat(file, &st) != 0) {
		if (may_be_missing && errno == ENOENT)
			return true;
		caret_error_add(error, CARET_ERR_IO, file, -1, NULL, "%s", strerror(errno));
		return false;
	}
	if (S_ISREG(st.st_mode))
		return true;
	/* before any open: opening a FIFO blocks until its other end opens */
	caret_error_add(error, CARET_ERR_IO, file, -1, NULL, "%s: %s, not a regular file",
		function, file_kind(st.st_mode));
	return false;
}

bool caret_api_known_callback(const caret_trace *t, size_t callback, caret_error **error)
{
	size_t n = ca_trace_architecture(t->trace)->n_callbacks;
	if (callback < n)
		return true;
	caret_error_add(error, CARET_ERR_NOT_FOUND, NULL, -1, NULL,
		"no callback of id %zu (the trace has %zu)", callback, n);
	return false;
}

bool caret_api_known_communication(const caret_trace *t, size_t communication,
	caret_error **error)
{
	if (communication < t->n_comms)
		return true;
	caret_error_add(error, CARET_ERR_NOT_FOUND, NULL, -1, NULL,
		"no communication of id %zu (the trace has %zu)", communication, t->n_comms);
	return false;
}
