/*
 * ctf_native.h - caret-c's own reader of the CTF 1.8 traces LTTng-UST 2.13
 * writes (issue 17), without libbabeltrace2: the TSDL metadata parsed into
 * types (ctf_tsdl.c), each stream's packets and events decoded
 * (ctf_stream.c), the streams of every trace under a path merged in time
 * order (ctf_native.c).
 *
 * What it supports is what LTTng-UST writes: integers (any size up to 64
 * bits, any alignment, little- or big-endian when byte-aligned, little-
 * endian bit fields), enumerations, floats (kept as their bits), strings,
 * static arrays and sequences, structures, and variants in event headers;
 * anything else in the metadata is an error naming it, so the caller can
 * fall back to babeltrace2.
 */
#ifndef CA_CTF_NATIVE_H
#define CA_CTF_NATIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "caret/error.h"

enum ctf_kind { CTF_INT, CTF_FLOAT, CTF_STRING, CTF_ARRAY, CTF_SEQUENCE, CTF_STRUCT, CTF_VARIANT };

struct ctf_type;

struct ctf_field {
	char *name;
	struct ctf_type *type;
};

struct ctf_enum_range {
	char *label;
	int64_t lo, hi;
};

/* How a member of a fixed layout is read (ctf_type.fixed). */
enum ctf_fixed_op { CTF_FIX_UNSIGNED, CTF_FIX_SIGNED, CTF_FIX_TEXT, CTF_FIX_SKIP };
struct ctf_fixed {
	uint32_t offset;   /* bytes from the structure's start */
	uint8_t op, bytes; /* UNSIGNED, SIGNED: 1, 2, 4 or 8 bytes; SKIP: 1 for
			    * unsigned bytes (a GID: ca_gid_key), else 0 */
	uint32_t length;   /* TEXT, SKIP: the array's elements */
};

struct ctf_type {
	enum ctf_kind kind;
	unsigned size;    /* bits: INT, FLOAT */
	unsigned align;   /* bits */
	bool is_signed, big_endian, text; /* text: UTF8 integers (char arrays) */
	unsigned base;
	bool maps_clock;  /* an integer mapped to the clock's value */
	struct ctf_enum_range *ranges; /* an enumeration's labels (INT) */
	size_t n_ranges;
	struct ctf_type *element;      /* ARRAY, SEQUENCE */
	uint64_t length;               /* ARRAY */
	char *length_name;             /* SEQUENCE: a member before it */
	struct ctf_field *fields;      /* STRUCT members, VARIANT options */
	size_t n_fields;
	bool flat;                     /* STRUCT: every member an INT, FLOAT, STRING, or an
	                                * array or sequence of INTs or FLOATs */
	/* STRUCT, flat, every member byte-sized and at most byte-aligned: its
	 * members' places (LTTng-UST's layouts on x86), fixed_bytes in all;
	 * NULL otherwise */
	struct ctf_fixed *fixed;
	uint32_t fixed_bytes;
	char *tag_name;                /* VARIANT: the enumeration member */
};

struct ctf_event_class {
	uint64_t id, stream_id;
	char *name;
	struct ctf_type *payload; /* a STRUCT, or NULL */
	struct ctf_type *context; /* a STRUCT, or NULL */
	/* its events are tallied, not delivered (ctf_native_handlers.skim):
	 * set when its trace is opened */
	bool skim;
	/* skim, and the stream's event context, the class's context and
	 * payload all byte-aligned: their bytes in all (0: not so) */
	uint32_t skim_bytes;
	/* the stream's event context, the class's context and payload all of
	 * fixed layouts (ctf_type.fixed), byte-aligned: their bytes in all (0:
	 * not so). Set when its trace is opened. */
	uint32_t raw_bytes;
};

struct ctf_stream_class {
	uint64_t id;
	struct ctf_type *event_header, *packet_context, *event_context;
	struct ctf_event_class **events; /* by id; NULL where none */
	size_t n_events;
};

struct ctf_meta {
	bool big_endian;
	uint8_t uuid[16];
	bool has_uuid;
	struct ctf_type *packet_header;
	uint64_t clock_freq;
	int64_t clock_offset_ns; /* offset_s and offset, in ns */
	struct ctf_stream_class *streams;
	size_t n_streams;
	char *env_domain, *env_tracer;
	char *env_hostname; /* the host LTTng recorded on; NULL: not said */
	/* added to every event's time (clock cycles): a host's clock moved onto
	 * the first host's when the walk reads several (ctf_native_handlers.
	 * clock_hosts); 0 otherwise */
	int64_t time_shift;
	/* what an event's time (shifted) adds to be ns since the epoch:
	 * clock_offset_ns, or the first host's once aligned */
	int64_t epoch_offset_ns;
	/* added to every vpid the analyzer reads: the host's rank by name <<
	 * 24 when the walk reads several hosts (pids collide between hosts;
	 * they are below 2^22 on each), 0 otherwise */
	int32_t pid_base;
	void *arena; /* every type and name, freed with the metadata */
};

/* Parses TSDL text. NULL with err ("metadata:LINE: expected ...",
 * "metadata:LINE: unsupported ...") on what it cannot read; *cut when the
 * text ends inside a declaration (a metadata file cut short, which no
 * reader can read). */
struct ctf_meta *ctf_tsdl_parse(const char *text, size_t size, char *err, size_t err_size,
	bool *cut);
/* -1 with err when the metadata of the trace directory ends inside a
 * declaration (babeltrace2 says only that it cannot create the trace). */
int ctf_metadata_whole(const char *dir, char *err, size_t err_size);
/* The metadata file of a trace directory: packetized (LTTng's, packets of
 * text with a header each) or plain text, as TSDL text (free it). */
char *ctf_metadata_read(const char *dir, size_t *size, char *err, size_t err_size);
void ctf_meta_free(struct ctf_meta *m);
const struct ctf_stream_class *ctf_meta_stream(const struct ctf_meta *m, uint64_t id);

/* ---- decoded events ------------------------------------------------------ */

/* One leaf of an event's context or payload, flattened in declaration order:
 * an integer (u: its bits, sign-extended for signed ones), a float (its
 * bits), a string or a text array (s, NUL-terminated, valid until the next
 * event), or an array or sequence of numbers (not kept: n_elements only;
 * an array of bytes, a GID, has u = ca_gid_key of them). */
struct ctf_value {
	const struct ctf_field *field;
	uint64_t u;
	const char *s;
	uint64_t n_elements;
};

#define CTF_MAX_VALUES 64

struct ctf_event {
	const struct ctf_event_class *cls;
	uint64_t timestamp; /* clock cycles (ns for LTTng), the clock's offset not added */
	const char *stream_path;
	const struct ctf_value *context, *payload; /* the reader's, valid until the next event */
	size_t n_context, n_payload;
	/* for convert (or on_event, raw), an event of a class with
	 * raw_bytes, not decoded: its stream event context, the class's
	 * context and its payload, one after the other, each laid out as its
	 * type's fixed[] says (no values then) */
	const uint8_t *bytes;
};

/* A converted event's bytes, at most (ctf_native_handlers.convert). */
#define CTF_RECORD_BYTES 256

/* Skimmed events of one class and one stream event context (a thread). */
struct ctf_tally {
	const struct ctf_event_class *cls;
	const char *stream_path;
	const struct ctf_value *context; /* the stream's event context */
	size_t n_context;
	uint64_t events, first, last; /* first, last: clock values */
};

struct ctf_native_handlers {
	/* one event, in time order over every stream; non-zero stops the walk.
	 * Every handler but convert is called in the caller's thread, in order; the
	 * streams may be decoded in another (ctf_pipe.c), where `needed` is
	 * called: it must change nothing. With convert and on_record too, it
	 * is what they would do together, called instead of them for the
	 * events the caller's thread decodes (one call, not two). */
	int (*on_event)(const struct ctf_event *event, const struct ctf_meta *meta, void *user);
	/* events a packet says were lost since the stream's previous packet
	 * (events_discarded grew), or packets a gap in packet_seq_num lost
	 * (count 0: not known) */
	void (*on_discarded)(const char *stream_path, uint64_t events, uint64_t packets,
		void *user);
	void *user;
	/* Optional, a time window: a packet that lies wholly before
	 * skip_before or after skip_after (clock values, the clock's offset
	 * not added; skip_after 0: no window) is not decoded, unless an event
	 * class of its stream class is `needed` wherever it is (NULL: none
	 * is). Its context is read still (lost events). on_skipped: its size. */
	uint64_t skip_before, skip_after;
	bool (*needed)(const struct ctf_event_class *cls, void *user);
	void (*on_skipped)(const char *stream_path, uint64_t bytes, void *user);
	/* Optional, for a walk that only counts some events: those of a class
	 * skim says yes to (called once per class when a trace is opened, in
	 * the caller's thread) are stepped over, not decoded nor delivered,
	 * when the stream's event context, the class's own context and its
	 * payload all have fixed layouts. They are tallied instead, by class
	 * and by their stream event context's bytes, and the tallies handed to
	 * on_tally when every event has been delivered, in the caller's
	 * thread. Time order is then not checked between a skimmed event and
	 * the events of other streams. */
	bool (*skim)(const struct ctf_event_class *cls, void *user);
	void (*on_tally)(const struct ctf_tally *tally, const struct ctf_meta *meta, void *user);
	/* Optional, events handed over as the handlers' own records: convert
	 * turns each event, right after it is decoded, into a record of at
	 * most CTF_RECORD_BYTES bytes, 8-aligned (0 bytes: nothing to hand
	 * over), that points nowhere into the event; on_record gets it instead
	 * of on_event, in time order, in the caller's thread. convert runs in
	 * the thread that decoded the event, which (ctf_pipe.c) also merges
	 * the streams' records: the caller's thread only hands them over,
	 * and a record, smaller than the decoded values, is what crosses
	 * between the threads. An event of a class with raw_bytes
	 * comes to convert undecoded (ctf_event.bytes): the handler reads the
	 * members it wants where the fixed layouts put them. */
	size_t (*convert)(const struct ctf_event *event, const struct ctf_meta *meta, void *record,
		void *user);
	int (*on_record)(const void *record, size_t size, uint64_t timestamp,
		const struct ctf_meta *meta, void *user);
	/* Optional, for on_event: events of a class with raw_bytes come
	 * undecoded (ctf_event.bytes), as they come to convert; a handler that
	 * reads a few numbers of each skips decoding every member */
	bool raw;
	/* Optional: when the traces under the path come from several hosts
	 * (their metadata's env hostname), each host's times are put on the
	 * first host's clock (the traces' clock offsets from the epoch), then
	 * the correction given for its hostname subtracted (ns): how far its
	 * clock was ahead of the first host's beyond what the offsets say. */
	const char *const *clock_hosts;
	const int64_t *clock_corrections;
	size_t n_clock_corrections;
	/* Optional: the hosts of every path a load reads (ctf_hosts_of), by
	 * name: when there are several, a walk of one path puts its hosts on
	 * the first of these, not on the first of its own */
	const struct ctf_host *hosts;
	size_t n_hosts;
	/* the caller read these traces before, their framing checked: not
	 * again (caret live reads each chunk in several looks) */
	bool framing_checked;
};

/* A host of some traces and its first trace's clock offset from the epoch. */
struct ctf_host {
	char name[256];
	int64_t offset_ns;
};

/* The hosts of the traces under path added to *hosts (a host already
 * there kept as it is), from each metadata's hostname and clock offset
 * alone (no parse): 0, or -1 with err. */
int ctf_hosts_of(const char *path, struct ctf_host **hosts, size_t *n, char *err,
	size_t err_size);

/* The trace directories under path (each holds a metadata file; a trace
 * holds no other), sorted, their framing checked (ctf_check.c): CARET_OK
 * with *dirs (ctf_free_dirs) and *n, or the status (CARET_ERR_NOT_FOUND:
 * no such path, or no trace under it; CARET_ERR_FORMAT: damaged framing;
 * CARET_ERR_IO) with err worded "cannot read trace: path=...: ...". */
caret_status ctf_find_traces(const char *path, char ***dirs, size_t *n, char *err,
	size_t err_size);
/* The same directories, their framing not checked (a look at the layout
 * before the reading checks it: ctf_recordings.h). */
caret_status ctf_list_traces(const char *path, char ***dirs, size_t *n, char *err,
	size_t err_size);
void ctf_free_dirs(char **dirs, size_t n);

/* Walks every CTF trace under path (directories holding a metadata file)
 * in time order: CARET_OK, or the failure's status with *error (free it):
 * its causes from "cannot read trace: path=..." down to the stream file,
 * the byte in it and the event being read (caret/error.h).
 * CARET_ERR_UNSUPPORTED: a metadata file this reader cannot parse (the
 * error says what it met); another reader may. */
caret_status ctf_native_walk(const char *path, const struct ctf_native_handlers *h,
	caret_error **error);
/* The same, the error in words (one line in err). */
caret_status ctf_native_iterate(const char *path, const struct ctf_native_handlers *h,
	char *err, size_t err_size);

/* The clock values of the first and the last event of the traces under
 * path (0 and 0 when there is none), most packets read by their headers
 * only (ctf_stream_bounds). CARET_OK, or the status with err. */
caret_status ctf_native_bounds(const char *path, uint64_t *first, uint64_t *last, char *err,
	size_t err_size);

#endif
