/* lttng_room.c - see lttng_room.h. */
#define _GNU_SOURCE
#include "lttng_room.h"

#include <errno.h>
#include <limits.h>
#include <lttng/ust-ctl.h> /* LTTNG_UST_WAIT_FILENAME, as liblttng-ust names it */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

enum wait_file { WAIT_FILE_ALLOCATED, WAIT_FILE_SPARSE, WAIT_FILE_MISSING };

static enum wait_file wait_file(const char *path, long page)
{
	struct stat st;
	if (stat(path, &st) != 0)
		return WAIT_FILE_MISSING;
	/* a page already backed is never allocated again */
	return (long long)st.st_blocks * 512 >= page ? WAIT_FILE_ALLOCATED : WAIT_FILE_SPARSE;
}

/* Why a wait file cannot be created there (then its listener gives up,
 * harmlessly), or NULL. f_files is 0 on a tmpfs without an inode limit. */
static const char *cannot_create(const char *dir, const struct statvfs *fs)
{
	if ((fs->f_flag & ST_RDONLY) || access(dir, W_OK | X_OK) != 0)
		return "is not writable";
	if (fs->f_files && fs->f_favail == 0)
		return "has no free inode";
	return NULL;
}

bool ct_lttng_room(const char *shm_dir, uid_t uid, char *why, size_t why_size)
{
	long page = sysconf(_SC_PAGESIZE);
	char names[2][PATH_MAX];
	snprintf(names[0], sizeof names[0], "%s/%s", shm_dir, LTTNG_UST_WAIT_FILENAME);
	snprintf(names[1], sizeof names[1], "%s/%s-%u", shm_dir, LTTNG_UST_WAIT_FILENAME,
		(unsigned)uid);

	struct statvfs fs;
	if (statvfs(shm_dir, &fs) != 0) {
		snprintf(why, why_size, "%s: %s", shm_dir, strerror(errno));
		return false;
	}
	const char *no_create = cannot_create(shm_dir, &fs);
	int usable = 0, pages = 0;
	for (int i = 0; i < 2; i++) {
		enum wait_file state = wait_file(names[i], page);
		if (state == WAIT_FILE_MISSING && no_create)
			continue; /* that listener gives up: harmless */
		usable++;
		pages += state != WAIT_FILE_ALLOCATED;
	}
	if (!usable) {
		snprintf(why, why_size, "%s %s and holds no LTTng-UST wait file (%s*): "
			"LTTng-UST could never reach a session daemon", shm_dir, no_create,
			LTTNG_UST_WAIT_FILENAME);
		return false;
	}
	/* f_blocks is 0 on a tmpfs without a size limit */
	unsigned long long room = (unsigned long long)fs.f_bavail * fs.f_frsize;
	unsigned long long needed = (unsigned long long)pages * (unsigned long long)page;
	if (fs.f_blocks && room < needed) {
		snprintf(why, why_size, "%s is full (%llu bytes free, LTTng-UST needs %llu for its "
			"wait files %s*): its listener thread would die of SIGBUS", shm_dir, room,
			needed, LTTNG_UST_WAIT_FILENAME);
		return false;
	}
	return true;
}
