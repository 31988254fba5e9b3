/*
 * fastdds_driver.c - drives the tracer's Fast DDS hook as rmw_fastrtps and
 * Fast DDS would (test_tracer_fastdds.sh): rcl_init, then publishes
 * announced with rmw_publish whose samples the fake Fast DDS adds. Prints
 * "bind MESSAGE STAMP" for each bind the tracer must record, then exits 0
 * if every sample reached the fake's own set_fragments.
 *
 *   1. message A, an application writer's sample: bound
 *   2. message B: first a discovery writer's sample (skipped), then its own
 *   3. a sample with no rmw_publish before it: not bound
 *   4. message D, its sample's timestamp garbled: not bound, the tracer
 *      reports that it cannot read Fast DDS's timestamps
 *   5. message E, bound (the hook still works after 4)
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "fastdds_abi.h"

/* Humble's tracetools, as the preloaded libcaret.so exports them. */
static void (*ros_trace_rcl_init)(const void *context_handle);
static void (*ros_trace_rmw_publish)(const void *message);

struct sample {
	unsigned char bytes[256] __attribute__((aligned(8)));
};

static struct sample make_sample(uint8_t writer_kind, uint64_t stamp_ns, int garble)
{
	struct sample s;
	memset(&s, 0, sizeof s);
	s.bytes[CT_FASTDDS_CHANGE_WRITER_KIND] = writer_kind;
	struct ct_fastdds_time t = { (int32_t)(stamp_ns / 1000000000u), 0,
		(uint32_t)(stamp_ns % 1000000000u) };
	/* the fraction Fast DDS keeps beside the ns (rounded up, as it does) */
	t.fraction = (uint32_t)((((uint64_t)t.nanosec << 32) + 999999999u) / 1000000000u);
	if (garble)
		t.fraction ^= 0x40000000u;
	memcpy(s.bytes + CT_FASTDDS_CHANGE_SOURCE_TIMESTAMP, &t, sizeof t);
	return s;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: fastdds_driver FAKE_FASTRTPS_LIBRARY\n");
		return 2;
	}
	void *fast = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	if (!fast) {
		fprintf(stderr, "%s\n", dlerror());
		return 2;
	}
	void (*add_sample)(void *) = (void (*)(void *))dlsym(fast, "fake_add_sample");
	int (*calls)(void) = (int (*)(void))dlsym(fast, "fake_set_fragments_calls");
	ros_trace_rcl_init = (void (*)(const void *))dlsym(RTLD_DEFAULT, "ros_trace_rcl_init");
	ros_trace_rmw_publish = (void (*)(const void *))dlsym(RTLD_DEFAULT,
		"ros_trace_rmw_publish");
	if (!add_sample || !calls || !ros_trace_rcl_init || !ros_trace_rmw_publish) {
		fprintf(stderr, "fastdds_driver: the fake Fast DDS or the tracer is missing\n");
		return 2;
	}
	int context;
	ros_trace_rcl_init(&context);

	static int message_a, message_b, message_d, message_e;
	const uint64_t base = 1795540271000000000u;
	struct sample s;

	ros_trace_rmw_publish(&message_a);
	s = make_sample(0x03, base + 123456789u, 0);
	add_sample(&s);
	printf("bind %p %" PRIu64 "\n", (void *)&message_a, base + 123456789u);

	ros_trace_rmw_publish(&message_b);
	s = make_sample(0xc2, base + 5000000u, 0); /* discovery's */
	add_sample(&s);
	s = make_sample(0x02, base + 999999999u, 0);
	add_sample(&s);
	printf("bind %p %" PRIu64 "\n", (void *)&message_b, base + 999999999u);

	s = make_sample(0x03, base + 7u, 0); /* nobody announced it */
	add_sample(&s);

	ros_trace_rmw_publish(&message_d);
	s = make_sample(0x03, base + 11u, 1);
	add_sample(&s);

	ros_trace_rmw_publish(&message_e);
	s = make_sample(0x03, base + 2000000001u, 0);
	add_sample(&s);
	printf("bind %p %" PRIu64 "\n", (void *)&message_e, base + 2000000001u);

	int n = calls();
	fprintf(stderr, "fastdds_driver: %d samples reached set_fragments\n", n);
	return n == 6 ? 0 : 1;
}
