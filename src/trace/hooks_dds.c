/*
 * hooks_dds.c - Cyclone DDS writes, interposed: each records
 * dds_bind_addr_to_stamp(message address, source timestamp), the timestamp
 * subscribers find in dds_sample_info_t. dds_write has none, so the hook
 * takes one (Cyclone's clock: CLOCK_REALTIME) and writes with dds_write_ts.
 * The tracer's own DDS traffic is never recorded.
 */
#include <string.h>

#include <dds/dds.h>
#include <dds/ddsi/ddsi_serdata.h>

#include "merge.h"
#include "original.h"
#include "ros2_caret_tp.h"
#include "tracer.h"

static dds_time_t wallclock(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (dds_time_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static bool recorded(void)
{
	return !ct_thread.in_control && ct_thread.depth == 1 && ct_recording() &&
	       ct_thread.publish_allowed;
}

/* A service request or response written in this thread
 * (hooks_services.c), emitted now, before the write: a request by the
 * sequence number of the header rmw_cyclonedds writes first
 * (cdds_request_header_t: the client's 64-bit id, then the number), a
 * response by the stamp it goes out with. */
static bool service_write(void)
{
	return ct_thread.service_write.kind != CT_SERVICE_WRITE_NONE && !ct_thread.in_control;
}

static void emit_service_write(const void *data, dds_time_t stamp)
{
	if (ct_thread.service_write.kind == CT_SERVICE_WRITE_REQUEST && data) {
		int64_t sequence_number;
		memcpy(&sequence_number, (const char *)data + sizeof(uint64_t), sizeof sequence_number);
		ct_service_write_request(sequence_number);
	} else if (ct_thread.service_write.kind == CT_SERVICE_WRITE_RESPONSE) {
		ct_service_write_response(stamp);
	}
}

static void record_bind(const void *message, dds_time_t stamp)
{
	if (ct_merge)
		ct_merge_bind(message, (uint64_t)stamp);
	else
		lttng_ust_tracepoint(ros2_caret, dds_bind_addr_to_stamp, message,
			(uint64_t)stamp);
}

CT_EXPORT dds_return_t dds_write_ts(dds_entity_t writer, const void *data,
	dds_time_t timestamp)
{
	CT_ENTER(e);
	CT_ORIGINAL(dds_return_t (*)(dds_entity_t, const void *, dds_time_t), "dds_write_ts");
	bool service = service_write();
	if (service)
		emit_service_write(data, timestamp);
	dds_return_t rc = original ? original(writer, data, timestamp) : DDS_RETCODE_ERROR;
	e = errno;
	if (!service && recorded())
		record_bind(data, timestamp);
	ct_thread.publish_allowed = true; /* the publish is over */
	CT_LEAVE(e);
	return rc;
}

CT_EXPORT dds_return_t dds_write(dds_entity_t writer, const void *data)
{
	CT_ENTER(e);
	dds_return_t rc;
	if (service_write()) {
		CT_ORIGINAL(dds_return_t (*)(dds_entity_t, const void *, dds_time_t),
			"dds_write_ts");
		dds_time_t stamp = wallclock();
		if (original)
			emit_service_write(data, stamp);
		rc = original ? original(writer, data, stamp) : DDS_RETCODE_ERROR;
		e = errno;
	} else if (recorded()) {
		CT_ORIGINAL(dds_return_t (*)(dds_entity_t, const void *, dds_time_t),
			"dds_write_ts");
		dds_time_t stamp = wallclock();
		rc = original ? original(writer, data, stamp) : DDS_RETCODE_ERROR;
		e = errno;
		if (original)
			record_bind(data, stamp);
	} else {
		CT_ORIGINAL(dds_return_t (*)(dds_entity_t, const void *), "dds_write");
		rc = original ? original(writer, data) : DDS_RETCODE_ERROR;
		e = errno;
	}
	ct_thread.publish_allowed = true; /* the publish is over */
	CT_LEAVE(e);
	return rc;
}

/* rmw_cyclonedds's serialized and loaned paths (Humble: dds_writecdr;
 * Jazzy: dds_forwardcdr): the caller stamps the serdata, and the serdata
 * belongs to Cyclone once written, so the stamp is read before. */
typedef dds_return_t (*write_serdata_fn)(dds_entity_t, struct ddsi_serdata *);

static dds_return_t write_serdata(dds_entity_t writer, struct ddsi_serdata *serdata,
	write_serdata_fn original)
{
	CT_ENTER(e);
	/* a serialized request's number is not readable: its rmw hook says it */
	if (service_write() && serdata &&
	    ct_thread.service_write.kind == CT_SERVICE_WRITE_RESPONSE)
		emit_service_write(NULL, serdata->timestamp.v);
	bool record = recorded() && serdata;
	dds_time_t stamp = record ? serdata->timestamp.v : 0;
	dds_return_t rc = original ? original(writer, serdata) : DDS_RETCODE_ERROR;
	e = errno;
	if (record)
		record_bind(serdata, stamp);
	ct_thread.publish_allowed = true; /* the publish is over */
	CT_LEAVE(e);
	return rc;
}

CT_EXPORT dds_return_t dds_writecdr(dds_entity_t writer, struct ddsi_serdata *serdata)
{
	CT_ORIGINAL(write_serdata_fn, "dds_writecdr");
	return write_serdata(writer, serdata, original);
}

CT_EXPORT dds_return_t dds_forwardcdr(dds_entity_t writer, struct ddsi_serdata *serdata)
{
	CT_ORIGINAL(write_serdata_fn, "dds_forwardcdr");
	return write_serdata(writer, serdata, original);
}
