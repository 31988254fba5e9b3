/*
 * fuzz_folder - libFuzzer target: the analyzer's whole load (--merge) of
 * a folder laid out as lttng-relayd files several hosts' recordings,
 * OUTPUT/HOST/SESSION/ust/uid/0/64-bit (hostA: caret-fork-intra, hostB:
 * caret-fork-inter, from ../shared/data/real-humble), after the input's
 * operations on files and folders: a stream removed (its index kept), a
 * host's session copied beside it, a trace directory copied in its
 * recording, another trace's metadata or stream put in, a UUID byte of a
 * packet flipped, a stream copied beside itself, a stream cut at a byte,
 * any byte flipped, the folder given twice. Each operation is 3 bytes: the
 * operation, then two arguments; the first byte of the input says whether
 * runtime events are kept (bit 0).
 *
 * The oracle is the promise of docs/reliability.md, judged on what the
 * folder holds in the end (operations may undo each other): a folder that
 * would lose or double events without a word (a stream its index names is
 * gone, a stream of another UUID than its metadata, two stream files
 * opening with the same packet, a folder given twice) must end in an
 * error, one line, never a load that succeeds; any other damage may load
 * or be refused in one line.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <ftw.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ca.h"

#define N_FILES 6
#define N_TRACES 2

static const char *const names[N_FILES] = { "metadata", "ch0_0", "ch0_1", "index/ch0_0.idx",
	"index/ch0_1.idx", NULL };
static const char *const traces[N_TRACES] = { "caret-fork-intra", "caret-fork-inter" };
static const char *const hosts[N_TRACES] = { "hostA", "hostB" };

/* The real traces' files, read once. */
static struct {
	char *data;
	size_t size;
} files[N_TRACES][N_FILES];

static char root[256];

static char *slurp(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		abort();
	fseek(f, 0, SEEK_END);
	*size = (size_t)ftell(f);
	rewind(f);
	char *data = malloc(*size + 1);
	if (!data || fread(data, 1, *size, f) != *size)
		abort();
	fclose(f);
	return data;
}

static void write_file(const char *path, const void *data, size_t size)
{
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(data, 1, size, f) != size)
		abort();
	fclose(f);
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void remove_tree(const char *path)
{
	nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* mkdir -p of path, below root. */
static void make_dirs(const char *path)
{
	char p[700];
	snprintf(p, sizeof p, "%s", path);
	for (char *c = p + strlen(root) + 1; *c; c++)
		if (*c == '/') {
			*c = '\0';
			mkdir(p, 0755);
			*c = '/';
		}
	mkdir(p, 0755);
}

/* The trace directory of a session with trace k's files. */
static void lay_out(const char *session, int k)
{
	char dir[600], path[700];
	snprintf(dir, sizeof dir, "%s/ust/uid/0/64-bit/index", session);
	make_dirs(dir);
	dir[strlen(dir) - strlen("/index")] = '\0';
	for (int i = 0; names[i]; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		write_file(path, files[k][i].data, files[k][i].size);
	}
}

/* The trace directory of host h (its session s1, or the copy s2). */
static void trace_dir(int h, const char *session, char *out, size_t size)
{
	snprintf(out, size, "%s/%s/%s/ust/uid/0/64-bit", root, hosts[h], session);
}

static void copy_tree(const char *from, const char *to)
{
	char cmd[1400];
	snprintf(cmd, sizeof cmd, "cp -r '%s' '%s' 2>/dev/null", from, to);
	if (system(cmd) != 0)
		return; /* already there, or its source removed by an earlier operation */
}

static bool exists(const char *path)
{
	struct stat st;
	return lstat(path, &st) == 0;
}

/* Flips byte `at` of a file (modulo its size) by x. */
static void flip(const char *path, uint64_t at, uint8_t x)
{
	int fd = open(path, O_RDWR);
	struct stat st;
	if (fd >= 0 && fstat(fd, &st) == 0 && st.st_size > 0) {
		off_t where = (off_t)(at % (uint64_t)st.st_size);
		uint8_t b;
		if (pread(fd, &b, 1, where) == 1) {
			b ^= x;
			(void)!pwrite(fd, &b, 1, where);
		}
	}
	if (fd >= 0)
		close(fd);
}

/* One operation on the folder (some find nothing to work on: a file an
 * earlier one removed). */
static void apply(uint8_t op, uint8_t a, uint8_t b, bool *twice)
{
	int h = a & 1, stream = 1 + ((a >> 1) & 1); /* a host, ch0_0 or ch0_1 */
	char dir[600], path[800], other[800];
	trace_dir(h, "s1", dir, sizeof dir);
	snprintf(path, sizeof path, "%s/%s", dir, names[stream]);
	switch (op % 10) {
	case 0: /* a stream removed, its index kept */
		remove(path);
		break;
	case 1: /* the host's session copied beside it */
		snprintf(path, sizeof path, "%s/%s/s1", root, hosts[h]);
		snprintf(other, sizeof other, "%s/%s/s2", root, hosts[h]);
		if (!exists(other))
			copy_tree(path, other);
		break;
	case 2: /* the trace directory copied in its recording */
		snprintf(other, sizeof other, "%s-copy", dir);
		if (!exists(other))
			copy_tree(dir, other);
		break;
	case 3: /* the other trace's metadata */
		snprintf(other, sizeof other, "%s/metadata", dir);
		write_file(other, files[!h][0].data, files[!h][0].size);
		break;
	case 4: /* a UUID byte of a stream's first packet flipped */
		flip(path, 4 + (a >> 2) % 16, (uint8_t)(b | 1));
		break;
	case 5: /* the other trace's stream in its place */
		if (exists(path))
			write_file(path, files[!h][stream].data, files[!h][stream].size);
		break;
	case 6: /* a stream copied beside itself */
		snprintf(other, sizeof other, "%s_dup", path);
		if (exists(path) && !exists(other))
			copy_tree(path, other);
		break;
	case 7: /* a stream cut at a byte */
		if (exists(path))
			(void)truncate(path, (off_t)((uint64_t)b * 256 + a));
		break;
	case 8: /* any byte flipped, in any file */
		snprintf(path, sizeof path, "%s/%s", dir, names[(a >> 2) % (N_FILES - 1)]);
		flip(path, (uint64_t)b * 131 + a, (uint8_t)(b | 1));
		break;
	default: /* the folder given twice */
		*twice = true;
	}
}

/* ---- the oracle: what the folder holds in the end ---- */

#define MAX_STREAMS 64

/* The stream files found (their first 64 bytes) and the metadata's. */
static struct found {
	char dir[600];
	unsigned char head[64];
	size_t n; /* bytes of head read */
	bool metadata;
} found[MAX_STREAMS];
static size_t n_found;
static bool index_orphan; /* an index whose stream is not there */

static int visit(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)ftw;
	if (flag != FTW_F || !S_ISREG(st->st_mode) || n_found == MAX_STREAMS)
		return 0;
	const char *base = strrchr(path, '/') + 1;
	size_t dir_len = (size_t)(base - 1 - path);
	if (dir_len >= 6 && !strncmp(base - 7, "/index/", 7)) {
		size_t len = strlen(base);
		char stream[800];
		snprintf(stream, sizeof stream, "%.*s%.*s", (int)(dir_len - 5), path,
			(int)(len > 4 ? len - 4 : 0), base);
		index_orphan |= len > 4 && !strcmp(base + len - 4, ".idx") && !exists(stream);
		return 0;
	}
	struct found *f = &found[n_found++];
	snprintf(f->dir, sizeof f->dir, "%.*s", (int)dir_len, path);
	f->metadata = !strcmp(base, "metadata");
	int fd = open(path, O_RDONLY);
	ssize_t got = fd < 0 ? 0 : pread(fd, f->head, sizeof f->head, 0);
	f->n = got > 0 ? (size_t)got : 0;
	if (fd >= 0)
		close(fd);
	return 0;
}

static bool packet_of(const struct found *f, size_t need)
{
	static const unsigned char stream[4] = { 0xc1, 0x1f, 0xfc, 0xc1 };
	static const unsigned char meta[4] = { 0x57, 0x1d, 0xd1, 0x75 };
	return f->n >= need && !memcmp(f->head, f->metadata ? meta : stream, 4);
}

/* Whether events would be lost or read twice without a word: a stream
 * its index names is gone, a stream's packet is of another trace than its
 * metadata, two stream files open with the same packet. */
static bool loses_or_doubles(void)
{
	n_found = 0;
	index_orphan = false;
	nftw(root, visit, 16, FTW_PHYS);
	if (index_orphan)
		return true;
	for (size_t i = 0; i < n_found; i++) {
		const struct found *s = &found[i];
		if (s->metadata || !packet_of(s, 20))
			continue;
		for (size_t j = 0; j < n_found; j++) {
			const struct found *o = &found[j];
			if (o->metadata && !strcmp(o->dir, s->dir) && packet_of(o, 20) &&
			    memcmp(o->head + 4, s->head + 4, 16))
				return true; /* another trace's packet */
			if (j > i && !o->metadata && packet_of(s, 64) && o->n == 64 &&
			    !memcmp(o->head, s->head, 64))
				return true; /* one recording read twice */
		}
	}
	return false;
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	const char *shared = getenv("CARET_SHARED_DIR");
	for (int k = 0; k < N_TRACES; k++)
		for (int i = 0; names[i]; i++) {
			char path[1024];
			snprintf(path, sizeof path, "%s/data/real-humble/%s/ust/uid/0/64-bit/%s",
				shared ? shared : "../shared", traces[k], names[i]);
			files[k][i].data = slurp(path, &files[k][i].size);
		}
	snprintf(root, sizeof root, "/tmp/caret-fuzz-folder-%d", (int)getpid());
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1 || size > 1 + 3 * 8)
		return 0; /* at most eight operations */
	remove_tree(root);
	mkdir(root, 0755);
	for (int h = 0; h < N_TRACES; h++) {
		char session[600];
		snprintf(session, sizeof session, "%s/%s/s1", root, hosts[h]);
		lay_out(session, h);
	}
	bool twice = false;
	for (size_t i = 1; i + 2 < size; i += 3)
		apply(data[i], data[i + 1], data[i + 2], &twice);
	/* hostB reached twice: its index files stay, so its streams are
	 * there (and read twice) or missing */
	bool must_fail = twice || loses_or_doubles();
	char err[2048] = "", host_b[600];
	snprintf(host_b, sizeof host_b, "%s/hostB", root);
	const char *paths[] = { root, host_b };
	ca_load_options o = ca_load_defaults();
	o.merge = true;
	o.keep_runtime = data[0] & 1;
	ca_trace *t = ca_trace_load_options(paths, twice ? 2 : 1, &o, err, sizeof err);
	if (t) {
		if (must_fail) {
			fprintf(stderr, "fuzz_folder: events lost or doubled, and the load succeeded\n");
			abort();
		}
		ca_records_free(ca_records_build(t, err, sizeof err));
		ca_trace_free(t);
	} else if (!err[0] || strchr(err, '\n')) {
		fprintf(stderr, "fuzz_folder: an error not one line: '%s'\n", err);
		abort();
	}
	return 0;
}

/* The copy goes when the run ends (libFuzzer exits through exit()). */
__attribute__((destructor)) static void remove_root(void)
{
	if (root[0])
		remove_tree(root);
}
