/* json_string.h - a string as a JSON string literal (quotes, backslashes
 * and control characters escaped), for the CLI and caret live. */
#ifndef CARET_JSON_STRING_H
#define CARET_JSON_STRING_H

#include <stdio.h>

static inline void caret_json_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

#endif
