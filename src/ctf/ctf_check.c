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

#include "vec.h"

#define METADATA_MAGIC 0x75D11D57u
#define METADATA_HEADER 37
#define STREAM_MAGIC 0xC1FC1FC1u
#define STREAM_HEADER 64 /* through packet_size */
#define INDEX_MAGIC 0xC1F1DCC1u
#define INDEX_HEADER 16
#define INDEX_ENTRY_MIN 56 /* offset .. stream_id: 7 fields */

struct file {
	int fd;
	uint64_t size;
	const char *name;
};

static int problem(char *err, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int problem(char *err, size_t size, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, size, fmt, ap);
	va_end(ap);
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

static int open_file(int dir, const char *name, struct file *f, char *err, size_t size)
{
	struct stat st;
	f->name = name;
	f->fd = openat(dir, name, O_RDONLY | O_CLOEXEC);
	if (f->fd < 0)
		return problem(err, size, "%s: %s", name, strerror(errno));
	if (fstat(f->fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(f->fd);
		return problem(err, size, "%s: not a regular file", name);
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
	uint64_t header, char *err, size_t size)
{
	if (packet % 8 || packet / 8 < header || content > packet || content / 8 < header)
		return problem(err, size, "%s: the packet at byte %" PRIu64 " is damaged (packet "
			"size %" PRIu64 " bits, content %" PRIu64 " bits)", f->name, offset, packet,
			content);
	if (packet / 8 > f->size - offset)
		return problem(err, size, "%s: truncated: the packet at byte %" PRIu64 " needs %"
			PRIu64 " bytes, the file has %" PRIu64 " after it", f->name, offset,
			packet / 8, f->size - offset);
	return 0;
}

static int check_metadata(int dir, char *err, size_t size)
{
	struct file f;
	unsigned char h[METADATA_HEADER];
	if (open_file(dir, "metadata", &f, err, size))
		return -1;
	int rc = 0;
	if (f.size < 6 || !read_at(&f, h, 6, 0))
		rc = problem(err, size, "metadata: empty or truncated (%" PRIu64 " bytes)", f.size);
	else if (le32(h) != METADATA_MAGIC) {
		if (memcmp(h, "/* CTF", 6))
			rc = problem(err, size, "metadata: neither packetized nor text CTF metadata");
	} else {
		for (uint64_t at = 0; at < f.size && !rc; ) {
			if (f.size - at < METADATA_HEADER || !read_at(&f, h, sizeof h, at)) {
				rc = problem(err, size, "metadata: truncated: %" PRIu64 " bytes after the "
					"last whole packet", f.size - at);
				break;
			}
			if (le32(h) != METADATA_MAGIC) {
				rc = problem(err, size, "metadata: the packet at byte %" PRIu64 " is "
					"damaged (bad magic)", at);
				break;
			}
			uint64_t content = le32(h + 24), packet = le32(h + 28);
			rc = check_sizes(&f, at, content, packet, METADATA_HEADER, err, size);
			at += packet / 8;
		}
	}
	close(f.fd);
	return rc;
}

struct packet {
	uint64_t offset, packet, content, begin;
};

/* Walks a stream file's packets; the headers, for its index. */
static int check_stream(int dir, const char *name, struct packet **out, size_t *count,
	char *err, size_t size)
{
	struct file f;
	unsigned char h[STREAM_HEADER];
	size_t n = 0, cap = 0;
	struct packet *packets = NULL;
	if (open_file(dir, name, &f, err, size))
		return -1;
	int rc = 0;
	for (uint64_t at = 0; at < f.size && !rc; ) {
		if (f.size - at < STREAM_HEADER || !read_at(&f, h, sizeof h, at)) {
			rc = problem(err, size, "%s: truncated: %" PRIu64 " bytes after the last whole "
				"packet", name, f.size - at);
			break;
		}
		if (le32(h) != STREAM_MAGIC) {
			rc = problem(err, size, "%s: the packet at byte %" PRIu64 " is damaged (bad "
				"magic)", name, at);
			break;
		}
		struct packet p = { at, le64(h + 56), le64(h + 48), le64(h + 32) };
		rc = check_sizes(&f, at, p.content, p.packet, STREAM_HEADER, err, size);
		if (!rc && !VEC_ROOM(packets, n, cap))
			rc = problem(err, size, "out of memory");
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

/* An index must describe exactly the packets the stream holds. */
static int check_index(int dir, const char *stream, const struct packet *packets, size_t n,
	char *err, size_t size)
{
	char name[NAME_MAX + 16];
	struct file f;
	unsigned char h[INDEX_HEADER], e[256];
	snprintf(name, sizeof name, "index/%s.idx", stream);
	if (faccessat(dir, name, F_OK, 0) != 0)
		return 0; /* no index: readers build theirs */
	if (open_file(dir, name, &f, err, size))
		return -1;
	int rc = 0;
	uint32_t len = 0;
	if (f.size < INDEX_HEADER || !read_at(&f, h, sizeof h, 0) || be32(h) != INDEX_MAGIC)
		rc = problem(err, size, "%s: damaged header", name);
	else if ((len = be32(h + 12)) < INDEX_ENTRY_MIN || len > sizeof e ||
		 (f.size - INDEX_HEADER) % len)
		rc = problem(err, size, "%s: damaged (entry size %" PRIu32 ", %" PRIu64 " bytes)",
			name, len, f.size);
	else if ((f.size - INDEX_HEADER) / len != n)
		rc = problem(err, size, "%s: describes %" PRIu64 " packets, %s holds %zu", name,
			(f.size - INDEX_HEADER) / len, stream, n);
	for (size_t i = 0; i < n && !rc; i++) {
		if (!read_at(&f, e, len, INDEX_HEADER + (uint64_t)i * len)) {
			rc = problem(err, size, "%s: cannot read entry %zu", name, i);
			break;
		}
		const struct packet *p = &packets[i];
		if (be64(e) != p->offset || be64(e + 8) != p->packet || be64(e + 16) != p->content ||
		    be64(e + 24) != p->begin || be64(e + 32) < be64(e + 24))
			rc = problem(err, size, "%s: entry %zu does not match the packet at byte %"
				PRIu64 " of %s (the index is damaged; the trace reads without it if "
				"you move the index directory away)", name, i, p->offset, stream);
	}
	close(f.fd);
	return rc;
}

int ca_ctf_check_dir(const char *path, char *err, size_t err_size)
{
	char where[512];
	int dir = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dir < 0)
		return problem(err, err_size, "%s: %s", path, strerror(errno));
	int rc = check_metadata(dir, where, sizeof where);
	DIR *d = rc ? NULL : fdopendir(dup(dir));
	if (!rc && !d)
		rc = problem(where, sizeof where, "%s", strerror(errno));
	struct dirent *e;
	while (d && !rc && (e = readdir(d))) {
		struct stat st;
		if (e->d_name[0] == '.' || !strcmp(e->d_name, "metadata") ||
		    fstatat(dir, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
			continue;
		struct packet *packets = NULL;
		size_t n = 0;
		rc = check_stream(dir, e->d_name, &packets, &n, where, sizeof where);
		if (!rc)
			rc = check_index(dir, e->d_name, packets, n, where, sizeof where);
		free(packets);
	}
	if (d)
		closedir(d);
	close(dir);
	if (rc)
		snprintf(err, err_size, "%s/%s", path, where);
	return rc;
}
