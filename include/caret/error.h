/*
 * caret/error.h - what went wrong, as data: one status for the whole of
 * caret-c's analysis (the CTF reader and the analyzer alike), and an error
 * that carries its chain of causes, from what the caller asked (the first
 * cause) down to what was found (the last one): the file, the byte offset
 * in it and the event being read where each is known.
 */
#ifndef CARET_ERROR_H
#define CARET_ERROR_H

#include <stddef.h>
#include <stdint.h>

#include "caret/export.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum caret_status {
	CARET_OK = 0,
	CARET_ERR_INVALID,     /* bad arguments or options */
	CARET_ERR_NOT_FOUND,   /* a path, trace, node or topic that is not there */
	CARET_ERR_IO,          /* a file that cannot be opened, read or written */
	CARET_ERR_FORMAT,      /* input damaged, or not what its format says */
	CARET_ERR_UNSUPPORTED, /* valid input this reader does not read (another may) */
	CARET_ERR_NO_MEMORY,
	CARET_ERR_EMPTY,       /* nothing to analyze: no event of ROS 2 or CARET */
} caret_status;

/* "ok", "invalid", "not found", "i/o", "format", "unsupported", "no memory",
 * "empty"; "?" for another value. */
CARET_API const char *caret_status_name(caret_status status);

typedef struct caret_error caret_error;

typedef struct caret_error_cause {
	caret_status status;
	const char *message; /* this level's own words */
	const char *file;    /* NULL: no file at this level */
	int64_t offset;      /* bytes into file; -1: not known */
	const char *event;   /* the event class being read; NULL: none */
} caret_error_cause;

/* The first cause's status (CARET_OK for NULL). */
CARET_API caret_status caret_error_status(const caret_error *error);
CARET_API size_t caret_error_cause_count(const caret_error *error);
/* Cause i, 0 the outermost; NULL past the last. Valid as long as the error. */
CARET_API const caret_error_cause *caret_error_cause_at(const caret_error *error, size_t i);
/* Every cause on one line, outermost first, joined by ": " ("FILE: " before
 * a cause's own words when it names a file). "" for NULL. */
CARET_API const char *caret_error_message(const caret_error *error);
CARET_API void caret_error_free(caret_error *error);

#ifdef __cplusplus
}
#endif

#endif
