/* close_names.c - see close_names.h. */
#include "close_names.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CLOSE_ENOUGH 0.6 /* difflib.get_close_matches' default cutoff */
#define SAME_LAST_PART 0.9

/* Levenshtein's distance of a and b in two rows; SIZE_MAX without memory. */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t *row = malloc((lb + 1) * sizeof *row);
	if (!row)
		return (size_t)-1;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diagonal = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t above = row[j];
			size_t best = diagonal + (a[i - 1] != b[j - 1]);
			if (above + 1 < best)
				best = above + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diagonal = above;
		}
	}
	size_t d = row[lb];
	free(row);
	return d;
}

static const char *last_part(const char *name)
{
	const char *slash = strrchr(name, '/');
	return slash ? slash + 1 : name;
}

double caret_name_similarity(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), longer = la > lb ? la : lb;
	if (!longer)
		return 1;
	size_t d = edit_distance(a, b);
	double ratio = d > longer ? 0 : 1 - (double)d / (double)longer;
	if (*last_part(a) && !strcmp(last_part(a), last_part(b)) && ratio < SAME_LAST_PART)
		ratio = SAME_LAST_PART;
	return ratio;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The names sorted, each once, in a new array (NULL without memory). */
static const char **unique_sorted(const char *const *names, size_t n, size_t *n_unique)
{
	const char **u = malloc((n ? n : 1) * sizeof *u);
	*n_unique = 0;
	if (!u)
		return NULL;
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (names[i]) /* a name unknown to the trace */
			u[m++] = names[i];
	qsort(u, m, sizeof *u, by_name);
	for (size_t i = 0; i < m; i++)
		if (!*n_unique || strcmp(u[*n_unique - 1], u[i]))
			u[(*n_unique)++] = u[i];
	return u;
}

/* The names already unique: the most alike first, at most max. */
static size_t closest(const char *wanted, const char *const *names, size_t n,
	const char **best, size_t max)
{
	double score[8];
	size_t k = 0;
	if (max > 8)
		max = 8;
	for (size_t i = 0; i < n; i++) {
		double s = caret_name_similarity(wanted, names[i]);
		if (s < CLOSE_ENOUGH || (k == max && s <= score[k - 1]))
			continue;
		size_t at = k < max ? k++ : k - 1; /* the last one gives way */
		while (at > 0 && score[at - 1] < s) {
			score[at] = score[at - 1];
			best[at] = best[at - 1];
			at--;
		}
		score[at] = s;
		best[at] = names[i];
	}
	return k;
}

size_t caret_close_names(const char *wanted, const char *const *names, size_t n,
	const char **best, size_t max)
{
	size_t n_unique;
	const char **u = unique_sorted(names, n, &n_unique);
	if (!u)
		return 0;
	size_t k = closest(wanted, u, n_unique, best, max);
	free(u);
	return k;
}

/* Appends to out as snprintf would, never past size. */
static void append(char *out, size_t size, size_t *used, const char *format, ...)
	__attribute__((format(printf, 4, 5)));
static void append(char *out, size_t size, size_t *used, const char *format, ...)
{
	if (*used >= size)
		return;
	va_list ap;
	va_start(ap, format);
	int w = vsnprintf(out + *used, size - *used, format, ap);
	va_end(ap);
	*used = w < 0 ? size : *used + (size_t)w;
}

void caret_name_hint(char *out, size_t size, const char *wanted, const char *kind,
	const char *const *names, size_t n, const char *lister)
{
	size_t used = 0, n_unique;
	const char *best[3];
	if (size)
		out[0] = '\0';
	const char **u = unique_sorted(names, n, &n_unique);
	if (!u || !n_unique) {
		append(out, size, &used, "there are no %s", kind);
		free(u);
		return;
	}
	size_t k = closest(wanted, u, n_unique, best, 3);
	for (size_t i = 0; i < k; i++)
		append(out, size, &used, "%s%s", i == 0 ? "did you mean " : i + 1 == k ? " or " : ", ",
			best[i]);
	if (k)
		append(out, size, &used, "? ");
	if (n_unique <= CARET_NAME_HINT_LIST) {
		append(out, size, &used, "its %s: ", kind);
		for (size_t i = 0; i < n_unique; i++)
			append(out, size, &used, "%s%s", i ? ", " : "", u[i]);
	} else {
		append(out, size, &used, "%s%zu %s", k ? "" : "none close among its ", n_unique, kind);
		if (lister)
			append(out, size, &used, ": %s lists them", lister);
	}
	free(u);
}
