/*
 * snapshot_miss.c - the misses a snapshot of caret live was written for
 * (CA_SNAPSHOT_MISS_FILE beside its trace: one JSON line per miss, the
 * line caret live --json prints), read back so that the report names
 * them in its header and marks their instances (docs/live.md).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

/* A JSON string at *s (after its quote) into out (cut to size; \u
 * escapes beyond ASCII as '?'); *s past its closing quote. false when
 * the line ends first. */
static bool json_string_at(const char **s, char *out, size_t size)
{
	size_t n = 0;
	const char *p = *s;
	for (; *p && *p != '"'; p++) {
		char c = *p;
		if (c == '\\') {
			p++;
			c = *p == 'n' ? '\n' : *p == 't' ? '\t' : *p == 'r' ? '\r' : *p == 'b' ? '\b' :
				*p == 'f' ? '\f' : *p;
			if (*p == 'u') {
				unsigned v = 0;
				for (int k = 0; k < 4 && isxdigit((unsigned char)p[1]); k++, p++)
					v = v * 16 + (unsigned)(isdigit((unsigned char)p[1]) ? p[1] - '0' :
						tolower((unsigned char)p[1]) - 'a' + 10);
				c = v < 0x80 ? (char)v : '?';
			}
			if (!*p)
				return false;
		}
		if (n + 1 < size)
			out[n++] = c;
	}
	if (size)
		out[n] = '\0';
	if (*p != '"')
		return false;
	*s = p + 1;
	return true;
}

/* Past the value at *s: a string, a number or word, or a list or object
 * (strings inside them skipped whole). */
static void skip_value(const char **s)
{
	int depth = 0;
	char scratch[8];
	while (**s) {
		char c = **s;
		if (c == '"') {
			(*s)++;
			if (!json_string_at(s, scratch, sizeof scratch))
				return;
			if (!depth)
				return;
			continue;
		}
		if (!depth && (c == ',' || c == '}'))
			return;
		depth += c == '[' || c == '{';
		depth -= c == ']' || c == '}';
		(*s)++;
		if (!depth && (c == ']' || c == '}'))
			return;
	}
}

static const char *skip_space(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

/* One line of the file: a miss of a path with its times. */
static bool parse_miss(const char *line, struct report_miss *m)
{
	const char *s = skip_space(line);
	bool path = false, start = false, end = false;
	if (*s++ != '{')
		return false;
	memset(m, 0, sizeof *m);
	for (;;) {
		char key[64];
		s = skip_space(s);
		if (*s == '}')
			break;
		if (*s++ != '"' || !json_string_at(&s, key, sizeof key))
			return false;
		s = skip_space(s);
		if (*s++ != ':')
			return false;
		s = skip_space(s);
		if (!strcmp(key, "path") && *s == '"') {
			s++;
			path = json_string_at(&s, m->path, sizeof m->path);
		} else if (!strcmp(key, "start_ns") || !strcmp(key, "end_ns") ||
			   !strcmp(key, "latency_ns") || !strcmp(key, "deadline_ns")) {
			char *after;
			long long v = strtoll(s, &after, 10);
			if (after == s)
				return false;
			s = after;
			if (key[0] == 's')
				start = (m->start = (uint64_t)v) > 0;
			else if (key[0] == 'e')
				end = (m->end = (uint64_t)v) > 0;
			else if (key[0] == 'l')
				m->latency = v;
			else
				m->deadline = v;
		} else {
			skip_value(&s);
		}
		s = skip_space(s);
		if (*s == ',')
			s++;
		else if (*s != '}')
			return false;
	}
	return path && start && end;
}

size_t report_read_misses(const char *const *dirs, size_t n_dirs, struct report_miss **out)
{
	size_t n = 0, cap = 0;
	*out = NULL;
	for (size_t d = 0; d < n_dirs; d++) {
		char name[4200], *line = NULL;
		size_t size = 0;
		snprintf(name, sizeof name, "%s/%s", dirs[d], CA_SNAPSHOT_MISS_FILE);
		FILE *f = fopen(name, "r");
		if (!f)
			continue;
		while (getline(&line, &size, f) > 0) {
			struct report_miss m;
			if (!parse_miss(line, &m))
				continue; /* a line of another kind, or cut short */
			if (n == cap) {
				struct report_miss *grown = realloc(*out, (cap = cap ? 2 * cap : 4) *
					sizeof *grown);
				if (!grown)
					break;
				*out = grown;
			}
			(*out)[n++] = m;
		}
		free(line);
		fclose(f);
	}
	return n;
}
