/*
 * json.h - the report's data written as JSON inside the page: strings safe
 * within a <script> element, numbers written without printf (a large
 * trace's page holds millions of them).
 */
#ifndef CA_REPORT_JSON_H
#define CA_REPORT_JSON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* s as a JSON string: quoted, escaped, '<' and '>' as \u003c and \u003e so
 * that no "</script>" can end the element it sits in. NULL writes null. */
void json_string(FILE *out, const char *s);

/* An integer. */
void json_int(FILE *out, int64_t v);

/* ns as microseconds with one decimal, the trailing ".0" left out. */
void json_us(FILE *out, int64_t ns);

/* Item i of a list of integers: a comma before all but the first. */
void json_item(FILE *out, size_t i, int64_t v);

/* "key": before a value, with a comma before it unless it is the first. */
void json_key(FILE *out, const char *key, int first);

#endif
