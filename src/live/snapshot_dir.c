/*
 * snapshot_dir.c - the folder of --snapshot-on-miss checked before the
 * recording starts (state.h): found unwritable or full at the first miss,
 * after the run began, it would lose every snapshot.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "state.h"

#define MIB (1024.0 * 1024.0)

/* mkdir -p: 0, or -1 with errno. */
static int make_dirs(const char *dir)
{
	char path[4096];
	snprintf(path, sizeof path, "%s", dir);
	for (char *s = path + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(path, 0775) != 0 && errno != EEXIST)
			return -1;
		*s = '/';
	}
	return mkdir(path, 0775) != 0 && errno != EEXIST ? -1 : 0;
}

/* A file written, flushed to the disk and removed: 0, or errno. */
static int write_probe(const char *dir)
{
	char probe[4200], block[4096] = { 0 };
	snprintf(probe, sizeof probe, "%s/.caret-live-probe-XXXXXX", dir);
	int fd = mkstemp(probe);
	if (fd < 0)
		return errno;
	int err = write(fd, block, sizeof block) == (ssize_t)sizeof block && fsync(fd) == 0 ?
		0 : errno ? errno : ENOSPC;
	close(fd);
	unlink(probe);
	return err;
}

bool live_snapshot_dir_ready(const struct live_options *o)
{
	const char *dir = o->snapshot_dir;
	struct stat st;
	struct statvfs vfs;
	int err = make_dirs(dir) != 0 ? errno : 0;
	if (!err && (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)))
		err = ENOTDIR;
	if (!err)
		err = write_probe(dir);
	if (err) {
		fprintf(stderr, "caret live: --snapshot-on-miss %s: cannot write there (%s): no "
			"snapshot could be written\n", dir, strerror(err));
		return false;
	}
	/* a snapshot is the flight recorder's buffers, as full as they got:
	 * room for one CPU's at least (record.c: 32 MiB, or the user's more) */
	uint64_t per_cpu = o->record.subbuf_size * o->record.num_subbuf;
	if (per_cpu < (32u << 20))
		per_cpu = 32u << 20;
	if (statvfs(dir, &vfs) == 0 && (uint64_t)vfs.f_bavail * vfs.f_frsize < per_cpu) {
		fprintf(stderr, "caret live: --snapshot-on-miss %s: %.1f MiB free, a snapshot takes "
			"up to %.0f MiB a CPU (the flight recorder's buffers): no room for one\n", dir,
			(double)vfs.f_bavail * (double)vfs.f_frsize / MIB, (double)per_cpu / MIB);
		return false;
	}
	return true;
}
