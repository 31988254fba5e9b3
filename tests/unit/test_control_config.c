/*
 * test_control_config - the recorder's DDS domain configuration follows the
 * ROS 2 discovery settings of the environment as rmw_cyclonedds_cpp does on
 * Humble (ROS_LOCALHOST_ONLY) and Jazzy (ROS_AUTOMATIC_DISCOVERY_RANGE,
 * ROS_STATIC_PEERS), CYCLONEDDS_URI last.
 */
#include "control.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static int clear(void **state)
{
	(void)state;
	unsetenv("ROS_LOCALHOST_ONLY");
	unsetenv("ROS_AUTOMATIC_DISCOVERY_RANGE");
	unsetenv("ROS_STATIC_PEERS");
	unsetenv("CYCLONEDDS_URI");
	return 0;
}

static void expect_config_of(bool second_interface, const char *want)
{
	char *got = cc_domain_config(second_interface);
	assert_non_null(got);
	assert_string_equal(got, want);
	free(got);
}

static void expect_config(const char *want)
{
	expect_config_of(true, want);
}

#define DOMAIN(x) "<CycloneDDS><Domain>" x "</Domain></CycloneDDS>,"
#define INDEX "<ParticipantIndex>auto</ParticipantIndex><MaxAutoParticipantIndex>32</MaxAutoParticipantIndex>"

static void test_default_is_subnet(void **state)
{
	(void)state;
	assert_int_equal(cc_discovery_from_env(), CC_DISCOVERY_SUBNET);
	expect_config(DOMAIN("<Discovery>" INDEX "</Discovery>"));
	setenv("ROS_AUTOMATIC_DISCOVERY_RANGE", "", 1);
	assert_int_equal(cc_discovery_from_env(), CC_DISCOVERY_SUBNET);
}

static void test_subnet_static_peers_and_uri(void **state)
{
	(void)state;
	setenv("ROS_AUTOMATIC_DISCOVERY_RANGE", "SUBNET", 1);
	setenv("ROS_STATIC_PEERS", "10.0.0.2;;robot.local;", 1);
	setenv("CYCLONEDDS_URI", "file:///etc/cyclone.xml", 1);
	expect_config(DOMAIN("<Discovery>" INDEX "<Peers><Peer address=\"10.0.0.2\"/>"
		"<Peer address=\"robot.local\"/></Peers></Discovery>") "file:///etc/cyclone.xml");
}

static void test_localhost(void **state)
{
	(void)state;
	setenv("ROS_AUTOMATIC_DISCOVERY_RANGE", "LOCALHOST", 1);
	setenv("ROS_STATIC_PEERS", "192.168.1.5", 1);
	expect_config(DOMAIN("<General><Interfaces><NetworkInterface address=\"127.0.0.1\"/>"
		"<NetworkInterface autodetermine=\"true\"/></Interfaces>"
		"<AllowMulticast>false</AllowMulticast></General><Discovery>" INDEX
		"<Peers><Peer address=\"localhost\"/><Peer address=\"192.168.1.5\"/></Peers>"
		"</Discovery>"));
	/* loopback alone (a network namespace of its own) */
	expect_config_of(false, DOMAIN("<General><Interfaces><NetworkInterface address="
		"\"127.0.0.1\"/></Interfaces><AllowMulticast>false</AllowMulticast></General>"
		"<Discovery>" INDEX "<Peers><Peer address=\"localhost\"/><Peer address="
		"\"192.168.1.5\"/></Peers></Discovery>"));
	/* rcl takes a value it does not know for LOCALHOST */
	setenv("ROS_AUTOMATIC_DISCOVERY_RANGE", "localhost", 1);
	assert_int_equal(cc_discovery_from_env(), CC_DISCOVERY_LOCALHOST);
}

/* A URI comes last, after the localhost fragment. */
static void test_localhost_with_uri(void **state)
{
	(void)state;
	setenv("ROS_AUTOMATIC_DISCOVERY_RANGE", "LOCALHOST", 1);
	setenv("CYCLONEDDS_URI", "<CycloneDDS/>", 1);
	expect_config(DOMAIN("<General><AllowMulticast>false</AllowMulticast></General>"
		"<Discovery>" INDEX "<Peers><Peer address=\"localhost\"/></Peers></Discovery>")
		"<CycloneDDS/>");
}

/* Humble's switch, and Jazzy's deprecated one: localhost, no static peers,
 * whatever the range says. */
static void test_localhost_only(void **state)
{
	(void)state;
	setenv("ROS_LOCALHOST_ONLY", "1", 1);
	setenv("ROS_AUTOMATIC_DISCOVERY_RANGE", "SUBNET", 1);
	setenv("ROS_STATIC_PEERS", "10.0.0.2", 1);
	assert_int_equal(cc_discovery_from_env(), CC_DISCOVERY_LOCALHOST);
	expect_config(DOMAIN("<General><Interfaces><NetworkInterface address=\"127.0.0.1\"/>"
		"<NetworkInterface autodetermine=\"true\"/></Interfaces>"
		"<AllowMulticast>false</AllowMulticast></General><Discovery>" INDEX
		"<Peers><Peer address=\"localhost\"/></Peers></Discovery>"));
	setenv("ROS_LOCALHOST_ONLY", "0", 1);
	assert_int_equal(cc_discovery_from_env(), CC_DISCOVERY_SUBNET);
}

static void test_off_and_system_default(void **state)
{
	(void)state;
	setenv("ROS_AUTOMATIC_DISCOVERY_RANGE", "OFF", 1);
	assert_int_equal(cc_discovery_from_env(), CC_DISCOVERY_OFF);
	expect_config(DOMAIN("<General><AllowMulticast>false</AllowMulticast></General>"
		"<Discovery><ParticipantIndex>none</ParticipantIndex></Discovery>"));
	setenv("ROS_AUTOMATIC_DISCOVERY_RANGE", "SYSTEM_DEFAULT", 1);
	setenv("ROS_STATIC_PEERS", "10.0.0.2", 1); /* ignored, as rmw does */
	expect_config(DOMAIN(""));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_default_is_subnet, clear),
		cmocka_unit_test_setup(test_subnet_static_peers_and_uri, clear),
		cmocka_unit_test_setup(test_localhost, clear),
		cmocka_unit_test_setup(test_localhost_with_uri, clear),
		cmocka_unit_test_setup(test_localhost_only, clear),
		cmocka_unit_test_setup(test_off_and_system_default, clear),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
