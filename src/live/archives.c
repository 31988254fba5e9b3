/*
 * archives.c - a host's archives/ folder under caret live --watch: the
 * chunks its session closed (BEGIN-END-N, N from 0 on), taken in their
 * order and each checked as it comes. None is passed over without a word:
 * a missing one (a later one there for a second: the relay daemon files
 * them in order), one that holds no file after others held events, one
 * that cannot be read, each is said with the chunks after it still read,
 * and said again at the end (lost.c); an entry that is no chunk is named.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "clock.h"
#include "state.h"
#include "trace_dir.h"

#define GAP_NS 1000000000LL /* a later chunk there this long without this one: lost */

static bool is_folder(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Whether a chunk has the folder of an application's buffers
 * (ust/uid/UID/64-bit, ust/pid/..., kernel/): LTTng makes it when a traced
 * process registers, beside the files it writes there. */
static bool buffers_folder(const char *chunk)
{
	char path[8192];
	int n = snprintf(path, sizeof path, "%s/kernel", chunk);
	if (n < 0 || (size_t)n >= sizeof path)
		return false; /* no such folder can be named */
	if (is_folder(path))
		return true;
	for (int kind = 0; kind < 2; kind++) {
		n = snprintf(path, sizeof path, "%s/ust/%s", chunk, kind ? "pid" : "uid");
		if (n < 0 || (size_t)n >= sizeof path)
			return false;
		DIR *d = opendir(path);
		struct dirent *e;
		bool found = false;
		while (d && !found && (e = readdir(d)))
			found = e->d_name[0] != '.';
		if (d)
			closedir(d);
		if (found)
			return true;
	}
	return false;
}

/* The chunk index N of a folder "BEGIN-END-N"; -1 when it is not a chunk's. */
static long chunk_index(const char *archives, const char *name)
{
	char path[8192];
	const char *dash = strrchr(name, '-');
	char *end;
	long n = dash && dash[1] >= '0' && dash[1] <= '9' ? strtol(dash + 1, &end, 10) : -1;
	snprintf(path, sizeof path, "%s/%s", archives, name);
	return n >= 0 && !*end && is_folder(path) ? n : -1;
}

bool live_names_once(struct live_names *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->items[i], name))
			return false;
	char **grown = realloc(l->items, (l->n + 1) * sizeof *grown);
	char *copy = strdup(name);
	if (grown)
		l->items = grown;
	if (!grown || !copy) { /* out of memory: said again next time */
		free(copy);
		return true;
	}
	l->items[l->n++] = copy;
	return true;
}

static void names_free(struct live_names *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->items[i]);
	free(l->items);
}

const char *live_chunks_named(char *buf, size_t size, size_t from, size_t to)
{
	if (from == to)
		snprintf(buf, size, "chunk %zu", from);
	else
		snprintf(buf, size, "chunks %zu to %zu", from, to);
	return buf;
}

/* Chunks [from, to] of the host will never be read (read: it was, what
 * it needed was not): said now; the record of it, NULL out of memory. */
__attribute__((format(printf, 5, 6)))
static struct live_lost *lose(struct live_host *h, size_t from, size_t to, bool read,
	const char *fmt, ...)
{
	struct live_lost *l = NULL;
	char why[sizeof h->lost->why], which[64];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap);
	va_end(ap);
	struct live_lost *grown = realloc(h->lost, (h->n_lost + 1) * sizeof *grown);
	if (grown) {
		h->lost = grown;
		l = &h->lost[h->n_lost++];
		memset(l, 0, sizeof *l);
		l->from = from;
		l->to = to;
		memcpy(l->why, why, sizeof why);
		l->after = h->had_events ? h->chunk_last : 0;
	}
	fprintf(stderr, "caret live: %s: %s of %s: %s", h->name,
		live_chunks_named(which, sizeof which, from, to), h->session, why);
	if (!read)
		fprintf(stderr, ": what ran in %s is not counted; the chunks after %s are read",
			from == to ? "it" : "them", from == to ? "it" : "them");
	fputc('\n', stderr);
	return l;
}

/* The host's first chunk with events, and the one after it, held no
 * initialization: said (what ran before its first chunk is not counted). */
static void init_not_found(struct live_host *h)
{
	size_t first = h->init_awaited - 1;
	struct live_lost *l = lose(h, first, first, true, "holds events but no chunk before it "
		"held the initialization of their processes (emptied?): their callbacks cannot be "
		"named nor counted");
	if (l) { /* what was lost ended before that chunk's events */
		l->after = 0;
		l->before = h->chunk_first;
	}
	h->init_awaited = 0;
}

/* Chunk `index`, the next of the host, in dir: taken when it holds events,
 * lost when it should and does not or cannot be read. */
static void take(struct live_host *h, size_t index, const char *dir)
{
	struct live_chunk_facts f;
	char why[1024];
	if (!cr_dir_bytes(dir)) {
		/* before any event: a chunk closed before a traced process wrote,
		 * unless its buffers' folder is there */
		if (h->had_events)
			lose(h, index, index, false, "no file in its folder (every chunk after the first "
				"with events holds its metadata and streams)");
		else if (buffers_folder(dir))
			lose(h, index, index, false, "no file in its folder, though it has its buffers' "
				"folder (LTTng makes it with their metadata and streams)");
	} else if (!live_chunk_examine(dir, &f, why, sizeof why)) {
		lose(h, index, index, false, "cannot be read: %s", why);
	} else if (f.has_events) {
		/* the first chunk with events, or the one after it, holds the
		 * initialization the processes replay or record at their start:
		 * LTTng cuts each stream (a channel's, a CPU's) on its own when it
		 * rotates, and a replay and the first runtime events after it may
		 * fall on either side (a CI run: a publish in chunk 2, the replay
		 * 1.5 ms before it in chunk 3) */
		if (h->init_awaited && !f.has_init)
			init_not_found(h);
		h->init_awaited = !h->had_events && !f.has_init ? index + 1 : 0;
		if (!live_chunks_add(&h->chunks, dir, 0, f.has_init))
			lose(h, index, index, false, "not taken: out of memory");
		if (!h->had_events)
			h->chunk_first = f.first;
		for (size_t i = 0; i < h->n_lost; i++) /* what was lost ended before these events */
			if (!h->lost[i].before)
				h->lost[i].before = f.first;
		h->chunk_last = f.last;
		h->had_events = true;
	}
	h->next_chunk = index + 1;
	h->heard = caret_monotonic_ns();
}

/* The entry of `index` among names (the first if several), or -1; the
 * smallest index after it in *later (-1: none). */
static int find(const long *indices, int n, long index, long *later)
{
	int at = -1;
	*later = -1;
	for (int i = 0; i < n; i++) {
		if (indices[i] == index && at < 0)
			at = i;
		else if (indices[i] > index && (*later < 0 || indices[i] < *later))
			*later = indices[i];
	}
	return at;
}

/* Names once each entry that is no chunk, and a second folder of an index. */
static void name_strays(struct live_host *h, const char *archives, struct dirent **names,
	const long *indices, int n)
{
	char what[8192];
	for (int i = 0; i < n; i++) {
		const char *name = names[i]->d_name;
		long twin = -1;
		for (int k = 0; k < i && indices[i] >= 0; k++)
			if (indices[k] == indices[i])
				twin = k;
		if (indices[i] >= 0 && twin < 0)
			continue;
		snprintf(what, sizeof what, "%s/%s", archives, name);
		if (!live_names_once(&h->said, what))
			continue;
		if (twin >= 0) { /* which of the two holds the chunk is not known: one is not read */
			lose(h, (size_t)indices[i], (size_t)indices[i], true, "a second folder, %s, "
				"has the index of %s: not read", name, names[twin]->d_name);
			continue;
		}
		/* a folder of files there is a chunk misnamed, as likely as not */
		bool files = is_folder(what) && cr_dir_bytes(what);
		fprintf(stderr, "caret live: %s: %s is not a chunk (a folder BEGIN-END-N, N its "
			"index)%s: not read\n", h->name, what, files ? " but holds files" : "");
		h->unread_folders += files;
	}
}

/* A chunk filed after it was said missing: named once, not read (the looks
 * have passed its time). */
static void came_late(struct live_host *h, const char *archives, const char *name, long index)
{
	char what[8192];
	for (size_t i = 0; index >= 0 && i < h->n_lost; i++) {
		const struct live_lost *l = &h->lost[i];
		if ((size_t)index < l->from || (size_t)index > l->to || !l->missing)
			continue;
		snprintf(what, sizeof what, "%s/%s", archives, name);
		if (live_names_once(&h->said, what))
			fprintf(stderr, "caret live: %s: chunk %ld came after it was said missing: not "
				"read (%s)\n", h->name, index, what);
		return;
	}
}

bool live_archives_take(struct live_host *h, const char *archives, bool final)
{
	struct dirent **names;
	int n = scandir(archives, &names, NULL, alphasort), kept = 0;
	if (n < 0)
		return false;
	for (int i = 0; i < n; i++) { /* . and .. out */
		if (strcmp(names[i]->d_name, ".") && strcmp(names[i]->d_name, ".."))
			names[kept++] = names[i];
		else
			free(names[i]);
	}
	long *indices = malloc(((size_t)kept + 1) * sizeof *indices);
	bool came = false;
	for (int i = 0; indices && i < kept; i++)
		indices[i] = chunk_index(archives, names[i]->d_name);
	if (indices)
		name_strays(h, archives, names, indices, kept);
	while (indices) {
		long later, want = (long)h->next_chunk;
		int at = find(indices, kept, want, &later);
		char dir[8192];
		if (at >= 0) {
			snprintf(dir, sizeof dir, "%s/%s", archives, names[at]->d_name);
			take(h, (size_t)want, dir);
			h->later_seen = 0;
			came = true;
			continue;
		}
		if (later < 0)
			break;
		int64_t now = caret_monotonic_ns();
		if (!h->later_seen)
			h->later_seen = now;
		if (!final && now - h->later_seen < GAP_NS)
			break; /* it may come still */
		struct live_lost *l = lose(h, (size_t)want, (size_t)later - 1, false,
			"missing (chunk %ld came after)", later);
		if (l)
			l->missing = true;
		h->next_chunk = (size_t)later;
		h->later_seen = 0;
		came = true;
	}
	if (final && h->init_awaited) /* no chunk after it to hold the initialization */
		init_not_found(h);
	for (int i = 0; indices && i < kept; i++)
		came_late(h, archives, names[i]->d_name, indices[i]);
	free(indices);
	for (int i = 0; i < kept; i++)
		free(names[i]);
	free(names);
	return came;
}

void live_host_free(struct live_host *h)
{
	live_chunks_free(&h->chunks);
	free(h->session);
	free(h->lost);
	names_free(&h->said);
	names_free(&h->others);
}
