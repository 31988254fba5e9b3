/* ctf_check.c - see ctf_check.h. The layouts are LTTng's (CTF 1.8):
 * metadata packets of a 37-byte header, stream packets opening with the
 * 32-byte packet header and the packet context (content and packet sizes,
 * in bits, at bytes 48 and 56), index files of big-endian 64-bit fields. */
#define _GNU_SOURCE
#include "ctf_check.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error_build.h"
#include "vec.h"

#define METADATA_MAGIC 0x75D11D57u
#define METADATA_HEADER 37
#define STREAM_MAGIC 0xC1FC1FC1u
#define STREAM_HEADER 64 /* through packet_size */
#define INDEX_MAGIC 0xC1F1DCC1u
#define INDEX_HEADER 16
#define INDEX_ENTRY_MIN 56 /* offset .. stream_id: 7 fields */
#define UUID_AT 4 /* in metadata and stream packet headers alike */
#define UUID_SIZE 16

struct file {
	int fd;
	uint64_t size;
	const char *name;
};

/* The first problem found, as words and as data (caret/error.h). */
struct damage {
	caret_status status;
	char name[NAME_MAX + 16]; /* the file in the trace directory; "" when none */
	int64_t offset;           /* the byte of it; -1: none */
	char what[1024];
};

static int problem(struct damage *d, caret_status status, const char *name, int64_t offset,
	const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static int problem(struct damage *d, caret_status status, const char *name, int64_t offset,
	const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(d->what, sizeof d->what, fmt, ap);
	va_end(ap);
	d->status = status;
	snprintf(d->name, sizeof d->name, "%s", name ? name : "");
	d->offset = offset;
	return -1;
}

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t le64(const unsigned char *p)
{
	return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

static uint64_t be64(const unsigned char *p)
{
	uint64_t v = 0;
	for (int i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static int open_file(int dir, const char *name, struct file *f, struct damage *d)
{
	struct stat st;
	f->name = name;
	/* O_NONBLOCK: a FIFO put in the place of a file must not block the open */
	f->fd = openat(dir, name, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (f->fd < 0)
		return problem(d, CARET_ERR_IO, name, -1, "%s", strerror(errno));
	if (fstat(f->fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(f->fd);
		return problem(d, CARET_ERR_FORMAT, name, -1, "not a regular file");
	}
	f->size = (uint64_t)st.st_size;
	return 0;
}

static bool read_at(const struct file *f, void *buf, size_t n, uint64_t offset)
{
	return pread(f->fd, buf, n, (off_t)offset) == (ssize_t)n;
}

/* A packet's sizes (bits) against what the file holds from offset. */
static int check_sizes(const struct file *f, uint64_t offset, uint64_t content, uint64_t packet,
	uint64_t header, struct damage *d)
{
	if (packet % 8 || packet / 8 < header || content > packet || content / 8 < header)
		return problem(d, CARET_ERR_FORMAT, f->name, (int64_t)offset, "the packet at byte %"
			PRIu64 " is damaged (packet size %" PRIu64 " bits, content %" PRIu64 " bits)",
			offset, packet, content);
	if (packet / 8 > f->size - offset)
		return problem(d, CARET_ERR_FORMAT, f->name, (int64_t)offset, "truncated: the "
			"packet at byte %" PRIu64 " needs %" PRIu64 " bytes, the file has %" PRIu64
			" after it", offset, packet / 8, f->size - offset);
	return 0;
}

/* The trace's UUID, from its metadata packets: every packet of the trace
 * carries it. */
struct trace_uuid {
	unsigned char bytes[UUID_SIZE];
	bool known; /* false: text metadata (no packet header to take it from) */
};

static void uuid_text(const unsigned char *u, char out[37])
{
	static const char hex[] = "0123456789abcdef";
	size_t k = 0;
	for (int i = 0; i < UUID_SIZE; i++) {
		if (i == 4 || i == 6 || i == 8 || i == 10)
			out[k++] = '-';
		out[k++] = hex[u[i] >> 4];
		out[k++] = hex[u[i] & 15];
	}
	out[k] = '\0';
}

/* A packet's UUID (header bytes h) against the trace's: the first one met
 * becomes the trace's. what names the packet for the error. */
static int check_uuid(struct trace_uuid *u, const unsigned char *h, const char *name,
	uint64_t at, const char *whose, struct damage *d)
{
	if (!u->known) {
		memcpy(u->bytes, h + UUID_AT, UUID_SIZE);
		u->known = true;
		return 0;
	}
	if (!memcmp(u->bytes, h + UUID_AT, UUID_SIZE))
		return 0;
	char theirs[37], ours[37];
	uuid_text(h + UUID_AT, theirs);
	uuid_text(u->bytes, ours);
	return problem(d, CARET_ERR_FORMAT, name, (int64_t)at, "the packet at byte %" PRIu64
		" is of another trace: its UUID %s is not %s %s (a file of another recording, "
		"or a damaged header)", at, theirs, whose, ours);
}

static int check_metadata(int dir, struct trace_uuid *uuid, struct damage *d)
{
	struct file f;
	unsigned char h[METADATA_HEADER];
	if (open_file(dir, "metadata", &f, d))
		return -1;
	int rc = 0;
	if (f.size < 6 || !read_at(&f, h, 6, 0))
		rc = problem(d, CARET_ERR_FORMAT, "metadata", 0, "empty or truncated (%" PRIu64
			" bytes)", f.size);
	else if (le32(h) != METADATA_MAGIC) {
		if (memcmp(h, "/* CTF", 6))
			rc = problem(d, CARET_ERR_FORMAT, "metadata", 0,
				"neither packetized nor text CTF metadata");
	} else {
		for (uint64_t at = 0; at < f.size && !rc; ) {
			if (f.size - at < METADATA_HEADER || !read_at(&f, h, sizeof h, at)) {
				rc = problem(d, CARET_ERR_FORMAT, "metadata", (int64_t)at, "truncated: %"
					PRIu64 " bytes after the last whole packet", f.size - at);
				break;
			}
			if (le32(h) != METADATA_MAGIC) {
				rc = problem(d, CARET_ERR_FORMAT, "metadata", (int64_t)at, "the packet at "
					"byte %" PRIu64 " is damaged (bad magic)", at);
				break;
			}
			uint64_t content = le32(h + 24), packet = le32(h + 28);
			rc = check_uuid(uuid, h, "metadata", at, "its first packet's", d);
			if (!rc)
				rc = check_sizes(&f, at, content, packet, METADATA_HEADER, d);
			at += packet / 8;
		}
	}
	close(f.fd);
	return rc;
}

struct packet {
	uint64_t offset, packet, content, begin, end;
};

/* Which stream a file holds (its first packet's header): a trace holds
 * each stream once. */
struct stream_id {
	char name[NAME_MAX + 1];
	uint64_t class_id, instance;
	bool known; /* false: the file holds no packet */
};

/* Walks a stream file's packets; the headers, for its index. */
static int check_stream(int dir, const char *name, struct trace_uuid *uuid,
	struct packet **out, size_t *count, struct stream_id *id, struct damage *d)
{
	struct file f;
	unsigned char h[STREAM_HEADER];
	size_t n = 0, cap = 0;
	struct packet *packets = NULL;
	if (open_file(dir, name, &f, d))
		return -1;
	int rc = 0;
	for (uint64_t at = 0; at < f.size && !rc; ) {
		if (f.size - at < STREAM_HEADER || !read_at(&f, h, sizeof h, at)) {
			rc = problem(d, CARET_ERR_FORMAT, name, (int64_t)at, "truncated: %" PRIu64
				" bytes after the last whole packet", f.size - at);
			break;
		}
		if (le32(h) != STREAM_MAGIC) {
			rc = problem(d, CARET_ERR_FORMAT, name, (int64_t)at, "the packet at byte %"
				PRIu64 " is damaged (bad magic)", at);
			break;
		}
		struct packet p = { at, le64(h + 56), le64(h + 48), le64(h + 32), le64(h + 40) };
		if (!n)
			*id = (struct stream_id){ .class_id = le32(h + 20), .instance = le64(h + 24),
				.known = true };
		rc = uuid->known ? check_uuid(uuid, h, name, at, "the metadata's", d) : 0;
		if (!rc)
			rc = check_sizes(&f, at, p.content, p.packet, STREAM_HEADER, d);
		if (!rc && !VEC_ROOM(packets, n, cap))
			rc = problem(d, CARET_ERR_NO_MEMORY, NULL, -1, "out of memory");
		if (!rc)
			packets[n++] = p;
		at += p.packet / 8;
	}
	close(f.fd);
	if (rc) {
		free(packets);
		return -1;
	}
	*out = packets;
	*count = n;
	return 0;
}

/* The field of index entry e that differs from the packet p, or NULL. */
static const char *index_mismatch(const unsigned char *e, const struct packet *p)
{
	return be64(e) != p->offset ? "offset" : be64(e + 8) != p->packet ? "packet_size" :
		be64(e + 16) != p->content ? "content_size" : be64(e + 24) != p->begin ?
		"timestamp_begin" : be64(e + 32) != p->end ? "timestamp_end" : NULL;
}

/* An index must describe exactly the packets the stream holds. */
static int check_index(int dir, const char *stream, const struct packet *packets, size_t n,
	struct damage *d)
{
	char name[NAME_MAX + 16];
	struct file f;
	unsigned char h[INDEX_HEADER], e[256];
	snprintf(name, sizeof name, "index/%s.idx", stream);
	if (faccessat(dir, name, F_OK, 0) != 0)
		return 0; /* no index: readers build theirs */
	if (open_file(dir, name, &f, d))
		return -1;
	int rc = 0;
	uint32_t len = 0;
	if (f.size < INDEX_HEADER || !read_at(&f, h, sizeof h, 0) || be32(h) != INDEX_MAGIC)
		rc = problem(d, CARET_ERR_FORMAT, name, 0, "damaged header");
	else if ((len = be32(h + 12)) < INDEX_ENTRY_MIN || len > sizeof e ||
		 (f.size - INDEX_HEADER) % len)
		rc = problem(d, CARET_ERR_FORMAT, name, 12, "damaged (entry size %" PRIu32 ", %"
			PRIu64 " bytes)", len, f.size);
	else if ((f.size - INDEX_HEADER) / len != n)
		rc = problem(d, CARET_ERR_FORMAT, name, -1, "describes %" PRIu64 " packets, %s "
			"holds %zu", (f.size - INDEX_HEADER) / len, stream, n);
	for (size_t i = 0; i < n && !rc; i++) {
		if (!read_at(&f, e, len, INDEX_HEADER + (uint64_t)i * len)) {
			rc = problem(d, CARET_ERR_IO, name, (int64_t)(INDEX_HEADER + i * len),
				"cannot read entry %zu", i);
			break;
		}
		const char *field = index_mismatch(e, &packets[i]);
		if (field)
			rc = problem(d, CARET_ERR_FORMAT, name, (int64_t)(INDEX_HEADER + i * len),
				"entry %zu does not match the packet at byte %" PRIu64 " of %s (%s "
				"differs: the index or the packet is damaged; the trace reads without "
				"the index if you move the index directory away)", i, packets[i].offset,
				stream, field);
	}
	close(f.fd);
	return rc;
}

/* What a non-regular file is, for the error that names it. */
static const char *file_kind(mode_t mode)
{
	return S_ISDIR(mode) ? "a directory" : S_ISFIFO(mode) ? "a FIFO" : S_ISCHR(mode) ?
		"a character device" : S_ISBLK(mode) ? "a block device" : S_ISSOCK(mode) ?
		"a socket" : "not a regular file";
}

/* Whether an entry of the trace directory is a stream file to check: 1,
 * 0 for what LTTng puts beside them (metadata, the index directory, hidden
 * files), -1 with err for anything else where a stream file is expected
 * (a FIFO would block a reader, /dev/zero would never end). */
static int stream_entry(int dir, const char *name, struct damage *d)
{
	struct stat st;
	if (name[0] == '.' || !strcmp(name, "metadata"))
		return 0;
	if (fstatat(dir, name, &st, 0) != 0)
		return problem(d, CARET_ERR_IO, name, -1, "%s", strerror(errno));
	if (S_ISDIR(st.st_mode) && !strcmp(name, "index"))
		return 0;
	if (!S_ISREG(st.st_mode))
		return problem(d, CARET_ERR_FORMAT, name, -1, "%s where a stream file is expected "
			"(a trace directory holds metadata, stream files and index/ only)",
			file_kind(st.st_mode));
	return 1;
}

/* A stream held by two files (one copied beside the other): readers would
 * read its events twice. ids[0..n) are the files checked before this one. */
static int check_unique(const struct stream_id *ids, size_t n, const struct stream_id *id,
	struct damage *d)
{
	for (size_t i = 0; id->known && i < n; i++) {
		if (!ids[i].known || ids[i].class_id != id->class_id ||
		    ids[i].instance != id->instance)
			continue;
		bool first = strcmp(ids[i].name, id->name) < 0;
		return problem(d, CARET_ERR_FORMAT, NULL, -1, "%s and %s hold the same stream "
			"(stream class %" PRIu64 ", instance %" PRIu64 "): one is a copy of the "
			"other; a trace holds each stream once (move the copy away)",
			first ? ids[i].name : id->name, first ? id->name : ids[i].name, id->class_id,
			id->instance);
	}
	return 0;
}

/* What the walk of a trace directory has seen so far. */
struct dir_walk {
	int dir;
	struct trace_uuid uuid;
	struct stream_id *ids; /* the stream files checked */
	size_t n_ids;
};

/* One entry of the trace directory: its packets, its index, that no other
 * file holds its stream. */
static int check_entry(struct dir_walk *w, const char *name, struct damage *d)
{
	int rc = stream_entry(w->dir, name, d);
	if (rc <= 0)
		return rc;
	struct stream_id *grown = realloc(w->ids, (w->n_ids + 1) * sizeof *grown);
	if (!grown)
		return problem(d, CARET_ERR_NO_MEMORY, NULL, -1, "out of memory");
	w->ids = grown;
	struct stream_id *id = &grown[w->n_ids];
	*id = (struct stream_id){ .known = false };
	struct packet *packets = NULL;
	size_t n = 0;
	rc = check_stream(w->dir, name, &w->uuid, &packets, &n, id, d);
	snprintf(id->name, sizeof id->name, "%s", name);
	if (!rc)
		rc = check_index(w->dir, name, packets, n, d);
	if (!rc)
		rc = check_unique(w->ids, w->n_ids, id, d);
	free(packets);
	w->n_ids += !rc;
	return rc;
}

/* Every index file's stream is there: a stream file removed (its index
 * left) would have its events missing without a word. */
static int check_indexed_streams(int dir, struct damage *d)
{
	int fd = openat(dir, "index", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return 0; /* no index directory: nothing it names */
	DIR *entries = fdopendir(fd);
	if (!entries) {
		close(fd);
		return problem(d, CARET_ERR_IO, "index", -1, "%s", strerror(errno));
	}
	int rc = 0;
	struct dirent *e;
	while (!rc && (e = readdir(entries))) {
		size_t len = strlen(e->d_name);
		if (e->d_name[0] == '.' || len <= 4 || strcmp(e->d_name + len - 4, ".idx"))
			continue;
		char stream[NAME_MAX + 1];
		snprintf(stream, sizeof stream, "%.*s", (int)(len - 4), e->d_name);
		struct stat st;
		if (fstatat(dir, stream, &st, AT_SYMLINK_NOFOLLOW) != 0 && errno == ENOENT)
			rc = problem(d, CARET_ERR_FORMAT, stream, -1, "missing: its index "
				"(index/%s) says the recording wrote this stream file; its events are "
				"lost (restore the file; move the index file away only to read the "
				"rest knowingly)", e->d_name);
	}
	closedir(entries);
	return rc;
}

/* The damage as the cause of an error: in the file path/name at its
 * byte, or (a problem of no one file) in the directory's words. */
static caret_status damage_error(const char *path, const struct damage *d, caret_error **error)
{
	char file[PATH_MAX + NAME_MAX + 16];
	if (d->name[0]) {
		snprintf(file, sizeof file, "%s/%s", path, d->name);
		caret_error_add(error, d->status, file, d->offset, NULL, "%s", d->what);
	} else {
		caret_error_add(error, d->status, NULL, -1, NULL, "%s/%s", path, d->what);
	}
	return d->status;
}

caret_status ctf_check_dir(const char *path, caret_error **error)
{
	struct damage d = { .offset = -1 };
	*error = NULL;
	int dir = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dir < 0) {
		caret_error_add(error, CARET_ERR_IO, path, -1, NULL, "%s", strerror(errno));
		return CARET_ERR_IO;
	}
	struct dir_walk w = { .dir = dir };
	int rc = check_metadata(dir, &w.uuid, &d);
	if (!rc)
		rc = check_indexed_streams(dir, &d);
	DIR *entries = rc ? NULL : fdopendir(dup(dir));
	if (!rc && !entries)
		rc = problem(&d, CARET_ERR_IO, NULL, -1, "%s", strerror(errno));
	struct dirent *e;
	while (entries && !rc && (e = readdir(entries)))
		rc = check_entry(&w, e->d_name, &d);
	free(w.ids);
	if (entries)
		closedir(entries);
	close(dir);
	return rc ? damage_error(path, &d, error) : CARET_OK;
}

int ca_ctf_check_dir(const char *path, char *err, size_t err_size)
{
	caret_error *e;
	caret_status status = ctf_check_dir(path, &e);
	if (status)
		snprintf(err, err_size, "%s", caret_error_message(e));
	caret_error_free(e);
	return status ? -1 : 0;
}
