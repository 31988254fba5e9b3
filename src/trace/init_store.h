/*
 * init_store.h - every initialization event of the process, kept so that a
 * recording started later gets the whole architecture (seed 004): strings
 * copied, identical repeats kept once (unless a record since named one of
 * the repeat's addresses: then it is a new object at a reused address),
 * thread-safe, memory accounted, and
 * replayable in the order it happened, as many times as sessions start.
 */
#ifndef CT_INIT_STORE_H
#define CT_INIT_STORE_H

#include <stdbool.h>
#include <stddef.h>

#include "record.h"
#include "tracer.h"

/* Stores a copy of r unless an identical record is stored already. When
 * the state was RECORD at the moment it was stored, the new record is also
 * emitted; a record stored before that is the replay's to emit, so none is
 * lost or doubled at a replay's end. Returns true when r was new. */
CT_HIDDEN bool ct_store_add(const struct ct_record *r);

/* A replay position; zero-initialize to start from the first record. */
struct ct_replay {
	size_t next;
};

/* Emits the next stored record; false when all have been emitted. */
CT_HIDDEN bool ct_store_replay_next(struct ct_replay *replay);

/* If every record has been replayed, switches the state to RECORD and
 * returns true; else returns false (records arrived meanwhile: replay them
 * first). */
CT_HIDDEN bool ct_store_finish_replay(struct ct_replay *replay);

CT_HIDDEN size_t ct_store_count(void);
CT_HIDDEN size_t ct_store_bytes(void);

/* Forgets everything (tests). */
CT_HIDDEN void ct_store_reset(void);

#endif
