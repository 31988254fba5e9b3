/*
 * api.h - what the public API (caret/analyze.h) keeps behind its handles.
 */
#ifndef CA_API_H
#define CA_API_H

#include "caret/analyze.h"
#include "ca.h"

/* Whether pointer argument `name` of public function `function` is given:
 * false with *error (CARET_ERR_INVALID naming both) when it is NULL
 * (args.c). API_GIVEN(x, error) names x and the calling function. */
bool caret_api_given(const void *arg, const char *function, const char *name,
	caret_error **error);
#define API_GIVEN(arg, error) caret_api_given((const void *)(arg), __func__, #arg, error)
/* The trace argument, named as the header names it. */
#define API_GIVEN_TRACE(t, error) caret_api_given((const void *)(t), __func__, "trace", error)

/* The door of a public function that gives an array (*out, *n of them)
 * of trace t: the outputs given cleared, *error NULL; false when error, t,
 * out or n is NULL (*error naming the argument when error is given): the
 * function then returns CARET_ERR_INVALID. */
#define API_BEGIN(t, out, n, error)                                            \
	((out) ? (void)(*(out) = NULL) : (void)0, (n) ? (void)(*(n) = 0) : (void)0,      \
	 (error) && (*(error) = NULL, API_GIVEN_TRACE(t, error) && API_GIVEN(out, error) && \
		API_GIVEN(n, error)))

/* Whether the id names one of the trace's callbacks (architecture index)
 * or communications: false with *error (CARET_ERR_NOT_FOUND) when not. */
bool caret_api_known_callback(const caret_trace *t, size_t callback, caret_error **error);
bool caret_api_known_communication(const caret_trace *t, size_t communication,
	caret_error **error);

/* Whether `file` is a regular file, checked before it is opened (a FIFO
 * would block the open): false with *error (CARET_ERR_IO naming it) when
 * it is something else or cannot be looked at; a missing file is fine when
 * may_be_missing (one about to be written). */
bool caret_api_regular_file(const char *file, bool may_be_missing, const char *function,
	caret_error **error);

/* A communication: a visible publisher and a visible subscription of one
 * topic (architecture indexes). */
struct caret_api_comm {
	size_t publisher, subscription;
	bool sole; /* the topic's only publisher: its unpublished messages are its */
};

/* Whether communication record x is a message of c (gather.c). */
bool caret_api_of_comm(const ca_records *r, const struct caret_api_comm *c,
	const ca_communication *x);

struct caret_trace {
	ca_trace *trace;
	ca_records *records;     /* joined: NULL until first needed (lazy) */
	ca_records *run_records; /* runs only, when runs were asked for before records */
	struct caret_api_comm *comms;
	size_t n_comms;
	/* gathered when first asked for (gather.c): per callback its runs, per
	 * communication its messages; NULL: not yet */
	caret_run **runs;
	size_t *n_runs;
	caret_message **messages;
	size_t *n_messages;
};

/* The trace's joined records, made now if the open was lazy (NULL with
 * *error when they cannot be), and the records that hold its runs (the
 * joined ones if made, else runs alone). */
const ca_records *caret_api_records(caret_trace *t, caret_error **error);
const ca_records *caret_api_run_records(caret_trace *t, caret_error **error);

/* The trace's communications found (iter.c): false out of memory. */
bool caret_api_find_communications(caret_trace *t);
void caret_api_free_gathered(caret_trace *t);

/* An iterator over the paths of set, which it takes (freed with it; NULL
 * out of memory, the set freed too). */
caret_iter *caret_api_paths_iter(ca_path_set *set);

/* A followed path's stage times (stamps.c), of a path of n_topics topics:
 * column `column` of caret_path_latency_stamps' rows into out (a time per
 * message); every row, malloc'd (NULL out of memory). */
void caret_api_path_column(const ca_path_latency *l, size_t n_topics, size_t column,
	uint64_t *out);
uint64_t *caret_api_path_stamps(const ca_path_latency *l, size_t n_topics, size_t *columns);

#endif
