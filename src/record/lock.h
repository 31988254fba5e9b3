/*
 * lock.h - one `caret record` at a time. Two recorders would undo each
 * other (every traced process follows the last Start or End it hears), so
 * the recorder holds an exclusive flock(2) on a file for its whole run:
 * taken atomically, and released by the kernel when its holder dies, even
 * by SIGKILL. The file names the holder's LTTng session, so the next
 * recorder can tell a live recording from one its dead owner left behind.
 */
#ifndef CR_LOCK_H
#define CR_LOCK_H

#include <stddef.h>

struct cr_lock; /* opaque */

/*
 * Takes the lock (tests tracking their own vgid get one per vgid). NULL
 * with a one-line reason in err when another recorder holds it. On success,
 * orphan receives the session a dead holder left named ("" if none).
 */
struct cr_lock *cr_lock_take(int track_vgid, char *orphan, size_t orphan_size, char *err,
	size_t err_size);

/* Names the session this recorder runs (for its successors). */
void cr_lock_name_session(struct cr_lock *l, const char *session, const char *output);

/* Clears the file and releases the lock; NULL is fine. */
void cr_lock_release(struct cr_lock *l);

/* The lock file's path (docs and messages). */
const char *cr_lock_path(const struct cr_lock *l);

#endif
