/* trace_dir.c - see trace_dir.h. */
#define _GNU_SOURCE /* nftw's FTW_DEPTH, FTW_PHYS */
#include "trace_dir.h"

#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_DIR_DEPTH 32 /* LTTng writes ust/uid/<uid>/<bits>/ : a few levels */

/* Sums regular file sizes below dir_fd (consumed); symlinks not followed. */
static uint64_t dir_bytes(int dir_fd, int depth)
{
	DIR *d = fdopendir(dir_fd);
	if (!d) {
		close(dir_fd);
		return 0;
	}
	uint64_t total = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		struct stat st;
		if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
			continue; /* vanished meanwhile */
		if (S_ISREG(st.st_mode)) {
			total += (uint64_t)st.st_size;
		} else if (S_ISDIR(st.st_mode) && depth < MAX_DIR_DEPTH) {
			int fd = openat(dirfd(d), e->d_name,
					O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (fd >= 0)
				total += dir_bytes(fd, depth + 1);
		}
	}
	closedir(d);
	return total;
}

uint64_t cr_dir_bytes(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return fd < 0 ? 0 : dir_bytes(fd, 0);
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

void cr_remove_tree(const char *dir)
{
	nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}
