/*
 * error.c - caret/error.h's errors: up to CAUSES causes, outermost first;
 * when more are added, the innermost (what was found) and the outermost
 * stay and the middle ones are dropped.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error_build.h"

#define CAUSES 8

struct caret_error {
	size_t n;
	caret_error_cause causes[CAUSES];
	char *rendered;
};

/* What an error becomes when there is no memory for it. */
static caret_error no_memory = {
	1, { { CARET_ERR_NO_MEMORY, "out of memory", NULL, -1, NULL } }, "out of memory"
};

const char *caret_status_name(caret_status status)
{
	static const char *const names[] = { "ok", "invalid", "not found", "i/o", "format",
		"unsupported", "no memory", "empty" };
	return (unsigned)status < sizeof names / sizeof *names ? names[status] : "?";
}

static char *copy(const char *s)
{
	return s ? strdup(s) : NULL;
}

static void free_cause(caret_error_cause *c)
{
	free((char *)c->message);
	free((char *)c->file);
	free((char *)c->event);
}

void caret_error_addv(caret_error **error, caret_status status, const char *file,
	int64_t offset, const char *event, const char *fmt, va_list ap)
{
	caret_error *e = *error;
	if (e == &no_memory)
		return;
	char text[2048];
	vsnprintf(text, sizeof text, fmt, ap);
	if (!e && !(e = calloc(1, sizeof *e))) {
		*error = &no_memory;
		return;
	}
	caret_error_cause c = { status, copy(text), copy(file), offset, copy(event) };
	if (!c.message || (file && !c.file) || (event && !c.event)) {
		free_cause(&c);
		caret_error_free(e);
		*error = &no_memory;
		return;
	}
	if (e->n == CAUSES) { /* the one after the outermost goes */
		free_cause(&e->causes[0]);
		memmove(&e->causes[0], &e->causes[1], (CAUSES - 1) * sizeof *e->causes);
		e->n--;
	}
	memmove(&e->causes[1], &e->causes[0], e->n * sizeof *e->causes);
	e->causes[0] = c;
	e->n++;
	free(e->rendered);
	e->rendered = NULL;
	*error = e;
}

void caret_error_add(caret_error **error, caret_status status, const char *file,
	int64_t offset, const char *event, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	caret_error_addv(error, status, file, offset, event, fmt, ap);
	va_end(ap);
}

caret_error *caret_error_of_text(caret_status status, const char *text)
{
	caret_error *e = NULL;
	caret_error_add(&e, status, NULL, -1, NULL, "%s", text);
	return e;
}

caret_status caret_error_status(const caret_error *e)
{
	return e && e->n ? e->causes[0].status : CARET_OK;
}

size_t caret_error_cause_count(const caret_error *e)
{
	return e ? e->n : 0;
}

const caret_error_cause *caret_error_cause_at(const caret_error *e, size_t i)
{
	return e && i < e->n ? &e->causes[i] : NULL;
}

const char *caret_error_message(const caret_error *error)
{
	caret_error *e = (caret_error *)error;
	if (!e)
		return "";
	if (e->rendered)
		return e->rendered;
	size_t size = 1;
	for (size_t i = 0; i < e->n; i++)
		size += strlen(e->causes[i].message) + 2 +
			(e->causes[i].file ? strlen(e->causes[i].file) + 2 : 0);
	if (!(e->rendered = malloc(size)))
		return e->causes[0].message;
	char *at = e->rendered;
	*at = '\0';
	for (size_t i = 0; i < e->n; i++) {
		const caret_error_cause *c = &e->causes[i];
		at += sprintf(at, "%s%s%s%s", i ? ": " : "", c->file ? c->file : "",
			c->file ? ": " : "", c->message);
	}
	return e->rendered;
}

void caret_error_free(caret_error *e)
{
	if (!e || e == &no_memory)
		return;
	for (size_t i = 0; i < e->n; i++)
		free_cause(&e->causes[i]);
	free(e->rendered);
	free(e);
}
