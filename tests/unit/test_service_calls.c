/*
 * test_service_calls.c - ca_service_calls_*: requests followed to the
 * service and responses back to their client, in Kilted's events (ros2)
 * and the tracer's (ros2_caret) alike.
 */
#include <stdlib.h>

#include "trace_builder.h"

#define GID_A 0xa1a1
#define GID_B 0xb2b2

/* A server (pid 10, service /add: rmw 0x17) and clients in pids 20 and 30
 * (rmw handles 27 and 37), all of /add. */
static void system_of_services(void)
{
	ROW(ros2_rcl_node_init, 1, 10, "node_handle", U(0x10), "node_name", S("server"),
		"namespace", S("/"));
	ROW(ros2_rcl_service_init, 2, 10, "service_handle", U(0x15), "node_handle", U(0x10),
		"rmw_service_handle", U(0x17), "service_name", S("/add"));
	for (int32_t pid = 20; pid <= 30; pid += 10) {
		ROW(ros2_rcl_node_init, 1, pid, "node_handle", U(pid), "node_name",
			S(pid == 20 ? "a" : "b"), "namespace", S("/"));
		ROW(ros2_rcl_client_init, 2, pid, "client_handle", U(pid + 5), "node_handle", U(pid),
			"rmw_client_handle", U(pid + 7), "service_name", S("/add"));
	}
}

/* One call in the tracer's events: send at t, take +10, response +30,
 * its take +40 (stamp: the response's source timestamp). */
static void call(int32_t client_pid, uint64_t gid, int64_t seq, uint64_t t, uint64_t stamp)
{
	ROW(ros2_caret_rmw_send_request, t, client_pid, "rmw_client_handle", U(client_pid + 7),
		"request", U(0x900), "sequence_number", U(seq));
	ROW(ros2_caret_rmw_take_request, t + 10, 10, "rmw_service_handle", U(0x17), "request",
		U(0x901), "client_gid", U(gid), "sequence_number", U(seq), "taken", U(1));
	ROW(ros2_caret_rmw_send_response, t + 30, 10, "rmw_service_handle", U(0x17), "response",
		U(0x902), "client_gid", U(gid), "sequence_number", U(seq), "timestamp", U(stamp));
	ROW(ros2_caret_rmw_take_response, t + 40, client_pid, "rmw_client_handle",
		U(client_pid + 7), "response", U(0x903), "sequence_number", U(seq),
		"source_timestamp", U(stamp), "taken", U(1));
}

static size_t calls_of(const ca_service_call **out, ca_service_calls **x, uint64_t *not_sent)
{
	char err[256];
	*x = ca_service_calls_build(t, err, sizeof err);
	assert_non_null(*x);
	*not_sent = ca_service_calls_not_sent(*x);
	return ca_service_calls_get(*x, out);
}

static void test_one_client(void **state)
{
	(void)state;
	system_of_services();
	for (int64_t s = 1; s <= 3; s++)
		call(20, GID_A, s, 1000 * (uint64_t)s, 5000 + (uint64_t)s);
	const ca_architecture *a = build();
	const ca_service_call *c;
	ca_service_calls *x;
	uint64_t not_sent;
	assert_int_equal(calls_of(&c, &x, &not_sent), 3);
	for (size_t i = 0; i < 3; i++) {
		assert_string_equal(a->clients[c[i].client].name, "/add");
		assert_int_equal(c[i].client_pid, 20);
		assert_int_equal(c[i].service_pid, 10);
		assert_int_equal(c[i].sequence_number, (int64_t)i + 1);
		assert_int_equal(c[i].take_request - c[i].send_request, 10);
		assert_int_equal(c[i].send_response - c[i].take_request, 20);
		assert_int_equal(c[i].take_response - c[i].send_response, 10);
	}
	assert_int_equal(not_sent, 0);
	ca_service_calls_free(x);
}

/* Two clients count from 1 alike, and the server takes b's request
 * before a's: each request is told apart by the gid its client's
 * responses tell (by time alone, a would get b's take). */
static void request(int32_t pid, uint64_t sent, uint64_t gid, uint64_t taken, uint64_t stamp,
	uint64_t answered)
{
	ROW(ros2_caret_rmw_send_request, sent, pid, "rmw_client_handle", U(pid + 7), "request",
		U(0x900), "sequence_number", U(1));
	ROW(ros2_caret_rmw_take_request, taken, 10, "rmw_service_handle", U(0x17), "request",
		U(0x901), "client_gid", U(gid), "sequence_number", U(1), "taken", U(1));
	ROW(ros2_caret_rmw_send_response, taken + 5, 10, "rmw_service_handle", U(0x17), "response",
		U(0x902), "client_gid", U(gid), "sequence_number", U(1), "timestamp", U(stamp));
	ROW(ros2_caret_rmw_take_response, answered, pid, "rmw_client_handle", U(pid + 7),
		"response", U(0x903), "sequence_number", U(1), "source_timestamp", U(stamp),
		"taken", U(1));
}

static void test_two_clients_same_numbers(void **state)
{
	(void)state;
	system_of_services();
	request(20, 1000, GID_A, 1020, 7001, 1040); /* a: sent first, taken second */
	request(30, 1002, GID_B, 1004, 7002, 1030);
	const ca_architecture *a = build();
	const ca_service_call *c;
	ca_service_calls *x;
	uint64_t not_sent;
	assert_int_equal(calls_of(&c, &x, &not_sent), 2);
	assert_int_equal(c[0].client_pid, 20);
	assert_int_equal(a->clients[c[0].client].pid, 20);
	assert_int_equal(c[0].take_request, 1020);
	assert_int_equal(c[0].take_response, 1040);
	assert_int_equal(c[1].client_pid, 30);
	assert_int_equal(c[1].take_request, 1004);
	assert_int_equal(c[1].take_response, 1030);
	assert_int_equal(not_sent, 0);
	ca_service_calls_free(x);
}

/* Kilted's events (ros2), a response without a source timestamp, a take
 * of a request sent before the trace began, a call whose response the
 * trace does not show. */
static void test_kilted_events_and_gaps(void **state)
{
	(void)state;
	system_of_services();
	ROW(ros2_rmw_client_init, 3, 20, "rmw_client_handle", U(27), "gid", U(GID_A));
	ROW(ros2_rmw_take_request, 50, 10, "rmw_service_handle", U(0x17), "request", U(1),
		"client_gid", U(GID_A), "sequence_number", U(7), "taken", U(1));
	ROW(ros2_rmw_send_request, 100, 20, "rmw_client_handle", U(27), "request", U(2),
		"sequence_number", U(8));
	ROW(ros2_rmw_take_request, 110, 10, "rmw_service_handle", U(0x17), "request", U(3),
		"client_gid", U(GID_A), "sequence_number", U(8), "taken", U(1));
	ROW(ros2_rmw_send_response, 130, 10, "rmw_service_handle", U(0x17), "response", U(4),
		"client_gid", U(GID_A), "sequence_number", U(8), "timestamp", U(0));
	ROW(ros2_rmw_take_response, 140, 20, "rmw_client_handle", U(27), "response", U(5),
		"sequence_number", U(8), "source_timestamp", U(0), "taken", U(1));
	ROW(ros2_rmw_send_request, 200, 20, "rmw_client_handle", U(27), "request", U(6),
		"sequence_number", U(9));
	ROW(ros2_rmw_take_request, 210, 10, "rmw_service_handle", U(0x17), "request", U(7),
		"client_gid", U(GID_A), "sequence_number", U(9), "taken", U(1));
	/* not taken: never counted */
	ROW(ros2_rmw_take_request, 220, 10, "rmw_service_handle", U(0x17), "request", U(8),
		"client_gid", U(GID_A), "sequence_number", U(9), "taken", U(0));
	build();
	const ca_service_call *c;
	ca_service_calls *x;
	uint64_t not_sent;
	assert_int_equal(calls_of(&c, &x, &not_sent), 2);
	assert_int_equal(c[0].sequence_number, 8);
	assert_int_equal(c[0].take_request, 110);
	assert_int_equal(c[0].send_response, 130);
	assert_int_equal(c[0].take_response, 140);
	assert_int_equal(c[1].sequence_number, 9);
	assert_int_equal(c[1].take_request, 210);
	assert_int_equal(c[1].send_response, 0);
	assert_int_equal(c[1].take_response, 0);
	assert_int_equal(not_sent, 1); /* seq 7 */
	ca_service_calls_free(x);
}

/* ---- actions ------------------------------------------------------------ */

/* A call of client rmw handle `client` (pid 20) to service rmw handle
 * `service` (pid 10): sent at t, answered at t + 40. */
static void call_of(uint64_t client, uint64_t service, uint64_t gid, int64_t seq, uint64_t t)
{
	ROW(ros2_caret_rmw_send_request, t, 20, "rmw_client_handle", U(client), "request",
		U(0x900), "sequence_number", U(seq));
	ROW(ros2_caret_rmw_take_request, t + 10, 10, "rmw_service_handle", U(service), "request",
		U(0x901), "client_gid", U(gid), "sequence_number", U(seq), "taken", U(1));
	ROW(ros2_caret_rmw_send_response, t + 30, 10, "rmw_service_handle", U(service),
		"response", U(0x902), "client_gid", U(gid), "sequence_number", U(seq), "timestamp",
		U(t + 30));
	ROW(ros2_caret_rmw_take_response, t + 40, 20, "rmw_client_handle", U(client), "response",
		U(0x903), "sequence_number", U(seq), "source_timestamp", U(t + 30), "taken", U(1));
}

/* An action server (pid 10) and, in pid 20, node /c's action client and
 * node /d's get_result client of the same action: a goal's result is the
 * next get_result of the goal's own node once the goal was answered. */
static void test_action_goals(void **state)
{
	(void)state;
	static const char *const services[] = { "/lookup/_action/send_goal",
		"/lookup/_action/get_result" };
	ROW(ros2_rcl_node_init, 1, 10, "node_handle", U(0x10), "node_name", S("server"),
		"namespace", S("/"));
	for (uint64_t i = 0; i < 2; i++)
		ROW(ros2_rcl_service_init, 2, 10, "service_handle", U(0x15 + i), "node_handle",
			U(0x10), "rmw_service_handle", U(0x17 + i), "service_name", S(services[i]));
	ROW(ros2_rcl_node_init, 1, 20, "node_handle", U(0x20), "node_name", S("c"), "namespace",
		S("/"));
	ROW(ros2_rcl_node_init, 1, 20, "node_handle", U(0x30), "node_name", S("d"), "namespace",
		S("/"));
	for (uint64_t i = 0; i < 2; i++)
		ROW(ros2_rcl_client_init, 2, 20, "client_handle", U(0x25 + i), "node_handle", U(0x20),
			"rmw_client_handle", U(0x27 + i), "service_name", S(services[i]));
	ROW(ros2_rcl_client_init, 2, 20, "client_handle", U(0x35), "node_handle", U(0x30),
		"rmw_client_handle", U(0x37), "service_name", S(services[1]));
	call_of(0x27, 0x17, 0xa1, 1, 1000); /* goal 1, answered at 1040 */
	call_of(0x37, 0x18, 0xa3, 1, 1050); /* /d's: not goal 1's result */
	call_of(0x28, 0x18, 0xa2, 1, 1100); /* goal 1's result */
	call_of(0x27, 0x17, 0xa1, 2, 2000);
	call_of(0x28, 0x18, 0xa2, 2, 2100);
	call_of(0x27, 0x17, 0xa1, 3, 3000); /* no result in the trace */
	const ca_architecture *a = build();
	const ca_service_call *c;
	ca_service_calls *x;
	uint64_t not_sent;
	size_t n = calls_of(&c, &x, &not_sent);
	assert_int_equal(n, 6);
	ca_action_goal *g;
	assert_int_equal(ca_action_goals(a, c, n, &g), 3);
	for (size_t i = 0; i < 3; i++) {
		assert_int_equal(g[i].action_length, 7);
		assert_memory_equal(g[i].action, "/lookup", 7);
		assert_int_equal(c[g[i].send_goal].send_request, 1000 * (i + 1));
	}
	assert_int_equal(c[g[0].get_result].send_request, 1100);
	assert_int_equal(c[g[1].get_result].send_request, 2100);
	assert_int_equal(g[2].get_result, CA_NONE);
	free(g);
	ca_service_calls_free(x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_one_client, setup, teardown),
		cmocka_unit_test_setup_teardown(test_two_clients_same_numbers, setup, teardown),
		cmocka_unit_test_setup_teardown(test_kilted_events_and_gaps, setup, teardown),
		cmocka_unit_test_setup_teardown(test_action_goals, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
