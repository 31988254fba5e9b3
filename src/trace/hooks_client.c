/*
 * hooks_client.c - a service client's response callback as a run of its
 * own: rclcpp::Executor::execute_client(std::shared_ptr<ClientBase>), the
 * static member every executor but the EventsExecutor calls for a client
 * that has a response (through the PLT in Humble and Jazzy), takes the
 * response and runs the client's callback. Recorded as
 * client_callback_start/end; the rmw_take_response inside tells which
 * client (hooks_services.c). rclcpp's callback_start/end have no client
 * runs. Built with -fexceptions: a failed take throws through here, and
 * the run then has no end.
 */
#include <stdint.h>

#include "abi.h"
#include "active.h"
#include "original.h"
#include "ros2_caret_tp.h"
#include "tracer.h"

#define SYM_EXECUTE_CLIENT "_ZN6rclcpp8Executor14execute_clientESt10shared_ptrINS_10ClientBaseEE"

static bool recorded(void)
{
	return !ct_thread.in_control && ct_recording() && ct_active();
}

/* std::shared_ptr<ClientBase> by value arrives as a pointer to it: the
 * object's pointer first. */
void ct_execute_client(void *const *client) __asm__(SYM_EXECUTE_CLIENT) CT_EXPORT;
void ct_execute_client(void *const *client)
{
	int e = errno;
	CT_ORIGINAL(void (*)(void *const *), SYM_EXECUTE_CLIENT);
	const void *object = client ? client[0] : NULL;
	bool record = recorded();
	if (record)
		lttng_ust_tracepoint(ros2_caret, client_callback_start, object);
	errno = e;
	if (original)
		original(client);
	e = errno;
	if (record)
		lttng_ust_tracepoint(ros2_caret, client_callback_end, object);
	errno = e;
}
