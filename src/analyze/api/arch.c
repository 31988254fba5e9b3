/*
 * arch.c - caret/analyze.h's architecture file: the trace's written as
 * the original writes it, a file checked, a named path read from one.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "error_build.h"

caret_status caret_write_architecture(const caret_trace *t, const char *file, bool all,
	caret_error **error)
{
	char err[1024];
	*error = NULL;
	FILE *out = file ? fopen(file, "w") : NULL;
	if (!out) {
		caret_error_add(error, file ? CARET_ERR_IO : CARET_ERR_INVALID, file, -1, NULL, "%s",
			file ? strerror(errno) : "no file to write to");
		return caret_error_status(*error);
	}
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

/* Whether the file can be read at all (an i/o error, not a format one). */
static caret_status readable(const char *file, caret_error **error)
{
	FILE *f = file ? fopen(file, "r") : NULL;
	if (!f) {
		caret_error_add(error, file ? CARET_ERR_IO : CARET_ERR_INVALID, file, -1, NULL, "%s",
			file ? strerror(errno) : "no architecture file given");
		return caret_error_status(*error);
	}
	fclose(f);
	return CARET_OK;
}

caret_status caret_check_architecture(const char *file, caret_error **error)
{
	char err[1024];
	ca_arch_file_summary summary;
	*error = NULL;
	if (readable(file, error) != CARET_OK)
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
	*error = NULL;
	if (readable(file, error) != CARET_OK)
		return NULL;
	ca_path_set *set = name ? ca_arch_file_path(file, name, err, sizeof err) : NULL;
	if (!set) {
		caret_error_add(error, name ? CARET_ERR_NOT_FOUND : CARET_ERR_INVALID, NULL, -1, NULL,
			"%s", name ? err : "no path name given");
		return NULL;
	}
	caret_iter *it = caret_api_paths_iter(set);
	if (!it)
		caret_error_add(error, CARET_ERR_NO_MEMORY, NULL, -1, NULL, "out of memory");
	return it;
}
