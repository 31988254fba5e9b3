/*
 * lttng_room.h - whether LTTng-UST's listener threads can run in this
 * process without harming it: what they need in /dev/shm.
 *
 * Each listener (one for the root session daemon, one for the user's) maps
 * a one-page "wait" file of /dev/shm (lttng-ust-wait-8, lttng-ust-wait-8-UID)
 * and reads it while it waits for a session daemon; it creates the file
 * when it is missing (sparse: ftruncate). On a full /dev/shm the page
 * cannot be allocated at that first read and the process dies of SIGBUS;
 * where the file cannot be created the listener gives up, and LTTng-UST
 * can then never reach a session daemon. The ring buffers are not the
 * application's: the consumer daemon allocates them (writing every page),
 * and fails cleanly when there is no room.
 */
#ifndef CT_LTTNG_ROOM_H
#define CT_LTTNG_ROOM_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "tracer.h"

/* True when LTTng-UST can run with shm_dir as its /dev/shm for user uid:
 * every wait file it would create or first touch has a page of room, and
 * at least one listener can have its file. Otherwise false, and why (one
 * line) in why. */
CT_HIDDEN bool ct_lttng_room(const char *shm_dir, uid_t uid, char *why, size_t why_size);

#endif
