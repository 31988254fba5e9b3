/* page.c - the helpers of report.h that every section uses. */
#define _GNU_SOURCE /* open_memstream */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "records.h"
#include "report.h"

const char *report_chart_id(struct report *r, char *buf, size_t size)
{
	report_next_chart_id(r, buf, size);
	r->charts++;
	return buf;
}

const char *report_next_chart_id(const struct report *r, char *buf, size_t size)
{
	snprintf(buf, size, "%s%zu", r->id_prefix ? r->id_prefix : "c", r->charts);
	return buf;
}

FILE *report_datum(struct report *r, const char *id)
{
	if (r->data_members++)
		fputc(',', r->data);
	fprintf(r->data, "\"%s\":", id); /* ids are ours: letters and digits */
	return r->data;
}

void report_text(FILE *out, const char *s)
{
	for (; s && *s; s++)
		switch (*s) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&#39;", out); break;
		default: fputc(*s, out);
		}
}

/* Bytes of the UTF-8 characters in s[0..n) that start a character. */
static size_t characters(const char *s, size_t n)
{
	size_t c = 0;
	for (size_t i = 0; i < n; i++)
		c += ((unsigned char)s[i] & 0xc0) != 0x80;
	return c;
}

/* Where the character that holds byte i starts. */
static size_t character_start(const char *s, size_t i)
{
	while (i && ((unsigned char)s[i] & 0xc0) == 0x80)
		i--;
	return i;
}

const char *report_short_name(const char *name, size_t max, char *buf, size_t size)
{
	size_t len = name ? strlen(name) : 0;
	if (!name || characters(name, len) <= max || max < 5 || size < 2 * max + 8)
		return name ? name : "";
	/* keep the end (a node's own name) a little longer than the start */
	size_t head = (max - 1) / 2 - 1, tail = max - 1 - head;
	size_t cut_head = character_start(name, head), from = len;
	for (size_t kept = 0; from > 0 && kept < tail; kept++)
		from = character_start(name, from - 1);
	snprintf(buf, size, "%.*s…%s", (int)cut_head, name, name + from);
	return buf;
}

const ca_executor *report_executor_of_node(const ca_architecture *a, size_t node)
{
	for (size_t g = 0; g < a->n_groups; g++)
		if (a->groups[g].node == node && a->groups[g].executor != CA_NONE)
			return &a->executors[a->groups[g].executor];
	return NULL;
}

bool report_buffer_open(struct report_buffer *b)
{
	*b = (struct report_buffer){ 0 };
	b->f = open_memstream(&b->text, &b->size);
	return b->f != NULL;
}

void report_buffer_put(struct report_buffer *b, FILE *out)
{
	if (b->f && fclose(b->f) == 0 && out)
		fwrite(b->text, 1, b->size, out);
	free(b->text);
	*b = (struct report_buffer){ 0 };
}

void report_stats_head(FILE *out, const char *first, const char *extra)
{
	fprintf(out, "<table class='stats'><thead><tr><th>%s</th><th>count</th><th>min ms</th>"
		"<th>mean ms</th><th>p50 ms</th><th>p99 ms</th><th>max ms</th>%s</tr></thead><tbody>",
		first, extra ? extra : "");
}

void report_stats_cells(FILE *out, int64_t *values, size_t n)
{
	ca_stats s;
	ca_stats_select(values, n, CA_PERCENTILE_LINEAR, &s);
	report_stats_cells_of(out, &s);
}

void report_stats_cells_of(FILE *out, const ca_stats *stats)
{
	const ca_stats s = *stats;
	if (!s.count) {
		fputs("<td>0</td><td></td><td></td><td></td><td></td><td></td>", out);
		return;
	}
	fprintf(out, "<td>%" PRIu64 "</td><td>%.3f</td><td>%.3f</td><td>%.3f</td><td>%.3f</td>"
		"<td>%.3f</td>", s.count, s.min / 1e6, s.mean / 1e6, s.p50 / 1e6, s.p99 / 1e6,
		s.max / 1e6);
}

void report_executor_label(const ca_executor *x, char *buf)
{
	const char *type = x->type ? x->type : "?";
	size_t len = strlen(type), suffix = strlen("_executor");
	if (len > suffix && !strcmp(type + len - suffix, "_executor"))
		len -= suffix;
	char *p = buf + sprintf(buf, "%s · ", x->name);
	for (size_t i = 0; i < len; i++)
		*p++ = type[i] == '_' ? '-' : type[i];
	*p = 0;
}
