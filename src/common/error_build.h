/*
 * error_build.h - how caret-c's libraries make the errors of
 * caret/error.h: the innermost cause first, then each level that passes
 * the error up adds its own in front.
 */
#ifndef CARET_ERROR_BUILD_H
#define CARET_ERROR_BUILD_H

#include <stdarg.h>

#include "caret/error.h"

/* Adds a cause in front of *error's (a new error when *error is NULL).
 * file NULL, offset -1 and event NULL when unknown. Out of memory, *error
 * becomes a shared error that says so (caret_error_free ignores it). */
void caret_error_add(caret_error **error, caret_status status, const char *file,
	int64_t offset, const char *event, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
void caret_error_addv(caret_error **error, caret_status status, const char *file,
	int64_t offset, const char *event, const char *fmt, va_list ap)
	__attribute__((format(printf, 6, 0)));
/* A new error of the causes of text (one cause, no file): for a level that
 * still speaks in text. */
caret_error *caret_error_of_text(caret_status status, const char *text);

#endif
