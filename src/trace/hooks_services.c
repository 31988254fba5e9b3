/*
 * hooks_services.c - a service request and its response at the rmw,
 * interposed: rcl reaches rmw_send_request, rmw_take_request,
 * rmw_send_response, rmw_take_response and rmw_create_client through
 * librmw_implementation's forwarder, and a preloaded definition comes
 * before it (as for rmw_publish). Recorded as Kilted's ros2_tracing
 * records them from inside the rmw, in the ros2_caret provider (Humble
 * and Jazzy have no such tracepoints), with the same fields:
 *   rmw_client_init    the client and its gid (Jazzy's
 *                      rmw_get_gid_for_client; zeros on Humble, which has none)
 *   rmw_send_request   the client, the request, its sequence number
 *   rmw_take_request   the service, the request, the client's gid as the
 *                      service sees it, the sequence number, taken
 *   rmw_send_response  the same for the response, and its DDS source
 *                      timestamp (the DDS write hooks read it)
 * A send is recorded as its sample goes out (below).
 *   rmw_take_response  the client, the response, the sequence number, the
 *                      response's source timestamp, taken
 * A request is thus followed from the client's send to the service's take,
 * and a response from its send to the client's take by its timestamp.
 * On an ABI the tracer does not know (Kilted's tracetools records these
 * itself) every call is only forwarded.
 */
#define _GNU_SOURCE /* RTLD_DEFAULT */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "abi.h"
#include "active.h"
#include "original.h"
#include "record.h"
#include "rmw_abi.h"
#include "ros2_caret_tp.h"
#include "tracer.h"

/* Recorded: recording, a known ABI, not the tracer's own traffic, and not
 * inside a callback run the filters leave out. */
static bool recorded(bool reentered)
{
	return !reentered && ct_recording() && ct_active() && !ct_thread.in_control &&
	       !ct_in_run_left_out();
}

CT_EXPORT void *rmw_create_client(const void *node, const void *type_support,
	const char *service_name, const void *qos_policies)
{
	CT_ENTER(e);
	CT_ORIGINAL(ct_rmw_create_client_fn, "rmw_create_client");
	void *client = original ? original(node, type_support, service_name, qos_policies) : NULL;
	e = errno;
	if (client && !CT_REENTERED() && ct_active()) {
		struct ct_rmw_gid gid = { 0 };
		ct_rmw_get_gid_for_client_fn get_gid =
			(ct_rmw_get_gid_for_client_fn)ct_original_lookup("rmw_get_gid_for_client");
		if (!get_gid || get_gid(client, &gid) != CT_RMW_RET_OK)
			memset(gid.data, 0, sizeof gid.data);
		const union ct_value v[] = { { .u = (uint64_t)(uintptr_t)client },
			{ .s = (const char *)gid.data } };
		ct_record_initialization(CS_EV_ros2_caret_rmw_client_init, v, 2, ct_now());
	}
	CT_LEAVE(e);
	return client;
}

/* A send is recorded just before its sample goes out, by the DDS write
 * hook that sees it (Cyclone DDS: the request's sequence number is in the
 * header rmw_cyclonedds writes before the request; Fast DDS: the sample's
 * sequence number and source timestamp), so that its time is the send's
 * and not the end of the write (the taker may run first); else by the
 * rmw hook once the write is done. */
static void begin_write(int kind, const void *handle, const void *message,
	const uint8_t *client_gid, int64_t sequence_number, bool record)
{
	ct_thread.service_write = (struct ct_service_write){ kind, handle, message, client_gid,
		sequence_number, false, record, false, 0 };
}

/* Whether the number a DDS hook reads of a request is the one the rmw
 * then gives it: -1 not known yet (the first request tells, recorded or
 * not: a recording that begins later is exact from its first request; one
 * that tells is emitted after its write), 0 no (every request is), 1 yes. */
static atomic_int request_number_read = -1;

static void emit_request(struct ct_service_write *w, int64_t sequence_number)
{
	w->emitted = true;
	lttng_ust_tracepoint(ros2_caret, rmw_send_request, w->handle, w->message, sequence_number);
}

void ct_service_write_request(int64_t sequence_number)
{
	struct ct_service_write *w = &ct_thread.service_write;
	if (w->kind != CT_SERVICE_WRITE_REQUEST || w->emitted)
		return;
	if (atomic_load_explicit(&request_number_read, memory_order_relaxed) == 1) {
		if (w->record)
			emit_request(w, sequence_number);
	} else {
		w->seen = true;
		w->seen_number = sequence_number;
	}
}

void ct_service_write_response(int64_t source_timestamp)
{
	struct ct_service_write *w = &ct_thread.service_write;
	if (w->kind != CT_SERVICE_WRITE_RESPONSE || w->emitted)
		return;
	w->emitted = true;
	lttng_ust_tracepoint(ros2_caret, rmw_send_response, w->handle, w->message, w->client_gid,
		w->sequence_number, source_timestamp);
}

CT_EXPORT ct_rmw_ret rmw_send_request(const void *client, const void *ros_request,
	int64_t *sequence_id)
{
	CT_ENTER(e);
	CT_ORIGINAL(ct_rmw_send_request_fn, "rmw_send_request");
	bool record = sequence_id && recorded(CT_REENTERED());
	/* until a request told whether the DDS hook reads its number right,
	 * each one asks, recorded or not */
	bool probe = record || (sequence_id && !CT_REENTERED() && ct_active() &&
		!ct_thread.in_control &&
		atomic_load_explicit(&request_number_read, memory_order_relaxed) == -1);
	if (probe)
		begin_write(CT_SERVICE_WRITE_REQUEST, client, ros_request, NULL, 0, record);
	ct_rmw_ret rc = original ? original(client, ros_request, sequence_id) : 1;
	e = errno;
	struct ct_service_write *w = &ct_thread.service_write;
	if (probe && rc == CT_RMW_RET_OK && !w->emitted) { /* no DDS hook did */
		if (w->seen) {
			int expected = -1;
			atomic_compare_exchange_strong(&request_number_read, &expected,
				w->seen_number == *sequence_id);
		}
		if (record)
			emit_request(w, *sequence_id);
	}
	w->kind = CT_SERVICE_WRITE_NONE;
	CT_LEAVE(e);
	return rc;
}

CT_EXPORT ct_rmw_ret rmw_take_request(const void *service,
	struct ct_rmw_service_info *request_header, void *ros_request, bool *taken)
{
	CT_ENTER(e);
	CT_ORIGINAL(ct_rmw_take_request_fn, "rmw_take_request");
	ct_rmw_ret rc = original ? original(service, request_header, ros_request, taken) : 1;
	e = errno;
	if (rc == CT_RMW_RET_OK && request_header && taken && recorded(CT_REENTERED()))
		lttng_ust_tracepoint(ros2_caret, rmw_take_request, service, ros_request,
			request_header->request_id.writer_guid,
			request_header->request_id.sequence_number, *taken);
	CT_LEAVE(e);
	return rc;
}

CT_EXPORT ct_rmw_ret rmw_send_response(const void *service,
	struct ct_rmw_request_id *request_header, void *ros_response)
{
	CT_ENTER(e);
	CT_ORIGINAL(ct_rmw_send_response_fn, "rmw_send_response");
	bool record = request_header && recorded(CT_REENTERED());
	if (record)
		begin_write(CT_SERVICE_WRITE_RESPONSE, service, ros_response,
			request_header->writer_guid, request_header->sequence_number, true);
	ct_rmw_ret rc = original ? original(service, request_header, ros_response) : 1;
	e = errno;
	if (record && rc == CT_RMW_RET_OK)
		ct_service_write_response(0); /* no DDS hook saw it: no stamp */
	ct_thread.service_write.kind = CT_SERVICE_WRITE_NONE;
	CT_LEAVE(e);
	return rc;
}

CT_EXPORT ct_rmw_ret rmw_take_response(const void *client,
	struct ct_rmw_service_info *request_header, void *ros_response, bool *taken)
{
	CT_ENTER(e);
	CT_ORIGINAL(ct_rmw_take_response_fn, "rmw_take_response");
	ct_rmw_ret rc = original ? original(client, request_header, ros_response, taken) : 1;
	e = errno;
	if (rc == CT_RMW_RET_OK && request_header && taken && recorded(CT_REENTERED()))
		lttng_ust_tracepoint(ros2_caret, rmw_take_response, client, ros_response,
			request_header->request_id.sequence_number,
			request_header->source_timestamp, *taken);
	CT_LEAVE(e);
	return rc;
}
