/* ctf_recordings.c - see ctf_recordings.h. Only the names of the folders
 * are looked at: LTTng's layout says where a session begins. */
#include "ctf_recordings.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctf_native.h"

/* Up to 64 components of dir: where each starts, and its length. */
struct parts {
	size_t at[64], len[64], n;
};

static void split(const char *dir, struct parts *p)
{
	p->n = 0;
	for (size_t i = 0; dir[i] && p->n < 64;) {
		while (dir[i] == '/')
			i++;
		if (!dir[i])
			break;
		size_t start = i;
		while (dir[i] && dir[i] != '/')
			i++;
		p->at[p->n] = start;
		p->len[p->n++] = i - start;
	}
}

static bool is(const char *dir, const struct parts *p, size_t k, const char *name)
{
	return p->len[k] == strlen(name) && !strncmp(dir + p->at[k], name, p->len[k]);
}

/* The component where dir's session folder ends (its ust or kernel), or
 * p->n when dir is laid out as no LTTng session's. */
static size_t session_end(const char *dir, const struct parts *p)
{
	size_t n = p->n;
	if (n >= 1 && is(dir, p, n - 1, "kernel"))
		return n - 1;
	if (n >= 4 && is(dir, p, n - 4, "ust") && is(dir, p, n - 3, "uid"))
		return n - 4;
	if (n >= 3 && is(dir, p, n - 3, "ust") && is(dir, p, n - 2, "pid"))
		return n - 3;
	return n;
}

void ctf_recording_of(const char *path, const char *dir, char *out, size_t size)
{
	struct parts p;
	split(dir, &p);
	size_t end = session_end(dir, &p), keep; /* bytes of dir to keep */
	if (end == p.n)
		keep = strlen(dir);
	else {
		/* a rotated session's chunks are all of it */
		if (end >= 2 && is(dir, &p, end - 2, "archives"))
			end -= 2;
		keep = end ? p.at[end - 1] + p.len[end - 1] : (dir[0] == '/');
	}
	size_t given = strlen(path);
	while (given > 1 && path[given - 1] == '/')
		given--;
	if (keep < given) /* the session is above the path given: all of it is one */
		keep = given;
	while (keep > 1 && dir[keep - 1] == '/')
		keep--;
	snprintf(out, size, "%.*s", (int)keep, dir);
}

static int by_string(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

caret_status ctf_find_recordings(const char *path, char ***roots, size_t *n, char *err,
	size_t err_size)
{
	char **dirs;
	size_t n_dirs, kept = 0;
	caret_status status = ctf_list_traces(path, &dirs, &n_dirs, err, err_size);
	*roots = NULL;
	*n = 0;
	if (status != CARET_OK)
		return status;
	for (size_t i = 0; i < n_dirs; i++) { /* each dir becomes its recording, in place */
		char root[4096];
		ctf_recording_of(path, dirs[i], root, sizeof root);
		strcpy(dirs[i], root); /* never longer than dir */
	}
	qsort(dirs, n_dirs, sizeof *dirs, by_string);
	for (size_t i = 0; i < n_dirs; i++)
		if (kept && !strcmp(dirs[kept - 1], dirs[i]))
			free(dirs[i]);
		else
			dirs[kept++] = dirs[i];
	*roots = dirs;
	*n = kept;
	return CARET_OK;
}
