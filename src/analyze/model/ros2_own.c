/*
 * ros2_own.c - what ROS 2 gives every node, told from what the user made:
 * the services rclcpp, rclcpp_lifecycle and rclcpp_components create on
 * their own (ca.h, ca_service_name_is_ros2_own), and so which callbacks,
 * services and clients belong to the user's system. The original's
 * architecture leaves every service out (the objects' hidden flags); the
 * report, the export and `caret check` show the user's.
 */
#include <string.h>

#include "ca.h"

/* The last components of the services ROS 2 creates for a node ("~/..."):
 * rclcpp's parameter services (rclcpp/parameter_service_names.hpp),
 * Jazzy's type description service (rclcpp's node_type_descriptions),
 * rclcpp_lifecycle's state machine (rcl_lifecycle's com_interface) and the
 * component container's (rclcpp_components' ComponentManager). */
static const char *const ros2_services[] = {
	"/describe_parameters", "/get_parameters", "/get_parameter_types", "/list_parameters",
	"/set_parameters", "/set_parameters_atomically", "/get_type_description",
	"/change_state", "/get_state", "/get_available_states", "/get_available_transitions",
	"/get_transition_graph", "/_container/load_node", "/_container/unload_node",
	"/_container/list_nodes",
};

bool ca_service_name_is_ros2_own(const char *name)
{
	if (!name)
		return false;
	size_t len = strlen(name);
	for (size_t i = 0; i < sizeof ros2_services / sizeof *ros2_services; i++) {
		size_t k = strlen(ros2_services[i]);
		if (len > k && !strcmp(name + len - k, ros2_services[i]))
			return true;
	}
	return false;
}

/* A node the user made: not one of the tracer's (caret_trace_). */
static bool users_node(const ca_architecture *a, size_t node)
{
	return node == CA_NONE || !a->nodes[node].hidden;
}

bool ca_service_is_users(const ca_architecture *a, size_t service)
{
	return service != CA_NONE && users_node(a, a->services[service].node) &&
		!ca_service_name_is_ros2_own(a->services[service].name);
}

bool ca_client_is_users(const ca_architecture *a, size_t client)
{
	return client != CA_NONE && users_node(a, a->clients[client].node) &&
		!ca_service_name_is_ros2_own(a->clients[client].name);
}

bool ca_callback_is_users(const ca_architecture *a, size_t callback)
{
	if (callback == CA_NONE)
		return false;
	const ca_callback *c = &a->callbacks[callback];
	if (c->kind == CA_CALLBACK_SERVICE)
		return ca_service_is_users(a, c->owner);
	return !c->hidden;
}
