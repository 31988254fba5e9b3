/* json.c - see json.h. Each stream is written by one thread: the unlocked
 * stdio calls. */
#define _GNU_SOURCE /* fputc_unlocked, fwrite_unlocked */
#include "json.h"

#include <stdbool.h>

void json_string(FILE *out, const char *s)
{
	if (!s) {
		fputs("null", out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20 || c == '<' || c == '>')
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

/* The digits of v (>= 0) into the end of buf; returns where they start. */
static char *digits(char *end, uint64_t v)
{
	do {
		*--end = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return end;
}

void json_int(FILE *out, int64_t v)
{
	char buf[24], *end = buf + sizeof buf, *p;
	uint64_t magnitude = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
	p = digits(end, magnitude);
	if (v < 0)
		*--p = '-';
	fwrite_unlocked(p, 1, (size_t)(end - p), out);
}

void json_us(FILE *out, int64_t ns)
{
	bool negative = ns < 0;
	uint64_t tenths = ((negative ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns) + 50) / 100;
	char buf[32], *end = buf + sizeof buf, *p = end;
	if (tenths % 10) {
		*--p = (char)('0' + tenths % 10);
		*--p = '.';
	}
	p = digits(p, tenths / 10);
	if (negative && tenths)
		*--p = '-';
	fwrite_unlocked(p, 1, (size_t)(end - p), out);
}

void json_key(FILE *out, const char *key, int first)
{
	if (!first)
		fputc(',', out);
	json_string(out, key);
	fputc(':', out);
}

void json_item(FILE *out, size_t i, int64_t v)
{
	if (i)
		fputc_unlocked(',', out);
	json_int(out, v);
}
