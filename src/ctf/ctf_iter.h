/*
 * ctf_iter.h - walk every message of a CTF trace in time order through
 * libbabeltrace2 (src.ctf.fs -> flt.utils.muxer -> our own sink).
 *
 * The analyzer's loader and the schema tests are built on this walker; it
 * knows nothing of ROS 2, only of babeltrace2 graphs.
 */
#ifndef CA_CTF_ITER_H
#define CA_CTF_ITER_H

#include <babeltrace2/babeltrace.h>
#include <stddef.h>
#include <stdint.h>

struct ca_ctf_handlers {
	/* One event; clock_value is the raw default-clock value (ns for
	 * LTTng), 0 if the stream has no clock. Return non-zero to stop the
	 * walk with an error. */
	int (*on_event)(const bt_event *event, uint64_t clock_value, void *user);
	/* A discarded-events notification; count is 0 when not known. */
	void (*on_discarded)(const bt_stream *stream, uint64_t count, void *user);
	void *user;
	/* Optional: a discarded-packets notification (a gap in the packets'
	 * sequence numbers); count is 0 when not known. */
	void (*on_lost_packets)(const bt_stream *stream, uint64_t count, void *user);
};

/* Walks the trace(s) under path. Returns 0, or -1 with a message in err
 * (e.g. "cannot read trace: path=...: <babeltrace2 cause>"). */
int ca_ctf_iterate(const char *path, const struct ca_ctf_handlers *handlers,
	char *err, size_t err_size);

#endif
