/*
 * test_path_follower - the one path follower (records/follow.c) told facts
 * by hand: in time order as the streamed joins tell them, and in any order
 * as path/latency.c tells the records' arrays (the same messages either
 * way); a node twice in a path; facts at one nanosecond; a link (tf, a
 * service) that arrives and one that does not, and one into a run whose
 * answer left before; inherit_unique_stamp; use_latest_message's newer
 * input; one input feeding every output while it is the latest
 * (use_latest_message) or its next only (consume_latest_message); and one
 * message taken by two runs that began at one nanosecond.
 */
#include <stdarg.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "followed.h"
#include "records.h"

/* Nodes /a /b /c; callbacks 0 and 2 of /a, 1 of /b, 3 of /c. */
static const char *const node_names[] = { "/a", "/b", "/c" };
static const size_t node_of_callback[] = { 0, 1, 0, 2 };
/* Topics, compared as the model interned them: by pointer. */
static const char X[] = "/x", Y[] = "/y", Z[] = "/z";

static struct ca_model *model(void)
{
	struct ca_model *m = calloc(1, sizeof *m);
	m->nodes = calloc(3, sizeof *m->nodes);
	m->callbacks = calloc(4, sizeof *m->callbacks);
	m->n_nodes = 3;
	m->n_callbacks = 4;
	for (size_t i = 0; i < 3; i++)
		m->nodes[i].fqn = node_names[i];
	for (size_t c = 0; c < 4; c++)
		m->callbacks[c].node = node_of_callback[c];
	return m;
}

static void free_model(struct ca_model *m)
{
	free(m->nodes);
	free(m->callbacks);
	free(m);
}

/* The fact kinds a test tells, so that they can be told in any order. */
enum kind { PUB, DELIVER, END, LINK };

struct told {
	enum kind kind;
	uint64_t time;   /* PUB: publish; END: the end; LINK: the send */
	uint64_t run;    /* its number */
	size_t callback; /* the run's */
	uint64_t start;  /* the run's start */
	const char *topic;
	uint64_t ref;    /* DELIVER: the publish (its order among PUBs, from 1) */
	uint64_t header;
	size_t hop;      /* LINK */
	struct ca_follow_link to;
};

/* A publish at t of run (callback, start) on topic; its delivery to run
 * (callback, start) of publish ref (in the order of the P's, from 1), with
 * a header stamp; a run's end at t; a link of hop from run (callback,
 * start) sent at t, arrived in run `to` at entry (0: none), its end. */
#define P(t, run_, cb, start_, topic_) \
	{ .kind = PUB, .time = t, .run = run_, .callback = cb, .start = start_, .topic = topic_ }
#define D(run_, cb, start_, topic_, ref_, header_) \
	{ .kind = DELIVER, .time = start_, .run = run_, .callback = cb, .start = start_, \
	  .topic = topic_, .ref = ref_, .header = header_ }
#define E(t, run_, cb, start_) \
	{ .kind = END, .time = t, .run = run_, .callback = cb, .start = start_ }
#define L(t, run_, cb, start_, hop_, to_run, entry, end) \
	{ .kind = LINK, .time = t, .run = run_, .callback = cb, .start = start_, .hop = hop_, \
	  .to = { to_run, entry, end } }

/* Tells the publishes in the order given (their references), then the
 * facts in `order` (indexes into facts; NULL: as given, settling as it
 * goes, the streamed way). */
static ca_path_latency *tell(const ca_path *path, const uint8_t *kinds, const struct told *facts,
	size_t n, const size_t *order)
{
	struct ca_model *m = model();
	struct ca_follow *f = ca_follow_new(m, path, kinds);
	assert_non_null(f);
	if (order)
		ca_follow_unordered(f);
	for (size_t i = 0; i < n; i++)
		if (facts[i].kind == PUB)
			assert_true(ca_follow_note_publish(f, facts[i].time, facts[i].run) != 0);
	for (size_t j = 0; j < n; j++) {
		const struct told *x = &facts[order ? order[j] : j];
		struct ca_stream_run run = { x->start, x->callback, 0, x->run };
		switch (x->kind) {
		case PUB:
			assert_true(ca_follow_output(f, x->time, &run, x->topic));
			break;
		case DELIVER:
			assert_true(ca_follow_deliver(f, &run, x->topic, x->ref, x->header, false));
			break;
		case END:
			assert_true(ca_follow_end(f, &run, x->time));
			break;
		case LINK:
			assert_true(ca_follow_link(f, x->hop, x->time, &run, &x->to));
			break;
		}
		if (!order)
			assert_true(ca_follow_settle(f, x->time));
	}
	ca_path_latency *l = ca_follow_finish(f);
	ca_follow_free(f);
	free_model(m);
	assert_non_null(l);
	return l;
}

/* Told in time order and backwards: the same messages. */
static ca_path_latency *tell_both_ways(const ca_path *path, const uint8_t *kinds,
	const struct told *facts, size_t n)
{
	size_t *backwards = malloc(n * sizeof *backwards);
	for (size_t i = 0; i < n; i++)
		backwards[i] = n - 1 - i;
	ca_path_latency *in_order = tell(path, kinds, facts, n, NULL);
	ca_path_latency *any = tell(path, kinds, facts, n, backwards);
	free(backwards);
	const ca_path_message *a, *b;
	const int64_t *ha, *hb;
	size_t na = ca_path_latency_messages(in_order, &a, &ha);
	assert_int_equal(na, ca_path_latency_messages(any, &b, &hb));
	assert_memory_equal(a, b, na * sizeof *a);
	assert_memory_equal(ha, hb, na * ca_path_latency_hop_count(any) * sizeof *ha);
	ca_path_latency_free(any);
	return in_order;
}

static void expect(const ca_path_latency *l, size_t i, ca_path_message want, const int64_t *hops)
{
	const ca_path_message *m;
	const int64_t *h;
	size_t n = ca_path_latency_messages(l, &m, &h), k = ca_path_latency_hop_count(l);
	assert_true(i < n);
	assert_int_equal(m[i].callback_start, want.callback_start);
	assert_int_equal(m[i].publish, want.publish);
	assert_int_equal(m[i].last_start, want.last_start);
	assert_int_equal(m[i].last_end, want.last_end);
	for (size_t j = 0; j < k; j++)
		assert_int_equal(h[i * k + j], hops[j]);
}

/* /a -[/x]-> /b -[/y]-> /c, /b under the policy given. */
struct abc {
	const char *nodes[3], *topics[2];
	ca_node_policy policies[3];
};

static ca_path abc_path(struct abc *p, ca_node_policy middle)
{
	*p = (struct abc){ { node_names[0], node_names[1], node_names[2] }, { X, Y },
		{ CA_POLICY_CALLBACK_CHAIN, middle, CA_POLICY_CALLBACK_CHAIN } };
	return (ca_path){ 3, p->nodes, p->topics, p->policies };
}

/* /a -[/x]-> /b -[/y]-> /a -[/z]-> /c: /a twice, its callback 2 at index 2. */
static void test_node_twice(void **state)
{
	(void)state;
	const char *nodes[] = { node_names[0], node_names[1], node_names[0], node_names[2] };
	const char *topics[] = { X, Y, Z };
	ca_node_policy policies[4] = { CA_POLICY_CALLBACK_CHAIN, CA_POLICY_CALLBACK_CHAIN,
		CA_POLICY_CALLBACK_CHAIN, CA_POLICY_CALLBACK_CHAIN };
	ca_path path = { 4, nodes, topics, policies };
	const struct told facts[] = {
		P(110, 1, 0, 100, X),
		E(120, 1, 0, 100),
		D(2, 1, 200, X, 1, 0),
		P(210, 2, 1, 200, Y),
		D(3, 2, 300, Y, 2, 0),
		P(310, 3, 2, 300, Z),
		D(4, 3, 400, Z, 3, 0),
		E(450, 4, 3, 400),
	};
	ca_path_latency *l = tell_both_ways(&path, NULL, facts, 8);
	assert_int_equal(ca_path_latency_hop_count(l), 7);
	expect(l, 0, (ca_path_message){ 100, 110, 400, 450 },
		(int64_t[]){ 10, 90, 10, 90, 10, 90, 50 });
	ca_path_latency_free(l);
}

/* Every fact of a message at one nanosecond: it still gets through, each
 * step after the one it needs. */
static void test_one_nanosecond(void **state)
{
	(void)state;
	struct abc abc;
	const ca_path path = abc_path(&abc, CA_POLICY_USE_LATEST_MESSAGE);
	const struct told facts[] = {
		E(100, 3, 3, 100),
		D(3, 3, 100, Y, 1, 0),
		P(100, 2, 1, 100, Y),
		D(2, 1, 100, X, 2, 0),
		P(100, 1, 0, 100, X),
	};
	/* told backwards here; tell_both_ways tells them forwards too, where
	 * a time-ordered teller would never put them: the unordered way must
	 * give the causal order */
	size_t order[] = { 0, 1, 2, 3, 4 };
	ca_path_latency *l = tell(&path, NULL, facts, 5, order);
	expect(l, 0, (ca_path_message){ 100, 100, 100, 100 }, (int64_t[]){ 0, 0, 0, 0, 0 });
	ca_path_latency_free(l);
}

/* /a -[tf]-> /b: a link from run 1 arrives in run 2 at its lookup; run
 * 3's link arrives nowhere (lost, its send still its publish). */
static void test_links(void **state)
{
	(void)state;
	const char *nodes[] = { node_names[0], node_names[1] };
	const char *topics[] = { "tf:odom->base_link" };
	ca_node_policy policies[2] = { CA_POLICY_CALLBACK_CHAIN, CA_POLICY_CALLBACK_CHAIN };
	ca_path path = { 2, nodes, topics, policies };
	uint8_t kinds[] = { CA_FOLLOW_LINK };
	const struct told facts[] = {
		L(150, 1, 0, 100, 1, 2, 170, 190),
		E(160, 1, 0, 100),
		L(350, 3, 2, 300, 1, 0, 0, 0),
	};
	ca_path_latency *l = tell_both_ways(&path, kinds, facts, 3);
	const ca_path_message *m;
	assert_int_equal(ca_path_latency_messages(l, &m, NULL), 2);
	expect(l, 0, (ca_path_message){ 100, 150, 170, 190 }, (int64_t[]){ 50, 20, 20 });
	expect(l, 1, (ca_path_message){ 300, 350, 0, 0 },
		(int64_t[]){ CA_HOP_NONE, CA_HOP_NONE, CA_HOP_NONE });
	ca_path_latency_free(l);
}

/* A request reaches /b's run 2, which began before it was sent and
 * answered before: the message still goes on with that answer, as the
 * records' walk takes it (the facts of a link known only in any order). */
static void test_link_after_the_answer(void **state)
{
	(void)state;
	const char *nodes[] = { node_names[0], node_names[1], node_names[2] };
	const char *topics[] = { "request:/s", "response:/s" };
	ca_node_policy policies[3] = { CA_POLICY_CALLBACK_CHAIN, CA_POLICY_CALLBACK_CHAIN,
		CA_POLICY_CALLBACK_CHAIN };
	ca_path path = { 3, nodes, topics, policies };
	uint8_t kinds[] = { CA_FOLLOW_LINK_SINCE_ENTRY, CA_FOLLOW_LINK_SINCE_ENTRY };
	const struct told facts[] = {
		L(300, 1, 0, 250, 1, 2, 100, 0),
		L(200, 2, 1, 100, 2, 3, 400, 450),
	};
	size_t order[] = { 1, 0 };
	ca_path_latency *l = tell(&path, kinds, facts, 2, order);
	expect(l, 0, (ca_path_message){ 250, 300, 400, 450 }, (int64_t[]){ 50, -200, 100, 200, 50 });
	ca_path_latency_free(l);
}

/* /b inherits stamps: of its two outputs, the one carrying its input's
 * header stamp goes on, though the other was delivered first. */
static void test_inherit_unique_stamp(void **state)
{
	(void)state;
	struct abc abc;
	const ca_path path = abc_path(&abc, CA_POLICY_INHERIT_UNIQUE_STAMP);
	const struct told facts[] = {
		P(110, 1, 0, 100, X),
		D(2, 1, 200, X, 1, 7),
		P(210, 2, 1, 200, Y),
		P(220, 2, 1, 200, Y),
		D(4, 3, 300, Y, 2, 9),
		D(5, 3, 320, Y, 3, 7),
		E(330, 5, 3, 320),
	};
	ca_path_latency *l = tell_both_ways(&path, NULL, facts, 7);
	expect(l, 0, (ca_path_message){ 100, 110, 320, 330 },
		(int64_t[]){ 10, 90, 20, 100, 10 });
	ca_path_latency_free(l);
}

/* /b uses its latest message: the input of run 2 is superseded by run 4's
 * before /b's output, which carries run 4's on. */
static void test_newer_input(void **state)
{
	(void)state;
	struct abc abc;
	const ca_path path = abc_path(&abc, CA_POLICY_USE_LATEST_MESSAGE);
	const struct told facts[] = {
		P(110, 1, 0, 100, X),
		D(2, 1, 200, X, 1, 0),
		P(250, 3, 2, 240, X),
		D(4, 1, 260, X, 2, 0),
		P(300, 5, 1, 290, Y),
		D(6, 3, 400, Y, 3, 0),
	};
	ca_path_latency *l = tell_both_ways(&path, NULL, facts, 6);
	const ca_path_message *m;
	assert_int_equal(ca_path_latency_messages(l, &m, NULL), 2);
	expect(l, 0, (ca_path_message){ 100, 110, 0, 0 },
		(int64_t[]){ 10, 90, CA_HOP_NONE, CA_HOP_NONE, CA_HOP_NONE });
	expect(l, 1, (ca_path_message){ 240, 250, 400, 0 },
		(int64_t[]){ 10, 10, 40, 100, CA_HOP_NONE });
	ca_path_latency_free(l);
}

/* /b publishes from runs of its own (a timer's): message 0's input feeds
 * both outputs made while it is /b's latest, message 1's is lost on /y,
 * message 2's input is superseded before /b's next output, message 3's
 * reaches /c. use_latest_message (the original's left join): a message a
 * row per output it fed; consume_latest_message: its first output only. */
static const struct told every_output_facts[] = {
	P(110, 1, 0, 100, X),
	D(2, 1, 200, X, 1, 0),
	P(250, 3, 1, 240, Y),
	P(270, 4, 1, 260, Y),
	D(5, 3, 300, Y, 2, 0),
	E(310, 5, 3, 300),
	D(6, 3, 320, Y, 3, 0),
	E(330, 6, 3, 320),
	P(400, 7, 0, 390, X),
	D(8, 1, 420, X, 4, 0),
	P(450, 9, 1, 440, Y),
	P(500, 10, 0, 490, X),
	D(11, 1, 520, X, 6, 0),
	P(530, 12, 0, 525, X),
	D(13, 1, 540, X, 7, 0),
	P(560, 14, 1, 555, Y),
	D(15, 3, 600, Y, 8, 0),
	E(610, 15, 3, 600),
};

static void expect_every_output_tail(const ca_path_latency *l, size_t i)
{
	expect(l, i, (ca_path_message){ 390, 400, 0, 0 },
		(int64_t[]){ 10, 20, 30, CA_HOP_NONE, CA_HOP_NONE });
	expect(l, i + 1, (ca_path_message){ 490, 500, 0, 0 },
		(int64_t[]){ 10, 20, CA_HOP_NONE, CA_HOP_NONE, CA_HOP_NONE });
	expect(l, i + 2, (ca_path_message){ 525, 530, 600, 610 },
		(int64_t[]){ 5, 10, 20, 40, 10 });
}

static void test_every_output(void **state)
{
	(void)state;
	struct abc abc;
	const ca_path path = abc_path(&abc, CA_POLICY_USE_LATEST_MESSAGE);
	size_t n = sizeof every_output_facts / sizeof *every_output_facts;
	ca_path_latency *l = tell_both_ways(&path, NULL, every_output_facts, n);
	const ca_path_message *m;
	assert_int_equal(ca_path_latency_messages(l, &m, NULL), 5);
	expect(l, 0, (ca_path_message){ 100, 110, 300, 310 }, (int64_t[]){ 10, 90, 50, 50, 10 });
	expect(l, 1, (ca_path_message){ 100, 110, 320, 330 }, (int64_t[]){ 10, 90, 70, 50, 10 });
	expect_every_output_tail(l, 2);
	ca_path_latency_free(l);
}

static void test_next_output_only(void **state)
{
	(void)state;
	struct abc abc;
	const ca_path path = abc_path(&abc, CA_POLICY_CONSUME_LATEST_MESSAGE);
	size_t n = sizeof every_output_facts / sizeof *every_output_facts;
	ca_path_latency *l = tell_both_ways(&path, NULL, every_output_facts, n);
	const ca_path_message *m;
	assert_int_equal(ca_path_latency_messages(l, &m, NULL), 4);
	expect(l, 0, (ca_path_message){ 100, 110, 300, 310 }, (int64_t[]){ 10, 90, 50, 50, 10 });
	expect_every_output_tail(l, 1);
	ca_path_latency_free(l);
}

/* /b -[/x]-> /a, /a's two subscriptions (callbacks 0 and 2, two threads)
 * taking one message in runs that began at one nanosecond: the first
 * callback's run takes it on, whichever was told first (a merged trace
 * tells a run at its end: the one that ended first), streamed or not. */
static void test_two_runs_at_one_nanosecond(void **state)
{
	(void)state;
	const char *nodes[] = { node_names[1], node_names[0] };
	const char *topics[] = { X };
	ca_node_policy policies[2] = { CA_POLICY_CALLBACK_CHAIN, CA_POLICY_CALLBACK_CHAIN };
	ca_path path = { 2, nodes, topics, policies };
	struct told facts[] = {
		P(110, 1, 1, 100, X),
		E(120, 1, 1, 100),
		D(3, 2, 200, X, 1, 0), /* the later callback's told first */
		D(2, 0, 200, X, 1, 0),
		E(300, 3, 2, 200),
		E(350, 2, 0, 200),
	};
	for (int k = 0; k < 2; k++) {
		ca_path_latency *l = tell_both_ways(&path, NULL, facts, 6);
		expect(l, 0, (ca_path_message){ 100, 110, 200, 350 }, (int64_t[]){ 10, 90, 150 });
		ca_path_latency_free(l);
		struct told first = facts[2]; /* then the first callback's told first */
		facts[2] = facts[3];
		facts[3] = first;
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_node_twice),
		cmocka_unit_test(test_one_nanosecond),
		cmocka_unit_test(test_links),
		cmocka_unit_test(test_link_after_the_answer),
		cmocka_unit_test(test_inherit_unique_stamp),
		cmocka_unit_test(test_newer_input),
		cmocka_unit_test(test_every_output),
		cmocka_unit_test(test_next_output_only),
		cmocka_unit_test(test_two_runs_at_one_nanosecond),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
