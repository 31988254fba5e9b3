/* cli_util.c - see cli_util.h. */
#include "cli_util.h"

#include <string.h>

int cli_parse_format(const char *verb, const char *arg, enum cli_format *format)
{
	static const char *const names[] = { "text", "csv", "json" };
	for (int i = 0; i < 3; i++)
		if (!strcmp(arg, names[i])) {
			*format = (enum cli_format)i;
			return 0;
		}
	fprintf(stderr, "caret %s: unknown format '%s' (text, csv, json)\n", verb, arg);
	return -1;
}

ca_trace *cli_load(const char *verb, char **paths, int n_paths)
{
	char err[1024];
	ca_trace *t = ca_trace_load((const char *const *)paths, (size_t)n_paths, err, sizeof err);
	if (!t)
		fprintf(stderr, "caret %s: %s\n", verb, err);
	return t;
}

void cli_json_string(FILE *out, const char *s)
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
