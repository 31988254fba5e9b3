/*
 * fuzz_api - libFuzzer target: the public C API (caret/analyze.h) driven
 * with fuzzed arguments over a real trace (CARET_SHARED_DIR's
 * real-humble/caret-fork-inter, opened once, eagerly, and once lazily).
 * The input is a little program: each step a byte that picks a function,
 * then its arguments from the bytes that follow: ids and sizes (small ones
 * and the edges: 0, the count, SIZE_MAX...), names (the trace's, raw bytes,
 * or NULL), policies and cases (any int), NULL for any pointer. Every call
 * must return, and a failure must carry a one-line error whose status is
 * the one returned; success leaves *error NULL.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "caret/analyze.h"

static caret_trace *traces[2]; /* eager, lazy */

struct input {
	const uint8_t *at, *end;
};

static uint8_t byte(struct input *in)
{
	return in->at < in->end ? *in->at++ : 0;
}

static bool flag(struct input *in)
{
	return byte(in) & 1;
}

/* A size or an id: small ones mostly, and the edges. */
static size_t number(struct input *in)
{
	static const size_t edges[] = { 0, 1, 2, 3, 20, 1000, SIZE_MAX, SIZE_MAX - 1, SIZE_MAX - 2,
		SIZE_MAX / 2, (size_t)INT32_MAX + 1 };
	uint8_t b = byte(in);
	if (b < 0xc0)
		return b & 0x3f;
	return edges[b % (sizeof edges / sizeof *edges)];
}

static int any_int(struct input *in)
{
	uint8_t b = byte(in);
	if (b < 0xf0)
		return (int)(b % 7) - 2;
	uint32_t v = 0;
	for (int i = 0; i < 4; i++)
		v = v << 8 | byte(in);
	return (int)v;
}

/* A name: the trace's, bytes of the input, or NULL. The buffer is one of
 * the step's own. */
static const char *name(struct input *in, char *buf, size_t size)
{
	static const char *const known[] = { "/sensor", "/filter", "/sink", "/topic_a", "/topic_b",
		"", "/", "tf:map->base", "request:/s", "/parameter_events" };
	uint8_t b = byte(in);
	if (b == 0xff)
		return NULL;
	if (b < 0xc0)
		return known[b % (sizeof known / sizeof *known)];
	size_t n = 0;
	for (size_t len = b & 0x3f; n < len && n + 1 < size && in->at < in->end; n++)
		buf[n] = (char)byte(in);
	buf[n] = '\0';
	return buf;
}

/* A failure's error says what, on one line, with the status returned. */
static void checked(caret_status status, caret_error *error)
{
	if (status == CARET_OK) {
		if (error)
			abort();
		return;
	}
	const char *m = caret_error_message(error);
	if (error && (caret_error_status(error) != status || !*m || strchr(m, '\n')))
		abort();
	caret_error_free(error);
}

/* An iterator function's NULL: with its error, or none (error not given). */
static void checked_iter(caret_iter *it, caret_error *error, bool asked)
{
	if (!it && asked && !error)
		abort();
	if (it && error)
		abort();
	caret_error_free(error);
}

static void follow(struct input *in, caret_trace *t, const caret_path *p)
{
	caret_error *error = NULL;
	caret_path_latency *l = NULL;
	caret_policy policy = (caret_policy)any_int(in);
	caret_status s = caret_follow_path(t, p, policy, flag(in) ? &l : NULL, &error);
	checked(s, error);
	const caret_path_message *m;
	const int64_t *hops;
	size_t hop_count, n = caret_path_latency_messages(l, flag(in) ? &m : NULL,
		flag(in) ? &hops : NULL, flag(in) ? &hop_count : NULL);
	const uint64_t *stamps;
	size_t columns;
	caret_path_latency_stamps(l, flag(in) ? &stamps : NULL, flag(in) ? &columns : NULL);
	uint64_t *inputs = calloc(n + 1, sizeof *inputs);
	int64_t *times = calloc(n + 1, sizeof *times);
	if (!inputs || !times)
		abort();
	caret_path_latency_column(l, number(in), flag(in) ? inputs : NULL);
	caret_path_topic seen;
	caret_path_latency_topic(l, number(in), flag(in) ? &seen : NULL);
	size_t count = 0;
	error = NULL;
	s = caret_path_response_times(flag(in) ? l : NULL, flag(in), flag(in),
		(caret_response_case)any_int(in), flag(in) ? inputs : NULL, times, &count, &error);
	checked(s, error);
	if (count > n)
		abort();
	free(inputs);
	free(times);
	caret_path_latency_free(l);
}

/* A path made of the input: up to 5 nodes, its topics and policies. */
static void follow_made(struct input *in, caret_trace *t)
{
	char bufs[10][64];
	const char *nodes[5], *topics[5];
	caret_policy policies[5];
	size_t n = byte(in) % 6;
	for (size_t i = 0; i < n; i++) {
		nodes[i] = name(in, bufs[i], sizeof bufs[i]);
		topics[i] = name(in, bufs[5 + i], sizeof bufs[5 + i]);
		policies[i] = (caret_policy)any_int(in);
	}
	caret_path p = { n, flag(in) ? nodes : NULL, flag(in) ? topics : NULL,
		flag(in) ? policies : NULL };
	follow(in, t, flag(in) ? &p : NULL);
}

static void search(struct input *in, caret_trace *t)
{
	char a[64], b[64];
	caret_error *error = NULL;
	const char *from = name(in, a, sizeof a), *to = name(in, b, sizeof b);
	bool asked = flag(in);
	caret_iter *it = caret_search_paths(flag(in) ? t : NULL, from, to, number(in),
		asked ? &error : NULL);
	checked_iter(it, error, asked);
	caret_path p;
	while (caret_next_path(it, flag(in) ? &p : NULL))
		if (flag(in))
			follow(in, t, &p);
	caret_iter_free(it);
}

static void records(struct input *in, caret_trace *t, uint8_t which)
{
	char a[64], b[64];
	caret_error *error = NULL;
	caret_error **e = byte(in) == 0xee ? NULL : &error;
	size_t id = number(in), n;
	const void *array;
	void *owned = NULL;
	bool intra;
	caret_status s;
	switch (which % 8) {
	case 0:
		s = caret_callback_runs(t, id, flag(in) ? (const caret_run **)&array : NULL,
			flag(in) ? &n : NULL, e);
		break;
	case 1:
		s = caret_communication_messages(t, id,
			flag(in) ? (const caret_message **)&array : NULL, flag(in) ? &n : NULL, e);
		break;
	case 2:
		s = caret_communication_records(t, id, flag(in) ? (caret_message **)&owned : NULL,
			flag(in) ? &n : NULL, e);
		break;
	case 3:
		s = caret_communication_splits(t, id, flag(in) ? (caret_message_split **)&owned : NULL,
			flag(in) ? &n : NULL, e);
		break;
	case 4:
		s = caret_communication_intra(t, id, flag(in) ? &intra : NULL, e);
		break;
	case 5:
		s = caret_callback_chain(t, id, name(in, a, sizeof a),
			flag(in) ? (caret_chain_record **)&owned : NULL, flag(in) ? &n : NULL, e);
		break;
	case 6:
		s = caret_node_path_records(t, id, name(in, a, sizeof a), (caret_policy)any_int(in),
			flag(in) ? (caret_node_record **)&owned : NULL, flag(in) ? &n : NULL, e);
		break;
	default:
		s = caret_publisher_records(t, name(in, a, sizeof a), name(in, b, sizeof b),
			flag(in) ? (caret_message **)&owned : NULL, flag(in) ? &n : NULL, e);
		break;
	}
	if (e)
		checked(s, error);
	else if (s != CARET_ERR_INVALID)
		abort(); /* no error to give: refused */
	caret_free(owned);
}

static void iterate(struct input *in, caret_trace *t)
{
	caret_iter *it = flag(in) ? caret_callbacks(t) : caret_communications(t);
	caret_callback cb;
	caret_communication c;
	for (size_t steps = number(in); steps--;) {
		bool more = flag(in) ? caret_next_callback(it, flag(in) ? &cb : NULL) :
			caret_next_communication(it, flag(in) ? &c : NULL);
		if (!more)
			break;
	}
	caret_iter_free(it);
	caret_summary s;
	caret_trace_summary(t, flag(in) ? &s : NULL);
}

/* caret_open with fuzzed options (rare: it reads the trace again). */
static void open_again(struct input *in, const char *dir)
{
	static const double times[] = { NAN, 0, 0.5, 1, 1e300, -1, INFINITY, -INFINITY, 5e9, 1e10 };
	caret_open_options o = caret_open_defaults();
	o.reader = (caret_reader)any_int(in);
	o.since = times[byte(in) % 10];
	o.until = times[byte(in) % 10];
	o.strip_start = times[byte(in) % 10];
	o.strip_end = times[byte(in) % 10];
	o.lazy = flag(in);
	o.merge = flag(in);
	const char *paths[] = { dir, flag(in) ? dir : NULL };
	caret_trace *t = NULL;
	caret_error *error = NULL;
	caret_status s = caret_open(flag(in) ? paths : NULL, byte(in) % 3, flag(in) ? &o : NULL,
		flag(in) ? &t : NULL, &error);
	checked(s, error);
	caret_trace_free(t);
}

static char trace_dir[1024];

static void open_traces(void)
{
	const char *shared = getenv("CARET_SHARED_DIR");
	snprintf(trace_dir, sizeof trace_dir, "%s/data/real-humble/caret-fork-inter",
		shared ? shared : "../shared");
	const char *paths[] = { trace_dir };
	caret_open_options lazy = caret_open_defaults();
	lazy.lazy = true;
	caret_error *error = NULL;
	if (caret_open(paths, 1, NULL, &traces[0], &error) != CARET_OK ||
	    caret_open(paths, 1, &lazy, &traces[1], &error) != CARET_OK) {
		fprintf(stderr, "fuzz_api: cannot open %s: %s\n", trace_dir,
			caret_error_message(error));
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!traces[0])
		open_traces();
	struct input in = { data, data + size };
	for (int steps = 0; in.at < in.end && steps < 16; steps++) {
		uint8_t op = byte(&in);
		caret_trace *t = op & 0x80 ? NULL : traces[op >> 6 & 1];
		switch (op % 8) {
		case 0:
		case 1:
		case 2:
			records(&in, t, byte(&in));
			break;
		case 3:
			search(&in, traces[0]);
			break;
		case 4:
			follow_made(&in, t);
			break;
		case 5:
			iterate(&in, t);
			break;
		case 6:
			if (byte(&in) == 0x5a)
				open_again(&in, trace_dir);
			break;
		default:
			break;
		}
	}
	return 0;
}
