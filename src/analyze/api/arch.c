/*
 * arch.c - caret/analyze.h's architecture file: the trace's written as
 * the original writes it, a file checked, a named path read from one.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "api.h"
#include "error_build.h"

/* The file to write, opened if it is a regular file or a new one: a FIFO
 * (or a device) is refused before the open, which would block, and after
 * it, for one swapped in between (opened non-blocking). NULL with *error. */
static FILE *open_to_write(const char *file, caret_error **error)
{
	if (!caret_api_regular_file(file, true, "caret_write_architecture", error))
		return NULL;
	int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NONBLOCK, 0666);
	struct stat st = { 0 };
	FILE *out = NULL;
	if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
		out = fdopen(fd, "w");
	if (!out) {
		bool opened = fd >= 0 && S_ISREG(st.st_mode);
		caret_error_add(error, CARET_ERR_IO, file, -1, NULL, "%s", fd < 0 || opened ?
			strerror(errno) : "not a regular file");
		if (fd >= 0)
			close(fd);
	}
	return out;
}

caret_status caret_write_architecture(const caret_trace *t, const char *file, bool all,
	caret_error **error)
{
	char err[1024];
	if (!error)
		return CARET_ERR_INVALID;
	*error = NULL;
	if (!API_GIVEN_TRACE(t, error) || !API_GIVEN(file, error))
		return CARET_ERR_INVALID;
	FILE *out = open_to_write(file, error);
	if (!out)
		return caret_error_status(*error);
	int failed = ca_arch_write_yaml(t->trace, out, all, err, sizeof err);
	if (fclose(out) != 0 && !failed) {
		failed = 1;
		snprintf(err, sizeof err, "%s", strerror(errno));
	}
	if (failed) {
		caret_error_add(error, CARET_ERR_IO, file, -1, NULL, "%s", err);
		return CARET_ERR_IO;
	}
	return CARET_OK;
}

caret_status caret_check_architecture(const char *file, caret_error **error)
{
	char err[1024];
	ca_arch_file_summary summary;
	if (!error)
		return CARET_ERR_INVALID;
	*error = NULL;
	if (!API_GIVEN(file, error))
		return CARET_ERR_INVALID;
	if (!caret_api_regular_file(file, false, __func__, error))
		return caret_error_status(*error);
	if (ca_arch_file_check(file, &summary, err, sizeof err) != 0) {
		caret_error_add(error, CARET_ERR_FORMAT, NULL, -1, NULL, "%s", err);
		return CARET_ERR_FORMAT;
	}
	return CARET_OK;
}

caret_iter *caret_architecture_path(const char *file, const char *name, caret_error **error)
{
	char err[1024];
	if (!error)
		return NULL;
	*error = NULL;
	if (!API_GIVEN(file, error) || !API_GIVEN(name, error) ||
	    !caret_api_regular_file(file, false, __func__, error))
		return NULL;
	ca_path_set *set = ca_arch_file_path(file, name, err, sizeof err);
	if (!set) {
		caret_error_add(error, CARET_ERR_NOT_FOUND, NULL, -1, NULL, "%s", err);
		return NULL;
	}
	caret_iter *it = caret_api_paths_iter(set);
	if (!it)
		caret_error_add(error, CARET_ERR_NO_MEMORY, NULL, -1, NULL, "out of memory");
	return it;
}
