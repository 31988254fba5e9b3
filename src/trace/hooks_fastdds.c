/*
 * hooks_fastdds.c - Fast DDS writes (rmw_fastrtps_cpp), interposed: each
 * records dds_bind_addr_to_stamp(message address, source timestamp), as the
 * Cyclone DDS hooks do. Fast DDS takes the timestamp itself when a writer
 * adds the sample to its history and then calls
 * WriterHistory::set_fragments, through the PLT, on the publishing thread:
 * the hook reads the timestamp there. The message is the one the rmw
 * announced with rmw_publish just before writing it (the sample holds only
 * its serialized form).
 *
 * Nothing here needs Fast DDS at build or load time: the symbol is only
 * ever called by a process's libfastrtps. Fast DDS is loaded with the rmw
 * (RTLD_LOCAL, after main), so dlsym(RTLD_NEXT) does not see it: the
 * original is looked up in the library that called the hook. Every stamp
 * read is checked (source_stamp), so a Fast DDS laid out otherwise than
 * fastdds_abi.h says is reported, never recorded.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <string.h>

#include "fastdds_abi.h"
#include "merge.h"
#include "ros2_caret_tp.h"
#include "tracer.h"

typedef void (*set_fragments_fn)(void *history, void *change);

/* The hook, under the C++ name of CT_FASTDDS_SET_FRAGMENTS. */
CT_EXPORT void _ZN8eprosima8fastrtps4rtps13WriterHistory13set_fragmentsEPNS1_13CacheChange_tE(
	void *history, void *change);
#define HOOK _ZN8eprosima8fastrtps4rtps13WriterHistory13set_fragmentsEPNS1_13CacheChange_tE

static _Atomic(set_fragments_fn) original_set_fragments;
static atomic_bool looked_up;
static atomic_bool unreadable; /* a timestamp read did not check out */

/* CT_FASTDDS_SET_FRAGMENTS as the library at path defines it, or NULL
 * (also when that is ours: the scope of the main program's handle is the
 * global one, where the hook comes first). */
static set_fragments_fn defined_in(const char *path)
{
	void *library = dlopen(path, RTLD_LAZY | RTLD_NOLOAD);
	if (!library)
		return NULL;
	set_fragments_fn f = (set_fragments_fn)dlsym(library, CT_FASTDDS_SET_FRAGMENTS);
	dlclose(library); /* still loaded: it is calling us */
	return f == HOOK ? NULL : f;
}

static int find_in_fastrtps(struct dl_phdr_info *info, size_t size, void *found)
{
	(void)size;
	if (info->dlpi_name && strstr(info->dlpi_name, "fastrtps"))
		*(set_fragments_fn *)found = defined_in(info->dlpi_name);
	return *(set_fragments_fn *)found != NULL;
}

/* The definition in the library that called us; else in a loaded library
 * named like Fast DDS's (the caller may have jumped to us from a tail
 * call, its return address then another's); else the next one in the
 * global scope (an application that linked Fast DDS itself). */
static set_fragments_fn find_original(const void *caller)
{
	set_fragments_fn f = NULL;
	Dl_info info;
	if (dladdr(caller, &info) && info.dli_fname)
		f = defined_in(info.dli_fname);
	if (!f)
		dl_iterate_phdr(find_in_fastrtps, &f);
	if (!f) /* after ours: never the hook itself */
		f = (set_fragments_fn)dlsym(RTLD_NEXT, CT_FASTDDS_SET_FRAGMENTS);
	ct_debug("Fast DDS: set_fragments %s", f ? "found" : "not found");
	return f;
}

/* The sample's source timestamp in ns, or 0 when what is there is not an
 * rtps::Time_t (a Fast DDS whose CacheChange_t is laid out otherwise): its
 * ns and its fraction of a second, kept in step by Fast DDS, must agree. */
static uint64_t source_stamp(const void *change)
{
	struct ct_fastdds_time t;
	memcpy(&t, (const char *)change + CT_FASTDDS_CHANGE_SOURCE_TIMESTAMP, sizeof t);
	uint64_t from_fraction = ((uint64_t)t.fraction * 1000000000u) >> 32;
	if (t.seconds <= 0 || t.nanosec >= 1000000000u || from_fraction + 1 < t.nanosec ||
	    from_fraction > (uint64_t)t.nanosec + 1)
		return 0;
	return (uint64_t)t.seconds * 1000000000u + t.nanosec;
}

/* CacheChange_t::sequenceNumber: what rmw_fastrtps gives a request as
 * its sequence number. */
static int64_t sequence_number(const void *change)
{
	struct ct_fastdds_sequence_number n;
	memcpy(&n, (const char *)change + CT_FASTDDS_CHANGE_SEQUENCE_NUMBER, sizeof n);
	return (int64_t)n.high << 32 | n.low;
}

static bool user_writer(const void *change)
{
	uint8_t kind = ((const uint8_t *)change)[CT_FASTDDS_CHANGE_WRITER_KIND];
	return (kind & CT_FASTDDS_BUILTIN_ENTITY) == 0;
}

static void note_unreadable(const void *caller)
{
	if (atomic_exchange(&unreadable, true))
		return;
	char problem[300];
	Dl_info info;
	snprintf(problem, sizeof problem, "Fast DDS (%s) writes samples whose source "
		"timestamp the tracer cannot read (a layout other than Fast DDS 2.9's): "
		"this process's messages are matched by time",
		dladdr(caller, &info) && info.dli_fname ? info.dli_fname : "libfastrtps");
	ct_report_problem(problem);
}

CT_EXPORT void HOOK(void *history, void *change)
{
	CT_ENTER(e);
	set_fragments_fn original = atomic_load_explicit(&original_set_fragments,
		memory_order_acquire);
	const void *caller = __builtin_return_address(0);
	if (CT_UNLIKELY(!original && !atomic_load_explicit(&looked_up, memory_order_acquire))) {
		original = find_original(caller);
		atomic_store_explicit(&original_set_fragments, original, memory_order_release);
		atomic_store_explicit(&looked_up, true, memory_order_release);
	}
	if (ct_thread.service_write.kind != CT_SERVICE_WRITE_NONE && change &&
	    !ct_thread.in_control && user_writer(change)) {
		/* a service request or response (hooks_services.c), before it
		 * goes out: the sample's number and stamp are set already */
		if (ct_thread.service_write.kind == CT_SERVICE_WRITE_REQUEST)
			ct_service_write_request(sequence_number(change));
		else if (source_stamp(change))
			ct_service_write_response((int64_t)source_stamp(change));
	}
	if (original)
		original(history, change);
	if (ct_thread.service_write.kind == CT_SERVICE_WRITE_RESPONSE && change &&
	    !ct_thread.in_control && user_writer(change))
		ct_service_write_response((int64_t)source_stamp(change)); /* if not yet */
	const void *message = ct_thread.writing_message;
	if (message && change && !ct_thread.in_control && ct_thread.depth == 1 &&
	    ct_recording() && user_writer(change)) {
		ct_thread.writing_message = NULL;
		uint64_t stamp = source_stamp(change);
		if (!stamp)
			note_unreadable(caller);
		else if (ct_merge)
			ct_merge_bind(message, stamp);
		else
			lttng_ust_tracepoint(ros2_caret, dds_bind_addr_to_stamp, message, stamp);
		ct_thread.publish_allowed = true; /* the publish is over */
	}
	CT_LEAVE(e);
}
