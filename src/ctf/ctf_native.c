/*
 * ctf_native.c - every CTF trace under a path (a directory holding a
 * metadata file, and its stream files), read without libbabeltrace2: the
 * metadata (packetized as LTTng writes it, or plain text), then the
 * streams' events merged in time order by a heap on each stream's next
 * event (ties: the stream found first).
 */
#define _GNU_SOURCE /* nftw's FTW_ACTIONRETVAL */
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <unistd.h>
#include <inttypes.h>
#include <stdalign.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error_build.h"
#include "vec.h"
#include <sys/stat.h>

#include "ctf_check.h"
#include "ctf_native.h"
#include "ctf_pipe.h"
#include "ctf_stream.h"
#include "ctf_tally.h"

#define METADATA_MAGIC 0x75D11D57u
#define METADATA_HEADER 37 /* magic, uuid, checksum, content and packet sizes, 5 bytes */

static uint32_t le32(const uint8_t *b)
{
	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

char *ctf_metadata_read(const char *dir, size_t *size, char *err, size_t err_size)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/metadata", dir);
	FILE *f = fopen(path, "rb");
	uint8_t *raw = NULL, *text = NULL;
	size_t n = 0, cap = 0, out = 0;
	if (!f) {
		snprintf(err, err_size, "%s: %s", path, strerror(errno));
		return NULL;
	}
	for (;;) {
		if (n == cap) {
			uint8_t *grown = realloc(raw, cap = cap ? 2 * cap : 65536);
			if (!grown)
				goto oom;
			raw = grown;
		}
		size_t got = fread(raw + n, 1, cap - n, f);
		n += got;
		if (!got)
			break;
	}
	fclose(f);
	f = NULL;
	if (!(text = malloc(n + 1)))
		goto oom;
	if (n < 4 || le32(raw) != METADATA_MAGIC) {
		memcpy(text, raw, n); /* plain text */
		out = n;
	} else {
		for (size_t at = 0; at < n;) {
			if (n - at < METADATA_HEADER || le32(raw + at) != METADATA_MAGIC) {
				snprintf(err, err_size, "%s: truncated or damaged: no metadata packet "
					"header at byte %zu", path, at);
				goto fail;
			}
			uint32_t content = le32(raw + at + 24), packet = le32(raw + at + 28);
			if (content % 8 || packet % 8 || content < METADATA_HEADER * 8 ||
			    content > packet || packet / 8 > n - at) {
				snprintf(err, err_size, "%s: truncated: the packet at byte %zu needs %u "
					"bytes, the file has %zu after it", path, at, packet / 8, n - at);
				goto fail;
			}
			if (raw[at + 32] || raw[at + 33] || raw[at + 34]) {
				snprintf(err, err_size, "%s: compressed, encrypted or checksummed "
					"metadata is not supported", path);
				goto fail;
			}
			memcpy(text + out, raw + at + METADATA_HEADER, content / 8 - METADATA_HEADER);
			out += content / 8 - METADATA_HEADER;
			at += packet / 8;
		}
	}
	text[out] = '\0';
	free(raw);
	*size = out;
	return (char *)text;
oom:
	snprintf(err, err_size, "%s: out of memory", path);
fail:
	if (f)
		fclose(f);
	free(raw);
	free(text);
	return NULL;
}

/* ---- traces and streams under a path --------------------------------------- */

struct walk {
	struct ctf_meta **metas;
	size_t n_metas, cap_metas;
	struct ctf_stream **streams;
	size_t n_streams, cap_streams;
	const struct ctf_native_handlers *h;
	char *err;
	size_t err_size;
	caret_status status; /* of the failure err says */
	caret_error *cause;  /* a stream's failure as data, when a stream failed */
	bool unsupported; /* a metadata file did not parse */
};

/* w fails: err says what, status as data. */
static void walk_fail(struct walk *w, caret_status status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void walk_fail(struct walk *w, caret_status status, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(w->err, w->err_size, fmt, ap);
	va_end(ap);
	w->status = status;
}

/* Stream s's failure as data (file, offset, event): w's cause, the first. */
static void keep_cause(struct walk *w, const struct ctf_stream *s)
{
	w->status = s->err_status ? s->err_status : CARET_ERR_FORMAT;
	if (!w->cause)
		caret_error_add(&w->cause, w->status, s->path, s->err_offset, s->err_event, "%s",
			s->err + s->err_what);
}

/* w fails on stream s: s's err in words, and as data. */
static void stream_failed(struct walk *w, const struct ctf_stream *s)
{
	snprintf(w->err, w->err_size, "%s", s->err);
	keep_cause(w, s);
}

/* The error of a walk that failed under path, text its words: its
 * stream's cause under "cannot read trace: path=..." when they say what
 * text says, else text as one cause. */
static caret_error *walk_error(struct walk *w, caret_status status, const char *path,
	const char *text)
{
	caret_error *e = w->cause;
	w->cause = NULL;
	if (e)
		caret_error_add(&e, status, NULL, -1, NULL, "cannot read trace: path=%s", path);
	if (e && !strcmp(caret_error_message(e), text))
		return e;
	caret_error_free(e);
	return caret_error_of_text(status, text);
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static bool fixed_or_none(const struct ctf_type *t)
{
	return !t || t->fixed;
}

/* The event classes whose events are fixed byte-aligned layouts
 * (raw_bytes), and those the walk tallies (ctf_native_handlers.skim). */
static void mark_classes(struct ctf_meta *m, const struct ctf_native_handlers *h)
{
	for (size_t i = 0; i < m->n_streams; i++) {
		const struct ctf_type *ctx = m->streams[i].event_context;
		for (size_t j = 0; j < m->streams[i].n_events; j++) {
			struct ctf_event_class *cls = m->streams[i].events[j];
			if (!cls || !fixed_or_none(ctx) || !fixed_or_none(cls->context) ||
			    !fixed_or_none(cls->payload))
				continue;
			const struct ctf_type *parts[] = { ctx, cls->context, cls->payload };
			uint32_t bytes = 0;
			for (size_t k = 0; k < 3 && bytes != UINT32_MAX; k++)
				if (parts[k])
					bytes = parts[k]->align > 8 ? UINT32_MAX :
						bytes + parts[k]->fixed_bytes;
			cls->raw_bytes = bytes == UINT32_MAX ? 0 : bytes;
			if (h->skim && h->on_tally && (!ctx || ctx->fixed_bytes <= CTF_TALLY_BYTES) &&
			    (cls->skim = h->skim(cls, h->user)))
				cls->skim_bytes = cls->raw_bytes;
		}
	}
}

/* The trace in dir (it has a metadata file): its streams, opened. */
static int open_trace(struct walk *w, const char *dir, char *err_out, size_t err_size)
{
	size_t size;
	char *text = ctf_metadata_read(dir, &size, err_out, err_size);
	if (!text)
		return -1;
	char err[400];
	bool cut = false;
	struct ctf_meta *m = ctf_tsdl_parse(text, size, err, sizeof err, &cut);
	free(text);
	if (!m) {
		snprintf(err_out, err_size, "%s/%s", dir, err);
		w->unsupported = !cut; /* babeltrace2 may know what this reader does not */
		w->status = cut ? CARET_ERR_FORMAT : CARET_ERR_UNSUPPORTED;
		return -1;
	}
	if (!VEC_ROOM(w->metas, w->n_metas, w->cap_metas)) {
		ctf_meta_free(m);
		snprintf(err_out, err_size, "out of memory");
		w->status = CARET_ERR_NO_MEMORY;
		return -1;
	}
	w->metas[w->n_metas++] = m;
	mark_classes(m, w->h);
	struct dirent **names;
	int n = scandir(dir, &names, NULL, by_name), status = 0;
	if (n < 0) {
		snprintf(err_out, err_size, "%s: %s", dir, strerror(errno));
		w->status = CARET_ERR_IO;
		return -1;
	}
	for (int i = 0; i < n; i++) {
		char path[4096];
		struct stat st;
		snprintf(path, sizeof path, "%s/%s", dir, names[i]->d_name);
		bool stream = names[i]->d_name[0] != '.' && strcmp(names[i]->d_name, "metadata") &&
			stat(path, &st) == 0 && S_ISREG(st.st_mode);
		if (stream && !status) {
			struct ctf_stream *s = malloc(sizeof *s);
			if (!s || !VEC_ROOM(w->streams, w->n_streams, w->cap_streams)) {
				free(s);
				snprintf(err_out, err_size, "out of memory");
				w->status = CARET_ERR_NO_MEMORY;
				status = -1;
			} else if (ctf_stream_open(s, m, path) != 0) {
				snprintf(err_out, err_size, "%s", s->err);
				keep_cause(w, s);
				ctf_stream_close(s);
				free(s);
				status = -1;
			} else {
				s->on_discarded = w->h->on_discarded;
				s->needed = w->h->needed;
				s->on_skipped = w->h->on_skipped;
				s->skip_before = w->h->skip_before;
				s->skip_after = w->h->skip_after;
				s->raw = w->h->convert != NULL || w->h->raw;
				s->user = w->h->user;
				w->streams[w->n_streams++] = s;
			}
		}
		free(names[i]);
	}
	free(names);
	return status;
}

int ctf_metadata_whole(const char *dir, char *err, size_t err_size)
{
	size_t size;
	char why[400];
	char *text = ctf_metadata_read(dir, &size, why, sizeof why);
	if (!text)
		return 0; /* the reader says why, as ever */
	bool cut = false;
	struct ctf_meta *m = ctf_tsdl_parse(text, size, why, sizeof why, &cut);
	free(text);
	ctf_meta_free(m);
	if (cut)
		snprintf(err, err_size, "%s/%s", dir, why);
	return cut ? -1 : 0;
}

/* nftw has no user pointer; one walk per thread at a time. */
static _Thread_local char found_unreadable[512];
static _Thread_local char **found_dirs;
static _Thread_local size_t n_found, cap_found;

static int add_if_trace(const char *dir, const struct stat *st, int type, struct FTW *ftw)
{
	char metadata[4096];
	struct stat mst;
	(void)st;
	(void)ftw;
	if (type == FTW_DNR && !found_unreadable[0])
		snprintf(found_unreadable, sizeof found_unreadable, "%s", dir);
	if (type != FTW_D)
		return FTW_CONTINUE;
	if (snprintf(metadata, sizeof metadata, "%s/metadata", dir) >= (int)sizeof metadata ||
	    stat(metadata, &mst) != 0 || !S_ISREG(mst.st_mode))
		return FTW_CONTINUE;
	char *copy = strdup(dir);
	if (!copy || !VEC_ROOM(found_dirs, n_found, cap_found)) {
		free(copy);
		return FTW_STOP;
	}
	found_dirs[n_found++] = copy;
	return FTW_SKIP_SUBTREE; /* a CTF trace holds no other trace */
}

static int by_string(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void ctf_free_dirs(char **dirs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(dirs[i]);
	free(dirs);
}

/* ctf_find_traces, and a damaged trace's cause as data in *cause (NULL
 * if none); the framing is checked unless !check. */
/* The traces found under `top` (the path given, resolved) named under
 * the path as given; false out of memory. */
static bool under_given_name(const char *top, const char *given)
{
	size_t len = strlen(top), keep = strlen(given);
	while (keep > 1 && given[keep - 1] == '/')
		keep--;
	for (size_t i = 0; i < n_found; i++) {
		if (strncmp(found_dirs[i], top, len) != 0)
			continue;
		char *name = malloc(keep + strlen(found_dirs[i] + len) + 1);
		if (!name)
			return false;
		memcpy(name, given, keep);
		strcpy(name + keep, found_dirs[i] + len);
		free(found_dirs[i]);
		found_dirs[i] = name;
	}
	return true;
}

static caret_status find_checked(const char *path, bool check, char ***dirs, size_t *n,
	char *err, size_t err_size, caret_error **cause)
{
	*cause = NULL;
	caret_status status = CARET_ERR_IO;
	found_unreadable[0] = '\0';
	found_dirs = NULL;
	n_found = cap_found = 0;
	*dirs = NULL;
	*n = 0;
	if (access(path, R_OK) != 0) {
		status = errno == ENOENT ? CARET_ERR_NOT_FOUND : CARET_ERR_IO;
		snprintf(err, err_size, "cannot read trace: path=%s: %s", path, strerror(errno));
		goto fail;
	}
	/* the path given followed if it is a link (a trace linked into a
	 * notebook's folder), the traces found named under it; links below
	 * it are not followed (FTW_PHYS) */
	char *top = realpath(path, NULL);
	int walked = top ? nftw(top, add_if_trace, 16, FTW_PHYS | FTW_ACTIONRETVAL) : -1;
	bool renamed = walked == 0 && under_given_name(top, path);
	free(top);
	if (walked != 0 || !renamed) {
		snprintf(err, err_size, "cannot read trace: path=%s: %s", path, walked != 0 ?
			"cannot read the directory" : "out of memory");
		goto fail;
	}
	if (found_unreadable[0]) {
		snprintf(err, err_size, "cannot read trace: path=%s: %s: permission denied", path,
			found_unreadable);
		goto fail;
	}
	if (!n_found) {
		status = CARET_ERR_NOT_FOUND;
		snprintf(err, err_size, "cannot read trace: path=%s: no CTF trace here (no directory "
			"with a metadata file)", path);
		goto fail;
	}
	if (n_found > 1)
		qsort(found_dirs, n_found, sizeof *found_dirs, by_string);
	for (size_t i = 0; check && i < n_found; i++) {
		if ((status = ctf_check_dir(found_dirs[i], cause)) != CARET_OK) {
			snprintf(err, err_size, "cannot read trace: path=%s: %s", path,
				caret_error_message(*cause));
			goto fail;
		}
	}
	*dirs = found_dirs;
	*n = n_found;
	found_dirs = NULL;
	return CARET_OK;
fail:
	ctf_free_dirs(found_dirs, n_found);
	found_dirs = NULL;
	return status;
}

caret_status ctf_find_traces(const char *path, char ***dirs, size_t *n, char *err,
	size_t err_size)
{
	caret_error *cause;
	caret_status status = find_checked(path, true, dirs, n, err, err_size, &cause);
	caret_error_free(cause);
	return status;
}

caret_status ctf_list_traces(const char *path, char ***dirs, size_t *n, char *err,
	size_t err_size)
{
	caret_error *cause;
	caret_status status = find_checked(path, false, dirs, n, err, err_size, &cause);
	caret_error_free(cause);
	return status;
}

/* Opens the traces under path, checked first. */
static int find_traces(struct walk *w, const char *path)
{
	char **dirs;
	size_t n;
	w->status = find_checked(path, !w->h->framing_checked, &dirs, &n, w->err, w->err_size,
		&w->cause);
	int status = w->status ? -1 : 0;
	for (size_t i = 0; i < n && !status; i++) {
		char err[5120];
		status = open_trace(w, dirs[i], err, sizeof err);
		if (status && w->unsupported)
			walk_fail(w, CARET_ERR_UNSUPPORTED, "the native reader does not support %s", err);
		else if (status)
			walk_fail(w, w->status ? w->status : CARET_ERR_FORMAT,
				"cannot read trace: path=%s: %s", path, err);
	}
	ctf_free_dirs(dirs, n);
	return status;
}

/* ---- time order ------------------------------------------------------------ */

/* A stream as the merge sees it: its current event, from the stream
 * itself or (ctf_pipe.c) from what another thread decoded. */
struct source {
	struct ctf_stream *s;
	/* s->meta, read once: the decoding thread writes s's lines */
	const struct ctf_meta *meta;
	size_t index; /* in the walk */
	const struct ctf_event *event;
	__int128 key; /* the event's order_key, found once */
};

/* The source's next event, and its key: 1, 0 at its end, -1 with w->err. */
static inline __attribute__((always_inline)) int advance(struct walk *w, struct ctf_pipe *pipe,
	struct source *src)
{
	int r = pipe ? ctf_pipe_next(pipe, src->index, &src->event) : ctf_stream_next(src->s);
	if (!pipe)
		src->event = &src->s->event;
	if (r < 0)
		stream_failed(w, src->s);
	else if (r > 0)
		src->key = ctf_order_key(src->meta, src->event->timestamp);
	return r;
}

/* Sources by their next event; ties go to the one first in the walk. */
struct heap {
	struct source **s;
	size_t n;
};

static bool before(const struct heap *h, size_t a, size_t b)
{
	__int128 x = h->s[a]->key, y = h->s[b]->key;
	return x != y ? x < y : h->s[a]->index < h->s[b]->index;
}

static void swap(struct heap *h, size_t a, size_t b)
{
	struct source *s = h->s[a];
	h->s[a] = h->s[b];
	h->s[b] = s;
}

static void sift_down(struct heap *h, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		if (l < h->n && before(h, l, m))
			m = l;
		if (r < h->n && before(h, r, m))
			m = r;
		if (m == i)
			return;
		swap(h, i, m);
		i = m;
	}
}

/* An event to the handlers: as it is, or as their record, converted here
 * (the decoding thread converts the events it merges: hand_over_merged).
 * Handlers with both take it in one call, on_event. */
static int hand_over(const struct walk *w, const struct ctf_event *e, const struct ctf_meta *meta)
{
	const struct ctf_native_handlers *h = w->h;
	if (!h->convert || h->on_event)
		return h->on_event ? h->on_event(e, meta, h->user) : 0;
	alignas(8) unsigned char record[CTF_RECORD_BYTES];
	size_t size = h->convert(e, meta, record, h->user);
	return size ? h->on_record(record, size, e->timestamp, meta, h->user) : 0;
}

/* The records the decoding thread merged (ctf_pipe_merged), handed over. */
static int hand_over_merged(struct walk *w, struct ctf_pipe *pipe, const struct source *sources)
{
	const struct ctf_meta **metas = malloc((w->n_streams + 1) * sizeof *metas);
	if (!metas) {
		walk_fail(w, CARET_ERR_NO_MEMORY, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < w->n_streams; i++)
		metas[i] = sources[i].meta;
	int r = ctf_pipe_hand_over_merged(pipe, metas);
	if (r < 0 && ctf_pipe_failed_stream(pipe))
		stream_failed(w, ctf_pipe_failed_stream(pipe));
	else if (r < 0)
		walk_fail(w, CARET_ERR_FORMAT, "%s", ctf_pipe_error(pipe));
	free(metas);
	return r;
}

static int merge_sources(struct walk *w, struct ctf_pipe *pipe, struct source *sources)
{
	struct heap h = { malloc((w->n_streams + 1) * sizeof *h.s), 0 };
	if (!h.s) {
		walk_fail(w, CARET_ERR_NO_MEMORY, "out of memory");
		return -1;
	}
	int status = -1;
	for (size_t i = 0; i < w->n_streams; i++) {
		sources[i] = (struct source){ w->streams[i], w->streams[i]->meta, i, NULL, 0 };
		int r = advance(w, pipe, &sources[i]);
		if (r < 0)
			goto out;
		if (r > 0)
			h.s[h.n++] = &sources[i];
	}
	for (size_t i = h.n / 2; i-- > 0;)
		sift_down(&h, i);
	__int128 last = 0;
	bool delivered = false;
	while (h.n) {
		struct source *src = h.s[0];
		/* the source with the next event after src's run: src's events
		 * before it go with no look at the heap (one stream holds most of
		 * a trace recorded on one core) */
		const struct source *next = h.n < 2 ? NULL : h.n < 3 || before(&h, 1, 2) ? h.s[1] :
			h.s[2];
		int r;
		do {
			__int128 key = src->key;
			/* a stream's time that went back (a damaged timestamp) would
			 * put its events out of order: an error, as babeltrace2's
			 * muxer says */
			if (delivered && key < last) {
				walk_fail(w, CARET_ERR_FORMAT, "%s: damaged: an event at %" PRIu64
					" after events at a later time (time goes backwards)",
					src->s->path, src->event->timestamp);
				goto out;
			}
			last = key;
			delivered = true;
			if (hand_over(w, src->event, src->meta) != 0) {
				walk_fail(w, CARET_ERR_INVALID, "stopped by the event handler");
				goto out;
			}
			if ((r = advance(w, pipe, src)) < 0)
				goto out;
		} while (r && (!next || src->key < next->key ||
			(src->key == next->key && src->index < next->index)));
		if (!r) {
			h.n--;
			swap(&h, 0, h.n);
		}
		sift_down(&h, 0);
	}
	status = 0;
out:
	free(h.s);
	return status;
}

/* Large streams (ctf_pipe_split_bytes) become two parts, each decoded in
 * its own thread (ctf_stream_split), the second right after the first. */
static int split_streams(struct walk *w)
{
	uint64_t large = ctf_pipe_split_bytes();
	for (size_t i = 0; i < w->n_streams; i++) {
		struct ctf_stream *s = w->streams[i], *second;
		if (s->end - s->packet < large)
			continue;
		if (!(second = malloc(sizeof *second)) ||
		    !VEC_ROOM(w->streams, w->n_streams, w->cap_streams)) {
			free(second);
			walk_fail(w, CARET_ERR_NO_MEMORY, "out of memory");
			return -1;
		}
		if (ctf_stream_open(second, s->meta, s->path) != 0) {
			stream_failed(w, second);
			ctf_stream_close(second);
			free(second);
			return -1;
		}
		second->on_discarded = s->on_discarded;
		second->needed = s->needed;
		second->on_skipped = s->on_skipped;
		second->skip_before = s->skip_before;
		second->skip_after = s->skip_after;
		second->raw = s->raw;
		second->user = s->user;
		if (ctf_stream_split(s, second) != 1) {
			ctf_stream_close(second);
			free(second);
			continue;
		}
		memmove(&w->streams[i + 2], &w->streams[i + 1],
			(w->n_streams - i - 1) * sizeof *w->streams);
		w->streams[++i] = second;
		w->n_streams++;
	}
	return 0;
}

/* The streams merged in time order, decoded in other threads when there
 * is a core for it. */
static int merge(struct walk *w)
{
	/* room for every stream split in two */
	struct source *sources = malloc((2 * w->n_streams + 1) * sizeof *sources);
	if (!sources) {
		walk_fail(w, CARET_ERR_NO_MEMORY, "out of memory");
		return -1;
	}
	uint64_t bytes = 0;
	for (size_t i = 0; i < w->n_streams; i++)
		bytes += w->streams[i]->size;
	/* a walk that tallies most events leaves the merge little to do:
	 * its core decodes too, large streams in two parts; the cores free
	 * looked at only for a walk a second core would take */
	long cores = ctf_pipe_wanted(bytes, 2) ? ctf_pipe_cores() : 1;
	size_t decoders = w->h->skim && w->h->on_tally && cores > 1 ? 2 : 1;
	bool piped = w->n_streams && ctf_pipe_wanted(bytes, cores);
	if (piped && decoders > 1 && split_streams(w) != 0) {
		free(sources);
		return -1;
	}
	for (size_t i = 0; i < w->n_streams; i++) /* read here, not in the decoder's stream */
		sources[i].meta = w->streams[i]->meta;
	struct ctf_pipe *pipe = piped ?
		ctf_pipe_start(w->streams, w->n_streams, w->h, decoders) : NULL;
	int status = pipe && ctf_pipe_merged(pipe) ? hand_over_merged(w, pipe, sources) :
		merge_sources(w, pipe, sources);
	ctf_pipe_stop(pipe);
	for (size_t i = 0; !status && w->h->on_tally && i < w->n_streams; i++)
		ctf_stream_tallies(w->streams[i], w->h->on_tally, w->h->user);
	free(sources);
	return status;
}

static void close_walk(struct walk *w)
{
	for (size_t i = 0; i < w->n_streams; i++) {
		ctf_stream_close(w->streams[i]);
		free(w->streams[i]);
	}
	for (size_t i = 0; i < w->n_metas; i++)
		ctf_meta_free(w->metas[i]);
	free(w->streams);
	free(w->metas);
	caret_error_free(w->cause);
}

/* The number after `key = ` in text (a TSDL assignment), 0 when none. */
static bool tsdl_number(const char *text, const char *end, const char *key, long long *v)
{
	size_t k = strlen(key);
	for (const char *at = text; (at = strstr(at, key)) && at < end; at += k) {
		bool word = (at == text || at[-1] == ' ' || at[-1] == '\t' || at[-1] == '\n') &&
			!strncmp(at + k, " = ", 3);
		if (word) {
			*v = strtoll(at + k + 3, NULL, 10);
			return true;
		}
	}
	return false;
}

int ctf_hosts_of(const char *path, struct ctf_host **hosts, size_t *n, char *err,
	size_t err_size)
{
	char **dirs;
	size_t n_dirs;
	if (ctf_find_traces(path, &dirs, &n_dirs, err, err_size) != CARET_OK)
		return -1;
	int status = 0;
	for (size_t i = 0; i < n_dirs && !status; i++) {
		size_t size;
		char *text = ctf_metadata_read(dirs[i], &size, err, err_size);
		if (!text) {
			status = -1;
			break;
		}
		const char *name = strstr(text, "hostname = \""), *clock = strstr(text, "clock {");
		const char *close = clock ? strstr(clock, "};") : NULL;
		long long freq = 1000000000, offset_s = 0, offset = 0;
		if (clock && close) {
			tsdl_number(clock, close, "freq", &freq);
			tsdl_number(clock, close, "offset_s", &offset_s);
			tsdl_number(clock, close, "offset", &offset);
		}
		/* in 128 bits: a hostile offset must not overflow (the metadata's
		 * own parse refuses what does not fit, as here) */
		__int128 ns = (__int128)offset_s * 1000000000 +
			(__int128)offset * 1000000000 / (freq > 0 ? freq : 1);
		if (ns > INT64_MAX || ns < INT64_MIN) {
			snprintf(err, err_size, "%s: unsupported clock offset", dirs[i]);
			free(text);
			status = -1;
			break;
		}
		struct ctf_host h = { .offset_ns = (int64_t)ns };
		if (name)
			sscanf(name, "hostname = \"%255[^\"]\"", h.name);
		free(text);
		bool known = !h.name[0];
		for (size_t k = 0; k < *n && !known; k++)
			known = !strcmp((*hosts)[k].name, h.name);
		if (known)
			continue;
		struct ctf_host *grown = realloc(*hosts, (*n + 1) * sizeof *grown);
		if (!grown) {
			snprintf(err, err_size, "out of memory");
			status = -1;
			break;
		}
		*hosts = grown;
		(*hosts)[(*n)++] = h;
	}
	ctf_free_dirs(dirs, n_dirs);
	return status;
}

static bool same_host(const struct ctf_meta *a, const struct ctf_meta *b)
{
	return !a->env_hostname || !b->env_hostname || !strcmp(a->env_hostname, b->env_hostname);
}

/* Traces of several hosts: each host's times onto the first host's clock.
 * Traces of one host keep their times as recorded (its sessions share its
 * monotonic clock; their offsets differ by how each was measured). */
static void align_on_plan(struct walk *w)
{
	const struct ctf_host *hosts = w->h->hosts;
	for (size_t i = 0; i < w->n_metas; i++) {
		struct ctf_meta *m = w->metas[i];
		size_t k = 0;
		while (k < w->h->n_hosts && (!m->env_hostname || strcmp(hosts[k].name,
		       m->env_hostname)))
			k++;
		if (k == w->h->n_hosts) /* a host no plan names: on its own clock */
			continue;
		__int128 ns = (__int128)hosts[k].offset_ns - hosts[0].offset_ns;
		for (size_t c = 0; c < w->h->n_clock_corrections; c++)
			if (!strcmp(w->h->clock_hosts[c], m->env_hostname))
				ns -= w->h->clock_corrections[c];
		m->time_shift = (int64_t)(ns * (__int128)m->clock_freq / 1000000000);
		m->epoch_offset_ns = hosts[0].offset_ns;
		m->pid_base = (int32_t)(k < 127 ? k : 127) << 24;
	}
}

static void align_hosts(struct walk *w)
{
	if (w->h->n_hosts > 1) {
		align_on_plan(w);
		return;
	}
	bool several = false;
	for (size_t i = 1; i < w->n_metas && !several; i++)
		several = !same_host(w->metas[0], w->metas[i]);
	if (!several)
		return;
	/* the first host by name: the analyzer's estimates are against it */
	const struct ctf_meta *base = w->metas[0];
	for (size_t i = 1; i < w->n_metas; i++)
		if (w->metas[i]->env_hostname && (!base->env_hostname ||
		    strcmp(w->metas[i]->env_hostname, base->env_hostname) < 0))
			base = w->metas[i];
	for (size_t i = 0; i < w->n_metas; i++) {
		struct ctf_meta *m = w->metas[i];
		const struct ctf_meta *first = m; /* the host's first trace sets its offset */
		for (size_t k = 0; k < i; k++)
			if (same_host(w->metas[k], m)) {
				first = w->metas[k];
				break;
			}
		__int128 ns = (__int128)first->clock_offset_ns - base->clock_offset_ns;
		for (size_t k = 0; k < w->h->n_clock_corrections && m->env_hostname; k++)
			if (!strcmp(w->h->clock_hosts[k], m->env_hostname))
				ns -= w->h->clock_corrections[k];
		m->time_shift = (int64_t)(ns * (__int128)m->clock_freq / 1000000000);
		m->epoch_offset_ns = base->clock_offset_ns;
		int32_t rank = 0; /* hosts named before this one */
		for (size_t k = 0; k < w->n_metas && m->env_hostname; k++) {
			const struct ctf_meta *o = w->metas[k];
			bool earlier = o->env_hostname && strcmp(o->env_hostname, m->env_hostname) < 0;
			for (size_t j = 0; earlier && j < k; j++) /* each host once */
				earlier = !w->metas[j]->env_hostname ||
					strcmp(w->metas[j]->env_hostname, o->env_hostname);
			rank += earlier;
		}
		m->pid_base = rank < 127 ? rank << 24 : 127 << 24;
	}
}

caret_status ctf_native_walk(const char *path, const struct ctf_native_handlers *h,
	caret_error **error)
{
	char text[8192], why[5120];
	struct walk w = { .h = h, .err = text, .err_size = sizeof text };
	caret_status status = CARET_OK;
	*error = NULL;
	if (find_traces(&w, path) != 0) {
		status = w.unsupported ? CARET_ERR_UNSUPPORTED :
			w.status ? w.status : CARET_ERR_FORMAT;
		*error = walk_error(&w, status, path, text);
	} else {
		w.err = why;
		w.err_size = sizeof why;
		align_hosts(&w);
		if (merge(&w) != 0) {
			status = w.status ? w.status : CARET_ERR_FORMAT;
			snprintf(text, sizeof text, "cannot read trace: path=%s: %s", path, why);
			*error = walk_error(&w, status, path, text);
		}
	}
	close_walk(&w);
	return status;
}

/* An error's words into err, and its status. */
static caret_status in_words(caret_status status, caret_error *e, char *err, size_t err_size)
{
	if (status)
		snprintf(err, err_size, "%s", caret_error_message(e));
	caret_error_free(e);
	return status;
}

caret_status ctf_native_iterate(const char *path, const struct ctf_native_handlers *h,
	char *err, size_t err_size)
{
	caret_error *e;
	caret_status status = ctf_native_walk(path, h, &e);
	return in_words(status, e, err, err_size);
}

caret_status ctf_native_bounds(const char *path, uint64_t *first, uint64_t *last, char *err,
	size_t err_size)
{
	struct ctf_native_handlers none = { 0 };
	char text[5120];
	struct walk w = { .h = &none, .err = text, .err_size = sizeof text };
	caret_status status = find_traces(&w, path) ? CARET_ERR_FORMAT : CARET_OK;
	*first = *last = 0;
	for (size_t i = 0; !status && i < w.n_streams; i++) {
		uint64_t a, b;
		int r = ctf_stream_bounds(w.streams[i], &a, &b);
		if (r < 0) {
			snprintf(text, sizeof text, "cannot read trace: path=%s: %s", path,
				w.streams[i]->err);
			keep_cause(&w, w.streams[i]);
			status = w.status;
		} else if (r > 0) {
			if (!*first || a < *first)
				*first = a;
			if (b > *last)
				*last = b;
		}
	}
	if (status && w.unsupported)
		status = CARET_ERR_UNSUPPORTED;
	else if (status && w.status)
		status = w.status;
	caret_error *e = status ? walk_error(&w, status, path, text) : NULL;
	close_walk(&w);
	return in_words(status, e, err, err_size);
}
