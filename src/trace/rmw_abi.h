/*
 * rmw_abi.h - what the service hooks read of rmw's types, without rmw's
 * headers (the tracer builds without ROS): a request's id and a take's
 * metadata, the same in Humble's rmw 6 and Jazzy's rmw 7, and the rmw
 * functions interposed. tests/unit/rmw_abi_probe.c checks them against
 * each real tree's headers.
 */
#ifndef CT_RMW_ABI_H
#define CT_RMW_ABI_H

#include <stdbool.h>
#include <stdint.h>

typedef int32_t ct_rmw_ret; /* rmw_ret_t; RMW_RET_OK is 0 */
#define CT_RMW_RET_OK 0
#define CT_RMW_REQUEST_GUID_LENGTH 16

/* rmw_request_id_t */
struct ct_rmw_request_id {
	uint8_t writer_guid[CT_RMW_REQUEST_GUID_LENGTH]; /* the client, as the service sees it */
	int64_t sequence_number;
};

/* rmw_service_info_t */
struct ct_rmw_service_info {
	int64_t source_timestamp;
	int64_t received_timestamp;
	struct ct_rmw_request_id request_id;
};

/* rmw_message_info_t's first members, the same in Humble's rmw 6 and
 * Jazzy's rmw 7 (the rest is not read). */
struct ct_rmw_message_info_head {
	int64_t source_timestamp;
	int64_t received_timestamp;
};

/* rmw_subscription_t's first member: which rmw made it. */
struct ct_rmw_subscription_head {
	const char *implementation_identifier;
};

/* rmw_gid_t, large enough for Humble's 24-byte data (Jazzy's is 16). */
struct ct_rmw_gid {
	const char *implementation_identifier;
	uint8_t data[24];
};

typedef ct_rmw_ret (*ct_rmw_send_request_fn)(const void *client, const void *ros_request,
	int64_t *sequence_id);
typedef ct_rmw_ret (*ct_rmw_take_request_fn)(const void *service,
	struct ct_rmw_service_info *request_header, void *ros_request, bool *taken);
typedef ct_rmw_ret (*ct_rmw_send_response_fn)(const void *service,
	struct ct_rmw_request_id *request_header, void *ros_response);
typedef ct_rmw_ret (*ct_rmw_take_response_fn)(const void *client,
	struct ct_rmw_service_info *request_header, void *ros_response, bool *taken);
typedef void *(*ct_rmw_create_client_fn)(const void *node, const void *type_support,
	const char *service_name, const void *qos_policies);
typedef ct_rmw_ret (*ct_rmw_take_with_info_fn)(const void *subscription, void *ros_message,
	bool *taken, struct ct_rmw_message_info_head *message_info, void *allocation);
/* rmw_create_subscription and rmw_destroy_subscription: the same in
 * Humble and Jazzy (the qos profile and the options are not read). */
typedef void *(*ct_rmw_create_subscription_fn)(const void *node, const void *type_support,
	const char *topic_name, const void *qos_policies, const void *subscription_options);
typedef ct_rmw_ret (*ct_rmw_destroy_subscription_fn)(void *node, void *subscription);
/* Iron and later (Jazzy); Humble has none. */
typedef ct_rmw_ret (*ct_rmw_get_gid_for_client_fn)(const void *client, struct ct_rmw_gid *gid);

/* The hooks (hooks_services.c), under rmw's names (not declared beside
 * rmw's own headers: the probe's). */
#ifndef CT_RMW_ABI_TYPES_ONLY
void *rmw_create_client(const void *node, const void *type_support, const char *service_name,
	const void *qos_policies);
ct_rmw_ret rmw_send_request(const void *client, const void *ros_request, int64_t *sequence_id);
ct_rmw_ret rmw_take_request(const void *service, struct ct_rmw_service_info *request_header,
	void *ros_request, bool *taken);
ct_rmw_ret rmw_send_response(const void *service, struct ct_rmw_request_id *request_header,
	void *ros_response);
ct_rmw_ret rmw_take_response(const void *client, struct ct_rmw_service_info *request_header,
	void *ros_response, bool *taken);
ct_rmw_ret rmw_take_with_info(const void *subscription, void *ros_message, bool *taken,
	struct ct_rmw_message_info_head *message_info, void *allocation);
void *rmw_create_subscription(const void *node, const void *type_support, const char *topic_name,
	const void *qos_policies, const void *subscription_options);
ct_rmw_ret rmw_destroy_subscription(void *node, void *subscription);
#endif

#endif
