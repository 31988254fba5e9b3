/*
 * ctf_pipe.h - the streams of a walk decoded in other threads (ctf_pipe.c)
 * while the caller's thread merges them and runs the handlers. Private to
 * the native reader.
 */
#ifndef CA_CTF_PIPE_H
#define CA_CTF_PIPE_H

#include "ctf_stream.h"

struct ctf_pipe;

/* An event's time in ns since the epoch, for ordering streams of traces
 * with different clocks. */
static inline __int128 ctf_order_key(const struct ctf_meta *m, uint64_t timestamp)
{
	unsigned __int128 t = timestamp;
	if (m->clock_freq != 1000000000)
		t = t * 1000000000 / m->clock_freq;
	return (__int128)t + m->epoch_offset_ns; /* no overflow, whatever a trace says */
}

/* Whether to decode streams of `bytes` in all in a second thread: of the
 * `cores` (ctf_pipe_cores) there is a second one and 32 MiB of trace or
 * more; CARET_READER_THREADS=1 says never, 2 (or more) always. */
bool ctf_pipe_wanted(uint64_t bytes, long cores);
/* The cores the reader may use now: those of the process's affinity that
 * no other task keeps busy (/proc/loadavg's runnable tasks, sampled for
 * about a millisecond, the answer taken again for half a second); 1 with
 * CARET_READER_THREADS=1, every online core with 2 or more. */
long ctf_pipe_cores(void);
/* The bytes from which a stream is decoded in two parts, when the merge
 * has little to do: 64 MiB; 0 (any stream of two packets or more) with
 * CARET_READER_THREADS=2, as the reader's tests ask on small traces. */
uint64_t ctf_pipe_split_bytes(void);
#define CTF_PIPE_MAX_DECODERS 2

/* Starts decoding streams[0..n) in `decoders` threads (each stream in
 * one, the bytes shared out evenly); NULL when it cannot (the caller then
 * decodes them itself). The streams' discarded and skipped notes reach h
 * when their stream is next read (ctf_pipe_next). */
struct ctf_pipe *ctf_pipe_start(struct ctf_stream **streams, size_t n,
	const struct ctf_native_handlers *h, size_t decoders);
/* Stream i's next event: 1 (*event valid until the next call for i), 0 at
 * its end, -1 with the reason in the stream's err. */
int ctf_pipe_next(struct ctf_pipe *p, size_t i, const struct ctf_event **event);
/* Whether the handlers convert: then the decoding thread merges the
 * streams' records, and the caller has them handed over, in time order,
 * by ctf_pipe_hand_over_merged (never ctf_pipe_next). */
bool ctf_pipe_merged(const struct ctf_pipe *p);
/* Every stream's records, in time order, to the handlers' on_record (the
 * metadata of stream i in metas[i]) and their notes to theirs: 0; -1 with
 * the reason in ctf_pipe_error (a stream's error, time going backwards,
 * on_record stopping the walk). */
int ctf_pipe_hand_over_merged(struct ctf_pipe *p, const struct ctf_meta *const *metas);
const char *ctf_pipe_error(const struct ctf_pipe *p);
/* The stream whose failure ctf_pipe_error says (its err as data), or NULL
 * when it is none's (time going backwards, the handler stopping). */
const struct ctf_stream *ctf_pipe_failed_stream(const struct ctf_pipe *p);
/* Stops the thread and frees the pipe: the streams are the caller's again. */
void ctf_pipe_stop(struct ctf_pipe *p);

#endif
