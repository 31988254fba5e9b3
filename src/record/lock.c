/* lock.c - see lock.h. */
#define _GNU_SOURCE
#include "lock.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

struct cr_lock {
	int fd;
	char path[PATH_MAX];
};

static void lock_path(int track_vgid, char *out, size_t size)
{
	const char *dir = access("/run/lock", W_OK) == 0 ? "/run/lock" : "/tmp";
	if (track_vgid >= 0)
		snprintf(out, size, "%s/caret-record-vgid%d.lock", dir, track_vgid);
	else
		snprintf(out, size, "%s/caret-record.lock", dir);
}

/* The value of "key value" lines in the file's text. */
static void field(const char *text, const char *key, char *out, size_t size)
{
	size_t n = strlen(key);
	out[0] = '\0';
	for (const char *line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
		if (!strncmp(line, key, n) && line[n] == ' ') {
			snprintf(out, size, "%.*s", (int)strcspn(line + n + 1, "\n"), line + n + 1);
			return;
		}
}

static void read_all(int fd, char *buf, size_t size)
{
	ssize_t n = pread(fd, buf, size - 1, 0);
	buf[n > 0 ? n : 0] = '\0';
}

struct cr_lock *cr_lock_take(int track_vgid, char *orphan, size_t orphan_size, char *err,
	size_t err_size)
{
	struct cr_lock *l = calloc(1, sizeof *l);
	char text[1024];
	if (!l) {
		snprintf(err, err_size, "out of memory");
		return NULL;
	}
	lock_path(track_vgid, l->path, sizeof l->path);
	l->fd = open(l->path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
	if (l->fd < 0)
		l->fd = open(l->path, O_RDONLY | O_CLOEXEC); /* another user's file */
	if (l->fd < 0) {
		snprintf(err, err_size, "cannot open the recorder lock %s: %s", l->path,
			strerror(errno));
		free(l);
		return NULL;
	}
	fchmod(l->fd, 0666); /* any user's recorder excludes the others */
	if (flock(l->fd, LOCK_EX | LOCK_NB) != 0) {
		int why = errno;
		char pid[32], session[256];
		read_all(l->fd, text, sizeof text);
		field(text, "pid", pid, sizeof pid);
		field(text, "session", session, sizeof session);
		if (why == EWOULDBLOCK)
			snprintf(err, err_size, "another caret record (pid %s) is recording%s%s: one "
				"recorder at a time, as every process follows the last Start or End",
				*pid ? pid : "?", *session ? ", session " : "", session);
		else
			snprintf(err, err_size, "cannot lock %s: %s", l->path, strerror(why));
		close(l->fd);
		free(l);
		return NULL;
	}
	read_all(l->fd, text, sizeof text);
	field(text, "session", orphan, orphan_size);
	return l;
}

void cr_lock_name_session(struct cr_lock *l, const char *session, const char *output)
{
	char text[PATH_MAX + 512];
	int n = snprintf(text, sizeof text, "pid %d\nsession %s\noutput %s\n", (int)getpid(),
		session, output);
	if (!l || n < 0 || ftruncate(l->fd, 0) != 0)
		return;
	if (pwrite(l->fd, text, (size_t)n, 0) != n)
		return; /* a read-only lock: successors cannot recover our session */
}

void cr_lock_release(struct cr_lock *l)
{
	if (!l)
		return;
	if (ftruncate(l->fd, 0) != 0) {
		/* read-only: nothing of ours is written in it */
	}
	flock(l->fd, LOCK_UN);
	close(l->fd);
	free(l);
}

const char *cr_lock_path(const struct cr_lock *l)
{
	return l ? l->path : "";
}
