/* ctf_copies.c - see ctf_copies.h. Only the first packet header of each
 * stream file is read (64 bytes). */
#define _GNU_SOURCE
#include "ctf_copies.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ctf_native.h"
#include "ctf_recordings.h"
#include "vec.h"

#define HEADER 64 /* LTTng's packet header and context through packet_size */
#define STREAM_MAGIC "\xc1\x1f\xfc\xc1"

/* A stream file's first packet header, and which directory holds it. */
struct opening {
	unsigned char header[HEADER];
	size_t dir;              /* in the list of directories */
	char name[NAME_MAX + 1]; /* the stream file */
};

/* A trace directory: as found under the path given, and resolved (one
 * folder reached twice has one name). */
struct dir {
	char *given, *real;
	const char *path;
};

struct dirs {
	struct dir *at;
	size_t n, cap;
};

/* The first packet headers of dir's stream files, appended. */
static int add_openings(const char *dir, size_t index, struct opening **o, size_t *n,
	size_t *cap)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *entries = fd < 0 ? NULL : fdopendir(fd);
	if (!entries) {
		if (fd >= 0)
			close(fd);
		return 0; /* the framing check says why */
	}
	struct dirent *e;
	int status = 0;
	while (!status && (e = readdir(entries))) {
		if (e->d_name[0] == '.' || !strcmp(e->d_name, "metadata") ||
		    !strcmp(e->d_name, "index"))
			continue;
		/* O_NONBLOCK: a FIFO in a stream's place must not block (the
		 * framing check refuses it) */
		int f = openat(fd, e->d_name, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
		struct stat st;
		unsigned char h[HEADER];
		bool read = f >= 0 && fstat(f, &st) == 0 && S_ISREG(st.st_mode) &&
			pread(f, h, HEADER, 0) == HEADER && !memcmp(h, STREAM_MAGIC, 4);
		if (f >= 0)
			close(f);
		if (!read)
			continue;
		if (!VEC_ROOM(*o, *n, *cap)) {
			status = -1;
			break;
		}
		struct opening *x = &(*o)[(*n)++];
		memcpy(x->header, h, HEADER);
		x->dir = index;
		snprintf(x->name, sizeof x->name, "%s", e->d_name);
	}
	closedir(entries);
	return status;
}

static int by_header(const void *a, const void *b)
{
	const struct opening *x = a, *y = b;
	int c = memcmp(x->header, y->header, HEADER);
	return c ? c : (x->dir > y->dir) - (x->dir < y->dir);
}

/* The trace directories under every path given; -1 with err. */
static int list_dirs(const char *const *paths, size_t n_paths, struct dirs *d, char *err,
	size_t err_size, caret_status *status)
{
	for (size_t p = 0; p < n_paths; p++) {
		char **found;
		size_t n;
		if ((*status = ctf_list_traces(paths[p], &found, &n, err, err_size)) != CARET_OK)
			return -1;
		for (size_t i = 0; i < n; i++) {
			struct dir *x = VEC_PUSH(d->at, d->n, d->cap);
			if (!x) {
				ctf_free_dirs(found, n);
				*status = CARET_ERR_NO_MEMORY;
				snprintf(err, err_size, "out of memory");
				return -1;
			}
			*x = (struct dir){ found[i], realpath(found[i], NULL), paths[p] };
			found[i] = NULL;
		}
		ctf_free_dirs(found, n);
	}
	return 0;
}

/* The folder to name for directory i: its recording, unless the copy is
 * inside the same recording (then the trace directory itself). */
static void folder_of(const struct dirs *d, size_t i, size_t other, char *out, size_t size)
{
	char mine[4096], theirs[4096];
	ctf_recording_of(d->at[i].path, d->at[i].given, mine, sizeof mine);
	ctf_recording_of(d->at[other].path, d->at[other].given, theirs, sizeof theirs);
	snprintf(out, size, "%s", strcmp(mine, theirs) ? mine : d->at[i].given);
}

/* The error for two openings alike, of directories a and b. */
static void say_copy(const struct dirs *d, const struct opening *a, const struct opening *b,
	char *err, size_t err_size)
{
	const struct dir *x = &d->at[a->dir], *y = &d->at[b->dir];
	if (x->real && y->real && !strcmp(x->real, y->real)) {
		snprintf(err, err_size, "%s is read twice (the paths given reach it twice): every "
			"event would count twice; give it once", x->given);
		return;
	}
	char first[4096], second[4096];
	folder_of(d, a->dir, b->dir, first, sizeof first);
	folder_of(d, b->dir, a->dir, second, sizeof second);
	snprintf(err, err_size, "%s and %s hold the same recording (their stream files %s and "
		"%s open with the same packet): one is a copy of the other, and every event would "
		"count twice; move the copy away", first, second, a->name, b->name);
}

caret_status ctf_check_copies(const char *const *paths, size_t n_paths, char *err,
	size_t err_size)
{
	struct dirs d = { 0 };
	struct opening *o = NULL;
	size_t n = 0, cap = 0;
	caret_status status = CARET_OK;
	if (list_dirs(paths, n_paths, &d, err, err_size, &status) == 0) {
		for (size_t i = 0; i < d.n && !status; i++)
			if (add_openings(d.at[i].given, i, &o, &n, &cap) != 0) {
				status = CARET_ERR_NO_MEMORY;
				snprintf(err, err_size, "out of memory");
			}
	}
	if (!status && n > 1)
		qsort(o, n, sizeof *o, by_header);
	for (size_t i = 1; !status && i < n; i++)
		if (o[i].dir != o[i - 1].dir && !memcmp(o[i].header, o[i - 1].header, HEADER)) {
			say_copy(&d, &o[i - 1], &o[i], err, err_size);
			status = CARET_ERR_INVALID;
		}
	for (size_t i = 0; i < d.n; i++) {
		free(d.at[i].given);
		free(d.at[i].real);
	}
	free(d.at);
	free(o);
	return status;
}
