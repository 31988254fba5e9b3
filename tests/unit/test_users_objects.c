/*
 * test_users_objects.c - what the report, the export and `caret check`
 * tell apart and how they name it: the services ROS 2 gives every node
 * against the user's (ca_service_name_is_ros2_own), a callback's symbol
 * shortened (ca_symbol_short), a service call's measures
 * (ca_service_call_measure, shared with `caret latency services`).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "ca.h"

static void ros2_own_services(void **state)
{
	(void)state;
	static const char *const own[] = { "/talker/describe_parameters",
		"/ns/talker/get_parameters", "/talker/get_parameter_types", "/talker/list_parameters",
		"/talker/set_parameters", "/talker/set_parameters_atomically",
		"/talker/get_type_description", "/lc/change_state", "/lc/get_state",
		"/lc/get_available_states", "/lc/get_available_transitions",
		"/lc/get_transition_graph", "/container/_container/load_node",
		"/container/_container/unload_node", "/container/_container/list_nodes" };
	for (size_t i = 0; i < sizeof own / sizeof *own; i++)
		assert_true(ca_service_name_is_ros2_own(own[i]));
	static const char *const users[] = { "/list_nodes", "/add_two_ints",
		"/fibonacci/_action/send_goal", "/fibonacci/_action/get_result",
		"/fibonacci/_action/cancel_goal", "/get_parameters_of_robot", "get_parameters" };
	for (size_t i = 0; i < sizeof users / sizeof *users; i++)
		assert_false(ca_service_name_is_ros2_own(users[i]));
	assert_false(ca_service_name_is_ros2_own(NULL));
}

static void symbols_shortened(void **state)
{
	(void)state;
	char buf[256];
	assert_string_equal(ca_symbol_short("(anonymous namespace)::Server::Server(real::Truth&, "
		"(anonymous namespace)::Calls&)::{lambda(std::shared_ptr<rmw_request_id_s>, "
		"std::shared_ptr<X<std::allocator<void> > >)#1}", buf, sizeof buf),
		"Server::Server(…)::{lambda(…)#1}");
	assert_string_equal(ca_symbol_short("Sensor::Sensor()::{lambda()#1}", buf, sizeof buf),
		"Sensor::Sensor()::{lambda()#1}");
	assert_string_equal(ca_symbol_short("std::_Bind<void (Filter::*(Filter*, "
		"std::_Placeholder<1>))(std::shared_ptr<std_msgs::msg::String_<std::allocator<void> > "
		"const>)>", buf, sizeof buf), "std::bind(&Filter::…)");
	assert_string_equal(ca_symbol_short("void (*)(int)", buf, sizeof buf), "void (…)(…)");
	assert_string_equal(ca_symbol_short(NULL, buf, sizeof buf), "");
	char small[8];
	assert_true(strlen(ca_symbol_short("Averyverylongname::f()", small, sizeof small)) < 8);
}

static void call_measures(void **state)
{
	(void)state;
	ca_service_call c = { .send_request = 100, .take_request = 130, .send_response = 190,
		.take_response = 250 };
	int64_t v;
	assert_true(ca_service_call_measure(&c, CA_CALL_REQUEST, &v));
	assert_int_equal(v, 30);
	assert_true(ca_service_call_measure(&c, CA_CALL_SERVICE, &v));
	assert_int_equal(v, 60);
	assert_true(ca_service_call_measure(&c, CA_CALL_RESPONSE, &v));
	assert_int_equal(v, 60);
	assert_true(ca_service_call_measure(&c, CA_CALL_ROUND_TRIP, &v));
	assert_int_equal(v, 150);
	c.take_response = 0; /* not taken in the trace */
	assert_false(ca_service_call_measure(&c, CA_CALL_ROUND_TRIP, &v));
	assert_string_equal(ca_call_measure_name(CA_CALL_ROUND_TRIP), "round_trip");
	ca_service_call calls[2] = { { .send_request = 10, .take_response = 20 },
		{ .send_request = 30, .take_response = 90 } };
	ca_action_goal g = { .send_goal = 0, .get_result = 1 };
	assert_true(ca_action_goal_measure(calls, &g, CA_GOAL_TO_RESULT, &v));
	assert_int_equal(v, 80);
	g.get_result = CA_NONE;
	assert_false(ca_action_goal_measure(calls, &g, CA_GOAL_RESULT, &v));
	assert_string_equal(ca_goal_measure_name(CA_GOAL_TO_RESULT), "goal_to_result");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ros2_own_services),
		cmocka_unit_test(symbols_shortened),
		cmocka_unit_test(call_measures),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
